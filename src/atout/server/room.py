"""A room: one table at run time, its actor (lichess's round actor, in asyncio).

The room takes its table's requests one at a time (its lock's waiters are the table's queue, served
in order), applies each through the pure ``Table``, has the store commit the events, and only then
tells each follower what its viewer may see. It runs the table's robots and clocks, which send it
requests like anybody else, and pauses the table while the store cannot be reached. The ``Table`` is
the only writer of table state: the room hands it runtime facts through its methods.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from ..bots import make_bot
from ..bots.base import Bot
from ..bots.random_bot import RandomBot
from ..engine.kinds import EventType, SeatKind, TableStatus
from ..engine.record import action_to_json
from . import finisher
from .addresses import AddressBook
from .clock import Clock
from .features.daily import daily_end, robot_seed
from .logs import event_log, log
from .patches import Parts, changed, deal_of, patch_for, unmoved
from .protocol import ProtocolError, dumps
from .results import Bets, GameOver
from .store import Append, Store, StoredEvent, StoredTable, StoreError, StoreWriter
from .table import Table, Timing

if TYPE_CHECKING:
    from .site.connection import Connection

HISTORY_KEPT = 2000
LOG_KEPT = 300
"""The most events a joining page's log gets (a five-seat deal is about 100)."""
LOG_REACH = 600
"""How far back the store is read for the deal's start when the memory does not reach it."""
SNAPSHOT_EVERY = 64
_NOTHING = object()

SNAPSHOT_KINDS = frozenset({EventType.GAME_END, EventType.CANCEL_END, EventType.CLOSED})
"""Events after which the table is stored whole: a game's end, the table's end."""
LOBBY_KINDS = frozenset({
    EventType.SAT, EventType.LEFT, EventType.ROBOT, EventType.UNROBOT, EventType.OPTIONS, EventType.GAME_START,
    EventType.GAME_END, EventType.CANCEL_END, EventType.CLOSED, EventType.ABANDON, EventType.MASTER,
    EventType.CREATED, EventType.INVITED, EventType.CLAIMED, EventType.UNCLAIMED, EventType.REPLACED,
})
"""Events that change the table's line in the lobby."""

Make = Callable[[Table, float], list[dict[str, Any]] | Awaitable[list[dict[str, Any]]]]


@dataclass
class Stats:
    """This process's counters (``/health``, ``/metrics``)."""

    actions: int = 0  # game actions accepted by the tables run here
    frames: int = 0  # frames made here for connections, this process's and others'
    crossed: int = 0  # of those, frames for another process's connections: they crossed the bus


@dataclass
class Services:
    """What a room uses of its process: the store, the clock, the site's fences, the lobby."""

    store: Store
    writer: StoreWriter
    clock: Clock
    timing: Timing
    addresses: AddressBook
    fence: Callable[[str], tuple[str, int] | None]
    lobby: Callable[[Room], None]  # the table's line in the lobby may have changed
    stats: Stats = field(default_factory=Stats)
    closed: Callable[[Room], None] | None = None  # a tournament's table closed (its round may be over)


class Room:
    """A table at run time: its queue, its followers, its recent events, its robots and timer."""

    def __init__(self, table: Table, services: Services) -> None:
        self.table = table
        self.services = services
        self.lock = asyncio.Lock()  # its waiters, served in order, are the table's queue
        self.followers: set[Connection] = set()
        self.history: deque[dict[str, Any]] = deque(maxlen=HISTORY_KEPT)
        self.wake = asyncio.Event()
        self.tasks: list[asyncio.Task[Any]] = []
        self.robot_for: tuple[int, int] | None = None  # (seq, seat) a robot is thinking about
        self.bots: dict[tuple[int, str], Bot] = {}
        self.seen_options: dict[str, int] = {}
        self.snapshot_seq = 0
        self.base: tuple[int, bytes] | None = None  # the last snapshot stored (seq, JSON): to roll back to
        self.told: tuple[Any, ...] = (None, None, None, None)  # the last telling's shared view, public view,
        # and the shared view's lasting and passing parts
        self.armed: Any = None  # the deadline the timer sleeps until (None: none); changes wake it
        self._same_address: tuple[tuple[int, int], list[int]] | None = None
        self._followers_changed = 0  # counts the changes of ``followers``, for ``_audience``
        self._audience_seen: tuple[Any, tuple[list[tuple[Connection, int | None]], set[int | None], int]] | None = None

    # ------------------------------------------------------------ queries
    @property
    def id(self) -> str:
        return self.table.id

    def spectators(self) -> int:
        return sum(1 for c in self.followers if c.player is None or self.table.seat_of(c.player.id) is None)

    def viewer(self, conn: Connection) -> int | None:
        return None if conn.player is None else self.table.seat_of(conn.player.id)

    def same_address(self) -> list[int]:
        """``AddressBook.shared`` for this table, worked out again only when its people or the
        addresses seen change."""
        key = (self.table.version, self.services.addresses.version)
        cached = self._same_address
        if cached is None or cached[0] != key:
            cached = self._same_address = (key, self.services.addresses.shared(self.table))
        return cached[1]

    def _note_facts(self) -> bool:
        """Hand the table the runtime facts its views show; True if one moved."""
        return self.table.note_same_address(self.same_address())

    # ------------------------------------------------------------ life
    def start(self) -> None:
        self.tasks.append(asyncio.create_task(self._timer()))
        self._schedule_robot()

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):  # stopping: whatever it did is over
                await task

    def drop(self) -> None:
        """The table is no longer run here (another process took it over): its tasks stop now."""
        for task in self.tasks:
            task.cancel()

    @classmethod
    def loaded(cls, item: StoredTable, services: Services) -> Room:
        """A table as the store holds it, ready to run again here."""
        events = [e.data for e in item.events]
        room = cls(rebuilt(item.snapshot, events, services.timing, services.clock.now()), services)
        room._remember_stored(item, events)
        return room

    # ------------------------------------------------------------ requests
    async def request(self, conn: Connection | None, make: Make, ref: str | None = None) -> None:
        """One request in the table's turn: refused while the table is paused, else its events stored
        and told."""
        async with self.lock:
            self._check_paused()
            events = make(self.table, self.services.clock.now())
            if not isinstance(events, list):  # a request that waits for something first (Make)
                events = await events
            await self.commit(events, origin=conn, ref=ref)

    def _check_paused(self) -> None:
        if self.table.paused is not None:
            raise ProtocolError("paused", self.table.paused)

    async def create(self, conn: Connection, ref: str | None, stored: Callable[[int | None], Awaitable[None]],
                     quick: bool = False, lease: tuple[str, float, float] | None = None,
                     daily: tuple[dict[str, Any], str] | None = None) -> None:
        """A new table's first events, its creator following it; ``stored`` once the store has the table
        (and, given ``lease``, this process's lease on it: its fencing token)."""
        async with self.lock:
            now = self.services.clock.now()
            events = self.table.create(conn.who.id, conn.who.name, now, quick=quick, daily=daily)
            token = await asyncio.to_thread(self.services.store.create_table, self.table.id, now,
                                            self.table.snapshot(), self.table.players, lease)
            await stored(token)
            self.follow(conn)
            await self.commit(events, force_snapshot=True, origin=conn, ref=ref)

    async def open(self, make: Callable[[Table, float], list[dict[str, Any]]],
                   stored: Callable[[int | None], Awaitable[None]], lease: tuple[str, float, float] | None = None) -> None:
        """A table the server opens by itself (a tournament's): its first events, nobody following yet; its
        people start the absence clock until they come (docs/tournaments.md)."""
        async with self.lock:
            now = self.services.clock.now()
            events = make(self.table, now)
            token = await asyncio.to_thread(self.services.store.create_table, self.table.id, now,
                                            self.table.snapshot(), self.table.players, lease)
            await stored(token)
            await self.commit(events, force_snapshot=True)
            for i, seat in enumerate(self.table.seats):
                if seat.kind == SeatKind.PERSON:
                    self.table.connection_lost(i, now)
            self.wake.set()

    def follow(self, conn: Connection) -> None:
        self.followers.add(conn)
        self._followers_changed += 1
        conn.tables.add(self.table.id)

    async def join(self, conn: Connection, last_seq: int | None) -> None:
        """``conn`` follows the table: the events it missed, then its state; a seated person back."""
        table = self.table
        seat = self.viewer(conn)
        async with self.lock:
            self.follow(conn)
            if last_seq is not None and last_seq < table.seq:
                for event in await self.events_after(last_seq):
                    conn.send({"type": "event", "table": table.id, "seq": event["seq"],
                               "event": table.public_event(event, seat)})
            was_gone = seat is not None and seat in table.gone_since
            events = table.connection_back(conn.who.id, self.services.clock.now()) if seat is not None else []
            moved = seat is not None and self.same_address() != table.same_address
            log = await self.deal_log(seat) if last_seq is None else None  # a page that holds no log yet
            if events:  # back after being marked absent: everyone hears ``present``, then this page its state
                await self.commit(events)
                conn.send(self.state_for(conn, log))
            elif was_gone or moved:  # moved: a seat now shares an address, and everyone is told before a game
                self.tell_state(conn, log)  # connected again: everyone sees it, the returning page included
            else:
                conn.send(self.state_for(conn, log))
        self.services.lobby(self)

    async def deal_log(self, seat: int | None) -> list[dict[str, Any]]:
        """The table's log so far as ``seat`` (None: a spectator) may see it, for a page that arrives: the
        current deal's events from its start (its game's start too, for the first deal), or the table's
        last events before any deal; each as that viewer would have received it (``public_event``: an
        écart is its trumps and its size to all but the taker). Chat lines are in the state already."""
        table = self.table
        events: list[dict[str, Any]] = list(self.history)
        starts = (EventType.DEAL_START, EventType.GAME_START)
        if table.game is not None and not any(e["type"] in starts for e in events):
            since = max(0, table.seq - LOG_REACH)  # loaded from the store mid-deal: the store has the rest
            stored = await asyncio.to_thread(self.services.store.events_after, table.id, since, LOG_REACH)
            events = [e.data for e in stored]
        begin = next((i for i in range(len(events) - 1, -1, -1) if events[i]["type"] == EventType.DEAL_START), None)
        if begin is None:
            begin = max(0, len(events) - LOG_KEPT)
        else:
            while begin and events[begin - 1]["type"] in (EventType.GAME_START, EventType.GAME_DEALER):
                begin -= 1
        kept = [e for e in events[begin:] if e["type"] != EventType.CHAT][-LOG_KEPT:]
        return [{"seq": e["seq"], "event": table.public_event(e, seat)} for e in kept]

    def lost(self, conn: Connection) -> None:
        """``conn`` closed: a seated person with no connection left here starts the absence clock."""
        self.followers.discard(conn)
        self._followers_changed += 1
        seat = self.viewer(conn)
        player = conn.player
        still = player is not None and any(c.player is not None and c.player.id == player.id for c in self.followers)
        if seat is not None and not still:
            self.table.connection_lost(seat, self.services.clock.now())
            event_log(event="connection_lost", table=self.table.id, seat=seat)
            self.wake.set()
            self.tell_state()  # everyone sees at once that the seat's person is gone
        self.services.lobby(self)

    def seen(self, conn: Connection) -> None:
        """The viewer saw the options' change: its state again, without the mark."""
        if conn not in self.followers:  # the answer is the table's state: only for those who may watch it
            raise ProtocolError("not_here", "join the table first")
        self.seen_options[conn.who.id] = self.table.changed_seq
        conn.send(self.state_for(conn))

    async def events_after(self, seq: int) -> list[dict[str, Any]]:
        if self.history and self.history[0]["seq"] <= seq + 1:
            return [e for e in self.history if e["seq"] > seq]
        stored = await asyncio.to_thread(self.services.store.events_after, self.table.id, seq, HISTORY_KEPT)
        if len(stored) == HISTORY_KEPT:
            return []  # too far behind: the state alone
        return [e.data for e in stored]

    # ------------------------------------------------------------ committing and telling
    async def commit(self, events: list[dict[str, Any]], force_snapshot: bool = False,
                     origin: Connection | None = None, ref: str | None = None) -> None:
        """Store the events, then tell every follower what its viewer may see. Called in the table's turn."""
        if not events:
            return
        table = self.table
        stored = [StoredEvent(e["seq"], e["at"], e["type"], e) for e in events]
        snapshot = None
        kinds = {e["type"] for e in events}
        encoded = b""
        if force_snapshot or table.seq - self.snapshot_seq >= SNAPSHOT_EVERY or kinds & SNAPSHOT_KINDS:
            encoded = orjson.dumps(table.snapshot())  # once: the store writes it, the room keeps it
            snapshot = (table.seq, orjson.Fragment(encoded))
        bets: Bets | None = None
        over: GameOver | None = None
        for item in table.take_concluded():
            if isinstance(item, Bets):
                bets = item
            else:
                over = item
        self._note_facts()
        try:
            await self.services.writer.write(Append(
                table.id, stored, snapshot, status=TableStatus.CLOSED if EventType.CLOSED in kinds else None,
                game=None if over is None else finisher.game_row(over), bets=bets,
                settlement=None if over is None else finisher.settlement(over),
                daily=None if over is None else daily_end(over),
                fence=self.services.fence(table.id)))
        except StoreError as err:
            if err.outage:
                self._roll_back()
                self._pause("the store cannot be reached: the table waits for it and resumes by itself")
            elif err.fenced is None:
                await self._reload()
            raise
        except Exception:
            await self._reload()
            raise
        if snapshot is not None:
            self.snapshot_seq = table.seq
            self.base = (snapshot[0], encoded)
        self.history.extend(events)
        if EventType.CLOSED in kinds and table.daily is not None and "tournament" in table.daily \
                and self.services.closed is not None:
            self.services.closed(self)
        self.services.stats.actions += sum(1 for e in events if e["type"] == EventType.ACTION)
        if log.isEnabledFor(20):  # INFO
            for e in events:
                event_log(event=e["type"], table=table.id, seq=e["seq"], seat=e.get("seat"))
        self.tell(events, origin, ref)
        if EventType.REPLACED in kinds:  # a person took a robot's seat: here or not, their absence clock says
            for e in events:
                if e["type"] == EventType.REPLACED and not any(
                        c.player is not None and c.player.id == e["player"] for c in self.followers):
                    table.connection_lost(e["seat"], self.services.clock.now())
        if kinds & LOBBY_KINDS:
            self.services.lobby(self)
        if table.status == TableStatus.CLOSED:
            for task in self.tasks:
                task.cancel()
        self._rearm()
        self._schedule_robot()

    def tell(self, events: list[dict[str, Any]], origin: Connection | None = None, ref: str | None = None) -> None:
        """Send each follower the events as its viewer may see them, the last with its whole state (or,
        to a client that asked for patches, what changed in it); the requester's first event echoes its
        request's ``ref``."""
        table = self.table
        followers, viewers, spectators = self._audience()
        lasting, passing = table.shared_parts(self.services.clock.now(), spectators)
        shared = {**lasting, **passing}
        public, private = table.deal_parts(viewers)
        seen_by = table.public_events(events, viewers)
        # what changed since the last telling, worked out once for every client that had that one (when
        # the lasting parts are the same dict as then, only the passing ones may have changed)
        last_shared, last_public, last_lasting, last_passing = self.told
        if last_shared is None:
            shared_changed = None
        elif lasting is last_lasting:
            shared_changed = changed(last_passing, passing)
        else:
            shared_changed = changed(last_shared, shared)
        public_changed = None if last_public is None or public is None else table.public_changes(last_public, public)
        self.told = (shared, public, lasting, passing)
        last = len(events) - 1
        alike: tuple[list[dict[str, Any]], str] | None = None  # the last frame of those whose patch is the
        # shared and public changes alone (spectators, and seats whose own fields stayed): its events, its text
        for conn, viewer in followers:
            seen = self.seen_options.get(conn.player.id, -1) if conn.player else -1
            own = None if public is None or viewer is None else private[viewer]
            options_changed = table.changed if table.changed_seq > seen else []
            basis = conn.views.get(table.id) if conn.patches else None
            for i, (e, public_event) in enumerate(zip(events, seen_by[viewer], strict=True)):
                message: dict[str, Any] = {"type": "event", "table": table.id, "seq": e["seq"],
                                           "event": public_event}
                if i == last:
                    parts: Parts = (shared, viewer, options_changed, public, own)
                    if basis is None:
                        message["state"] = {**shared, "you": viewer, "changed": options_changed, "deal": deal_of(parts)}
                    else:
                        conn.views[table.id] = parts
                        public_ok = public_changed if basis[3] is last_public else None
                        if public_ok is not None and shared_changed is not None and not (i == 0 and conn is origin) \
                                and unmoved(basis, parts, last_shared):
                            its_events = seen_by[viewer]
                            if alike is None or alike[0] is not its_events:  # made once, sent to each of them
                                message.update(patch_for(basis, parts, last_shared, shared_changed, public_ok))
                                alike = (its_events, dumps(message))
                            conn.send(alike[1])
                            continue
                        message.update(patch_for(basis, parts, last_shared, shared_changed, public_ok))
                if i == 0 and ref is not None and conn is origin:
                    message["ref"] = ref
                conn.send(message)

    def _audience(self) -> tuple[list[tuple[Connection, int | None]], set[int | None], int]:
        """Each follower with the seat it sees the table from, the viewers among them, and how many are
        spectators: worked out again only when the followers or the table's people may have changed
        (a non-action event, another table object), not at every action's telling."""
        table = self.table
        key = (table, table.version, self._followers_changed)
        cached = self._audience_seen
        if cached is None or cached[0] != key:
            followers = [(conn, self.viewer(conn)) for conn in self.followers]
            viewers = {v for _, v in followers}
            spectators = sum(1 for _, v in followers if v is None)  # self.spectators(), from what is at hand
            cached = self._audience_seen = (key, (followers, viewers, spectators))
        return cached[1]

    def tell_state(self, joining: Connection | None = None, log: list[dict[str, Any]] | None = None) -> None:
        """A ``table`` message to every follower: for runtime changes that make no numbered event
        (a connection lost or back before the absence clock ran out, a pause); ``joining``'s with ``log``."""
        for conn in list(self.followers):
            conn.send(self.state_for(conn, log if conn is joining else None))

    def state_for(self, conn: Connection, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        table = self.table
        self._note_facts()
        seen = self.seen_options.get(conn.player.id, -1) if conn.player else -1
        message = {"type": "table", "table": table.id, "seq": table.seq,
                   "state": table.view(self.viewer(conn), self.services.clock.now(), self.spectators(), seen)}
        if log is not None:
            message["log"] = log
        return message

    # ------------------------------------------------------------ the store away
    def _roll_back(self) -> None:
        """The table as last stored, without the store: its last stored snapshot and the events after it
        (those kept in memory are all stored). A write the store never confirmed is undone."""
        if self.base is None:
            return
        base_seq, base = self.base
        events = [e for e in self.history if e["seq"] > base_seq]
        if base_seq + len(events) != (events[-1]["seq"] if events else base_seq):
            return  # the memory does not reach back to the snapshot: the store will say, when it answers
        self.table = table = self._rebuilt(orjson.loads(base), events)
        event_log(event="rolled_back", table=table.id, seq=table.seq)

    def _pause(self, why: str) -> None:
        """The store did not answer: the table stops (nothing more is accepted, no clock or robot acts),
        says why to everyone, and comes back from the store once the store answers again."""
        if not self.table.pause(why):
            return
        event_log(event="paused", table=self.table.id, why=why)
        self.tell_state()
        self.tasks.append(asyncio.create_task(self._resume_when_stored()))

    async def _resume_when_stored(self) -> None:
        delay = 0.25
        while True:
            await asyncio.sleep(delay)  # real time: the store's outage, not the game's clock
            delay = min(delay * 2, 2.0)
            try:
                item = await asyncio.to_thread(self.services.store.table, self.table.id)
            except Exception:  # still away: try again
                continue
            if item is None:
                return
            async with self.lock:
                table = self._restore(item)
                self.robot_for = None
                event_log(event="resumed", table=table.id, seq=table.seq, why="the store answers again")
                self.tell_state()
                self.wake.set()
                self._schedule_robot()
            return

    async def _reload(self) -> None:
        """The store refused a batch: the table goes back to what is stored."""
        item = await asyncio.to_thread(self.services.store.table, self.table.id)
        if item is None:
            return
        table = self._restore(item)
        event_log(event="reloaded", table=table.id, seq=table.seq)

    def _restore(self, item: StoredTable) -> Table:
        """The room as the store holds its table: the table rebuilt (the seats of people following here
        all along get no absence clock), and the room's stored snapshot and recent events with it."""
        events = [e.data for e in item.events]
        self.table = table = self._rebuilt(item.snapshot, events)
        self._remember_stored(item, events)
        return table

    def _here(self) -> frozenset[int]:
        """The seats whose person follows the table here now."""
        return frozenset(s for c in self.followers if (s := self.viewer(c)) is not None)

    def _remember_stored(self, item: StoredTable, events: list[dict[str, Any]]) -> None:
        """What the room keeps of the store: the last snapshot (to roll back to) and the events after it
        (to catch up a reconnecting client), exactly as stored."""
        self.snapshot_seq = item.snapshot_seq
        self.base = (item.snapshot_seq, orjson.dumps(item.snapshot))
        self.history = deque(events, maxlen=HISTORY_KEPT)

    def _rebuilt(self, snapshot: dict[str, Any], events: list[dict[str, Any]]) -> Table:
        """The table from the store's data; the seats of people following here all along keep no
        absence clock."""
        return rebuilt(snapshot, events, self.services.timing, self.services.clock.now(), self._here())

    # ------------------------------------------------------------ robots and clocks
    def _bot(self, seat: int) -> Bot:
        table = self.table
        level = table.robot_level(seat)
        key = (seat, level)
        if key not in self.bots:
            self.bots[key] = make_bot(level, f"{table.id}/{seat}/{level}")
        return self.bots[key]

    def _schedule_robot(self) -> None:
        table = self.table
        seat = table.robot_turn()
        if seat is None or self.robot_for == (table.seq, seat):
            return
        self.robot_for = (table.seq, seat)
        self.tasks = [t for t in self.tasks if not t.done()]
        self.tasks.append(asyncio.create_task(self._robot(seat, table.seq)))

    async def _robot(self, seat: int, seq: int) -> None:
        table = self.table
        clock = self.services.clock
        await clock.sleep_until(table.last_event_at + self.services.timing.robot_pace)
        if self.table is not table or table.seq != seq or table.robot_turn() != seat or table.paused:
            return
        deal = table.deal
        assert deal is not None and table.game is not None
        deal_index = table.game.deal_index - 1  # the deal being played, from 0 (void deals included)
        observation = deal.observation(seat)
        # A robot's first move makes it off the event loop: an expert loads its compiled card
        # play then (0.2 s, or seconds the first time on a machine).
        try:
            if table.daily is not None and table.daily_seed is not None:
                # a daily deal's robot answers the same play the same way: its seed is the day's, the deal's,
                # the seat's and the actions' so far (daily.py), a new robot for each decision
                seed = robot_seed(table.daily_seed, deal_index, seat, [action_to_json(s, a) for s, a in deal.history])
                level = table.robot_level(seat)
                action = await asyncio.to_thread(lambda: make_bot(level, seed).choose(observation))
            else:
                bot = self.bots.get((seat, table.robot_level(seat)))
                if bot is None:
                    bot = await asyncio.to_thread(self._bot, seat)
                action = await asyncio.to_thread(bot.choose, observation)
        except Exception as err:  # a failing robot must not stop the table: a legal move instead
            event_log(event="robot_failed", table=table.id, seat=seat, error=repr(err))
            action = RandomBot(f"{table.id}/{seq}").choose(observation)
        body = action_to_json(seat, action)
        del body["seat"]
        async with self.lock:
            if self.table is not table or table.seq != seq or table.paused:
                return
            try:
                events = table.play(seat, body, clock.now(), by=SeatKind.ROBOT)
            except ProtocolError as err:
                event_log(event="robot_refused", table=table.id, seat=seat, error=err.message)
                fallback = RandomBot(f"{table.id}/{seq}/fallback").choose(observation)
                body = action_to_json(seat, fallback)
                del body["seat"]
                events = table.play(seat, body, clock.now(), by=SeatKind.ROBOT)
            try:
                await self.commit(events)
            except StoreError as err:  # the table is paused or reloaded: the robot plays again after
                event_log(event="robot_not_stored", table=table.id, seat=seat, error=str(err))

    async def _timer(self) -> None:
        """Wake at the table's next deadline (turn clock, absence, vote, next deal) and let it act."""
        clock = self.services.clock
        while self.table.status != TableStatus.CLOSED:
            self.wake.clear()
            deadlines = self.table.deadlines()
            self.armed = deadlines[0] if deadlines else None
            waiters: list[asyncio.Task[Any]] = [asyncio.create_task(self.wake.wait())]
            if deadlines:
                waiters.append(asyncio.create_task(clock.sleep_until(deadlines[0][0])))
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()
            if self.wake.is_set():
                continue
            events: list[dict[str, Any]] = []
            if self.table.paused:
                await self.wake.wait()  # woken when the table comes back
                continue
            async with self.lock:
                try:
                    events = self.table.tick(clock.now())
                    await self.commit(events)
                except Exception as err:  # a clock must keep running whatever one tick did
                    event_log(event="tick_failed", table=self.table.id, error=repr(err))
                    await asyncio.sleep(0.5)
            if not events and not self._deadline_ahead():
                self.armed = _NOTHING  # any change wakes it
                await self.wake.wait()  # nothing was due after all, nor is anything coming: wait for a change

    def _rearm(self) -> None:
        """Wake the table's timer only if its next deadline moved (most cards change none: waking a
        sleeping timer per card cost a tenth of the server's time)."""
        deadlines = self.table.deadlines()
        if (deadlines[0] if deadlines else None) != self.armed or self.table.status == TableStatus.CLOSED:
            self.wake.set()

    def _deadline_ahead(self) -> bool:
        """Whether the table's next deadline is still to come (a sleeper woke early: sleep again)."""
        deadlines = self.table.deadlines()
        return bool(deadlines) and deadlines[0][0] > self.services.clock.now()


def rebuilt(snapshot: dict[str, Any], events: list[dict[str, Any]], timing: Timing, now: float,
            here: frozenset[int] = frozenset()) -> Table:
    """A table from a snapshot and the events after it, its clocks started afresh (nobody loses the
    time the server was away); the seats in ``here`` had their person connected all along."""
    table = Table.from_snapshot(snapshot, timing)
    for event in events:
        table.evolve(event)
    table.restarted(now, here)
    return table


__all__ = ["HISTORY_KEPT", "Room", "Services", "Stats", "rebuilt"]
