"""The server's runtime: connections, rooms (a table with its lock, robots and timer), the lobby.

A request for a table is handled under that table's lock: the table makes its
events, the store commits them, and only then does anyone hear of them, each
connection getting what its viewer may see.  Robots and clocks are tasks that
send the table requests like anybody else.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
import types
from collections import deque
from dataclasses import dataclass, field
from time import perf_counter  # the latency histogram (tests may replace the module time)
from typing import Any

import orjson

from ..bots import make_bot
from ..bots.random_bot import RandomBot
from ..engine.record import action_to_json
from ..engine.view import PRIVATE
from . import ledger
from .accounts import NAME, NAME_RULE, name_key, normal_name
from .clock import Clock, SystemClock
from .friends import Friends
from .options import OptionError, TableOptions
from .protocol import PROTOCOL_VERSION, ProtocolError, dumps, parse_message
from .store import Append, GameRow, Store, StoredEvent, StoreError, StoreWriter
from .table import Table, Timing

log = logging.getLogger("atout.server")

HISTORY_KEPT = 2000
SNAPSHOT_EVERY = 64
OUTBOX_LIMIT = 5000
_NOTHING = object()


@dataclass
class Config:
    """Server settings (``atout serve`` options); tests shorten the times."""

    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    timing: Timing = field(default_factory=Timing)
    hasher: Any = None  # argon2's PasswordHasher; None for its recommended costs (tests make it cheaper)
    rate: float = 20.0  # messages per second a connection may send, on average
    burst: float = 40.0
    chat_per_10s: int = 5
    trusted_proxy: bool = False  # behind a proxy of ours: a connection's address is its X-Forwarded-For


def event_log(**fields: Any) -> None:
    """One structured log line (JSON) per table event or incident, on stderr."""
    if log.isEnabledFor(logging.INFO):
        log.info(json.dumps(fields, separators=(",", ":"), ensure_ascii=False, default=str))


@dataclass
class Player:
    id: str
    name: str
    registered: bool = False


class Histogram:
    """Counts of durations under each bound, for /metrics (Prometheus' cumulative buckets)."""

    BOUNDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)

    def __init__(self) -> None:
        self.counts = [0] * (len(self.BOUNDS) + 1)
        self.total = 0.0

    def observe(self, seconds: float) -> None:
        self.total += seconds
        for i, bound in enumerate(self.BOUNDS):
            if seconds <= bound:
                self.counts[i] += 1
                return
        self.counts[-1] += 1


class Bucket:
    """A token bucket: ``rate`` per second, up to ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    """One WebSocket: who it is, which tables it follows, and its outbox (a slow reader never blocks a table)."""

    def __init__(self, send_text, close, config: Config, account=None, address: str | None = None,
                 process: str | None = None, deliver=None) -> None:
        self._send_text = send_text
        self._close = close
        self.id = secrets.token_hex(8)
        self.process = process  # None: a connection of this process; else another process's, served here
        self.remote_tables: set[str] = set()  # tables this connection follows that another process runs
        if deliver is not None:
            self.deliver = deliver
        self.account = account  # the registered player whose session cookie opened this connection
        self.address = address  # the client's IP address: two registered people from one make a game unranked
        self.player: Player | None = None
        self.tables: set[str] = set()
        self.lobby = False
        self.bucket = Bucket(config.rate, config.burst)
        self.chats: deque[float] = deque()
        self.outbox: asyncio.Queue[str | _Unfinished | None] = asyncio.Queue()
        self.busy = False  # the pump is sending: later frames queue behind it
        self.closed = False
        self.sent: list[str] | None = None  # tests record every frame sent here
        self.patches = False  # the client asked for patches instead of whole states on events (hello)
        self.views: dict[str, Parts] = {}  # table -> the last state it was sent or patched to, as parts

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.patches and not isinstance(message, str) and "state" in message:
            state = message["state"]
            self.views[message["table"]] = (state, state["you"], state["changed"], state["deal"], None)
        self.deliver(message if isinstance(message, str) else dumps(message))

    def deliver(self, text: str) -> None:
        """Send a frame as it leaves (another process's connection is given one that sends it there): at
        once when nothing waits before it, through the outbox otherwise."""
        if self.closed:
            return
        if self.busy or self.outbox.qsize():
            if self.outbox.qsize() > OUTBOX_LIMIT:
                self.closed = True
                self.outbox.put_nowait(None)
                return
            self.outbox.put_nowait(text)
            return
        if self.sent is not None:
            self.sent.append(text)
        # The ASGI send is a coroutine that, unless the socket's buffer is full, finishes without ever
        # suspending: run it here rather than through a queue and a task switch per frame (4 frames an
        # action at a 4-seat table). If it does suspend, the pump finishes it before anything else.
        step = self._send_text(text)
        try:
            waiting = step.send(None)
        except StopIteration:
            return
        except Exception:  # the socket is gone: the pump closes the connection
            self.closed = True
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(_Unfinished(step, waiting))

    async def pump(self) -> None:
        """Send the outbox in order until the connection closes."""
        while True:
            item = await self.outbox.get()
            if item is None:
                with contextlib.suppress(Exception):
                    await self._close()
                return
            self.busy = True
            try:
                if isinstance(item, _Unfinished):
                    await item.finish()
                else:
                    if self.sent is not None:
                        self.sent.append(item)
                    await self._send_text(item)
            finally:
                self.busy = False


class _Unfinished:
    """A send that suspended (a full socket buffer): the coroutine and what it waits for."""

    __slots__ = ("step", "waiting")

    def __init__(self, step, waiting) -> None:
        self.step, self.waiting = step, waiting

    def finish(self):
        """The rest of the send, awaited by the pump as if it had awaited the send from the start."""
        return _resume(self.step, self.waiting)


@types.coroutine
def _resume(step, waiting):
    """``yield from`` for a coroutine already started: what it waits for goes to the awaiting task,
    and what the task sends or throws (a cancellation) goes back in, so the send cleans up as usual."""
    while True:
        try:
            sent = yield waiting
        except GeneratorExit:
            step.close()
            raise
        except BaseException as exc:  # a cancellation too: the send must see it
            try:
                waiting = step.throw(exc)
            except StopIteration:
                return
        else:
            try:
                waiting = step.send(sent)
            except StopIteration:
                return


def _changed(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``after`` that differ from ``before``'s."""
    return {k: v for k, v in after.items() if (old := before.get(k, _NOTHING)) is not v and old != v}


def state_patch(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What changed from one TableView to the next, for a client that asked for patches: ``patch`` holds
    the top-level fields that changed (a new value replaces the old), ``deal_patch`` the DealView's
    fields that changed when both states have a deal (docs/protocol.md, "Patches")."""
    patch = _changed(before, after)
    out: dict[str, Any] = {"patch": patch}
    old_deal, new_deal = before.get("deal"), after.get("deal")
    if "deal" in patch and old_deal is not None and new_deal is not None:
        del patch["deal"]
        out["deal_patch"] = _changed(old_deal, new_deal)
    return out


Parts = tuple[dict[str, Any], Any, Any, Any, Any]
"""A TableView as its parts: the shared view (or the whole state), you, changed, the deal view, and
the public deal view that deal view was made from (None if unknown)."""


def _patch(basis: Parts, parts: Parts, last_shared: Any, shared_changed: dict[str, Any] | None,
           public_changed: dict[str, Any] | None) -> dict[str, Any]:
    """``state_patch`` from the client's last state to this one; quick when the last state was made from
    the table's last telling: the shared and public fields' changes are then the same for every viewer,
    worked out once."""
    its_shared, its_you, its_changed, old_deal, its_public = basis
    _, you, changed, new_deal, _ = parts
    if shared_changed is None or its_shared is not last_shared:
        return state_patch(_whole(basis), _whole(parts))
    patch = dict(shared_changed)
    if its_you != you:
        patch["you"] = you
    if its_changed != changed:
        patch["changed"] = changed
    out: dict[str, Any] = {"patch": patch}
    if old_deal is None or new_deal is None:
        if old_deal is not new_deal:
            patch["deal"] = new_deal
        return out
    if public_changed is not None and its_public is not None:
        deal_patch = dict(public_changed)
        for key in PRIVATE:
            if old_deal[key] != new_deal[key]:
                deal_patch[key] = new_deal[key]
    else:
        deal_patch = _changed(old_deal, new_deal)
    if deal_patch:
        out["deal_patch"] = deal_patch
    return out


def _whole(parts: Parts) -> dict[str, Any]:
    shared, you, changed, deal, _ = parts
    return {**shared, "you": you, "changed": changed, "deal": deal}


class Room:
    """A table at run time: its lock, its followers, its recent events, its robots and timer."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.lock = asyncio.Lock()
        self.followers: set[Connection] = set()
        self.history: deque[dict[str, Any]] = deque(maxlen=HISTORY_KEPT)
        self.wake = asyncio.Event()
        self.tasks: list[asyncio.Task] = []
        self.robot_for: tuple[int, int] | None = None  # (seq, seat) a robot is thinking about
        self.bots: dict[tuple[int, str], Any] = {}
        self.seen_options: dict[str, int] = {}
        self.snapshot_seq = 0
        self.base: tuple[int, bytes] | None = None  # the last snapshot stored (seq, JSON): to roll back to
        self.told: tuple[Any, Any] = (None, None)  # the shared and public views of the last telling
        self.armed: Any = None  # the deadline the timer sleeps until (None: none); changes wake it

    def spectators(self) -> int:
        return sum(1 for c in self.followers if c.player is None or self.table.seat_of(c.player.id) is None)

    def viewer(self, conn: Connection) -> int | None:
        return None if conn.player is None else self.table.seat_of(conn.player.id)


class Hub:
    """Every room and connection of this server process."""

    def __init__(self, store: Store, config: Config | None = None, clock: Clock | None = None,
                 accounts=None) -> None:
        self.store = store
        self.accounts = accounts
        self.friends = None if accounts is None else Friends(store, accounts)
        self.friend_ids: dict[str, set[str]] = {}
        self.config = config or Config()
        self.clock = clock or SystemClock()
        self.writer = StoreWriter(store)
        self.rooms: dict[str, Room] = {}
        self.connections: set[Connection] = set()
        self.addresses: dict[str, set[str]] = {}  # registered player -> every address seen this run
        self.addresses_seen = 0  # counts additions to ``addresses``: _same_address's answers stand until it moves
        self.handlers = {
            "hello": self.on_hello, "lobby": self.on_lobby, "create": self.on_create, "join": self.on_join,
            "sit": self.on_sit, "leave": self.on_leave, "robot": self.on_robot, "unrobot": self.on_unrobot,
            "options": self.on_options, "start": self.on_start, "act": self.on_act, "back": self.on_back,
            "seen": self.on_seen, "chat": self.on_chat, "cancel": self.on_cancel, "vote": self.on_vote,
            "invite": self.on_invite, "ping": self.on_ping,
        }  # fmt: skip
        self.actions = 0
        self.cluster: Any = None  # a Cluster when several processes share the site (--redis)
        self.latency = Histogram()  # seconds from a request read to its frames queued

    # ------------------------------------------------------------ life
    def use_redis(self, url: str) -> None:
        """Share the site with other processes through Redis (the store must be one they all use)."""
        from .cluster import Cluster

        self.cluster = Cluster(self, url)

    async def start(self) -> None:
        await self.writer.start()
        if self.cluster is not None:  # the tables nobody runs are taken over as leases allow
            await self.cluster.start()
            return
        for item in await asyncio.to_thread(self.store.open_tables):
            self._resume(item)

    def _resume(self, item) -> Room:
        """A table as the store holds it, running again here."""
        events = [e.data for e in item.events]
        room = Room(table := self._rebuilt(item.snapshot, events))
        self._remember_stored(room, item, events)
        self.rooms[table.id] = room
        self._run(room)
        event_log(event="resumed", table=table.id, seq=table.seq, status=table.status)
        return room

    async def load_table(self, table_id: str) -> bool:
        """Take over one table from the store (its lease is ours); False if it is closed or gone."""
        item = await asyncio.to_thread(self.store.table, table_id)
        if item is None or item.status != "open":
            return False
        self._resume(item)
        return True

    @staticmethod
    def log_event(**fields: Any) -> None:
        event_log(**fields)

    async def stop(self) -> None:
        if self.cluster is not None:
            await self.cluster.stop()
        for room in self.rooms.values():
            for task in room.tasks:
                task.cancel()
        for room in self.rooms.values():
            for task in room.tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self.writer.stop()

    def _run(self, room: Room) -> None:
        room.tasks.append(asyncio.create_task(self._timer(room)))
        self._schedule_robot(room)

    # ------------------------------------------------------------ connections
    def connect(self, send_text, close, account=None, address: str | None = None) -> Connection:
        conn = Connection(send_text, close, self.config, account, address)
        self.connections.add(conn)
        return conn

    async def disconnect(self, conn: Connection) -> None:
        self.connections.discard(conn)
        conn.closed = True
        conn.outbox.put_nowait(None)
        if self.cluster is not None and conn.process is None:
            self.cluster.gone(conn)
            player = conn.player
            if player is not None and not player.registered and not any(
                    c.player is not None and c.player.id == player.id for c in self.connections):
                self.cluster.bus.guest(player.name, player.id, online=False)
        for table_id in list(conn.tables):
            room = self.rooms.get(table_id)
            if room is None:
                continue
            room.followers.discard(conn)
            seat = room.viewer(conn)
            still = any(c.player and conn.player and c.player.id == conn.player.id for c in room.followers)
            if seat is not None and not still:
                room.table.connection_lost(seat, self.clock.now())
                event_log(event="connection_lost", table=table_id, seat=seat)
                room.wake.set()
                self._tell_state(room)  # everyone sees at once that the seat's person is gone
            self._lobby_update(room)

    def _tell_state(self, room: Room) -> None:
        """A ``table`` message to every follower: for runtime changes that make no numbered event
        (a connection lost or back before the absence clock ran out)."""
        for conn in list(room.followers):
            conn.send(self._state(room, conn))

    async def receive(self, conn: Connection, text: str | bytes, edge_checked: bool = False) -> None:
        """One frame from a client: parsed, rate-limited, dispatched; errors answered, never raised.
        ``edge_checked``: a request another process received (and rate-limited) for a table run here."""
        ref = None
        started = perf_counter()
        try:
            if not edge_checked and not conn.bucket.take():
                raise ProtocolError("rate_limited", "too many messages: slow down")
            message = parse_message(text)
            ref = message.ref
            if conn.player is None and message.type != "hello":
                raise ProtocolError("hello_first", "say hello first: {\"type\": \"hello\", \"protocol\": 1}")
            table_id = getattr(message, "table", None)
            if self.cluster is not None and table_id is not None and table_id not in self.rooms:
                if edge_checked:  # sent here as the owner, but we no longer run it
                    raise ProtocolError("unavailable", "this table is moving to another server: try again")
                await self.cluster.forward(conn, table_id, text, ref)
                return
            await self.handlers[message.type](conn, message)
            if message.type == "act":
                self.latency.observe(perf_counter() - started)
        except ProtocolError as err:
            conn.send(err.to_json(ref))
        except StoreError as err:
            event_log(event="store_error", error=str(err))
            if err.fenced is not None and self.cluster is not None:
                await self.cluster.lose(err.fenced, "fenced")
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

    async def on_hello(self, conn: Connection, m) -> None:
        if m.protocol != PROTOCOL_VERSION:
            raise ProtocolError("protocol", f"this server speaks protocol {PROTOCOL_VERSION}, not {m.protocol}")
        if conn.player is not None:
            raise ProtocolError("hello_again", "you said hello already")
        conn.patches = m.patches
        if conn.account is not None:  # a registered player: the session says who
            conn.player = Player(conn.account.id, conn.account.name, registered=True)
            if conn.address is not None:
                seen = self.addresses.setdefault(conn.account.id, set())
                if len(seen) < 50 and conn.address not in seen:  # bounded: a roaming phone's, not a flood
                    seen.add(conn.address)
                    self.addresses_seen += 1
            conn.send({"type": "welcome", "protocol": PROTOCOL_VERSION,
                       "you": {"id": conn.account.id, "name": conn.account.name, "registered": True}})
            return
        given = None if m.name is None else normal_name(m.name)
        if given is not None and not NAME.match(given):
            raise ProtocolError("bad_name", NAME_RULE)
        if given is not None and self.accounts is not None and await asyncio.to_thread(self.accounts.find, given):
            raise ProtocolError("name_taken", f"{given!r} is a registered player's name: log in, or choose another")
        player_id = self.player_from_token(m.token) if m.token else None
        if m.token and player_id is None:
            raise ProtocolError("bad_token", "that token was not given by this server")
        if player_id is None:
            player_id = "g" + secrets.token_hex(6)
        name = given or self._known_name(player_id) or f"Guest-{int(player_id[1:7], 16) % 10000:04d}"
        conn.player = Player(player_id, name)
        if self.cluster is not None:
            self.cluster.bus.guest(name, player_id, online=True)
        conn.send({"type": "welcome", "protocol": PROTOCOL_VERSION,
                   "you": {"id": player_id, "name": name, "registered": False}, "token": self.token_for(player_id)})

    def _known_name(self, player_id: str) -> str | None:
        for room in self.rooms.values():
            seat = room.table.seat_of(player_id)
            if seat is not None:
                return room.table.seats[seat].name
        return None

    # ------------------------------------------------------------ lobby
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
        through the bus, on every other process (each keeps its own cache of friends)."""
        for player_id in player_ids:
            self.friend_ids.pop(player_id, None)
        for room in self.rooms.values():
            if room.table.options.private and room.table.master_player in player_ids:
                self._lobby_update(room)
        if self.cluster is not None:
            self.cluster.friends_changed(player_ids, site=site)

    def tell_player(self, player_id: str, message: dict[str, Any], site: bool = True) -> None:
        """Send ``message`` to every connection of ``player_id``, wherever they are on the site."""
        for conn in self.connections:
            if conn.player is not None and conn.player.id == player_id:
                conn.send(message)
        if site and self.cluster is not None:
            self.cluster.tell_player(player_id, message)

    def _admits(self, table: Table, conn: Connection) -> bool:
        return conn.player is not None and table.admits(conn.player.id, conn.player.name, self._master_friends(table))

    async def on_lobby(self, conn: Connection, m) -> None:
        conn.lobby = True
        tables = [r.table.summary(r.spectators()) for r in self.rooms.values()
                  if r.table.status != "closed" and self._admits(r.table, conn)]
        if self.cluster is not None:  # the tables other processes run, private ones to whom they admit
            tables += [summary for table_id, (summary, admit) in self.cluster.lobby.items()
                       if table_id not in self.rooms and self.cluster.admits(admit, conn)]
        conn.send({"type": "lobby", "tables": tables})

    def _lobby_update(self, room: Room) -> None:
        table = room.table
        for conn in self.connections:
            if not conn.lobby:
                continue
            if table.status == "closed" or not self._admits(table, conn):
                conn.send({"type": "lobby_remove", "table": table.id})
            else:
                conn.send({"type": "lobby_table", "table": table.summary(room.spectators())})
        if self.cluster is not None:
            self.cluster.lobby_line(room)

    # ------------------------------------------------------------ tables
    @staticmethod
    def _check_paused(room: Room) -> None:
        if room.table.paused is not None:
            raise ProtocolError("paused", room.table.paused)

    def _room(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is None or room.table.status == "closed":
            raise ProtocolError("no_table", f"no open table {table_id!r}")
        return room

    async def on_create(self, conn: Connection, m) -> None:
        try:
            options = TableOptions.from_json(m.options)
        except OptionError as err:
            raise ProtocolError("bad_option", str(err)) from None
        await self._check_chips(options, [(conn.player.id, conn.player.name)])
        table = Table(secrets.token_urlsafe(6).replace("-", "x").replace("_", "y"), m.players, options,
                      self.config.timing)
        room = Room(table)
        now = self.clock.now()
        async with room.lock:
            events = table.create(conn.player.id, conn.player.name, now)
            await asyncio.to_thread(self.store.create_table, table.id, now, table.snapshot(), table.players)
            if self.cluster is not None:
                await self.cluster.lease_new_table(table.id)
            self.rooms[table.id] = room
            room.followers.add(conn)
            conn.tables.add(table.id)
            await self._commit(room, events, force_snapshot=True, origin=conn, ref=m.ref)
        self._run(room)

    async def on_join(self, conn: Connection, m) -> None:
        room = self._room(m.table)
        table = room.table
        if not self._admits(table, conn):
            raise ProtocolError("private", "this table is private: only invited people may watch or sit")
        seat = room.viewer(conn)
        if seat is None and not table.options.spectators:
            raise ProtocolError("no_spectators", "this table does not allow spectators")
        async with room.lock:
            room.followers.add(conn)
            conn.tables.add(table.id)
            if m.last_seq is not None and m.last_seq < table.seq:
                for event in await self._events_after(room, m.last_seq):
                    conn.send({"type": "event", "table": table.id, "seq": event["seq"],
                               "event": table.public_event(event, seat)})
            was_gone = seat is not None and seat in table.gone_since
            events = table.connection_back(conn.player.id, self.clock.now()) if seat is not None else []
            moved = seat is not None and self._same_address(table) != table.same_address
            if events:
                await self._commit(room, events)
            elif was_gone or moved:  # moved: a seat now shares an address, and everyone is told before a game
                self._tell_state(room)  # connected again: everyone sees it, the returning page included
            else:
                conn.send(self._state(room, conn))
        self._lobby_update(room)

    async def _events_after(self, room: Room, seq: int) -> list[dict[str, Any]]:
        if room.history and room.history[0]["seq"] <= seq + 1:
            return [e for e in room.history if e["seq"] > seq]
        stored = await asyncio.to_thread(self.store.events_after, room.table.id, seq, HISTORY_KEPT)
        if len(stored) == HISTORY_KEPT:
            return []  # too far behind: the state alone
        return [e.data for e in stored]

    def _state(self, room: Room, conn: Connection) -> dict[str, Any]:
        table = room.table
        table.same_address = self._same_address(table)
        seen = room.seen_options.get(conn.player.id, -1) if conn.player else -1
        return {"type": "table", "table": table.id, "seq": table.seq,
                "state": table.view(room.viewer(conn), self.clock.now(), room.spectators(), seen)}

    async def _table_request(self, conn: Connection, m, make) -> None:
        room = self._room(m.table)
        async with room.lock:
            self._check_paused(room)
            events = make(room.table, self.clock.now())
            await self._commit(room, events, origin=conn, ref=m.ref)

    async def on_sit(self, conn: Connection, m) -> None:
        room = self._room(m.table)
        await self._check_chips(room.table.options, [(conn.player.id, conn.player.name)])

        def sit(table: Table, now: float) -> list[dict[str, Any]]:
            events = table.sit(conn.player.id, conn.player.name, m.seat, m.seq, now, self._master_friends(table))
            # under the lock and only once accepted: the sitter hears of its own seat, a refused one hears nothing
            room.followers.add(conn)
            return events

        await self._table_request(conn, m, sit)
        conn.tables.add(m.table)

    async def on_leave(self, conn: Connection, m) -> None:
        await self._table_request(conn, m, lambda t, now: t.leave(conn.player.id, m.seq, now))

    async def on_robot(self, conn: Connection, m) -> None:
        await self._table_request(conn, m, lambda t, now: t.add_robot(conn.player.id, m.seat, m.level, m.seq, now))

    async def on_unrobot(self, conn: Connection, m) -> None:
        await self._table_request(conn, m, lambda t, now: t.remove_robot(conn.player.id, m.seat, m.seq, now))

    async def on_options(self, conn: Connection, m) -> None:
        await self._table_request(conn, m, lambda t, now: t.set_options(conn.player.id, m.options, m.seq, now))

    async def on_start(self, conn: Connection, m) -> None:
        room = self._room(m.table)
        async with room.lock:
            self._check_paused(room)
            table = room.table
            same = self._same_address(table)
            if not same and table.status == "waiting" and table.master_player == conn.player.id:
                await self._check_chips(table.options, [(s.player, s.name) for s in table.seats
                                                        if s.kind == "person" and s.player is not None])
            events = table.start(conn.player.id, m.seq, self.clock.now(), same)
            await self._commit(room, events, origin=conn, ref=m.ref)

    async def on_act(self, conn: Connection, m) -> None:
        await self._table_request(conn, m, lambda t, now: t.act(conn.player.id, m.action, m.seq, now))

    async def on_back(self, conn: Connection, m) -> None:
        await self._table_request(conn, m, lambda t, now: t.back(conn.player.id, now))

    async def on_cancel(self, conn: Connection, m) -> None:
        await self._table_request(conn, m, lambda t, now: t.propose_cancel(conn.player.id, m.seq, now))

    async def on_vote(self, conn: Connection, m) -> None:
        await self._table_request(conn, m, lambda t, now: t.cast_vote(conn.player.id, m.accept, m.seq, now))

    async def on_seen(self, conn: Connection, m) -> None:
        room = self._room(m.table)
        if conn not in room.followers:  # the answer is the table's state: only for those who may watch it
            raise ProtocolError("not_here", "join the table first")
        room.seen_options[conn.player.id] = room.table.changed_seq
        conn.send(self._state(room, conn))

    async def on_chat(self, conn: Connection, m) -> None:
        room = self._room(m.table)
        if conn not in room.followers:
            raise ProtocolError("not_here", "join the table before you chat there")
        now = time.monotonic()
        while conn.chats and conn.chats[0] < now - 10:
            conn.chats.popleft()
        if len(conn.chats) >= self.config.chat_per_10s:
            raise ProtocolError("rate_limited", f"at most {self.config.chat_per_10s} chat messages in 10 seconds")
        conn.chats.append(now)
        await self._table_request(conn, m, lambda t, now: t.say(conn.player.id, conn.player.name, m.text, now))

    async def on_invite(self, conn: Connection, m) -> None:
        """Invite by name: the registered player of that name, or the guests online under it."""
        if self._room(m.table).table.master_player != conn.player.id:  # before saying who is online
            raise ProtocolError("not_master", "only the table's master may do that")
        account = await asyncio.to_thread(self.accounts.find, m.name) if self.accounts is not None else None
        key = name_key(m.name)
        targets = {account.id} if account is not None else {
            c.player.id for c in self.connections
            if c.player is not None and not c.player.registered and name_key(c.player.name) == key}
        if account is None and self.cluster is not None:  # guests online on the other processes too
            targets |= await self.cluster.bus.guests(m.name)
        if not targets:
            raise ProtocolError("no_player", f"no player called {m.name!r} is registered or online")
        await self._table_request(conn, m, lambda t, now: t.invite(conn.player.id, m.name, sorted(targets), now))
        for target in targets:
            self.tell_player(target, {"type": "invitation", "table": m.table, "from": conn.player.name})
        self._lobby_update(self.rooms[m.table])

    async def on_ping(self, conn: Connection, m) -> None:
        conn.send({"type": "pong"})

    # ------------------------------------------------------------ committing and telling
    async def _commit(self, room: Room, events: list[dict[str, Any]], force_snapshot: bool = False,
                      origin: Connection | None = None, ref: str | None = None) -> None:
        """Store the events, then tell every follower what its viewer may see. Called under the room's lock."""
        if not events:
            return
        table = room.table
        stored = [StoredEvent(e["seq"], e["at"], e["type"], e) for e in events]
        snapshot = None
        kinds = {e["type"] for e in events}
        if force_snapshot or table.seq - room.snapshot_seq >= SNAPSHOT_EVERY or kinds & {"game_end", "cancel_end", "closed"}:
            snapshot = (table.seq, table.snapshot())
        game = self._game_row(table, events)
        table.same_address = self._same_address(table)
        try:
            await self.writer.write(Append(table.id, stored, snapshot,
                                           status="closed" if "closed" in kinds else None, game=game,
                                           bets=self._bets(table, events), settlement=self._settlement(table, events),
                                           fence=None if self.cluster is None else self.cluster.fence(table.id)))
        except StoreError as err:
            if err.outage:
                self._roll_back(room)
                self._pause(room, "the store cannot be reached: the table waits for it and resumes by itself")
            elif err.fenced is None:
                await self._reload(room)
            raise
        except Exception:
            await self._reload(room)
            raise
        if snapshot is not None:
            room.snapshot_seq = table.seq
            room.base = (snapshot[0], orjson.dumps(snapshot[1]))
        room.history.extend(events)
        self.actions += sum(1 for e in events if e["type"] == "action")
        if log.isEnabledFor(logging.INFO):
            for e in events:
                event_log(event=e["type"], table=table.id, seq=e["seq"], seat=e.get("seat"))
        self._tell(room, events, origin, ref)
        if kinds & {"sat", "left", "robot", "unrobot", "options", "game_start", "game_end", "cancel_end", "closed",
                    "abandon", "master", "created", "invited"}:
            self._lobby_update(room)
        if table.status == "closed":
            for task in room.tasks:
                task.cancel()
        self._rearm(room)
        self._schedule_robot(room)

    def _tell(self, room: Room, events: list[dict[str, Any]], origin: Connection | None = None,
              ref: str | None = None) -> None:
        """Send each follower the events as its viewer may see them, the last with its whole state (or,
        to a client that asked for patches, what changed in it); the requester's first event echoes its
        request's ``ref``."""
        table = room.table
        followers = [(conn, room.viewer(conn)) for conn in room.followers]
        viewers = {v for _, v in followers}
        shared = table.shared_view(self.clock.now(), room.spectators())
        public, private = table.deal_parts(viewers)
        seen_by = table.public_events(events, viewers)
        # what changed since the last telling, worked out once for every client that had that one
        last_shared, last_public = room.told
        shared_changed = None if last_shared is None else _changed(last_shared, shared)
        public_changed = None if last_public is None or public is None else _changed(last_public, public)
        room.told = (shared, public)
        last = len(events) - 1
        for conn, viewer in followers:
            seen = room.seen_options.get(conn.player.id, -1) if conn.player else -1
            deal = None if public is None else public if viewer is None else {**public, **private[viewer]}
            changed = table.changed if table.changed_seq > seen else []
            basis = conn.views.get(table.id) if conn.patches else None
            for i, (e, public_event) in enumerate(zip(events, seen_by[viewer], strict=True)):
                message: dict[str, Any] = {"type": "event", "table": table.id, "seq": e["seq"],
                                           "event": public_event}
                if i == last:
                    if basis is None:
                        message["state"] = {**shared, "you": viewer, "changed": changed, "deal": deal}
                    else:
                        parts = (shared, viewer, changed, deal, public)
                        public_ok = public_changed if basis[4] is last_public else None
                        message.update(_patch(basis, parts, last_shared, shared_changed, public_ok))
                        conn.views[table.id] = parts
                if i == 0 and ref is not None and conn is origin:
                    message["ref"] = ref
                conn.send(message)

    def _game_row(self, table: Table, events: list[dict[str, Any]]):
        end = next((e for e in events if e["type"] == "game_end"
                    or (e["type"] == "cancel_end" and e["cancelled"])), None)
        if end is None or table.game is None:
            return None
        game = table.game
        seats = [{"seat": i, "kind": s.kind, "player": s.player, "name": s.name, "level": s.level}
                 for i, s in enumerate(table.seats)]
        for gone in table.abandoners:  # their seats were emptied as the game ended
            seats[gone["seat"]].update(kind="person", player=gone["player"], name=gone["name"])
        abandoned = set(end.get("abandoned", []))
        data = {
            "seats": seats,
            "options": table.options.to_json(),
            "sheet": [line.to_json() for line in game.sheet],
            "records": table.records,
            "totals": game.totals,
            "ranking": end.get("ranking"),
            "abandoned": sorted(abandoned),
            "abandoners": table.abandoners,
            "ranked": table.game_ranked,
            "unranked": table.game_unranked,
        }
        status = "finished" if end["type"] == "game_end" else "cancelled"
        participants: list[dict[str, Any]] = []
        if status == "finished":
            places: dict[int, int] = {}  # an abandoner is ranked last: the others move up
            stayed = [r for r in end["ranking"] if r["seat"] not in abandoned]
            for k, r in enumerate(stayed):
                same = k and r["total"] == stayed[k - 1]["total"]
                places[r["seat"]] = places[stayed[k - 1]["seat"]] if same else k + 1
            counted = game.counted
            for seat in seats:
                i = seat["seat"]
                if seat["player"] is None:
                    continue
                place = table.players if i in abandoned else places[i]  # an abandoner is ranked last
                participants.append({
                    "seat": i, "player_id": seat["player"], "name": seat["name"], "total": game.totals[i],
                    "place": place, "won": place == 1 and i not in abandoned, "abandoned": i in abandoned,
                    "deals": len(counted), "taker_deals": sum(1 for line in counted if line.taker == i),
                    "taker_made": sum(1 for line in counted if line.taker == i and line.made),
                    "competitive": table.options.competitive,
                })
        return GameRow(end["game"], table.id, table.players, status, table.game_started_at or end["at"], end["at"],
                       data, tuple(participants), ranked=table.game_ranked)

    # ------------------------------------------------------------ chips
    def _same_address(self, table: Table) -> list[int]:
        """Seats of registered people who share an address with another seated registered person
        (worked out again only when the table's people or the addresses seen change)."""
        key = (table.version, self.addresses_seen)
        cached = table.same_address_answer
        if cached is not None and cached[0] == key:
            return cached[1]
        answer = self._same_address_now(table)
        table.same_address_answer = (key, answer)
        return answer

    def _same_address_now(self, table: Table) -> list[int]:
        people = [(i, self.addresses.get(s.player, set())) for i, s in enumerate(table.seats)
                  if s.kind == "person" and not s.abandoned and ledger.registered(s.player)]
        out: set[int] = set()
        for k, (i, mine) in enumerate(people):
            for j, theirs in people[k + 1:]:
                if mine & theirs:
                    out |= {i, j}
        return sorted(out)

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

    @staticmethod
    def _bets(table: Table, events: list[dict[str, Any]]) -> ledger.Bets | None:
        """A starting game's bets, taken into its pot in the transaction that stores its start."""
        start = next((e for e in events if e["type"] == "game_start"), None)
        if start is None or not any(start.get("stakes") or ()):
            return None
        stakes = tuple((table.seats[i].player, bet) for i, bet in enumerate(start["stakes"]) if bet)
        return ledger.Bets(start["game"], stakes, start["at"])

    @staticmethod
    def _settlement(table: Table, events: list[dict[str, Any]]) -> ledger.GameEnd | None:
        """The game's settlement, when these events end it: finished, cancelled, or deserted (the table
        closed with the game unfinished, every person gone)."""
        kinds = {e["type"]: e for e in events}
        game = table.game
        if game is None or table.game_id is None:
            return None
        if "game_end" in kinds:
            outcome, at = "finished", kinds["game_end"]["at"]
        elif "cancel_end" in kinds and kinds["cancel_end"]["cancelled"]:
            outcome, at = "cancelled", kinds["cancel_end"]["at"]
        elif "closed" in kinds and table.game_outcome is None:
            outcome, at = "deserted", kinds["closed"]["at"]
        else:
            return None
        players = [s.player if s.kind == "person" else None for s in table.seats]
        for gone in table.abandoners:  # their seats were emptied as the game ended
            players[gone["seat"]] = gone["player"]
        counted = game.counted
        single = None
        if game.deals == 1 and counted:
            line = counted[0]
            single = {"taker": line.taker, "partner": line.partner, "made": line.made}
        totals = game.totals
        seats = tuple(ledger.SeatResult(i, players[i], totals[i], i in table.abandoned, table.stakes[i])
                      for i in range(table.players))
        return ledger.GameEnd(table.game_id, table.players, outcome, table.game_ranked, game.deals, seats, at,
                              single, tuple(table.records), table.game_unranked)

    def _roll_back(self, room: Room) -> None:
        """The table as last stored, without the store: its last stored snapshot and the events after it
        (those kept in memory are all stored). A write the store never confirmed is undone."""
        if room.base is None:
            return
        base_seq, base = room.base
        events = [e for e in room.history if e["seq"] > base_seq]
        if base_seq + len(events) != (events[-1]["seq"] if events else base_seq):
            return  # the memory does not reach back to the snapshot: the store will say, when it answers
        room.table = table = self._rebuilt(orjson.loads(base), events, present=room)
        event_log(event="rolled_back", table=table.id, seq=table.seq)

    def _pause(self, room: Room, why: str) -> None:
        """The store did not answer: the table stops (nothing more is accepted, no clock or robot acts),
        says why to everyone, and comes back from the store once the store answers again."""
        if room.table.paused is not None:
            return
        room.table.paused = why
        event_log(event="paused", table=room.table.id, why=why)
        self._tell_state(room)
        room.tasks.append(asyncio.create_task(self._resume_when_stored(room)))

    async def _resume_when_stored(self, room: Room) -> None:
        delay = 0.25
        while True:
            await asyncio.sleep(delay)  # real time: the store's outage, not the game's clock
            delay = min(delay * 2, 2.0)
            try:
                item = await asyncio.to_thread(self.store.table, room.table.id)
            except Exception:
                continue
            if item is None:
                return
            async with room.lock:
                table = self._restore(room, item)
                room.robot_for = None
                event_log(event="resumed", table=table.id, seq=table.seq, why="the store answers again")
                self._tell_state(room)
                room.wake.set()
                self._schedule_robot(room)
            return

    async def _reload(self, room: Room) -> None:
        """The store refused a batch: the table goes back to what is stored."""
        item = await asyncio.to_thread(self.store.table, room.table.id)
        if item is None:
            return
        table = self._restore(room, item)
        event_log(event="reloaded", table=table.id, seq=table.seq)

    def _restore(self, room: Room, item) -> Table:
        """The room as the store holds its table: the table rebuilt (the seats of people following here
        all along get no absence clock), and the room's stored snapshot and recent events with it."""
        events = [e.data for e in item.events]
        room.table = table = self._rebuilt(item.snapshot, events, present=room)
        self._remember_stored(room, item, events)
        return table

    @staticmethod
    def _remember_stored(room: Room, item, events: list[dict[str, Any]]) -> None:
        """What the room keeps of the store: the last snapshot (to roll back to) and the events after it
        (to catch up a reconnecting client), exactly as stored."""
        room.snapshot_seq = item.snapshot_seq
        room.base = (item.snapshot_seq, orjson.dumps(item.snapshot))
        room.history = deque(events, maxlen=HISTORY_KEPT)

    def _rebuilt(self, snapshot: dict[str, Any], events: list[dict[str, Any]], present: Room | None = None) -> Table:
        """A table from a snapshot and the events after it, its clocks started afresh; the seats of
        ``present``'s followers (connected here all along) get no absence clock."""
        table = Table.from_snapshot(snapshot, self.config.timing)
        for event in events:
            table.evolve(event)
        table.restarted(self.clock.now())
        if present is not None:
            for conn in present.followers:
                seat = present.viewer(conn)
                if seat is not None:
                    table.gone_since.pop(seat, None)
        return table

    # ------------------------------------------------------------ robots and clocks
    def _bot(self, room: Room, seat: int):
        table = room.table
        level = table.robot_level(seat)
        key = (seat, level)
        if key not in room.bots:
            room.bots[key] = make_bot(level, f"{table.id}/{seat}/{level}")
        return room.bots[key]

    def _schedule_robot(self, room: Room) -> None:
        table = room.table
        seat = table.robot_turn()
        if seat is None or room.robot_for == (table.seq, seat):
            return
        room.robot_for = (table.seq, seat)
        room.tasks = [t for t in room.tasks if not t.done()]
        room.tasks.append(asyncio.create_task(self._robot(room, seat, table.seq)))

    async def _robot(self, room: Room, seat: int, seq: int) -> None:
        table = room.table
        await self.clock.sleep_until(table.last_event_at + self.config.timing.robot_pace)
        if room.table is not table or table.seq != seq or table.robot_turn() != seat or table.paused:
            return
        observation = table.deal.observation(seat)
        # A robot's first move makes it off the event loop: an expert loads its compiled card
        # play then (0.2 s, or seconds the first time on a machine).
        bot = room.bots.get((seat, table.robot_level(seat))) or await asyncio.to_thread(self._bot, room, seat)
        try:
            action = await asyncio.to_thread(bot.choose, observation)
        except Exception as err:  # a failing robot must not stop the table: a legal move instead
            event_log(event="robot_failed", table=table.id, seat=seat, error=repr(err))
            action = RandomBot(f"{table.id}/{seq}").choose(observation)
        body = action_to_json(seat, action)
        del body["seat"]
        async with room.lock:
            if room.table is not table or table.seq != seq or table.paused:
                return
            try:
                events = table.play(seat, body, self.clock.now(), by="robot")
            except ProtocolError as err:
                event_log(event="robot_refused", table=table.id, seat=seat, error=err.message)
                fallback = RandomBot(f"{table.id}/{seq}/fallback").choose(observation)
                body = action_to_json(seat, fallback)
                del body["seat"]
                events = table.play(seat, body, self.clock.now(), by="robot")
            try:
                await self._commit(room, events)
            except StoreError as err:  # the table is paused or reloaded: the robot plays again after
                event_log(event="robot_not_stored", table=table.id, seat=seat, error=str(err))

    async def _timer(self, room: Room) -> None:
        """Wake at the table's next deadline (turn clock, absence, vote, next deal) and let it act."""
        while room.table.status != "closed":
            room.wake.clear()
            deadlines = room.table.deadlines()
            room.armed = deadlines[0] if deadlines else None
            waiters = [asyncio.create_task(room.wake.wait())]
            if deadlines:
                waiters.append(asyncio.create_task(self.clock.sleep_until(deadlines[0][0])))
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()
            if room.wake.is_set():
                continue
            events: list[dict[str, Any]] = []
            if room.table.paused:
                await room.wake.wait()  # woken when the table comes back
                continue
            async with room.lock:
                try:
                    events = room.table.tick(self.clock.now())
                    await self._commit(room, events)
                except Exception as err:  # a clock must keep running whatever one tick did
                    event_log(event="tick_failed", table=room.table.id, error=repr(err))
                    await asyncio.sleep(0.5)
            if not events and not self._deadline_ahead(room):
                room.armed = _NOTHING  # any change wakes it
                await room.wake.wait()  # nothing was due after all, nor is anything coming: wait for a change

    @staticmethod
    def _rearm(room: Room) -> None:
        """Wake the table's timer only if its next deadline moved (most cards change none: waking a
        sleeping timer per card cost a tenth of the server's time)."""
        deadlines = room.table.deadlines()
        if (deadlines[0] if deadlines else None) != room.armed or room.table.status == "closed":
            room.wake.set()

    def _deadline_ahead(self, room: Room) -> bool:
        """Whether the table's next deadline is still to come (a sleeper woke early: sleep again)."""
        deadlines = room.table.deadlines()
        return bool(deadlines) and deadlines[0][0] > self.clock.now()


__all__ = ["Config", "Connection", "Hub", "Player"]
