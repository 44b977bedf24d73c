"""The process's watchdog over the tables it runs: a table with a turn to play (a robot's, a clock's) that makes no
event for longer than its own promise (and a few real seconds more: robots think and timers wake in real time), or whose
memory stands ahead of its store, or that stays paused while its store takes writes (counted over every look that saw
the store up, however many outages came between: a store that fails again and again must not hide a table that no
longer resumes), is found here whatever stopped it, logged once with its state and its tasks, the living and the
dead, counted (``/health``, ``/metrics``: ``atout_tables_stalled``), and run again from its store.

A table waiting for a person without a clock promises nothing: a person may think as long as they like there."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..clock import Clock
from ..logs import event_log
from ..store.health import StoreHealth
from ..table import deadlines
from . import outage

EVERY = 5.0
"""Seconds between two looks at every table (of the tables' clock)."""
CLOCK_GRACE = 10.0
"""How late past a deadline (a turn clock, an absence, the pause between deals) a table may be before it counts as
stalled: the timer wakes at the deadline itself, so this is only a loaded machine's slack."""
THINKING = 30.0
"""How long a robot may think, beyond the table's pace, before its table counts as stalled (an expert's slowest
decision is well under a second; its first one on a machine compiles for some seconds)."""
OUTAGE_GRACE = 15.0
"""Real seconds in all a table may stay paused while its store takes writes (it resumes within the probe's 2 s of a
write taken), summed from one look to the next over the stretches the store was up since the table paused."""
AGAIN = 60.0
"""A table still stalled this long after it was run again from its store is run again (and said again)."""
RESTART_WAIT = 60.0
"""Real seconds a restart may wait for the table's turn (a request holding it): beyond, it is tried again later."""


class WatchedRoom(outage.OutageRoom, Protocol):
    """What the watchdog looks at in a room (``Room`` is one): how far its store and its moves stand, whether it
    left memory, its tasks that failed; and what an outage uses, to run it again from its store."""

    @property
    def stored_seq(self) -> int: ...
    @property
    def moved_at(self) -> float: ...
    @property
    def released(self) -> bool: ...
    @property
    def failed(self) -> list[str]: ...
    @property
    def tasks(self) -> list[asyncio.Task[Any]]: ...


def overdue(room: WatchedRoom, now: float, paused_up: float) -> str | None:
    """Why ``room``'s table is stalled at ``now``, or None: what it promised and did not do. ``paused_up``: how long
    its store took writes while it stayed paused."""
    table = room.table
    if not room.lock.locked() and table.seq != room.stored_seq:
        return f"its memory stands at seq {table.seq}, its store at {room.stored_seq}"
    if table.paused is not None:
        if paused_up > OUTAGE_GRACE:
            return f"paused while its store took writes for {paused_up:.0f} s"
        return None
    seat = table.robot_turn()
    if seat is not None:
        promised = room.moved_at + room.services.timing.robot_pace + THINKING
        if now > promised:
            return f"seat {seat}'s robot has not played for {now - room.moved_at:.0f} s"
    due = deadlines(table)
    if due and now > due[0][0] + CLOCK_GRACE:
        when, what, _ = due[0]
        return f"its {what} was due {now - when:.0f} s ago"
    return None


@dataclass
class Watchdog:
    """Looks at every table this process runs every ``EVERY`` seconds of ``clock``'s; ``rooms`` lists them."""

    rooms: Callable[[], Iterable[WatchedRoom]]
    clock: Clock
    health: StoreHealth
    real_grace: float = 15.0  # real seconds a table found overdue must go on not moving (Config.stall_seconds)
    monotonic: Callable[[], float] = time.monotonic
    stalled: dict[str, tuple[str, float]] = field(default_factory=dict)  # stalled, not running again yet: why, since
    found: int = 0  # tables found stalled since the process started
    restarted: int = 0  # times a stalled table was run again from its store
    _paused: dict[str, float] = field(default_factory=dict)  # a paused table: real seconds its store was up since
    _suspect: dict[str, tuple[int, float]] = field(default_factory=dict)  # overdue: its number then, real time
    _last_look: float | None = None  # real time

    async def run(self) -> None:
        while True:
            await self.clock.sleep_until(self.clock.now() + EVERY)
            self.check()

    def check(self) -> None:
        """One look at every table; a stalled one is logged once and run again from its store (in a task of its
        room's: a table whose turn is held does not hold the watchdog)."""
        now = self.clock.now()
        real = self.monotonic()
        since, self._last_look = self._last_look, real
        up = self.health.up
        # the store up since the last look, or since it came back after it: what a paused table's wait counts
        up_for = max(0.0, real - max(since, self.health.back_at)) if up and since is not None else 0.0
        seen: set[str] = set()
        for room in list(self.rooms()):
            if room.released:
                continue
            table_id = room.table.id
            seen.add(table_id)
            if room.table.paused is None:
                self._paused.pop(table_id, None)
            else:
                known = table_id in self._paused  # paused at the last look too: the stretch since is its own
                self._paused[table_id] = self._paused.get(table_id, 0.0) + (up_for if known else 0.0)
                if not up:
                    continue  # paused as it should be while its store is away: neither stalled nor cleared
            why = overdue(room, now, self._paused.get(table_id, 0.0))
            if why is None:
                self.stalled.pop(table_id, None)
                self._suspect.pop(table_id, None)
                continue
            suspect = self._suspect.get(table_id)
            if suspect is None or suspect[0] != room.table.seq:  # overdue now: stalled once it has not moved for
                self._suspect[table_id] = (room.table.seq, real)  # ``real_grace`` real seconds more (the
                continue  # tables' time may jump — a blocked loop, a test's clock —: what was due acts first)
            if real - suspect[1] < self.real_grace:
                continue
            before = self.stalled.get(table_id)
            if before is not None and now - before[1] < AGAIN:
                continue  # found before and being run again: said once
            if before is None:
                self.found += 1
            self.stalled[table_id] = (why, now)
            table = room.table
            event_log(
                event="table_stalled",
                table=table_id,
                why=why,
                again=before is not None,
                seq=table.seq,
                stored_seq=room.stored_seq,
                status=table.status,
                to_act=table.to_act(),
                paused=table.paused,
                queue_held=room.lock.locked(),
                tasks=sorted(t.get_name().split(" of table")[0] for t in room.tasks if not t.done()),
                failed_tasks=room.failed[-3:],
            )
            room.spawn(self._restart(room), "restart")
        for gone in set(self.stalled) - seen:
            del self.stalled[gone]
        for gone in set(self._paused) - seen:
            del self._paused[gone]
        for gone in set(self._suspect) - seen:
            del self._suspect[gone]

    async def _restart(self, room: WatchedRoom) -> None:
        try:
            restarted = await asyncio.wait_for(outage.restart(room), RESTART_WAIT)
        except TimeoutError:
            event_log(event="table_restart_waits", table=room.table.id, seconds=RESTART_WAIT)
            return
        if restarted:  # running again: stalled no longer (found afresh if it stops again)
            self.restarted += 1
            self._paused.pop(room.table.id, None)
            self.stalled.pop(room.table.id, None)
            event_log(event="table_restarted", table=room.table.id, seq=room.table.seq)


__all__ = [
    "AGAIN",
    "CLOCK_GRACE",
    "EVERY",
    "OUTAGE_GRACE",
    "RESTART_WAIT",
    "THINKING",
    "Watchdog",
    "WatchedRoom",
    "overdue",
]
