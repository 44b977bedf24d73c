"""A room: one table at run time, its actor (lichess's round actor, in asyncio).

The room takes its table's requests one at a time (its lock's waiters are the table's queue, served
in order), opens each one's ``Batch`` for the table's deciders to emit events into, has the store commit
them, and only then has its teller tell each follower what its viewer may see (views come from the
table's observer, never from the table again). Its robots and timer send it requests like anybody else, and the table
pauses while
the store does not take writes (``outage``). The room writes no table state: runtime facts (connections
lost, addresses shared) go to the table as requests or facts that ``Table.evolve`` applies.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

import orjson

from ..features.daily import daily_end
from ..kinds import EventType, SeatKind, TableStatus
from ..logs import event_log, log
from ..protocol import ProtocolError
from ..results import Bets, GameOver
from ..store import Append, StoredEvent, StoredTable
from ..table import Batch, Events, Fact, Observer, Table, clocks, finisher, rebuilt, seating
from . import outage, presence
from .history import HISTORY_KEPT, deal_log, events_after
from .robots import Robots
from .services import Make, Services
from .telling import Teller
from .timer import Timer

if TYPE_CHECKING:
    from .follower import Follower

SNAPSHOT_EVERY = 64

SNAPSHOT_KINDS = frozenset({EventType.GAME_END, EventType.CANCEL_END, EventType.CLOSED})
"""Events after which the table is stored whole: a game's end, the table's end."""
LOBBY_KINDS = frozenset(
    {
        EventType.SAT,
        EventType.LEFT,
        EventType.ROBOT,
        EventType.UNROBOT,
        EventType.OPTIONS,
        EventType.GAME_START,
        EventType.GAME_END,
        EventType.CANCEL_END,
        EventType.CLOSED,
        EventType.ABANDON,
        EventType.MASTER,
        EventType.CREATED,
        EventType.INVITED,
        EventType.CLAIMED,
        EventType.UNCLAIMED,
        EventType.REPLACED,
    }
)
"""Events that change the table's line in the lobby."""


class Room:
    """A table at run time: its queue, its followers, its recent events, its robots and timer."""

    def __init__(self, table: Table, services: Services[Room]) -> None:
        self.services = services
        self.lock = asyncio.Lock()  # its waiters, served in order, are the table's queue
        self.followers: set[Follower] = set()
        self.elsewhere: set[Follower] = set()  # followers whose page shows another page of the site (``away``)
        self.history: deque[dict[str, Any]] = deque(maxlen=HISTORY_KEPT)
        self.tasks: list[asyncio.Task[Any]] = []
        self.seen_options: dict[str, int] = {}
        self.snapshot_seq = 0
        self.base: tuple[int, bytes] | None = None  # the last snapshot stored (seq, JSON): to roll back to
        # a write whose outcome is unknown (its events, requester, ref): settled when the store is back
        self.unsettled: tuple[Events, Follower | None, str | None] | None = None
        self.same_address_seen: tuple[tuple[int, int], list[int]] | None = None
        self.quiet_since = services.clock.now()  # the last event, page come or gone: a vacant room rests from then
        self.released = False  # out of memory (site/release.py): a request that held it on asks again
        self.failed: list[str] = []  # the room's tasks that ended by an exception (the watchdog's, and the log's)
        self.teller = Teller(self)
        self.robots = Robots(self)
        self.timer = Timer(self)
        self.run(table)

    def run(self, table: Table) -> None:
        """Run ``table`` here from now on (a new one, or the same table loaded again, or rolled back to what is
        stored), seen by its observer: all of it is stored (``stored_seq``), and it moved now (``moved_at``)."""
        self.table = table
        self.observer = Observer(table)
        self.stored_seq = table.seq  # the last event the store holds: the table's own, but while a batch commits
        self.moved_at = self.services.clock.now()  # its last event, or when it was loaded or rolled back

    # ------------------------------------------------------------ queries
    @property
    def id(self) -> str:
        return self.table.id

    def spectators(self) -> int:
        return sum(1 for c in self.followers if c.player is None or self.table.seat_of(c.player.id) is None)

    def viewer(self, conn: Follower) -> int | None:
        return None if conn.player is None else self.table.seat_of(conn.player.id)

    def follows(self, player: str) -> bool:
        """Whether a page of ``player``'s follows the table here."""
        return any(c.player is not None and c.player.id == player for c in self.followers)

    def looks(self, player: str) -> bool:
        """Whether a page of ``player``'s shows the table now (follows it, and has not said ``away``)."""
        return any(c.player is not None and c.player.id == player and c not in self.elsewhere for c in self.followers)

    def summary(self) -> dict[str, Any]:
        """The table's line in the lobby."""
        return self.observer.summary(self.spectators())

    # ------------------------------------------------------------ life
    def start(self) -> None:
        self.timer.task = self.spawn(self.timer.run(), "timer")
        self.robots.schedule()

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """One of the room's tasks (its timer, a robot's move, a resumption): stopped with the room, and never
        ending by an exception unseen: that is logged at once with its traceback, and kept for the watchdog
        (``watchdog.py``), which finds the table if it stopped moving."""
        self.tasks = [t for t in self.tasks if not t.done()]
        task = asyncio.create_task(work, name=f"{name} of table {self.table.id}")
        self.tasks.append(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        if task.cancelled() or (err := task.exception()) is None:
            return
        self.failed = [*self.failed[-4:], f"{task.get_name()}: {err!r}"]
        self.services.stats.tasks_failed += 1
        event_log(event="room_task_failed", table=self.table.id, task=task.get_name(), error=repr(err))
        log.error("a task of table %s failed", self.table.id, exc_info=err)

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

    def dismantle(self) -> None:
        """Released, its tasks over: the parts that hold the room let go of it, so that reference counting
        frees it at once, not the cyclic collector, which a tuned server runs seldom (``cli/serve.py``)."""
        self.tasks.clear()
        del self.teller, self.robots, self.timer

    @classmethod
    def loaded(cls, item: StoredTable, services: Services[Room]) -> Room:
        """A table as the store holds it, ready to run again here."""
        events = [e.data for e in item.events]
        room = cls(rebuilt(item.snapshot, events, services.timing, services.clock.now()), services)
        outage.remember_stored(room, item, events)
        return room

    # ------------------------------------------------------------ requests
    async def request(self, conn: Follower | None, make: Make, ref: str | None = None, follows: bool = False) -> None:
        """One request in the table's turn: refused while the table is paused, else its events stored
        and told. Accepted, a requester who ``follows`` (a person who sits or claims a seat) sees the table
        from now on, its own event first; one who changed the options is not told of its own change."""
        async with self.lock:
            self.check_here()
            if self.table.paused is not None:
                raise ProtocolError("paused", self.table.paused)
            batch = Batch(self.table, self.services.clock.now())
            options_seq = self.table.changed_seq
            waiting = make(batch)
            if waiting is not None:  # a request that waits for something first (Make)
                await waiting
            if conn is not None and follows:
                self.follow(conn)
            if conn is not None and conn.player is not None and self.table.changed_seq != options_seq:
                self.seen_options[conn.player.id] = self.table.changed_seq
            await self.commit(batch.events, origin=conn, ref=ref)

    async def create(
        self,
        conn: Follower,
        ref: str | None,
        stored: Callable[[int | None], Awaitable[None]],
        quick: bool = False,
        lease: tuple[str, float, float] | None = None,
        daily: tuple[dict[str, Any], str] | None = None,
    ) -> None:
        """A new table's first events, its creator following it; ``stored`` once the store has the table
        (and, given ``lease``, this process's lease on it: its fencing token)."""
        async with self.lock:
            now = self.services.clock.now()
            batch = Batch(self.table, now)
            seating.create(batch, conn.who.id, conn.who.name, quick=quick, daily=daily)
            await self._stored(now, stored, lease)
            self.follow(conn)
            await self.commit(batch.events, force_snapshot=True, origin=conn, ref=ref)

    async def open(
        self,
        make: Callable[[Batch], None],
        stored: Callable[[int | None], Awaitable[None]],
        lease: tuple[str, float, float] | None = None,
    ) -> None:
        """A table the server opens by itself (a tournament's): its first events, nobody following yet; its
        people start the absence clock until they come (docs/tournaments.md)."""
        async with self.lock:
            now = self.services.clock.now()
            batch = Batch(self.table, now)
            make(batch)
            await self._stored(now, stored, lease)
            await self.commit(batch.events, force_snapshot=True)
            for i, seat in enumerate(self.table.seats):
                if seat.kind == SeatKind.PERSON:
                    clocks.connection_lost(self.table, i, now)
            self.timer.wake.set()

    async def _stored(
        self, now: float, stored: Callable[[int | None], Awaitable[None]], lease: tuple[str, float, float] | None
    ) -> None:
        table = self.table
        token = await asyncio.to_thread(
            self.services.store.create_table, table.id, now, table.snapshot(), table.players, lease
        )
        await stored(token)

    def check_here(self) -> None:
        """Refuse a request that reached the room as it left memory (``released``): the next one brings it back."""
        if self.released:
            raise ProtocolError("unavailable", "the table was put away a moment ago: try again")

    def follow(self, conn: Follower) -> None:
        self.followers.add(conn)
        self.teller.followers_moved()
        conn.tables.add(self.table.id)
        self.quiet_since = self.services.clock.now()

    def unfollow_all(self) -> None:
        """The table closed: nothing more is told there, so no page follows it any more (nor keeps its view)."""
        for conn in self.followers:
            conn.tables.discard(self.table.id)
            conn.views.pop(self.table.id, None)
        self.followers.clear()
        self.teller.followers_moved()

    async def join(self, conn: Follower, last_seq: int | None) -> None:
        """``conn`` follows the table: the events it missed, then its state; a seated person back."""
        seat = self.viewer(conn)
        async with self.lock:
            self.check_here()
            table = self.table
            missed = await events_after(self, last_seq) if last_seq is not None and last_seq < table.seq else []
            log = await deal_log(self, seat) if last_seq is None else None  # a page that holds no log yet
            self.follow(conn)  # once what it needs is read: a store away leaves no follower that heard nothing
            self.elsewhere.discard(conn)
            for event in missed:
                conn.send(
                    {
                        "type": "event",
                        "table": table.id,
                        "seq": event["seq"],
                        "event": self.observer.public_event(event, seat),
                    }
                )
            was_gone = seat is not None and seat in table.gone_since
            back = Batch(table, self.services.clock.now())
            if seat is not None:
                clocks.connection_back(back, conn.who.id)
            events = back.events
            arrived = seat is not None and seat in table.awaited
            if arrived:  # the new game's person is here: their clock afresh, which everyone sees
                table.evolve({"type": Fact.ARRIVED, "seat": seat, "at": back.now})
                self.timer.rearm()
            moved = seat is not None and (presence.same_address(self) != table.same_address or arrived)
            if events:  # back after being marked absent: everyone hears ``present``, then this page its state
                await self.commit(events)
                conn.send(self.teller.state_for(conn, log))
            elif was_gone or moved:  # moved: a seat now shares an address, and everyone is told before a game
                self.teller.tell_state(conn, log)  # connected again: everyone sees it, the returning page included
            else:
                conn.send(self.teller.state_for(conn, log))
        self.services.lobby(self)

    def lost(self, conn: Follower) -> None:
        """``conn`` closed: a seated person with no connection left here starts the absence clock."""
        self.followers.discard(conn)
        self.elsewhere.discard(conn)
        self.teller.followers_moved()
        self.quiet_since = self.services.clock.now()
        seat = self.viewer(conn)
        if seat is not None and conn.player is not None and not self.follows(conn.player.id):
            clocks.connection_lost(self.table, seat, self.services.clock.now())
            event_log(event="connection_lost", table=self.table.id, seat=seat)
            self.timer.wake.set()
            self.teller.tell_state()  # everyone sees at once that the seat's person is gone
        self.services.lobby(self)

    def away(self, conn: Follower) -> None:
        """The page left the table for another page of the site: it still hears the table (to say a turn
        or a new game wherever it is), but a new game does not count its person as there."""
        if conn in self.followers:
            self.elsewhere.add(conn)

    def seen(self, conn: Follower) -> None:
        """The viewer saw the options' change: its state again, without the mark."""
        if conn not in self.followers:  # the answer is the table's state: only for those who may watch it
            raise ProtocolError("not_here", "join the table first")
        self.seen_options[conn.who.id] = self.table.changed_seq
        conn.send(self.teller.state_for(conn))

    def tell_state(self) -> None:
        """Every follower's state again (a runtime change that makes no numbered event)."""
        self.teller.tell_state()

    # ------------------------------------------------------------ committing
    async def commit(
        self, events: Events, force_snapshot: bool = False, origin: Follower | None = None, ref: str | None = None
    ) -> None:
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
        presence.note_facts(self)
        try:
            await self.services.writer.write(
                Append(
                    table.id,
                    stored,
                    snapshot,
                    status=TableStatus.CLOSED if EventType.CLOSED in kinds else None,
                    game=None if over is None else finisher.game_row(over),
                    bets=bets,
                    settlement=None if over is None else finisher.settlement(over),
                    daily=None if over is None else daily_end(over),
                    fence=self.services.fence(table.id),
                )
            )
        except asyncio.CancelledError:
            raise  # the room is stopping (or let go): whatever its memory holds, it is not run here any more
        except Exception as err:
            await outage.not_stored(self, err, (events, origin, ref))
            raise
        self.stored_seq = table.seq
        self.moved_at = self.services.clock.now()
        if snapshot is not None:
            self.snapshot_seq = table.seq
            self.base = (snapshot[0], encoded)
        self.history.extend(events)
        if (
            EventType.CLOSED in kinds
            and table.daily is not None
            and "tournament" in table.daily
            and self.services.closed is not None
        ):
            self.services.closed(self)
        self.services.stats.actions += sum(1 for e in events if e["type"] == EventType.ACTION)
        if log.isEnabledFor(20):  # INFO
            for e in events:
                event_log(event=e["type"], table=table.id, seq=e["seq"], seat=e.get("seat"))
        presence.absent_unless_here(self, events)
        if EventType.GAME_START in kinds:
            presence.await_arrivals(self, origin)
        self.teller.tell(events, origin, ref)
        if kinds & LOBBY_KINDS:
            self.services.lobby(self)
        if table.status == TableStatus.CLOSED:
            for task in self.tasks:
                task.cancel()
            self.unfollow_all()
        self.quiet_since = self.services.clock.now()
        self.timer.rearm()
        self.robots.schedule()


__all__ = ["Room"]
