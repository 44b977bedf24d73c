"""The server's time: the system clock, or a fake one that tests move by hand (tests never sleep)."""

from __future__ import annotations

import asyncio
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

    def advance(self, seconds: float) -> None:
        """Move time on and wake everyone whose time has come."""
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)


Clock = SystemClock | FakeClock

__all__ = ["Clock", "FakeClock", "SystemClock"]
