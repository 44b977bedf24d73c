"""Several server processes on one site: which process runs each table, and reaching it from the others.

Each table is run by one process at a time, the one holding its lease in the store (``leases.py``). A
connection that lands on another process is served through the bus (``followers.py``): its requests go
to the owner, which answers with frames made for that connection's viewer (hidden cards are filtered
where the table is, as with a local connection) and sends them back to the connection's process. When an
owner dies its leases expire and another process takes the tables over from the store; the processes
holding followers of those tables join them again there. The lobby lines travel the same way
(``remote_lobby.py``). Each kind of bus message has one handler (``BusKind``, ``RedisSite.on_bus``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..features.limits import Buckets
from ..kinds import TableStatus
from ..logs import event_log, name_process
from ..protocol import ProtocolError, dumps
from ..told import Told
from .bus import SITE, BusKind, RedisBus
from .connection import Connection
from .followers import Followers
from .leases import LEASE_SECONDS, Leases
from .local import random_table_id
from .remote_lobby import RemoteLobby
from .resync import Resync

if TYPE_CHECKING:
    from ..room import Room
    from .config import Config
    from .local import Host

log = logging.getLogger("atout.server")

OnBus = Callable[[dict[str, Any]], Awaitable[Any] | None]
"""What a process does with one kind of bus message (``BusKind``)."""


class RedisSite:
    """This process's part of a site of several: its leases, its bus, the lobby lines of the others'
    tables, and the connections that follow tables across processes."""

    hub: Host

    def __init__(
        self,
        redis_url: str,
        config: Config,
        lease_seconds: float = LEASE_SECONDS,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.slot, self.slots = config.slot, config.slots
        self.process = secrets.token_hex(6) if self.slot is None else f"s{self.slot}-{secrets.token_hex(4)}"
        name_process(self.process)  # the log lines name this process as the site does
        self.bus = RedisBus(redis_url, self.process)
        self.leases = Leases(self, lease_seconds, wall)
        self.followers = Followers(self)
        self.lobby = RemoteLobby(self)
        self.resync = Resync(self)
        self.buckets = Buckets()  # people's and addresses' buckets while Redis does not answer
        self.buckets_away = 0  # spends this process counted alone, Redis not answering
        self._task: asyncio.Task[None] | None = None
        self._retry: asyncio.Task[None] | None = None
        self._handing: set[asyncio.Task[None]] = set()
        self.on_kind: dict[BusKind, OnBus] = {
            BusKind.FRAMES: self.followers.frames,
            BusKind.REQUEST: self.followers.request,
            BusKind.GONE: self.followers.gone,
            BusKind.UNDELIVERED: lambda body: self.followers.undelivered(body["body"]),
            BusKind.PROCESS_GONE: lambda body: self.process_gone(body["process"]),
            BusKind.SILENT: lambda body: self.resync.silent(body["process"]),
            BusKind.RESYNC: self.resync.heard,
            BusKind.FOLLOWING: self.resync.following,
            BusKind.OWNER: lambda body: self._owner_moved(body["table"], body["process"]),
            BusKind.LOBBY: self.lobby.heard,
            BusKind.LOBBY_SYNC: self._lobby_sync,
            BusKind.TAKE: lambda body: self.leases.take(body["table"]),  # a table handed back to this process
            BusKind.FRIENDS: self.lobby.friends_heard,
            BusKind.PLAYER: lambda body: self.hub.identity.tell_player(body["player"], body["message"], site=False),
            BusKind.SESSIONS_ENDED: lambda body: self.hub.sessions.close(body["player"], body["sessions"],
                                                                         body["why"], site=False),
            BusKind.HANDED_OVER: lambda body: self.hub.handover.handed_over(body["guest"], body["account"],
                                                                            body["name"]),
        }  # fmt: skip

    # ------------------------------------------------------------ life
    async def start(self, host: Host) -> None:
        self.hub = host
        await self.bus.start(self.on_bus, self.resync.own)
        # a process that starts late hears of the tables already open, and gets back its slot's tables
        self.bus.post(SITE, {"kind": BusKind.LOBBY_SYNC, "slot": self.slot})
        await self.leases.scan()  # the tables nobody runs (all of them at a first start) before opening
        self._task = asyncio.create_task(self.leases.run())
        self._retry = asyncio.create_task(self.resync.run())

    async def stop(self) -> None:
        for task in (self._task, self._retry):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self.resync.stop()
        for table_id, token in list(self.leases.tokens.items()):  # stopping cleanly: others may take over at once
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.hub.store.release_lease, table_id, self.process, token)
        self.bus.post(SITE, {"kind": BusKind.PROCESS_GONE, "process": self.process})
        await self.bus.stop()

    # ------------------------------------------------------------ tables and their leases
    def fence(self, table_id: str) -> tuple[str, int] | None:
        return self.leases.fence(table_id)

    def new_table_id(self) -> str:
        """Behind a proxy that routes by slot, a new table's id names this process's slot."""
        return random_table_id() if self.slot is None else f"{self.slot}-{random_table_id()}"

    def new_lease(self) -> tuple[str, float, float] | None:
        return self.leases.new_lease()

    def claimed(self, table_id: str, token: int | None) -> None:
        self.leases.claimed(table_id, token)

    async def lost(self, table_id: str, why: str) -> None:
        """This process no longer runs ``table_id`` (its lease went to another): stop it here; the
        connections here that followed it will join it where it runs now."""
        self.leases.forget(table_id)
        room = self.hub.lose(table_id)
        if room is None:
            return
        self.followers.follow_elsewhere(room)
        event_log(event="table_lost", table=table_id, why=why)

    async def release(self, room: Room) -> bool:
        """A closed table only, its lease going with it (not renewed, and given back now): an open one
        released would be nobody's, and the first scan would take it back."""
        if room.table.status != TableStatus.CLOSED:
            return False
        await self.leases.release(room.id)
        return True

    # ------------------------------------------------------------ reaching owners
    async def forward(self, conn: Connection, table_id: str, text: str | bytes, ref: str | None) -> None:
        """Send ``conn``'s request about a table another process runs to that process."""
        owner = await self.leases.owner(table_id)
        if owner is None:
            status = await asyncio.to_thread(self.hub.store.table_status, table_id)
            if status != "open":  # none, or closed (and released where it ran: its owner answered so before)
                raise ProtocolError("no_table", f"no open table {table_id!r}")
            raise ProtocolError("unavailable", "this table is moving to another server: try again in a few seconds")
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        self.followers.forward(conn, owner, table_id, text, ref)

    def closed(self, conn: Connection) -> None:
        self.followers.closed(conn)

    # ------------------------------------------------------------ the site
    def tables_for(self, conn: Connection) -> list[dict[str, Any]]:
        return self.lobby.tables_for(conn)

    def seated(self, player_ids: set[str]) -> dict[str, list[tuple[str, str, dict[str, Any] | None]]]:
        return self.lobby.seated(player_ids)

    def table_changed(self, room: Room) -> None:
        self.lobby.post(room)

    def guest(self, name: str, player_id: str, online: bool) -> None:
        self.bus.guest(name, player_id, online)

    async def guests(self, name: str) -> set[str]:
        return await self.bus.guests(name)

    async def take_guest_name(self, name: str, player_id: str) -> bool:
        return await self.bus.take_guest_name(name, player_id)

    def player(self, player_id: str, online: bool) -> None:
        self.bus.player(player_id, online)

    async def online(self, player_ids: set[str]) -> set[str]:
        return await self.bus.online(player_ids)

    def health(self) -> dict[str, Any]:
        return {
            "process": self.process,
            "bus": "up" if self.bus.up else "down",
            "bus_outages": self.bus.outages,
            "table_ids": sorted(self.hub.rooms),
            "takeovers": self.leases.takeovers,
            "resyncs": self.bus.resyncs,
        }

    def friends_changed(self, player_ids: tuple[str, ...]) -> None:
        """A friendship changed here: the other processes' caches forget it."""
        self.bus.post(SITE, {"kind": BusKind.FRIENDS, "players": list(player_ids)})
        self.lobby.show_private(player_ids)

    def tell_player(self, player_id: str, message: Told) -> None:
        self.bus.post(SITE, {"kind": BusKind.PLAYER, "player": player_id, "message": message})

    def sessions_ended(self, player_id: str, sessions: Sequence[str], why: str) -> None:
        self.bus.post(
            SITE, {"kind": BusKind.SESSIONS_ENDED, "player": player_id, "sessions": list(sessions), "why": why}
        )

    def handed_over(self, guest: str, account: str, name: str) -> None:
        self.bus.post(SITE, {"kind": BusKind.HANDED_OVER, "guest": guest, "account": account, "name": name})

    async def take(self, items: Sequence[tuple[str, int, float]], now: float) -> tuple[int, float] | None:
        """The site's buckets in Redis; while Redis does not answer, this process's own (each process
        then allows a person its whole budget: limits go on, looser, rather than stop everyone)."""
        try:
            return await self.bus.take(items, now)
        except Exception as err:
            if self.buckets_away % 1000 == 0:
                log.warning('{"event":"limits_local","error":%s}', dumps({"e": repr(err)}))
            self.buckets_away += 1
            return self.buckets.take_now(items, now)

    # ------------------------------------------------------------ the bus
    async def on_bus(self, body: dict[str, Any]) -> None:
        """One message from the bus, to the handler of its kind (a kind this process does not know, from
        a newer one, is let pass)."""
        try:
            kind = BusKind(str(body.get("kind")))
        except ValueError:
            return
        done = self.on_kind[kind](body)
        if done is not None:
            await done

    def _lobby_sync(self, body: dict[str, Any]) -> None:
        """Another process started: our lobby lines again, and a slot back from an outage gets its tables
        handed home."""
        for room in self.hub.rooms.values():
            if room.table.status != TableStatus.CLOSED:
                self.lobby.post(room)
        if body.get("slot") is not None and body["slot"] != self.slot:  # in the background: the bus goes on
            task = asyncio.create_task(self.leases.hand_home(body["slot"], body["from"]))
            self._handing.add(task)
            task.add_done_callback(self._handing.discard)

    async def process_gone(self, process: str) -> None:
        """Another process stopped (or stays silent): its connections' stand-ins here go; its tables'
        owner is unknown."""
        await self.followers.process_gone(process)
        self.leases.process_gone(process)

    async def _owner_moved(self, table_id: str, process: str) -> None:
        """A table found a new owner: this process's connections that followed it join it there."""
        self.leases.moved(table_id, process)
        if process == self.process:
            return
        if table_id in self.hub.rooms:  # we thought we ran it: we no longer do
            await self.lost(table_id, f"taken over by {process}")
        await self.followers.rejoin(table_id)


__all__ = ["LEASE_SECONDS", "RedisSite"]
