"""A room's timer: it sleeps until the table's next deadline (turn clock, absence, vote, next deal) and
asks the table to ``tick`` (``clocks.tick``, as a request); any change that moves the next deadline wakes it."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol, Self

from ..kinds import TableStatus
from ..logs import event_log
from ..table import Batch, clocks, deadlines

if TYPE_CHECKING:
    from ..table import Events, Table
    from .services import Services

_NOTHING = object()


class TimerRoom(Protocol):
    """What its timer uses of a room (``Room`` is one): its table, its turn, committing, its clock."""

    @property
    def table(self) -> Table: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def services(self) -> Services[Self]: ...
    async def commit(self, events: Events) -> None: ...


class Timer:
    """``room``'s clock: one task, asleep until the next deadline or a wake."""

    def __init__(self, room: TimerRoom) -> None:
        self.room = room
        self.wake = asyncio.Event()
        self.armed: Any = None  # the deadline the timer sleeps until (None: none); changes wake it
        self.task: asyncio.Task[None] | None = None  # its task (the room's): started again if it died

    async def run(self) -> None:
        """Wake at the table's next deadline and let it act, until the table closes."""
        room = self.room
        clock = room.services.clock
        while room.table.status != TableStatus.CLOSED:
            self.wake.clear()
            due = deadlines(room.table)
            self.armed = due[0] if due else None
            waiters: list[asyncio.Task[Any]] = [asyncio.create_task(self.wake.wait())]
            if due:
                waiters.append(asyncio.create_task(clock.sleep_until(due[0][0])))
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()
            if self.wake.is_set():
                continue
            events: list[dict[str, Any]] = []
            if room.table.paused:
                await self.wake.wait()  # woken when the table comes back
                continue
            failed = False
            async with room.lock:
                try:
                    batch = Batch(room.table, clock.now())
                    clocks.tick(batch)
                    events = batch.events
                    await room.commit(events)
                except Exception as err:  # a clock must keep running whatever one tick did (the room rolled back)
                    if not getattr(err, "outage", False):  # an outage is logged once, by the store's health
                        event_log(event="tick_failed", table=room.table.id, error=repr(err))
                    failed = True
            if failed:
                await asyncio.sleep(TICK_RETRY)  # real time, out of the table's turn: then the deadline again
                continue
            if not events and not self._deadline_ahead():
                self.armed = _NOTHING  # any change wakes it
                await self.wake.wait()  # nothing was due after all, nor is anything coming: wait for a change

    def rearm(self) -> None:
        """Wake the timer only if the table's next deadline moved (most cards change none: waking a
        sleeping timer per card cost a tenth of the server's time)."""
        table = self.room.table
        due = deadlines(table)
        if (due[0] if due else None) != self.armed or table.status == TableStatus.CLOSED:
            self.wake.set()

    def _deadline_ahead(self) -> bool:
        """Whether the table's next deadline is still to come (a sleeper woke early: sleep again)."""
        due = deadlines(self.room.table)
        return bool(due) and due[0][0] > self.room.services.clock.now()


TICK_RETRY = 0.5
"""Seconds before a tick that failed (the store refused it, or a bug) is tried again."""


__all__ = ["TICK_RETRY", "Timer", "TimerRoom"]
