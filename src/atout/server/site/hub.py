"""The hub: this process's rooms and connections, and the way from a frame to the job that handles it.

Each frame is parsed into its typed message, rate-limited and handed to its handler, on one of the hub's
jobs (each a module beside this one: identity, handover, sessions, lobby, opening, table_requests, release,
tournament_clock). A table's request goes to its room (``room.py``), which takes it in the table's turn,
stores what it makes and tells every follower; a table this process does not run is the site's to reach
(``local.py``, ``cluster.py``). The hub itself changes no table."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from time import perf_counter  # the latency histogram (tests may replace the module time)
from typing import Any

from ..addresses import AddressBook
from ..clock import Clock, SystemClock
from ..features.friends import Friends
from ..features.limits import Budget, Limits
from ..features.robot_accounts import RobotAccounts
from ..logs import event_log, log
from ..player import Player
from ..protocol import (
    Act,
    Away,
    Back,
    Cancel,
    Chat,
    Claim,
    Create,
    Daily,
    Hello,
    HintAsk,
    Invite,
    Join,
    Leave,
    Lobby,
    Options,
    Ping,
    ProtocolError,
    Quick,
    Review,
    Robot,
    Seen,
    SessionEnd,
    Sit,
    Start,
    Unrobot,
    Vote,
    parse_message,
    ref_of,
)
from ..room import Room, Services, Stats, Watchdog
from ..store import Store, StoredTable, StoreError, StoreWriter
from ..store.health import cause_of
from ..table import play
from .config import Config, budget_rules
from .connection import Connection, RemoteConnection
from .handover import Handover
from .identity import Identity
from .lobby import LobbyLists
from .local import LocalSite, Site
from .metrics import Metrics
from .opening import Opening
from .release import Release
from .sessions import Sessions
from .table_requests import TableRequests
from .tournament_clock import TournamentClock

Handler = Callable[[Connection, Any], Awaitable[None]]


class Hub:
    """Every room and connection of this server process; its jobs are its parts (identity, handover,
    sessions, lobby, opening, tournaments, tables), each a module of ``site/``."""

    def __init__(
        self,
        store: Store,
        config: Config | None = None,
        clock: Clock | None = None,
        accounts: Any = None,
        site: Site | None = None,
    ) -> None:
        self.store = store
        self.accounts = accounts
        self.friends = None if accounts is None else Friends(store, accounts)
        self.robots = None if accounts is None else RobotAccounts(store)  # people's programs, with API tokens
        self.config = config or Config()
        self.clock = clock or SystemClock()
        self.writer = StoreWriter(store, linger=self.config.commit_linger)
        self.site: Site = site or LocalSite()
        self.rooms: dict[str, Room] = {}
        self.connections: set[Connection] = set()
        self.addresses = AddressBook()
        self.stats = Stats()
        self.identity = Identity(self)  # the hub's jobs, each given the hub
        self.handover = Handover(self)
        self.sessions = Sessions(self)
        self.lobby = LobbyLists(self)
        self.opening = Opening(self)
        self.tournaments = TournamentClock(self)
        self.tables = TableRequests(self)
        self.release = Release(self)
        self.services = Services(
            store,
            self.writer,
            self.clock,
            self.config.timing,
            self.addresses,
            fence=self.site.fence,
            lobby=self.lobby.update,
            stats=self.stats,
            closed=self.tournaments.table_closed,
            called=self.called,
        )
        tables = self.tables
        self.handlers: dict[type, Handler] = {
            Hello: self.identity.on_hello, Lobby: self.lobby.on_lobby, Ping: self.on_ping,
            Create: self.opening.on_create, Quick: self.opening.on_quick, Daily: self.opening.on_daily,
            Claim: tables.on_claim, Join: tables.on_join, Sit: tables.on_sit, Leave: tables.on_leave,
            Robot: tables.on_robot, Unrobot: tables.on_unrobot, Options: tables.on_options, Start: tables.on_start,
            Act: self.on_act, Back: tables.on_back, Seen: tables.on_seen, Away: tables.on_away, Chat: tables.on_chat,
            Cancel: tables.on_cancel, Vote: tables.on_vote, Invite: tables.on_invite, Review: tables.on_review,
            HintAsk: tables.on_hint,
        }  # fmt: skip
        self.metrics = Metrics(self)  # /metrics, in a registry of this hub's own
        self.limits = Limits(self.clock.now, self.site.take, budget_rules(self.config), self.config.limit_factor)
        self._background: set[asyncio.Task[Any]] = set()
        self.watchdog = Watchdog(
            lambda: self.rooms.values(),
            self.clock,
            store.health,  # tables that stop moving
            real_grace=self.config.stall_seconds,
        )

    @property
    def actions(self) -> int:
        """Game actions accepted by the tables this process ran."""
        return self.stats.actions

    async def start(self) -> None:
        self.services.watch.start()
        await self.writer.start()
        await self.site.start(self)
        if self.accounts is not None:
            self.spawn(self.sessions.sweep())
        self.spawn(self.tournaments.run())
        self.spawn(self.release.run())
        self.spawn(self.watchdog.run())

    def resume(self, item: StoredTable) -> Room:
        """A table as the store holds it, running again here."""
        room = Room.loaded(item, self.services)
        self.rooms[room.id] = room
        room.start()
        table = room.table
        event_log(event="resumed", table=table.id, seq=table.seq, status=table.status)
        return room

    async def load_table(self, table_id: str) -> bool:
        """Take over one table from the store (its lease is ours); False if it is closed or gone."""
        item = await asyncio.to_thread(self.store.table, table_id)
        if item is None or item.status != "open":
            return False
        self.resume(item)
        return True

    def lose(self, table_id: str) -> Room | None:
        """This process no longer runs ``table_id``: its room stops here (its followers are the site's)."""
        room = self.rooms.pop(table_id, None)
        if room is not None:
            room.drop()
            for conn in room.followers:
                conn.tables.discard(table_id)
        return room

    def run_here(self, room: Room) -> Callable[[int | None], Awaitable[None]]:
        """What a new room calls once the store holds its table: the site knows it is run here (with its
        lease's token), and the hub runs it from now on (the one place a new table joins ``rooms``)."""

        async def stored(token: int | None) -> None:
            self.site.claimed(room.id, token)
            self.rooms[room.id] = room

        return stored

    async def stop(self) -> None:
        for task in list(self._background):
            task.cancel()
        await self.site.stop()
        for room in self.rooms.values():
            room.drop()
        for room in self.rooms.values():
            await room.stop()
        await self.writer.stop()
        await self.services.watch.stop()
        self.services.thinking.shutdown(wait=False, cancel_futures=True)

    def connect(
        self,
        send_text: Any,
        close: Any,
        account: Any = None,
        address: str | None = None,
        session: str | None = None,
        write: Callable[[str], bool] | None = None,
    ) -> Connection:
        """A new socket; ``session``: the key of the session its cookie gave (``account``'s); ``write``: the
        server's direct write of a frame, where it has one (``wsprotocol``)."""
        conn = Connection(send_text, close, self.config, account, address, self.stats, write)
        conn.session = session
        self.connections.add(conn)
        if session is not None and session in self.sessions.ended:  # it ended while this socket's handshake ran
            self.sessions.end(conn, SessionEnd.ENDED)
        return conn

    def spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def spend(self, conn: Connection, budget: Budget) -> None:
        """Spend one of ``budget`` for this connection, its person and its address; ProtocolError
        ``rate_limited`` (naming the rule and the wait) when it does not fit."""
        player = conn.who
        refused = await self.limits.spend(budget, connection=conn.id, person=player.id, address=conn.address)
        if refused is not None:
            raise refused.error()

    async def disconnect(self, conn: Connection) -> None:
        self.connections.discard(conn)
        conn.close_now()
        if not conn.remote:
            self.site.closed(conn)
            player = conn.player
            if player is not None and not self.identity.connected_here(player.id):
                if player.registered:
                    self.site.player(player.id, online=False)
                    self.identity.tell_friends(player.id, player.name)
                elif player.robot_of is None:
                    self.site.guest(player.name, player.id, online=False)
        for table_id in list(conn.tables):
            room = self.rooms.get(table_id)
            if room is not None:
                room.lost(conn)

    def lobby_connections(self) -> list[Connection]:
        """The connections here that watch the lobby."""
        return [c for c in self.connections if c.lobby]

    async def on_act(self, conn: Connection, m: Act) -> None:
        """A game action, the hot path: from the dispatch straight to its room (a played card crosses the hub,
        the room, the table's play and state, the store's writer, the telling, the observer and the
        connection: docs/server.md)."""
        player = conn.who
        await self.tables.room(m.table).request(conn, lambda b: play.act(b, player.id, m.action, m.seq), m.ref)

    async def receive(self, conn: Connection, text: str | bytes, edge_checked: bool = False) -> None:
        """One frame from a client: parsed, rate-limited, dispatched; errors answered, never raised.
        ``edge_checked``: a request another process received (and rate-limited) for a table run here."""
        ref = None
        started = perf_counter()
        try:
            if not edge_checked and not conn.bucket.take():
                raise ProtocolError("rate_limited", "too many messages: slow down", ref=ref_of(text))
            message = parse_message(text)
            ref = message.ref
            if not isinstance(message, Hello):
                conn.who  # noqa: B018 -- hello first: raises ProtocolError for a connection without one
            table_id = getattr(message, "table", None)
            if table_id is not None and not await self.release.bring_back(table_id):
                if conn.remote:  # sent here as the owner, but we no longer run it
                    raise ProtocolError("unavailable", "this table is moving to another server: try again")
                await self.site.forward(conn, table_id, text, ref)
                return
            await self.handlers[type(message)](conn, message)
            if isinstance(message, Act):
                self.metrics.act_seconds.observe(perf_counter() - started)  # read to frames queued
        except ProtocolError as err:
            conn.send(err.to_json(ref))
        except StoreError as err:
            if err.fenced is not None:
                event_log(event="store_error", error=str(err))
                await self.site.lost(err.fenced, "fenced")
                conn.send(ProtocolError("unavailable", "this table moved to another server: try again").to_json(ref))
            else:
                conn.send(store_refusal(err).to_json(ref))
        except Exception as err:  # a bug must cost one answer, never the connection
            if self.store.health.report(err) is not None:  # the store away (logged once, by its health)
                conn.send(store_refusal(err).to_json(ref))
                return
            log.exception("request failed")
            event_log(event="request_failed", error=repr(err))
            conn.send(
                ProtocolError("internal", "the server failed on this request (it is in the server's log)").to_json(ref)
            )

    def called(self, player: str, table_id: str) -> None:
        """A new game waits for ``player``: told on every page of theirs, wherever on the site."""
        self.identity.tell_player(player, {"type": "called", "table": table_id})

    async def on_ping(self, conn: Connection, m: Ping) -> None:
        conn.send({"type": "pong"})


def store_refusal(err: Exception) -> ProtocolError:
    """A request the store did not take, in the protocol's words: ``unknown`` when it may have taken it
    (the table settles it when the store is back, and says), ``unavailable`` when it surely did not."""
    if getattr(err, "unknown", False):
        return ProtocolError(
            "unknown",
            "the store was lost while this was being stored: whether it counts is told when the store answers again",
        )
    cause = cause_of(err)
    if cause is not None:
        return ProtocolError("unavailable", f"{cause.why}: nothing was changed; try again in a moment")
    event_log(event="store_error", error=str(err))
    return ProtocolError("unavailable", "the table could not be saved; try again")


__all__ = ["Connection", "Hub", "Player", "RemoteConnection"]
