"""The server's time: the system clock, or a fake one that tests move by hand (tests never sleep)."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time


class SystemClock:
    """Wall-clock seconds; ``sleep_until`` waits on the event loop."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        # the loop's timers (uvloop's are whole milliseconds) may fire a little before wall-clock
        # ``when``: sleep again until it has truly come
        while (delay := when - time.time()) > 0:
            await asyncio.sleep(delay + 0.0005)


class FakeClock:
    """A clock that moves only when ``advance`` is called; sleepers wake as their time comes."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._order), future))
        await future

    def waiting(self) -> list[float]:
        """When each sleeper still asleep wakes: a test moves time once a task has gone to sleep."""
        return sorted(when for when, _, future in self._sleepers if not future.done())

    def advance(self, seconds: float) -> None:
        """Move time on and wake everyone whose time has come."""
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)


class SteppedClock(SystemClock):
    """Wall-clock seconds plus an offset that only moves forward, by ``advance``: a served process's
    clock for browser tests (``atout serve --test-clock``), so that a turn clock or an absence runs
    out when the test says, not after real seconds of waiting; between steps it runs as the wall's."""

    def __init__(self) -> None:
        self.offset = 0.0
        self._moved: asyncio.Event | None = None

    def now(self) -> float:
        return time.time() + self.offset

    async def sleep_until(self, when: float) -> None:
        while (delay := when - self.now()) > 0:
            if self._moved is None:
                self._moved = asyncio.Event()
            moved = self._moved
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(moved.wait(), delay + 0.0005)

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds`` and wake every sleeper to look at the clock again."""
        if seconds < 0:
            raise ValueError("a clock only moves forward")
        self.offset += seconds
        moved, self._moved = self._moved, None
        if moved is not None:
            moved.set()


Clock = SystemClock | FakeClock | SteppedClock

__all__ = ["Clock", "FakeClock", "SteppedClock", "SystemClock"]
