"""A batch not stored: the table is at once what its store holds again (rolled back in memory: an event is in
the table's memory only once it is stored). The store away: the table pauses (nothing accepted, no clock or
robot acts) and comes back from the store by itself once the store takes a write again (the process's
``StoreWatch`` probes it); a write whose outcome is unknown is settled by reading the table back. A batch the
store refused (or a bug) costs that batch alone: the table goes on from what is stored."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Collection, Coroutine
from typing import TYPE_CHECKING, Any, Protocol, Self

import orjson

from ..logs import event_log, log
from ..protocol import ProtocolError
from ..store import StoredTable, StoreError
from ..table import Fact, Table, rebuilt
from .history import HISTORY_KEPT
from .store_watch import FIRST_WAIT, LAST_WAIT

if TYPE_CHECKING:
    from .follower import Follower
    from .robots import Robots
    from .services import Services
    from .telling import Teller
    from .timer import Timer


Unsettled = tuple[list[dict[str, Any]], "Follower | None", str | None]
"""A write whose outcome is unknown: its events, its requester and the request's ref (its answer is owed)."""


class OutageRoom(Protocol):
    """What an outage uses of a room (``Room`` is one): its table and followers, what it keeps of its store (to
    roll back to, to settle), its turn, its parts that act (robots, timer, teller), and its services."""

    history: deque[dict[str, Any]]  # its recent events, as stored
    snapshot_seq: int
    base: tuple[int, bytes] | None  # the last snapshot stored (seq, JSON)
    unsettled: Unsettled | None

    @property
    def table(self) -> Table: ...
    @property
    def services(self) -> Services[Self]: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def followers(self) -> Collection[Follower]: ...
    @property
    def robots(self) -> Robots: ...
    @property
    def timer(self) -> Timer: ...
    @property
    def teller(self) -> Teller: ...
    def run(self, table: Table) -> None: ...
    def viewer(self, conn: Follower) -> int | None: ...
    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]: ...
    def tell_state(self) -> None: ...


async def not_stored(room: OutageRoom, err: Exception, batch: Unsettled) -> None:
    """``batch`` (its events made in the table's memory) was not stored, or nobody knows (``err``): the table goes
    back at once to what is stored, in memory. The store away (or the outcome unknown): it pauses until the store
    takes writes and reads it back. A refusal, or a bug: that batch is lost (its requester hears why), the table is
    read again from the store (a refusal may say the store holds more than the memory: another writer's event),
    and goes on, its robots and clock looking at it again (a robot whose move was refused thinks again)."""
    if isinstance(err, StoreError) and err.fenced is not None:
        return  # another process runs the table now: the site lets this room go
    health = room.services.store.health
    cause = err.cause if isinstance(err, StoreError) else health.report(err)
    if isinstance(err, StoreError) and err.unknown:
        room.unsettled = batch
    rolled = roll_back(room)
    if cause is not None:
        pause(room, cause.why)
        return
    event_log(event="not_stored", table=room.table.id, seq=batch[0][0]["seq"], error=str(err)[:200])
    try:
        item = await asyncio.to_thread(room.services.store.table, room.table.id)
    except Exception as read_err:  # the store away after all, or a bug: read again when it answers
        away = health.report(read_err)
        pause(room, away.why if away is not None else REREAD)
        return
    if item is not None:
        table = restore(room, item)
        event_log(event="reloaded", table=table.id, seq=table.seq)
    elif not rolled:
        pause(room, REREAD)
        return
    room.robots.forget()
    room.timer.rearm()
    room.robots.schedule()


REREAD = "the table is being read again from the store"


def roll_back(room: OutageRoom) -> bool:
    """The table as last stored, without the store: its last stored snapshot and the events after it (those kept
    in memory are all stored). Whatever the memory held beyond is undone; False when the memory does not reach
    back to the snapshot (the table must be read again from the store)."""
    if room.base is None:
        return False
    base_seq, base = room.base
    events = [e for e in room.history if e["seq"] > base_seq]
    if base_seq + len(events) != (events[-1]["seq"] if events else base_seq):
        return False
    room.run(table := _rebuilt(room, orjson.loads(base), events))
    log.debug("rolled back table %s to seq %s", table.id, table.seq)
    return True


def pause(room: OutageRoom, why: str) -> None:
    """The store does not take writes (or the table must be read from it again): the table stops (nothing more is
    accepted, no clock or robot acts), says why to everyone once, and comes back from the store once a write
    succeeds again. The outage is logged once by the store's health, not once a table."""
    if room.table.paused is not None:
        return
    room.table.evolve({"type": Fact.PAUSED, "why": f"{why}: the table resumes by itself when it can be stored"})
    log.debug("table %s paused: %s", room.table.id, why)
    room.tell_state()
    room.spawn(_resume_when_stored(room), "resumption")


async def _resume_when_stored(room: OutageRoom) -> None:
    """Once the store takes writes again (the process's watch), the table as stored, its write of unknown
    outcome settled, and everyone told once that it goes on."""
    services = room.services
    delay = FIRST_WAIT
    while True:
        await services.watch.until_back()
        try:
            item, written = await _read_back(room)
        except Exception as err:  # away again (its health says so: the watch probes), or a bug: later
            if services.store.health.report(err) is None:
                log.warning("table %s could not be read back: %r", room.table.id, err)
            await asyncio.sleep(delay)  # real time: the store's outage, not the game's clock
            delay = min(delay * 2, LAST_WAIT)
            continue
        if item is None:
            return
        async with room.lock:
            back_from_store(room, item, written)
        return


async def _read_back(room: OutageRoom) -> tuple[StoredTable | None, list[dict[str, Any]]]:
    """The table as its store holds it, and the stored events of the numbers its write of unknown outcome took
    (none when no write's outcome is unknown): what ``back_from_store`` runs the table from. Raises what the
    store raises."""
    store = room.services.store
    item = await asyncio.to_thread(store.table, room.table.id)
    unsettled = room.unsettled
    if unsettled is None:
        return item, []
    first, count = unsettled[0][0]["seq"] - 1, len(unsettled[0])
    written = await asyncio.to_thread(store.events_after, room.table.id, first, count)
    return item, [e.data for e in written]


def back_from_store(room: OutageRoom, item: StoredTable, written: list[dict[str, Any]]) -> None:
    """In the table's turn: the room runs its table as ``item`` holds it (unpaused), the write of unknown outcome
    settled by ``written`` (its numbers' stored events), everyone told, its robots and clock looking at it again."""
    table = restore(room, item)
    room.robots.forget()
    _settle(room, written)
    log.debug("table %s resumed at seq %s", table.id, table.seq)
    room.tell_state()
    room.timer.wake.set()
    room.robots.schedule()
    room.services.lobby(room)


async def restart(room: OutageRoom) -> bool:
    """The table read again from the store and run from there (the watchdog's remedy for a table that stopped
    moving): its timer started again if it died. False if the store could not be read (the table then pauses and
    resumes by itself when it can)."""
    services = room.services
    async with room.lock:
        try:
            item, written = await _read_back(room)
        except Exception as err:  # the store away: the table waits for it, paused (its health logs the outage)
            cause = services.store.health.report(err)
            if room.table.paused is None:
                pause(room, cause.why if cause is not None else REREAD)
            else:  # paused already, its resumption perhaps what stopped: another one waits for the store
                room.spawn(_resume_when_stored(room), "resumption")
            return False
        if item is None:
            return False
        back_from_store(room, item, written)
        if room.timer.task is None or room.timer.task.done():
            room.timer.task = room.spawn(room.timer.run(), "timer")
    return True


def _settle(room: OutageRoom, written: list[dict[str, Any]]) -> None:
    """The write whose outcome was unknown (the connection lost while it committed), as the store holds
    it (``written``: the stored events of its numbers): stored, its events are told as any (the
    requester's first with its ``ref``: its answer); not stored, the requester hears that it was not."""
    unsettled, room.unsettled = room.unsettled, None
    if unsettled is None:
        return
    events, origin, ref = unsettled
    if [e["seq"] for e in written] == [e["seq"] for e in events]:
        event_log(event="settled", table=room.table.id, seq=events[-1]["seq"], stored=True)
        room.teller.tell(written, origin, ref)
        return
    event_log(event="settled", table=room.table.id, seq=events[-1]["seq"], stored=False)
    if origin is not None:
        origin.send(
            ProtocolError(
                "unavailable", "it was not stored (the store was lost while it was written): try again"
            ).to_json(ref)
        )


def restore(room: OutageRoom, item: StoredTable) -> Table:
    """The room as the store holds its table: the table rebuilt (the seats of people following here
    all along get no absence clock), and the room's stored snapshot and recent events with it."""
    events = [e.data for e in item.events]
    room.run(table := _rebuilt(room, item.snapshot, events))
    remember_stored(room, item, events)
    return table


def remember_stored(room: OutageRoom, item: StoredTable, events: list[dict[str, Any]]) -> None:
    """What the room keeps of the store: the last snapshot (to roll back to) and the events after it
    (to catch up a reconnecting client), exactly as stored."""
    room.snapshot_seq = item.snapshot_seq
    room.base = (item.snapshot_seq, orjson.dumps(item.snapshot))
    room.history = deque(events, maxlen=HISTORY_KEPT)


def _rebuilt(room: OutageRoom, snapshot: dict[str, Any], events: list[dict[str, Any]]) -> Table:
    """The table from the store's data; the seats whose person follows here all along keep no absence clock."""
    here = frozenset(s for c in room.followers if (s := room.viewer(c)) is not None)
    return rebuilt(snapshot, events, room.services.timing, room.services.clock.now(), here)


__all__ = [
    "OutageRoom",
    "Unsettled",
    "back_from_store",
    "not_stored",
    "pause",
    "remember_stored",
    "restart",
    "restore",
    "roll_back",
]
