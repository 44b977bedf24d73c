"""Group commit: one thread writes the event loop's appends, many tables' events in one transaction."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time

import sqlalchemy as sa

from .health import cause_of
from .rows import Append, StoreError, failure, first_line
from .store import Store

SMALL_BATCH = 8
"""A batch this small waits ``linger`` before its transaction: a transaction costs the process about as
much CPU as several writes (a round trip per statement, the fence check, the thread's wake-ups). Three
processes behind nginx, 20 tables: 0.62 ms of CPU an action with 8 here, 0.67 with 4 (benchmarks/scale.py)."""


class StoreWriter:
    """Group commit for the event loop: whatever is queued when the writer thread is free is one
    transaction; each ``write`` returns once its item is committed, or raises StoreError for it alone.

    The writes of one turn of the event loop reach the thread together, and a transaction's answers
    come back to the loop together: one wake-up each way, not one per table (each is a system call,
    and a costly one on a virtual machine)."""

    def __init__(self, store: Store, max_batch: int = 500, linger: float = 0.0) -> None:
        self.store = store
        self.max_batch = max_batch
        self.linger = linger  # seconds a small batch waits for more: fewer, larger transactions
        self._queue: queue.SimpleQueue[list[tuple[Append, asyncio.Future[None], asyncio.AbstractEventLoop]] | None] = (
            queue.SimpleQueue()
        )
        # each loop's writes of this turn (a loop that stops before its hand-over strands no other loop's)
        self._pending: dict[
            asyncio.AbstractEventLoop, list[tuple[Append, asyncio.Future[None], asyncio.AbstractEventLoop]]
        ] = {}
        self._thread: threading.Thread | None = None
        self.commits = 0
        self.items = 0
        self._conn: sa.Connection | None = None
        self._conn_outages = 0  # the store's outages before the connection was opened

    async def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="atout-store-writer", daemon=True)
        self._thread.start()

    async def write(self, item: Append) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        batch = self._pending.get(loop)
        if batch is None:
            self._pending[loop] = batch = []
            loop.call_soon(self._hand_over, loop)
        batch.append((item, future, loop))
        await future

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        """This loop turn's writes, to the thread at once."""
        batch = self._pending.pop(loop, None)
        if batch:
            self._queue.put(batch)

    async def stop(self) -> None:
        if self._thread is not None:
            for loop in list(self._pending):
                self._hand_over(loop)
            self._queue.put(None)
            await asyncio.to_thread(self._thread.join)
            self._thread = None

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                self._drop_connection()
                return
            batch = list(first)
            stopping = False
            if self.linger and len(batch) < SMALL_BATCH:
                time.sleep(self.linger)  # a small batch: let a few more writes join this transaction
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stopping = True
                    break
                batch += more
            for start in range(0, len(batch), self.max_batch):
                self._commit(batch[start : start + self.max_batch])
            if stopping:
                self._drop_connection()
                return

    def _connection(self) -> sa.Connection:
        """The writer's own connection, kept open (a pool checkout, and its reset, per batch cost more
        than the batch's SQL); opened again after a failure, and after an outage someone else met (a read, the
        probe): kept through it, it is dead, and the first write after the store came back failed on it, its
        outcome unknown, its table paused a second time, its person refused though the store was back."""
        outages = self.store.health.outages
        if self._conn is not None and self._conn_outages != outages:
            self._drop_connection(failed=True)
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            self._conn = self.store.engine.connect()
            self._conn_outages = outages
        return self._conn

    def _drop_connection(self, failed: bool = False) -> None:
        """The writer's connection given back; after a failure, thrown away (a connection lost would fail its
        reset, and the pool would log that with a traceback)."""
        if self._conn is not None:
            with contextlib.suppress(Exception):
                if failed:
                    self._conn.invalidate()
                self._conn.close()
        self._conn = None

    def _commit(self, batch: list[tuple[Append, asyncio.Future[None], asyncio.AbstractEventLoop]]) -> None:
        health = self.store.health
        try:
            self.store.append([item for item, _, _ in batch], self._connection())
            results: list[BaseException | None] = [None] * len(batch)
            self.commits += 1
            health.back()
        except Exception as raised:
            self._drop_connection(failed=True)
            err: BaseException = raised
            if not isinstance(raised, StoreError) and cause_of(raised) is not None:
                err = failure(health, raised, committing=False)  # no connection to write on: nothing was sent
            if isinstance(err, StoreError) and err.outage:
                results = [err] * len(batch)  # the store away: each item's outcome is the batch's (none alone)
            elif len(batch) == 1:
                results = [err if isinstance(err, StoreError) else StoreError(first_line(err))]
            else:
                results = [self._alone(item) for item, _, _ in batch]  # find the bad item: the others still commit
        self.items += len(batch)
        answers: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], BaseException | None]]] = {}
        for (_, future, loop), error in zip(batch, results, strict=True):
            answers.setdefault(loop, []).append((future, error))
        for loop, settled in answers.items():
            with contextlib.suppress(RuntimeError):  # a loop that closed meanwhile: nobody waits any more
                loop.call_soon_threadsafe(_settle, settled)

    def _alone(self, item: Append) -> BaseException | None:
        """One item of a refused batch, tried alone."""
        try:
            self.store.append([item])
        except Exception as err:
            return err if isinstance(err, StoreError) else StoreError(first_line(err))
        self.commits += 1
        self.store.health.back()
        return None


def _settle(settled: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for future, error in settled:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
