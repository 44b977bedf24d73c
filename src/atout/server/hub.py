"""The hub: this process's connections, who they are (hello, tokens), the lobby, and the way to rooms.

Each frame is parsed into its typed message and handed to its handler. A table's request goes to its
room (``room.py``), which takes it in the table's turn, stores what it makes and tells every follower;
a table this process does not run is the site's to reach (``site.py``). The hub itself changes no
table.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from time import perf_counter  # the latency histogram (tests may replace the module time)
from typing import Any

from ..bots.analysis import WORLDS_FACTOR
from ..engine.kinds import SeatKind, TableStatus
from . import daily, ledger, tournaments
from .accounts import NAME, NAME_RULE, name_key, normal_name
from .addresses import AddressBook
from .clock import Clock, SystemClock
from .connection import Connection, Player, RemoteConnection
from .friends import Friends
from .limits import RULES, Budget, Limits, Rule, Scope
from .logs import event_log, log
from .metrics import Metrics
from .options import OptionError, TableOptions, default_robot_level
from .protocol import (
    PROTOCOL_VERSION,
    Act,
    Back,
    Cancel,
    Chat,
    Claim,
    Create,
    Daily,
    Hello,
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
    SessionEnded,
    Sit,
    Start,
    Unrobot,
    Vote,
    dumps,
    parse_message,
    ref_of,
)
from .quick import QUICK_OPTIONS, pick
from .review import published
from .room import Room, Services, Stats
from .site import LocalSite, Site, line_for
from .store import Store, StoredTable, StoreError, StoreWriter
from .table import Batch, Table, Timing, admitted, play, seating, votes

TOURNAMENT_RETRY = 5.0
"""Seconds before the tournament clock tries again a start the store refused (its failure logged)."""


@dataclass
class Config:
    """Server settings (``atout serve`` options); tests shorten the times."""

    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    timing: Timing = field(default_factory=Timing)
    hasher: Any = None  # argon2's PasswordHasher; None for its recommended costs (tests make it cheaper)
    rate: float = 20.0  # messages per second a connection may send, on average
    burst: float = 40.0
    limit_factor: float = 1.0  # every budget's counts multiplied (limits.py; a load test from one address raises it)
    trusted_proxy: bool = False  # behind a proxy of ours: a connection's address is its X-Forwarded-For
    slot: int | None = None  # this process's slot behind a proxy that routes tables by slot (proxy.py)
    slots: int | None = None  # how many slots that proxy routes
    commit_linger: float = 0.0  # seconds a small batch of writes waits for more (atout serve: 0.005)
    origins: tuple[str, ...] = ()  # pages besides the site's own that may act for a person (origins.py)
    analysis_workers: int = 1  # processes that analyse finished deals (server/analysis.py); 0: none
    analysis_queue: int = 16  # analyses that may wait for a worker; beyond, 503 busy
    analysis_per_person: int = 1  # analyses one person may have waiting or running
    analysis_worlds: int = WORLDS_FACTOR  # an analysis searches this many times the worlds the expert plays with
    analysis_per_hour: int = 30  # analyses one person may start in an hour (the budget "analysis")
    analysis_warm: bool = True  # the analysis workers start and warm up with the server, not at the first request
    daily_deals: int = daily.DEALS  # deals in a day's set of the daily deal (set when the day is first asked for)
    daily_level: str = field(default_factory=default_robot_level)  # the daily deal's robots


def budget_rules(config: Config) -> list[Rule]:
    """limits.RULES, with a person's analyses an hour as ``config`` sets them (``atout serve`` keeps 30)."""
    return [replace(r, count=config.analysis_per_hour) if (r.budget, r.scope, r.seconds) == (Budget.ANALYSIS, Scope.PERSON, 3600)
            else r for r in RULES]


Handler = Callable[[Connection, Any], Awaitable[None]]


class Hub:
    """Every room and connection of this server process."""

    def __init__(self, store: Store, config: Config | None = None, clock: Clock | None = None,
                 accounts: Any = None, site: Site | None = None) -> None:
        self.store = store
        self.accounts = accounts
        self.friends = None if accounts is None else Friends(store, accounts)
        self.friend_ids: dict[str, set[str]] = {}
        self.config = config or Config()
        self.clock = clock or SystemClock()
        self.writer = StoreWriter(store, linger=self.config.commit_linger)
        self.site: Site = site or LocalSite()
        self.rooms: dict[str, Room] = {}
        self.connections: set[Connection] = set()
        self.addresses = AddressBook()
        self.stats = Stats()
        self.services = Services(store, self.writer, self.clock, self.config.timing, self.addresses,
                                 fence=self.site.fence, lobby=self._lobby_update, stats=self.stats,
                                 closed=self._tournament_table_closed)
        self.handlers: dict[type, Handler] = {
            Hello: self.on_hello, Lobby: self.on_lobby, Create: self.on_create, Join: self.on_join,
            Sit: self.on_sit, Leave: self.on_leave, Robot: self.on_robot, Unrobot: self.on_unrobot,
            Options: self.on_options, Start: self.on_start, Act: self.on_act, Back: self.on_back,
            Seen: self.on_seen, Chat: self.on_chat, Cancel: self.on_cancel, Vote: self.on_vote,
            Invite: self.on_invite, Review: self.on_review, Quick: self.on_quick, Claim: self.on_claim,
            Daily: self.on_daily,
            Ping: self.on_ping,
        }  # fmt: skip
        self.metrics = Metrics(self)  # /metrics, in a registry of this hub's own
        self.limits = Limits(self.clock.now, self.site.take, budget_rules(self.config), self.config.limit_factor)
        self.ended: dict[str, float] = {}  # sessions that ended lately (key -> when): a socket they open is closed
        self._background: set[asyncio.Task[Any]] = set()
        self.tournament_wake = asyncio.Event()  # a tournament was created: its start time may be the next

    @property
    def actions(self) -> int:
        """Game actions accepted by the tables this process ran."""
        return self.stats.actions

    # ------------------------------------------------------------ life
    async def start(self) -> None:
        await self.writer.start()
        await self.site.start(self)
        if self.accounts is not None:
            self._spawn(self._sweep_sessions())
        self._spawn(self._tournament_clock())

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

    async def stop(self) -> None:
        for task in list(self._background):
            task.cancel()
        await self.site.stop()
        for room in self.rooms.values():
            room.drop()
        for room in self.rooms.values():
            await room.stop()
        await self.writer.stop()

    # ------------------------------------------------------------ connections
    def connect(self, send_text: Any, close: Any, account: Any = None, address: str | None = None,
                session: str | None = None, write: Callable[[str], bool] | None = None) -> Connection:
        """A new socket; ``session``: the key of the session its cookie gave (``account``'s); ``write``: the
        server's direct write of a frame, where it has one (``wsprotocol``)."""
        conn = Connection(send_text, close, self.config, account, address, self.stats, write)
        conn.session = session
        self.connections.add(conn)
        if session is not None and session in self.ended:  # it ended while this socket's handshake ran
            self._end(conn, SessionEnd.ENDED)
        return conn

    # ------------------------------------------------------------ sessions ending
    SWEEP_SECONDS = 60.0
    """How often the sessions of open sockets are checked in the store: a notice lost on the way (a bus
    outage) closes its sockets this late at most; and sockets in use keep their sessions alive."""
    ENDED_KEPT = 600.0
    """How long an ended session is remembered, to close a socket whose handshake crossed the notice."""

    def sessions_ended(self, player_id: str, sessions: Sequence[str], why: str, site: bool = True) -> None:
        """Sessions of ``player_id`` ended (``why``: a SessionEnd): the sockets they opened hear it and
        close, here and, through the site, on every process; an account deleted also leaves its seats."""
        now = self.clock.now()
        self.ended = {k: t for k, t in self.ended.items() if t > now - self.ENDED_KEPT}
        keys = set(sessions)
        for key in keys:
            self.ended[key] = now
        for conn in list(self.connections):
            if conn.session is not None and conn.session in keys:
                self._end(conn, why)
        if why == SessionEnd.DELETED:
            self._spawn(self._leave_seats(player_id))
        if site:
            self.site.sessions_ended(player_id, sorted(keys), why)

    def _end(self, conn: Connection, why: str) -> None:
        conn.send(SessionEnded(why=SessionEnd(why)).to_json())
        conn.close_now()  # the pump closes the socket after that frame; the endpoint then disconnects it

    async def _leave_seats(self, player_id: str) -> None:
        """A deleted account's seats at the tables run here: left at once (in a game, an abandonment: the
        robot plays the rest, as after a lost connection, without waiting for a return that cannot come)."""
        for room in list(self.rooms.values()):
            if room.table.status == TableStatus.CLOSED or room.table.seat_of(player_id) is None:
                continue
            try:
                await room.request(None, lambda b: seating.leave(b, player_id, None, why="deleted their account"))
            except (ProtocolError, StoreError) as err:  # paused, or gone meanwhile: its absence clock goes on
                event_log(event="leave_failed", table=room.id, error=str(err))

    async def check_sessions(self) -> None:
        """Close the sockets whose session is over in the store (a notice this process missed, a session
        expired), and record the others as in use."""
        if self.accounts is None:
            return
        keys = {c.session for c in self.connections if c.session is not None and not c.closed}
        if not keys:
            return
        live = await asyncio.to_thread(self.accounts.live, sorted(keys))
        for conn in list(self.connections):
            if conn.session is not None and conn.session not in live and not conn.closed:
                self._end(conn, SessionEnd.ENDED)

    async def _sweep_sessions(self) -> None:
        while True:
            await self.clock.sleep_until(self.clock.now() + self.SWEEP_SECONDS)
            try:
                await self.check_sessions()
            except Exception as err:  # the store away: the next sweep tries again
                event_log(event="session_check_failed", error=repr(err))

    def _spawn(self, work: Awaitable[Any]) -> None:
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
            if player is not None and not self._connected_here(player.id):
                if player.registered:
                    self.site.player(player.id, online=False)
                    self._tell_friends(player.id, player.name)
                else:
                    self.site.guest(player.name, player.id, online=False)
        for table_id in list(conn.tables):
            room = self.rooms.get(table_id)
            if room is not None:
                room.lost(conn)

    def lobby_connections(self) -> list[Connection]:
        """The connections here that watch the lobby."""
        return [c for c in self.connections if c.lobby]

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
            if table_id is not None and table_id not in self.rooms:
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
            event_log(event="store_error", error=str(err))
            if err.fenced is not None:
                await self.site.lost(err.fenced, "fenced")
                conn.send(ProtocolError("unavailable", "this table moved to another server: try again").to_json(ref))
            else:
                conn.send(ProtocolError("unavailable", "the table could not be saved; try again").to_json(ref))
        except Exception as err:  # a bug must cost one answer, never the connection
            log.exception("request failed")
            event_log(event="request_failed", error=repr(err))
            conn.send(ProtocolError("internal", "the server failed on this request (it is in the server's log)").to_json(ref))

    # ------------------------------------------------------------ identity
    def token_for(self, player_id: str) -> str:
        mac = hmac.new(self.config.secret, player_id.encode(), hashlib.sha256).hexdigest()[:32]
        return f"{player_id}.{mac}"

    def player_from_token(self, token: str) -> str | None:
        if not token.isascii():  # no token of ours is; compare_digest would raise TypeError
            return None
        player_id = token.rpartition(".")[0]
        if player_id and hmac.compare_digest(self.token_for(player_id), token):
            return player_id
        return None

    async def on_hello(self, conn: Connection, m: Hello) -> None:
        if m.protocol != PROTOCOL_VERSION:
            raise ProtocolError("protocol", f"this server speaks protocol {PROTOCOL_VERSION}, not {m.protocol}")
        if conn.player is not None:
            raise ProtocolError("hello_again", "you said hello already")
        conn.patches = m.patches
        if conn.account is not None:  # a registered player: the session says who
            if not self._connected_here(conn.account.id):
                self.site.player(conn.account.id, online=True)  # their friends see them online, site-wide
                self._tell_friends(conn.account.id, conn.account.name)
            conn.player = Player(conn.account.id, conn.account.name, registered=True)
            self.addresses.saw(conn.account.id, conn.address)
            conn.send({"type": "welcome", "protocol": PROTOCOL_VERSION,
                       "you": {"id": conn.account.id, "name": conn.account.name, "registered": True}})
            return
        given = None if m.name is None else normal_name(m.name)
        if given is not None and not NAME.match(given):
            raise ProtocolError("bad_name", f"{given[:40]!r}: {NAME_RULE}")
        if given is not None and self.accounts is not None and await asyncio.to_thread(self.accounts.find, given):
            raise ProtocolError("name_taken", f"{given!r} is a registered player's name: log in, or choose another")
        player_id = self.player_from_token(m.token) if m.token else None
        if m.token and player_id is None:
            raise ProtocolError("bad_token", "that token was not given by this server")
        if player_id is None:
            player_id = "g" + secrets.token_hex(6)
        name = given or self._known_name(player_id) or f"Guest-{int(player_id[1:7], 16) % 10000:04d}"
        if not await self._take_guest_name(name, player_id):
            if given is not None:
                raise ProtocolError("name_taken", f"a guest called {name!r} is here now (names are the same "
                                                  "whatever their case or accents): choose another")
            name = f"Guest-{secrets.randbelow(10**6):06d}"  # a name nobody wished for: any free one will do
            if not await self._take_guest_name(name, player_id):
                raise ProtocolError("name_taken", "choose a name")
        conn.player = Player(player_id, name)
        conn.send({"type": "welcome", "protocol": PROTOCOL_VERSION,
                   "you": {"id": player_id, "name": name, "registered": False}, "token": self.token_for(player_id)})

    def _tell_friends(self, player_id: str, name: str) -> None:
        """A registered player came online here, or left: their friends' pages ask again where they are."""
        for friend in self.friends_of(player_id):
            self.tell_player(friend, {"type": "presence", "name": name})

    def _connected_here(self, player_id: str) -> bool:
        return any(c.player is not None and c.player.id == player_id for c in self.connections)

    async def presence(self, viewer: str, player_ids: set[str]) -> dict[str, dict[str, Any]]:
        """Where each of ``player_ids`` is on the site, as ``viewer`` may know it: ``status`` offline,
        online, table (at a table waiting for its game) or playing; ``table`` the id of that table when
        it admits the viewer (a private one may not)."""
        here = {c.player.id for c in self.connections if c.player is not None and c.player.id in player_ids}
        online = here | await self.site.online(player_ids - here)
        seats: dict[str, list[tuple[str, str, bool]]] = {}
        for room in self.rooms.values():
            table = room.table
            if table.status == TableStatus.CLOSED:
                continue
            for player in table.people():
                if player in player_ids:
                    admits = table.admits(viewer, "", self._master_friends(table))
                    seats.setdefault(player, []).append((table.id, table.status, admits))
        for player, lines in self.site.seated(player_ids).items():
            for table_id, status, admit in lines:
                admits = admit is None or admitted(viewer, admit["seated"], admit["invited"],
                                                   self.friends_of(admit["master"]))
                seats.setdefault(player, []).append((table_id, status, admits))
        out: dict[str, dict[str, Any]] = {}
        for player in player_ids:
            tables = sorted(seats.get(player, []), key=lambda x: x[1] != TableStatus.PLAYING)
            if tables:
                table_id, status, admits = tables[0]
                out[player] = {"status": "playing" if status == TableStatus.PLAYING else "table",
                               "table": table_id if admits else None}
            else:
                out[player] = {"status": "online" if player in online else "offline", "table": None}
        return out

    def _guests_here(self, name: str) -> set[str]:
        """The ids of the guests connected to this process under ``name`` (any case or accents)."""
        key = name_key(name)
        return {c.player.id for c in self.connections
                if c.player is not None and not c.player.registered and name_key(c.player.name) == key}

    async def guests_online(self, name: str) -> set[str]:
        """The ids of the guests online under ``name`` anywhere on the site."""
        return self._guests_here(name) | await self.site.guests(name)

    async def _take_guest_name(self, name: str, player_id: str) -> bool:
        """Hold ``name`` for the guest ``player_id`` while it is online: False if another guest online
        anywhere on the site holds it. The last look, here, is made without yielding, just before the
        caller names the connection: two hellos of this process cannot both pass; the site's holding
        (Redis) stops two of different processes."""
        if self._guests_here(name) - {player_id}:
            return False
        if not await self.site.take_guest_name(name, player_id):
            return False
        if self._guests_here(name) - {player_id}:  # another hello here took it while we asked the site
            if not any(c.player is not None and c.player.id == player_id for c in self.connections):
                self.site.guest(name, player_id, online=False)
            return False
        return True

    def _known_name(self, player_id: str) -> str | None:
        for room in self.rooms.values():
            seat = room.table.seat_of(player_id)
            if seat is not None:
                return room.table.seats[seat].name
        return None

    # ------------------------------------------------------------ friends and players
    def _master_friends(self, table: Table) -> set[str]:
        """The ids of the master's friends (a private table admits them), cached until a friendship changes."""
        return self.friends_of(table.master_player) if table.options.private else set()

    def friends_of(self, player_id: str | None) -> set[str]:
        """A registered player's friends' ids (none for a guest), cached until a friendship changes."""
        if player_id is None or self.friends is None or player_id.startswith("g"):
            return set()
        if player_id not in self.friend_ids:
            self.friend_ids[player_id] = self.friends.ids(player_id)
        return self.friend_ids[player_id]

    def forget_friends(self, *player_ids: str, site: bool = True) -> None:
        """A friendship changed: private tables' lists are shown again to whom they now admit, here and,
        through the site, on every other process (each keeps its own cache of friends)."""
        for player_id in player_ids:
            self.friend_ids.pop(player_id, None)
        for room in self.rooms.values():
            if room.table.options.private and room.table.master_player in player_ids:
                self._lobby_update(room)
        if site:
            self.site.friends_changed(player_ids)

    def tell_player(self, player_id: str, message: dict[str, Any], site: bool = True) -> None:
        """Send ``message`` to every connection of ``player_id``, wherever they are on the site."""
        for conn in self.connections:
            if conn.player is not None and conn.player.id == player_id:
                conn.send(message)
        if site:
            self.site.tell_player(player_id, message)

    # ------------------------------------------------------------ lobby
    def _admits(self, table: Table, conn: Connection) -> bool:
        return conn.player is not None and table.admits(conn.player.id, conn.player.name, self._master_friends(table))

    async def on_lobby(self, conn: Connection, m: Lobby) -> None:
        conn.lobby = True
        player = conn.who.id
        tables = [line_for(r.summary(), r.table.people(), player) for r in self.rooms.values()
                  if r.table.status != TableStatus.CLOSED and self._admits(r.table, conn)]
        tables += [line for line in self.site.tables_for(conn) if line["id"] not in self.rooms]
        conn.send({"type": "lobby", "tables": tables})

    def _lobby_update(self, room: Room) -> None:
        table = room.table
        summary = None if table.status == TableStatus.CLOSED else room.summary()
        people = table.people()
        for conn in self.lobby_connections():
            if summary is None or not self._admits(table, conn):
                conn.send({"type": "lobby_remove", "table": table.id})
            else:
                conn.send({"type": "lobby_table", "table": line_for(summary, people, conn.who.id)})
        self.site.table_changed(room)

    # ------------------------------------------------------------ tables
    def _room(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is None or room.table.status == TableStatus.CLOSED:
            raise ProtocolError("no_table", f"no open table {table_id!r}")
        return room

    async def on_create(self, conn: Connection, m: Create) -> None:
        player = conn.who
        try:
            options = TableOptions.from_json(m.options)
        except OptionError as err:
            raise ProtocolError("bad_option", str(err)) from None
        await self.spend(conn, Budget.TABLE)
        await self._check_chips(options, [(player.id, player.name)])
        table = Table(self.site.new_table_id(), m.players, options, self.config.timing)
        room = Room(table, self.services)

        async def stored(token: int | None) -> None:  # the table is in the store: it is run here from now on
            self.site.claimed(table.id, token)
            self.rooms[table.id] = room

        await room.create(conn, m.ref, stored, lease=self.site.new_lease())
        room.start()

    async def on_quick(self, conn: Connection, m: Quick) -> None:
        """A game now: a seat at a table of that size with people (a robot's, taken at the next deal, or a
        free one), else a new quick table with robots, started at once (``quick.py``)."""
        player = conn.who
        lines = [line_for(r.summary(), r.table.people(), player.id) for r in self.rooms.values()
                 if self._admits(r.table, conn)]
        lines += [line for line in self.site.tables_for(conn) if line["id"] not in self.rooms]
        table_id = pick(lines, m.players)
        if table_id is None:
            await self.spend(conn, Budget.TABLE)  # a new table, as a create makes
            table = Table(self.site.new_table_id(), m.players, QUICK_OPTIONS, self.config.timing)
            room = Room(table, self.services)

            async def stored(token: int | None) -> None:
                self.site.claimed(table.id, token)
                self.rooms[table.id] = room

            await room.create(conn, m.ref, stored, quick=True, lease=self.site.new_lease())
            room.start()
            await room.request(conn, lambda b: play.quick_start(b, player.id))
        elif table_id in self.rooms:
            await self.on_claim(conn, Claim(type="claim", table=table_id, ref=m.ref))
        else:  # run by another process: the claim goes there, as the person's own request would
            claim: dict[str, Any] = {"type": "claim", "table": table_id}
            if m.ref is not None:
                claim["ref"] = m.ref
            await self.site.forward(conn, table_id, dumps(claim), m.ref)

    def daily_day(self, day: str) -> daily.Day:
        """The daily deal's set of ``day``, drawn and committed to now if nobody asked for it yet (a thread's)."""
        return daily.ensure_day(self.store.engine, day, self.config.daily_deals, self.config.daily_level,
                                self.clock.now())

    async def on_daily(self, conn: Connection, m: Daily) -> None:
        """The day's daily deal (``daily.py``): a registered person's one play of it, at a table of its own
        (the person at seat 0, the day's robots in the others), stored as it starts and started at once."""
        player = conn.who
        if not player.registered:
            raise ProtocolError("registered_only", "the daily deal is for registered players: log in (or register) "
                                                   "to play it")
        day = await asyncio.to_thread(self.daily_day, daily.day_of(self.clock.now()))
        table = Table(self.site.new_table_id(), day.players, day.options(), self.config.timing)
        await asyncio.to_thread(daily.begin, self.store.engine, day.day, player.id, table.id, self.clock.now())
        room = Room(table, self.services)

        async def stored(token: int | None) -> None:
            self.site.claimed(table.id, token)
            self.rooms[table.id] = room

        await room.create(conn, m.ref, stored, lease=self.site.new_lease(),
                          daily=({"day": day.day, "deals": day.deals}, day.seed))
        room.start()
        await room.request(conn, lambda b: play.daily_start(b, player.id))

    # ------------------------------------------------------------ a guest who registers or logs in
    def seats_on_site(self, player_ids: set[str]) -> dict[str, set[tuple[str, str]]]:
        """Where each of ``player_ids`` sits, or takes a seat at the next deal, anywhere on the site:
        (table, status) pairs."""
        out: dict[str, set[tuple[str, str]]] = {}
        for room in self.rooms.values():
            table = room.table
            if table.status != TableStatus.CLOSED:
                for player in table.people():
                    if player in player_ids:
                        out.setdefault(player, set()).add((table.id, str(table.status)))
        for player, lines in self.site.seated(player_ids).items():
            for table_id, status, _ in lines:
                out.setdefault(player, set()).add((table_id, str(status)))
        return out

    def handover_refused(self, guest: str, account: str, name: str, new: bool) -> ProtocolError | None:
        """Why the guest's seats may not pass to the account (None: they may): a login to an account that
        existed before, while the guest plays a game, would hand that game's result to the account (a
        person could log in only when winning); and one person never holds two seats at a table."""
        seats = self.seats_on_site({guest, account})
        held = seats.get(guest, set())
        playing = sorted(t for t, status in held if status == TableStatus.PLAYING)
        if playing and not new:
            return ProtocolError("guest_playing", f"you play a game as a guest at table {playing[0]}: finish it (or "
                                                  "leave it) before you log in; registering a new account keeps "
                                                  "the seat")
        both = sorted({t for t, _ in held} & {t for t, _ in seats.get(account, set())})
        if both:
            return ProtocolError("seated", f"{name} has a seat at table {both[0]} already, where you sit as a guest: "
                                           "one person, one seat (leave one of them first)")
        return None

    async def hand_over(self, guest: str, account: str, name: str, site: bool = True) -> None:
        """The guest's seats at the tables run here pass to the account (``seating.hand_over``), and, through
        the site, those run elsewhere. Until a page of the account follows the table the seat counts as a
        connection lost: the page that registered reloads and its ``join`` is the return (a page that never
        comes back is absent, then abandons, as any)."""
        if site:
            self.site.handed_over(guest, account, name)
        for room in list(self.rooms.values()):
            table = room.table
            if table.status == TableStatus.CLOSED or guest not in table.people():
                continue
            try:
                await room.request(None, lambda b: seating.hand_over(b, guest, account, name))
            except (ProtocolError, StoreError) as err:  # the account sits there too, or the table is paused
                event_log(event="handover_failed", table=room.id, error=str(err))
                continue
            self._lobby_update(room)

    def handed_over(self, guest: str, account: str, name: str) -> None:
        """Another process's news of a handover (``hand_over``): the tables run here, in the background."""
        self._spawn(self.hand_over(guest, account, name, site=False))

    # ------------------------------------------------------------ tournaments (tournaments.py)
    async def _tournament_clock(self) -> None:
        """Start each tournament whose start time has come, on the server's clock (every process does:
        the first to start one wins, tournaments.start). Starting, it opens the next round of any tournament
        whose round ended while no process was there to see it."""
        for tid in await asyncio.to_thread(tournaments.running, self.store.engine):
            opened = await asyncio.to_thread(tournaments.advance, self.store.engine, tid, self.clock.now(),
                                             self.site.new_table_id)
            if opened is not None:
                await self._open_round(opened)
        while True:
            self.tournament_wake.clear()
            try:
                ready, later = await asyncio.to_thread(tournaments.due, self.store.engine, self.clock.now())
            except Exception as err:  # the store away: look again a moment later
                log.warning("tournament clock: %s", err)
                ready, later = [], self.clock.now() + TOURNAMENT_RETRY
            started = [await self.tournament_start(tid) for tid in ready]
            if ready and all(started):
                continue
            if ready:  # a start failed: try again a moment later, not in a loop
                later = min(later or math.inf, self.clock.now() + TOURNAMENT_RETRY)
            waiters: list[asyncio.Future[Any]] = [asyncio.ensure_future(self.tournament_wake.wait())]
            if later is not None:
                waiters.append(asyncio.ensure_future(self.clock.sleep_until(later)))
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()

    async def tournament_start(self, tid: str) -> bool:
        """Start a tournament that is due (when full, or at its time): False when the store failed, the
        tournament still open (``tournaments.due`` offers it again, and the clock tries again)."""
        try:
            opened = await asyncio.to_thread(tournaments.start, self.store.engine, tid, self.clock.now(),
                                             self.site.new_table_id)
        except Exception as err:
            log.warning("tournament %s did not start: %s", tid, err)
            return False
        if opened is not None:
            await self._open_round(opened)
        return True

    async def _open_round(self, opened: tournaments.Round) -> None:
        """A round's tables, run here (each may move to another process as any table does)."""
        for _, table_id, seats in opened.tables:
            table = Table(table_id, opened.players, opened.options(), self.config.timing)
            room = Room(table, self.services)

            async def stored(token: int | None, table_id: str = table_id, room: Room = room) -> None:
                self.site.claimed(table_id, token)
                self.rooms[table_id] = room

            def make(b: Batch, seats: list[tuple[str, str] | None] = seats) -> None:
                play.tournament_open(b, seats, opened.spec(), opened.seed)

            await room.open(make, stored, lease=self.site.new_lease())
            room.start()
            for player, _ in (s for s in seats if s is not None):
                self.tell_player(player, {"type": "tournament", "tournament": opened.tournament, "round": opened.round,
                                          "table": table_id})

    def _tournament_table_closed(self, room: Room) -> None:
        self._spawn(self.tournament_advance(room.table.id))

    async def tournament_advance(self, table_id: str) -> None:
        """A tournament's table closed: when its round is over everywhere, the next round (or the end)."""
        tid = await asyncio.to_thread(tournaments.tournament_of, self.store.engine, table_id)
        if tid is None:
            return
        opened = await asyncio.to_thread(tournaments.advance, self.store.engine, tid, self.clock.now(),
                                         self.site.new_table_id)
        if opened is not None:
            await self._open_round(opened)

    async def on_claim(self, conn: Connection, m: Claim) -> None:
        room = self._room(m.table)
        player = conn.who
        await self._check_chips(room.table.options, [(player.id, player.name)])

        def claim(b: Batch) -> None:
            seating.claim(b, player.id, player.name, self._master_friends(b.table))
            room.follow(conn)  # in the table's turn, once accepted: the person sees the table from now on

        await room.request(conn, claim, m.ref)

    async def on_join(self, conn: Connection, m: Join) -> None:
        room = self._room(m.table)
        table = room.table
        if not self._admits(table, conn):
            raise ProtocolError("private", "this table is private: only invited people may watch or sit")
        if room.viewer(conn) is None and not table.options.spectators:
            raise ProtocolError("no_spectators", "this table does not allow spectators")
        await room.join(conn, m.last_seq)

    async def on_sit(self, conn: Connection, m: Sit) -> None:
        room = self._room(m.table)
        player = conn.who
        await self._check_chips(room.table.options, [(player.id, player.name)])

        def sit(b: Batch) -> None:
            seating.sit(b, player.id, player.name, m.seat, m.seq, self._master_friends(b.table))
            # in the table's turn and only once accepted: the sitter hears of its own seat, a refused one nothing
            room.follow(conn)

        await room.request(conn, sit, m.ref)

    async def on_leave(self, conn: Connection, m: Leave) -> None:
        player = conn.who
        await self._room(m.table).request(conn, lambda b: seating.leave(b, player.id, m.seq), m.ref)

    async def on_robot(self, conn: Connection, m: Robot) -> None:
        player = conn.who
        await self._room(m.table).request(
            conn, lambda b: seating.add_robot(b, player.id, m.seat, m.level, m.seq), m.ref)

    async def on_unrobot(self, conn: Connection, m: Unrobot) -> None:
        player = conn.who
        await self._room(m.table).request(conn, lambda b: seating.remove_robot(b, player.id, m.seat, m.seq), m.ref)

    async def on_options(self, conn: Connection, m: Options) -> None:
        player = conn.who
        room = self._room(m.table)

        def options(b: Batch) -> None:
            seating.set_options(b, player.id, m.options, m.seq)
            room.seen_options[player.id] = b.table.changed_seq  # the master is not told of their own change

        await room.request(conn, options, m.ref)

    async def on_start(self, conn: Connection, m: Start) -> None:
        room = self._room(m.table)
        player = conn.who

        async def start(b: Batch) -> None:
            table = b.table
            same = room.same_address()
            if not same and table.status == TableStatus.WAITING and table.master_player == player.id:
                await self._check_chips(table.options, [(s.player, s.name or "") for s in table.seats
                                                        if s.kind == SeatKind.PERSON and s.player is not None])
            b.now = self.clock.now()  # the start is decided now, after the chips were checked
            play.start(b, player.id, m.seq, same)

        await room.request(conn, start, m.ref)

    async def on_act(self, conn: Connection, m: Act) -> None:
        player = conn.who
        await self._room(m.table).request(conn, lambda b: play.act(b, player.id, m.action, m.seq), m.ref)

    async def on_back(self, conn: Connection, m: Back) -> None:
        player = conn.who
        await self._room(m.table).request(conn, lambda b: play.back(b, player.id, m.seq), m.ref)

    async def on_cancel(self, conn: Connection, m: Cancel) -> None:
        player = conn.who
        await self._room(m.table).request(conn, lambda b: votes.propose_cancel(b, player.id, m.seq), m.ref)

    async def on_vote(self, conn: Connection, m: Vote) -> None:
        player = conn.who
        await self._room(m.table).request(conn, lambda b: votes.cast_vote(b, player.id, m.accept, m.seq), m.ref)

    async def on_seen(self, conn: Connection, m: Seen) -> None:
        self._room(m.table).seen(conn)

    async def on_chat(self, conn: Connection, m: Chat) -> None:
        room = self._room(m.table)
        player = conn.who
        if conn not in room.followers:
            raise ProtocolError("not_here", "join the table before you chat there")
        await self.spend(conn, Budget.CHAT)
        await room.request(conn, lambda b: seating.say(b, player.id, player.name, m.text), m.ref)

    async def on_invite(self, conn: Connection, m: Invite) -> None:
        """Invite by name: the registered player of that name, or the guests online under it."""
        player = conn.who
        room = self._room(m.table)
        if room.table.master_player != player.id:  # before saying who is online
            raise ProtocolError("not_master", "only the table's master may do that")
        await self.spend(conn, Budget.INVITATION)
        account = await asyncio.to_thread(self.accounts.find, m.name) if self.accounts is not None else None
        targets = {account.id} if account is not None else await self.guests_online(m.name)
        if not targets:
            raise ProtocolError("no_player", f"no player called {m.name!r} is registered or online")
        await room.request(conn, lambda b: seating.invite(b, player.id, m.name, sorted(targets)), m.ref)
        for target in targets:
            self.tell_player(target, {"type": "invitation", "table": m.table, "from": player.name})
        self._lobby_update(room)

    async def on_review(self, conn: Connection, m: Review) -> None:
        """A finished deal of the table's current (or last) game, told whole: to whoever may watch the
        table, and only once the deal has ended (until then its hands are secret)."""
        room = self._room(m.table)
        table = room.table
        if not self._admits(table, conn):
            raise ProtocolError("private", "this table is private: only invited people may watch or sit")
        if room.viewer(conn) is None and not table.options.spectators:
            raise ProtocolError("no_spectators", "this table does not allow spectators")
        if table.game_id is None or not m.deal <= len(table.records):
            played = len(table.records)
            raise ProtocolError("no_deal", f"deal {m.deal} of this table's game is not over (it has {played} "
                                           "finished): a deal's hands are secret until it ends")
        number = m.deal
        names = [s.name or f"Seat {i + 1}" for i, s in enumerate(table.seats)]
        told = published(table.game_id, number, len(table.records), table.records[number - 1],
                         table.commitments[number - 1], names, table.deal_place(number))
        conn.send({"type": "review", "table": table.id, **told, **({"ref": m.ref} if m.ref else {})})

    async def on_ping(self, conn: Connection, m: Ping) -> None:
        conn.send({"type": "pong"})

    # ------------------------------------------------------------ chips
    async def _check_chips(self, options: TableOptions, people: list[tuple[str, str]]) -> None:
        """At a betting table everyone must hold the bet (guests are refused by the table itself)."""
        if not options.bet or not options.competitive:
            return
        ids = [p for p, _ in people if ledger.registered(p)]
        if not ids:
            return

        def read() -> dict[str, int]:
            with self.store.engine.connect() as conn:
                return ledger.balances(conn, ids)

        held = await asyncio.to_thread(read)
        for player, name in people:
            if player in held and held[player] < options.bet:
                raise ProtocolError("not_enough_chips", f"{name} holds {held[player]} chips, less than this "
                                    f"table's bet of {options.bet}", bet=options.bet, balance=held[player], name=name)


__all__ = ["Config", "Connection", "Hub", "Player", "RemoteConnection"]
