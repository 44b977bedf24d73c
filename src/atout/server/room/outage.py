"""The store away: a room's table pauses (nothing accepted, no clock or robot acts), rolls back to what is
stored, and comes back from the store by itself once the store takes a write again (the process's
``StoreWatch`` probes it); a write whose outcome is unknown is settled by reading the table back; a batch
the store refused loads the table again from it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from typing import TYPE_CHECKING, Any

import orjson

from ..logs import event_log, log
from ..protocol import ProtocolError
from ..store import Store, StoredTable
from ..store.health import Cause, probe
from ..table import Fact, Table, rebuilt
from .history import HISTORY_KEPT

if TYPE_CHECKING:
    from .actor import Room


def roll_back(room: Room) -> None:
    """The table as last stored, without the store: its last stored snapshot and the events after it
    (those kept in memory are all stored). A write the store never confirmed is undone."""
    if room.base is None:
        return
    base_seq, base = room.base
    events = [e for e in room.history if e["seq"] > base_seq]
    if base_seq + len(events) != (events[-1]["seq"] if events else base_seq):
        return  # the memory does not reach back to the snapshot: the store will say, when it answers
    room.run(table := _rebuilt(room, orjson.loads(base), events))
    log.debug("rolled back table %s to seq %s", table.id, table.seq)


def pause(room: Room, cause: Cause) -> None:
    """The store does not take writes: the table stops (nothing more is accepted, no clock or robot acts),
    says why to everyone once, and comes back from the store once a write succeeds again. The outage is
    logged once by the store's health, not once a table."""
    if room.table.paused is not None:
        return
    room.table.evolve({"type": Fact.PAUSED, "why": f"{cause.why}: the table resumes by itself when it can be stored"})
    log.debug("table %s paused: %s", room.table.id, cause.why)
    room.tell_state()
    room.tasks.append(asyncio.create_task(_resume_when_stored(room)))


async def _resume_when_stored(room: Room) -> None:
    """Once the store takes writes again (the process's watch), the table as stored, its write of unknown
    outcome settled, and everyone told once that it goes on."""
    services = room.services
    delay = FIRST_WAIT
    while True:
        await services.watch.until_back()
        try:
            item = await asyncio.to_thread(services.store.table, room.table.id)
            unsettled = room.unsettled
            written = [] if unsettled is None else await asyncio.to_thread(
                services.store.events_after, room.table.id, unsettled[0][0]["seq"] - 1, len(unsettled[0]))
        except Exception as err:  # away again (its health says so: the watch probes), or a bug: later
            if services.store.health.report(err) is None:
                log.warning("table %s could not be read back: %r", room.table.id, err)
            await asyncio.sleep(delay)  # real time: the store's outage, not the game's clock
            delay = min(delay * 2, LAST_WAIT)
            continue
        if item is None:
            return
        async with room.lock:
            table = restore(room, item)
            room.robots.forget()
            _settle(room, [e.data for e in written])
            log.debug("table %s resumed at seq %s", table.id, table.seq)
            room.tell_state()
            room.timer.wake.set()
            room.robots.schedule()
            services.lobby(room)
        return


def _settle(room: Room, written: list[dict[str, Any]]) -> None:
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
        origin.send(ProtocolError("unavailable", "it was not stored (the store was lost while it was "
                                                 "written): try again").to_json(ref))


class StoreWatch:
    """The process's watch on its store while it does not take writes: one probe write at a time, waiting
    longer after each failure, until one succeeds; the paused tables wait for it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._probing: asyncio.Task[None] | None = None
        self.failed = 0  # probes that failed (the store still away)

    def start(self) -> None:
        """From now on an outage however met (a page's read, a login, a table's write) is probed until it ends."""
        loop = asyncio.get_running_loop()

        def changed() -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
                loop.call_soon_threadsafe(self._probe_if_down)

        self.store.health.listeners.append(changed)

    def _probe_if_down(self) -> None:
        if not self.store.health.up and (self._probing is None or self._probing.done()):
            self._probing = asyncio.create_task(self._probe())

    async def until_back(self) -> None:
        """Returns once the store took a write since it went away (at once if it is up)."""
        while not self.store.health.up:
            self._probe_if_down()
            assert self._probing is not None
            await asyncio.shield(self._probing)

    async def stop(self) -> None:
        if self._probing is not None:
            self._probing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._probing

    async def _probe(self) -> None:
        health = self.store.health
        delay = FIRST_WAIT
        while not health.up:
            await asyncio.sleep(delay)  # real time: the store's outage, not the game's clock
            delay = min(delay * 2, LAST_WAIT)
            try:
                await asyncio.to_thread(probe, self.store.engine, time.time())
            except Exception as err:  # still away (or the probe's own failure: tried again all the same)
                self.failed += 1
                if health.report(err) is None:
                    log.warning("the store's probe failed: %r", err)
                continue
            health.back()


FIRST_WAIT = 0.25
LAST_WAIT = 2.0
"""The probe's waits: a quarter of a second after the outage starts, twice as long after each failure, up
to 2 s (a store back is noticed within 2 s; a store away costs a small write every 2 s)."""


async def reload(room: Room) -> None:
    """The store refused a batch: the table goes back to what is stored."""
    item = await asyncio.to_thread(room.services.store.table, room.table.id)
    if item is None:
        return
    table = restore(room, item)
    event_log(event="reloaded", table=table.id, seq=table.seq)


def restore(room: Room, item: StoredTable) -> Table:
    """The room as the store holds its table: the table rebuilt (the seats of people following here
    all along get no absence clock), and the room's stored snapshot and recent events with it."""
    events = [e.data for e in item.events]
    room.run(table := _rebuilt(room, item.snapshot, events))
    remember_stored(room, item, events)
    return table


def remember_stored(room: Room, item: StoredTable, events: list[dict[str, Any]]) -> None:
    """What the room keeps of the store: the last snapshot (to roll back to) and the events after it
    (to catch up a reconnecting client), exactly as stored."""
    room.snapshot_seq = item.snapshot_seq
    room.base = (item.snapshot_seq, orjson.dumps(item.snapshot))
    room.history = deque(events, maxlen=HISTORY_KEPT)


def _rebuilt(room: Room, snapshot: dict[str, Any], events: list[dict[str, Any]]) -> Table:
    """The table from the store's data; the seats whose person follows here all along keep no absence clock."""
    here = frozenset(s for c in room.followers if (s := room.viewer(c)) is not None)
    return rebuilt(snapshot, events, room.services.timing, room.services.clock.now(), here)


__all__ = ["FIRST_WAIT", "LAST_WAIT", "StoreWatch", "pause", "reload", "remember_stored", "restore", "roll_back"]
