"""The store away: a room's table pauses (nothing accepted, no clock or robot acts), rolls back to what is
stored, and comes back from the store by itself once the store answers; a batch the store refused loads
the table again from it."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import TYPE_CHECKING, Any

import orjson

from ..logs import event_log
from ..store import StoredTable
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
    event_log(event="rolled_back", table=table.id, seq=table.seq)


def pause(room: Room, why: str) -> None:
    """The store did not answer: the table stops (nothing more is accepted, no clock or robot acts),
    says why to everyone, and comes back from the store once the store answers again."""
    if room.table.paused is not None:
        return
    room.table.evolve({"type": Fact.PAUSED, "why": why})
    event_log(event="paused", table=room.table.id, why=why)
    room.tell_state()
    room.tasks.append(asyncio.create_task(_resume_when_stored(room)))


async def _resume_when_stored(room: Room) -> None:
    delay = 0.25
    while True:
        await asyncio.sleep(delay)  # real time: the store's outage, not the game's clock
        delay = min(delay * 2, 2.0)
        try:
            item = await asyncio.to_thread(room.services.store.table, room.table.id)
        except Exception:  # still away: try again
            continue
        if item is None:
            return
        async with room.lock:
            table = restore(room, item)
            room.robots.forget()
            event_log(event="resumed", table=table.id, seq=table.seq, why="the store answers again")
            room.tell_state()
            room.timer.wake.set()
            room.robots.schedule()
        return


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


__all__ = ["pause", "reload", "remember_stored", "restore", "roll_back"]
