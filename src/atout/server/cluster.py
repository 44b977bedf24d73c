"""Several server processes on one site: which process runs each table, and reaching it from the others.

Each table is run by one process at a time, the one holding its lease in the store (a row with an
expiry and a fencing token: a process that lost its lease cannot write, because every write of a
table checks the token in its own transaction). A connection that lands on another process is served
through the bus: its requests go to the owner, which answers with frames made for that connection's
viewer (hidden cards are filtered where the table is, as with a local connection) and sends them back
to the connection's process. When an owner dies its leases expire and another process takes the
tables over from the store; the processes holding followers of those tables join them again there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from ..engine.kinds import TableStatus
from .bus import SITE, RedisBus, inbox
from .connection import Connection, Player, RemoteConnection
from .limits import Buckets
from .logs import event_log, name_process
from .protocol import ProtocolError, dumps
from .proxy import slot_of, successor
from .site import line_for, random_table_id
from .table import admitted

if TYPE_CHECKING:
    from .hub import Config
    from .room import Room
    from .site import Host

log = logging.getLogger("atout.server")

LEASE_SECONDS = 6.0
"""How long a lease lasts unless renewed (renewed every third of it): a dead owner's tables wait at
most this long, plus one scan, before another process takes them over."""
SCAN_SECONDS = 1.0
STANDBY_SECONDS = 3.0
HANDED_SECONDS = 30.0
"""A table this process handed home is its home's to take for this long; after it (its home gone
meanwhile), the next slot takes it as any table nobody runs. Without it, this process's own scan,
running each second, could take a released table back before the home heard it was its to take."""
"""How long a table whose process died waits for its slot's successor (where the proxy now sends its
people) before any other process takes it over."""


@dataclass(frozen=True)
class RemoteTable:
    """A table another process runs, as its last lobby line said: the summary, whom a private one
    admits (None: everyone), and the person at each seat (for their own ``you``, and presence)."""

    id: str
    summary: dict[str, Any]
    admit: dict[str, Any] | None
    people: list[str | None]


class RedisSite:
    """This process's part of a site of several: its leases, its bus, and the connections of other
    processes that follow its tables."""

    hub: Host

    def __init__(self, redis_url: str, config: Config, lease_seconds: float = LEASE_SECONDS,
                 wall=time.time) -> None:
        self.config = config
        self.slot, self.slots = config.slot, config.slots
        self.process = secrets.token_hex(6) if self.slot is None else f"s{self.slot}-{secrets.token_hex(4)}"
        name_process(self.process)  # the log lines name this process as the site does
        self.unowned_since: dict[str, float] = {}  # tables seen without an owner that another slot should take
        self.handed: dict[str, float] = {}  # tables handed home by this process, when: its home takes them first
        self.bus = RedisBus(redis_url, self.process)
        self.lease_seconds = lease_seconds
        self.wall = wall  # leases use wall-clock time: every process of the site must agree on it
        self.tokens: dict[str, int] = {}  # table -> fencing token, for the tables this process runs
        self.owners: dict[str, tuple[str, float]] = {}  # table -> (process, lease expiry), as last read
        self.remote: dict[tuple[str, str], Connection] = {}  # (process, connection id) -> its stand-in here
        self.local: dict[str, Connection] = {}  # connection id -> this process's connections
        # connection id -> {table: the last event number it heard}, for tables run elsewhere: to rejoin from
        self.heard: dict[str, dict[str, int]] = {}
        self.rejoining: set[tuple[str, str]] = set()  # (connection id, table): a rejoin's table message to come
        self.lobby: dict[str, RemoteTable] = {}  # the tables other processes run, as their lobby lines say
        self.takeovers = 0
        self.buckets = Buckets()  # people's and addresses' buckets while Redis does not answer
        self.buckets_away = 0  # spends this process counted alone, Redis not answering
        self._task: asyncio.Task | None = None
        self._handing: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ life
    async def start(self, host: Host) -> None:
        self.hub = host
        await self.bus.start(self.on_bus, self._bus_back)
        # a process that starts late hears of the tables already open, and gets back its slot's tables
        self.bus.post(SITE, {"kind": "lobby_sync", "slot": self.slot})
        await self._scan()  # the tables nobody runs (all of them at a first start) before opening
        self._task = asyncio.create_task(self._leases())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        for table_id, token in list(self.tokens.items()):  # stopping cleanly: others may take over at once
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.hub.store.release_lease, table_id, self.process, token)
        self.bus.post(SITE, {"kind": "process_gone", "process": self.process})
        await self.bus.stop()

    def fence(self, table_id: str) -> tuple[str, int] | None:
        token = self.tokens.get(table_id)
        return None if token is None else (self.process, token)

    def new_table_id(self) -> str:
        """Behind a proxy that routes by slot, a new table's id names this process's slot."""
        return random_table_id() if self.slot is None else f"{self.slot}-{random_table_id()}"

    def first_in_line(self, table_id: str) -> bool:
        """Whether this process takes an unowned table over at once: it is the table's slot, or the
        slot the proxy sends that slot's people to while it is down. Others wait STANDBY_SECONDS."""
        home = slot_of(table_id)
        if home is None or self.slot is None or not self.slots:
            return True
        return self.slot in (home, successor(home, self.slots))

    def new_lease(self) -> tuple[str, float, float] | None:
        """A new table is stored with this process's lease, in one transaction: stored first and leased
        after, another process's scan could see it unowned in between and take it over (its creator was
        then told to try again)."""
        return (self.process, self.wall(), self.lease_seconds)

    def claimed(self, table_id: str, token: int | None) -> None:
        assert token is not None  # new_lease gave one: the table was stored with it
        self.tokens[table_id] = token

    async def _leases(self) -> None:
        """Renew this process's leases; take over tables nobody runs any more."""
        renew_every = self.lease_seconds / 3
        last_renew = 0.0
        while True:
            await asyncio.sleep(SCAN_SECONDS * (0.75 + random.random() / 2))
            try:
                if time.monotonic() - last_renew >= renew_every:
                    lost = await asyncio.to_thread(self.hub.store.renew_leases, self.process, dict(self.tokens),
                                                   self.wall(), self.lease_seconds)
                    last_renew = time.monotonic()
                    for table_id in lost:
                        await self.lost(table_id, "lease lost")
                await self._scan()
            except asyncio.CancelledError:
                raise
            except Exception as err:  # the store unreachable: keep trying; writes say so meanwhile
                log.warning('{"event":"lease_loop_failed","error":%s}', dumps({"e": repr(err)}))

    async def _scan(self) -> None:
        unowned = await asyncio.to_thread(self.hub.store.unowned_tables, self.wall())
        now = time.monotonic()
        self.unowned_since = {t: self.unowned_since.get(t, now) for t in unowned}
        self.handed = {t: at for t, at in self.handed.items() if now - at < HANDED_SECONDS}
        for table_id in unowned:
            if table_id in self.hub.rooms:
                continue
            if not self.first_in_line(table_id) and now - self.unowned_since[table_id] < STANDBY_SECONDS:
                continue
            if now - self.handed.get(table_id, -HANDED_SECONDS) < HANDED_SECONDS:
                continue  # released for its home's process: this scan must not take it back before that one
            if await self._take(table_id):
                self.takeovers += 1

    async def _hand_home(self, slot: int, process: str) -> None:
        """Slot ``slot``'s process is back: the tables of that slot run here (taken over while it was
        down) go back to it, where the proxy sends their people again. Each in its table's turn: the
        lease released, the table dropped here, the home told to take it now, and the connections
        here that followed it closed, so that their pages reconnect through the proxy to the home."""
        for table_id in [t for t in self.hub.rooms if slot_of(t) == slot]:
            room = self.hub.rooms.get(table_id)
            token = self.tokens.get(table_id)
            if room is None or token is None:
                continue
            async with room.lock:
                if self.hub.rooms.get(table_id) is not room:
                    continue
                self.handed[table_id] = time.monotonic()
                await asyncio.to_thread(self.hub.store.release_lease, table_id, self.process, token)
                followers = [c for c in room.followers if not c.remote]
                await self.lost(table_id, f"handed back to slot {slot}")
            self.bus.post(inbox(process), {"kind": "take", "table": table_id})
            for conn in followers:
                self.local.pop(conn.id, None)
                conn.remote_tables.discard(table_id)
                conn.close_now()

    async def _take(self, table_id: str) -> bool:
        """Run a table nobody runs (its lease expired, or its owner released it for this process): its
        lease taken, the table loaded from the store, the site told, this process's followers rejoined.
        False if another process was quicker, or the table is closed or gone."""
        if table_id in self.hub.rooms:
            return False
        token = await asyncio.to_thread(self.hub.store.acquire_lease, table_id, self.process, self.wall(),
                                        self.lease_seconds)
        if token is None:
            return False  # another process was quicker: it runs it
        self.tokens[table_id] = token
        if not await self.hub.load_table(table_id):
            self.tokens.pop(table_id, None)
            return False
        self.owners[table_id] = (self.process, self.wall() + self.lease_seconds)
        self.bus.post(SITE, {"kind": "owner", "table": table_id, "process": self.process})
        await self._rejoin(table_id)
        return True

    async def lost(self, table_id: str, why: str) -> None:
        """This process no longer runs ``table_id`` (its lease went to another): stop it here; the
        connections here that followed it will join it where it runs now."""
        self.tokens.pop(table_id, None)
        self.owners.pop(table_id, None)
        room = self.hub.lose(table_id)
        if room is None:
            return
        told = room.history[-1]["seq"] if room.history else None  # the last event stored, so told here
        for conn in list(room.followers):
            if not conn.remote:  # a connection of this process: it follows the table elsewhere now
                conn.remote_tables.add(table_id)
                self.local[conn.id] = conn
                if told is not None:
                    self.heard.setdefault(conn.id, {})[table_id] = told
        event_log(event="table_lost", table=table_id, why=why)

    # ------------------------------------------------------------ reaching owners
    async def owner(self, table_id: str) -> str | None:
        """The process running ``table_id`` now, or None when nobody does (moving, or no such table)."""
        if table_id in self.hub.rooms:
            return self.process
        cached = self.owners.get(table_id)
        now = self.wall()
        if cached is not None and cached[1] > now:
            return cached[0]
        lease = await asyncio.to_thread(self.hub.store.lease, table_id)
        if lease is None or lease.expires_at <= now or lease.owner == self.process:
            self.owners.pop(table_id, None)
            return None
        self.owners[table_id] = (lease.owner, lease.expires_at)
        return lease.owner

    async def forward(self, conn: Connection, table_id: str, text: str | bytes, ref: str | None) -> None:
        """Send ``conn``'s request about a table another process runs to that process."""
        owner = await self.owner(table_id)
        if owner is None:
            exists = await asyncio.to_thread(self.hub.store.lease, table_id)
            if exists is None:
                raise ProtocolError("no_table", f"no open table {table_id!r}")
            raise ProtocolError("unavailable", "this table is moving to another server: try again in a few seconds")
        self.local[conn.id] = conn
        conn.remote_tables.add(table_id)
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        player = conn.who
        self.bus.post(inbox(owner), {
            "kind": "request", "conn": conn.id, "text": text, "ref": ref, "patches": conn.patches,
            "player": {"id": player.id, "name": player.name, "registered": player.registered},
            "address": conn.address,
        })

    def closed(self, conn: Connection) -> None:
        """A connection of this process closed: the owners of the tables it followed elsewhere forget it."""
        self.local.pop(conn.id, None)
        self.heard.pop(conn.id, None)
        self.rejoining = {key for key in self.rejoining if key[0] != conn.id}
        if conn.remote_tables:  # to every process: whichever runs those tables now drops its stand-in
            self.bus.post(SITE, {"kind": "gone", "conn": conn.id})

    # ------------------------------------------------------------ the site
    def lobby_line(self, room: Room) -> None:
        """A table of ours changed in the lobby: the other processes show it (or drop it, closed); a
        private one only to whom it admits, which each process checks."""
        table = room.table
        summary = None if table.status == TableStatus.CLOSED else room.summary()
        self.bus.post(SITE, {"kind": "lobby", "table": table.id, "summary": summary, "admit": table.admission(),
                             "people": table.people()})

    def tables_for(self, conn: Connection) -> list[dict[str, Any]]:
        """The tables other processes run, private ones to whom they admit, as this person sees them."""
        player = conn.who.id
        return [line_for(line.summary, line.people, player) for line in self.lobby.values()
                if self.admits(line.admit, conn)]

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

    def seated(self, player_ids: set[str]) -> dict[str, list[tuple[str, str, dict[str, Any] | None]]]:
        out: dict[str, list[tuple[str, str, dict[str, Any] | None]]] = {}
        for line in self.lobby.values():
            for player in line.people:
                if player in player_ids:
                    out.setdefault(player, []).append((line.id, line.summary["status"], line.admit))
        return out

    def table_changed(self, room: Room) -> None:
        self.lobby_line(room)

    def health(self) -> dict[str, Any]:
        return {"process": self.process, "bus": "up" if self.bus.up else "down",
                "table_ids": sorted(self.hub.rooms), "takeovers": self.takeovers}

    def admits(self, admit: dict[str, Any] | None, conn: Connection) -> bool:
        """Whether a table another process runs, with that admission, is shown to this connection."""
        if admit is None:
            return True
        player = conn.player
        return player is not None and admitted(player.id, admit["seated"], admit["invited"],
                                               self.hub.friends_of(admit["master"]))

    def friends_changed(self, player_ids: tuple[str, ...]) -> None:
        """A friendship changed here: the other processes' caches forget it."""
        self.bus.post(SITE, {"kind": "friends", "players": list(player_ids)})
        self._show_private(player_ids)

    def _show_private(self, player_ids: tuple[str, ...] | list[str]) -> None:
        """The private tables other processes run whose master's friends changed: shown again to whom
        they admit."""
        for line in list(self.lobby.values()):
            if line.admit is not None and line.admit["master"] in player_ids:
                self._show(line)

    def tell_player(self, player_id: str, message: dict[str, Any]) -> None:
        self.bus.post(SITE, {"kind": "player", "player": player_id, "message": message})

    def sessions_ended(self, player_id: str, sessions: Sequence[str], why: str) -> None:
        self.bus.post(SITE, {"kind": "sessions_ended", "player": player_id, "sessions": list(sessions), "why": why})

    def handed_over(self, guest: str, account: str, name: str) -> None:
        self.bus.post(SITE, {"kind": "handed_over", "guest": guest, "account": account, "name": name})

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
        kind = body.get("kind")
        if kind == "frames":
            for conn_id, text in body["frames"]:
                conn = self.local.get(conn_id)
                if conn is not None and self._fresh(conn_id, text):
                    conn.deliver(text)
        elif kind == "request":
            await self._request(body)
        elif kind == "gone":
            conn = self.remote.pop((body["from"], body["conn"]), None)
            if conn is not None:
                await self.hub.disconnect(conn)
        elif kind == "undelivered":
            self._undelivered(body["body"])
        elif kind == "process_gone":
            await self._process_gone(body["process"])
        elif kind == "owner":
            await self._owner_moved(body["table"], body["process"])
        elif kind == "lobby":
            self._lobby(body["table"], body["summary"], body.get("admit"), body.get("people") or [])
        elif kind == "lobby_sync":  # another process (started, or back from a bus outage) lists the site
            for room in self.hub.rooms.values():
                if room.table.status != TableStatus.CLOSED:
                    self.lobby_line(room)
            if body.get("slot") is not None and body["slot"] != self.slot:  # in the background: the bus goes on
                task = asyncio.create_task(self._hand_home(body["slot"], body["from"]))
                self._handing.add(task)
                task.add_done_callback(self._handing.discard)
        elif kind == "take":  # a table handed back to this process, its slot's
            await self._take(body["table"])
        elif kind == "friends":
            self.hub.forget_friends(*body["players"], site=False)
            self._show_private(body["players"])
        elif kind == "player":
            self.hub.tell_player(body["player"], body["message"], site=False)
        elif kind == "sessions_ended":
            self.hub.sessions_ended(body["player"], body["sessions"], body["why"], site=False)
        elif kind == "handed_over":
            self.hub.handed_over(body["guest"], body["account"], body["name"])

    async def _request(self, body: dict[str, Any]) -> None:
        key = (body["from"], body["conn"])
        conn = self.remote.get(key)
        if conn is None:
            conn = RemoteConnection(body["conn"], body["from"], self.config, body.get("address"),
                                    self._deliverer(body["from"], body["conn"]), bool(body.get("patches")),
                                    self.hub.stats)
            self.remote[key] = conn
        p = body["player"]
        if conn.player is None or conn.player.id != p["id"]:
            conn.player = Player(p["id"], p["name"], registered=p["registered"])
        await self.hub.receive(conn, body["text"], edge_checked=True)

    def _undelivered(self, body: dict[str, Any]) -> None:
        """A request the owner never heard (it died, or Redis is down): its sender hears so at once."""
        if body.get("kind") != "request":
            return
        conn = self.local.get(body["conn"])
        if conn is not None:
            conn.send(ProtocolError("unavailable", "the server running this table did not answer: try again "
                                    "in a few seconds").to_json(body.get("ref")))

    def _fresh(self, conn_id: str, text: str) -> bool:
        """Note the event number a frame from another process brings (an event, or a whole state as of
        one), so that a rejoin asks for the events after it; False for an event heard already while a
        rejoin is under way (frames in flight when the bus came back, then the same in the replay)."""
        if not text.startswith(('{"type":"event"', '{"type":"table"')):
            return True
        frame = orjson.loads(text)
        table, seq = frame["table"], frame["seq"]
        tables = self.heard.setdefault(conn_id, {})
        if (conn_id, table) in self.rejoining:
            if frame["type"] == "table":  # the rejoin's last frame
                self.rejoining.discard((conn_id, table))
            elif seq <= tables.get(table, 0):
                return False
        tables[table] = max(seq, tables.get(table, 0))
        return True

    def _deliverer(self, process: str, conn_id: str):
        def deliver(text: str) -> None:
            self.bus.send_frame(process, conn_id, text)
        return deliver

    async def _bus_back(self) -> None:
        """Redis is back after an outage: frames were lost both ways. The stand-ins here get whole states
        again, and this process's connections join their tables again (a ``table`` message each)."""
        for conn in self.remote.values():
            conn.forget_views()
        self.bus.post(SITE, {"kind": "lobby_sync"})  # lobby lines were lost too
        for table_id in {t for conn in self.local.values() for t in conn.remote_tables}:
            await self._rejoin(table_id)
        with contextlib.suppress(Exception):  # and notices of sessions ended meanwhile: their sockets close now
            await self.hub.check_sessions()

    async def _process_gone(self, process: str) -> None:
        """Another process stopped: its connections' stand-ins here go; its tables' owner is unknown."""
        for key in [k for k in self.remote if k[0] == process]:
            conn = self.remote.pop(key)
            await self.hub.disconnect(conn)
        for table_id in [t for t, (owner, _) in self.owners.items() if owner == process]:
            del self.owners[table_id]

    async def _owner_moved(self, table_id: str, process: str) -> None:
        """A table found a new owner: this process's connections that followed it join it there."""
        self.owners[table_id] = (process, self.wall() + self.lease_seconds)
        if process == self.process:
            return
        if table_id in self.hub.rooms:  # we thought we ran it: we no longer do
            await self.lost(table_id, f"taken over by {process}")
        await self._rejoin(table_id)

    async def _rejoin(self, table_id: str) -> None:
        """This process's connections that followed ``table_id`` where it ran before follow it again
        where it runs now (here or elsewhere): each gets the events it did not hear, then the whole state
        (a ``table`` message), as a client's own join with ``last_seq`` would."""
        for conn in list(self.local.values()):
            if table_id in conn.remote_tables and not conn.closed:
                conn.remote_tables.discard(table_id)
                join: dict[str, Any] = {"type": "join", "table": table_id}
                last = self.heard.get(conn.id, {}).get(table_id)
                if last is not None:
                    join["last_seq"] = last
                await self.hub.receive(conn, dumps(join), edge_checked=False)
                if last is not None and table_id not in self.hub.rooms:  # its frames come over the bus
                    self.rejoining.add((conn.id, table_id))

    def _lobby(self, table_id: str, summary: dict[str, Any] | None, admit: dict[str, Any] | None,
               people: list[str | None]) -> None:
        if summary is None or summary.get("status") == TableStatus.CLOSED:
            self.lobby.pop(table_id, None)
            for conn in self.hub.lobby_connections():
                conn.send({"type": "lobby_remove", "table": table_id})
            return
        self.lobby[table_id] = line = RemoteTable(table_id, summary, admit, people)
        self._show(line)

    def _show(self, line: RemoteTable) -> None:
        """The lobby line to each connection here it admits; a private table's removal to the others
        (it may have been shown to them before: a seat left, a friendship ended)."""
        for conn in self.hub.lobby_connections():
            if self.admits(line.admit, conn):
                conn.send({"type": "lobby_table", "table": line_for(line.summary, line.people, conn.who.id)})
            elif line.admit is not None:
                conn.send({"type": "lobby_remove", "table": line.id})


__all__ = ["LEASE_SECONDS", "RedisSite"]
