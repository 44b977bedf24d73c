"""The process's watch on its store while it does not take writes (one for the process, in the rooms'
``Services``): the tables the outage paused wait for it (``outage.py``), and resume once a probe write succeeds."""

from __future__ import annotations

import asyncio
import contextlib
import time

from ..logs import log
from ..store import Store
from ..store.health import probe


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


__all__ = ["FIRST_WAIT", "LAST_WAIT", "StoreWatch"]
