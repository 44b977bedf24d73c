"""The analysis of a person's play in a finished deal, on the site (docs/analysis.md, docs/protocol.md).

``POST /api/analysis`` asks for the analysis of one's own seat in a deal of a game one played, once
that deal is over; ``GET /api/analysis?game=ID&deal=N`` polls it.  The expert's search runs in a
bounded pool of worker processes (``analysis_worker``), off the event loop, started and warmed up with
the server: requests wait in a queue of bounded length (beyond it: 503 ``busy``), each person may have
``per_person`` of them queued or running and start as many as the site's budget ``analysis`` allows
(``limits.py``: per person ``Config.analysis_per_hour`` an hour, per address and per connection besides;
shared by every process), and each decision done moves the progress a poll reports.  Finished analyses
are kept in the store (``analyses``, per game, deal, seat and analysis version), so a restart, or another
server process, answers them at once.

A person analyses only a seat they played: the analysis of a finished deal hides nothing (its record is
public once it ends), but it costs a search per decision, so it is given to the players of the deal.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...bots.accuracy import PHASES, Accuracy, habits, record_roles, seat_accuracy
from ...bots.analysis import VERSION, WORLDS_FACTOR, Analysis, Decision
from ...engine.record import RecordError
from ..logs import log
from ..store.db import accuracy, analyses
from .analysis_worker import DeafToCtrlC, analyse_nth, count_points, end_workers, state, warm
from .limits import Refusal

SEED = "analysis"
"""The seed of every analysis the site makes: ``atout analyse FILE --seat N`` gives the same one."""
DEAL = re.compile(r"^[0-9]{1,3}$")


class AnalysisError(Exception):
    """A request the site refuses: HTTP ``status``, error ``code``, a message naming what was wrong."""

    def __init__(
        self, status: int, code: str, message: str, retry_after: int = 60, fields: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.retry_after = retry_after  # what a 429 or 503 tells to wait (Retry-After)
        self.fields = fields or {}  # more of the error's fields: a spent budget's budget, scope and retry_after


# ------------------------------------------------------------------------------- the store
T = TypeVar("T")


def _one(rows: sa.Table, game: str, deal: int, seat: int) -> sa.ColumnElement[bool]:
    """A seat of a deal, at this analysis's version: the key of an analysis and of its accuracy."""
    return sa.and_(rows.c.game_id == game, rows.c.deal == deal, rows.c.seat == seat, rows.c.version == VERSION)


def _twice(write: Callable[[], T]) -> T:
    """``write`` (a transaction of its own), made again once if another process stored the same row in the same
    instant (its insert fails on the key; the second time it reads the other's row)."""
    try:
        return write()
    except IntegrityError:
        return write()


def stored(engine: sa.Engine, game: str, deal: int, seat: int) -> dict[str, Any] | None:
    with engine.connect() as conn:
        row = conn.execute(sa.select(analyses.c.data).where(_one(analyses, game, deal, seat))).first()
    return None if row is None else row.data


def keep(
    engine: sa.Engine,
    game: str,
    deal: int,
    seat: int,
    data: dict[str, Any],
    at: float,
    record: dict[str, Any] | None = None,
    player: str | None = None,
) -> dict[str, Any] | None:
    """Store an analysis; one made meanwhile by another process is the same (same record, seed, version).
    Given the deal's ``record`` and who played the seat (``player``), the seat's accuracy is stored with it,
    in the same transaction, and returned (``Accuracy.to_json``). Another process that stored the same in the
    same instant makes this transaction fail on the key: it is made again, and then finds them."""
    return _twice(lambda: _keep(engine, game, deal, seat, data, at, record, player))


def _keep(
    engine: sa.Engine,
    game: str,
    deal: int,
    seat: int,
    data: dict[str, Any],
    at: float,
    record: dict[str, Any] | None,
    player: str | None,
) -> dict[str, Any] | None:
    with engine.begin() as conn:
        exists = conn.execute(sa.select(analyses.c.game_id).where(_one(analyses, game, deal, seat))).first()
        if exists is None:
            conn.execute(
                analyses.insert().values(
                    game_id=game, deal=deal, seat=seat, version=VERSION, seed=SEED, created_at=at, data=data
                )
            )
        if record is None or player is None:
            return None
        return _keep_accuracy(conn, game, deal, seat, data, record, player, at)


def seat_accuracy_of(record: dict[str, Any], seat: int, data: dict[str, Any]) -> Accuracy | None:
    """The accuracy of ``seat`` in the deal ``record`` from its analysis ``data``; None if the record does
    not replay (a stored game's record always does)."""
    try:
        roles = record_roles(record)
    except RecordError:
        return None
    return seat_accuracy(data, seat, roles.get(seat))


def _keep_accuracy(
    conn: sa.Connection,
    game: str,
    deal: int,
    seat: int,
    data: dict[str, Any],
    record: dict[str, Any],
    player: str,
    at: float,
) -> dict[str, Any] | None:
    found = _read_accuracy(conn, game, deal, seat)
    if found is not None:
        return found
    made = seat_accuracy_of(record, seat, data)
    if made is None:
        return None
    phases = made.phases
    conn.execute(
        accuracy.insert().values(
            game_id=game,
            deal=deal,
            seat=seat,
            version=VERSION,
            player_id=player[:32],
            players=_players(record),
            role=made.role,
            loss=made.total,
            bid=phases["bid"],
            ecart=phases["ecart"],
            taker=phases["taker"],
            partner=phases["partner"],
            defence=phases["defence"],
            decisions=made.decisions,
            costly=made.costly,
            created_at=at,
            habits=habits((d for d in data.get("decisions", []) if d.get("seat") == seat), record, made.role),
        )
    )
    return made.to_json()


def _players(record: dict[str, Any]) -> int:
    from ...engine.record import start_deal

    return start_deal(record).players


def _read_accuracy(conn: sa.Connection, game: str, deal: int, seat: int) -> dict[str, Any] | None:
    row = conn.execute(sa.select(accuracy).where(_one(accuracy, game, deal, seat))).first()
    if row is None:
        return None
    phases = {p: float(getattr(row, p)) for p in PHASES}
    return Accuracy(float(row.loss), phases, {}, int(row.decisions), int(row.costly), row.role).to_json()


def accuracy_for(
    engine: sa.Engine,
    game: str,
    deal: int,
    seat: int,
    record: dict[str, Any],
    data: dict[str, Any],
    player: str,
    at: float,
) -> dict[str, Any] | None:
    """The seat's accuracy as stored; an analysis kept before accuracies were (migration 0020) gets it now (made
    by two requests at once: the second's insert fails on the key, and it reads the first's)."""

    def write() -> dict[str, Any] | None:
        with engine.begin() as conn:
            return _keep_accuracy(conn, game, deal, seat, data, record, player, at)

    return _twice(write)


# ------------------------------------------------------------------------------- the pool
@dataclass
class Job:
    """One analysis asked for: a seat of a deal, who asked, and how far it is."""

    game: str
    deal: int
    seat: int
    person: str
    record: dict[str, Any]
    status: str = "queued"  # queued, running, done, failed
    done: int = 0
    total: int | None = None
    result: dict[str, Any] | None = None
    accuracy: dict[str, Any] | None = None

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.game, self.deal, self.seat)


class AnalysisPool:
    """The worker processes, the queue before them and the limits on it (see the module docstring)."""

    def __init__(
        self,
        engine: sa.Engine,
        workers: int = 1,
        queue: int = 16,
        per_person: int = 1,
        factor: int = WORLDS_FACTOR,
        warm_at_start: bool = True,
    ) -> None:
        self.engine = engine
        self.factor = factor  # times the expert's worlds each decision searches (atout serve --analysis-worlds)
        self.workers = workers
        self.limit = queue
        self.per_person = per_person
        self.warm_at_start = warm_at_start
        self.jobs: dict[tuple[str, int, int], Job] = {}
        self.waiting: deque[Job] = deque()
        self.wake = asyncio.Event()
        self.executor: ProcessPoolExecutor | None = None
        self.runners: list[asyncio.Task[None]] = []
        self.warming: asyncio.Task[Any] | None = None  # the workers' start and warm-up: their states once warmed

    async def start(self) -> None:
        """At the server's start: the worker processes start and warm up in the background (a worker spawned
        at the first request spent 1.6 to 3 s loading numba's compiled code, 42 to 80 s compiling it on a
        machine without numba's cache, before the first decision: benchmarks/results/analysis_web.md), so
        the first person who asks does not wait for it. ``warm_at_start`` False (tests that never analyse):
        at the first request."""
        if self.workers >= 1 and self.warm_at_start:
            self._start()

    def _start(self) -> None:
        if not self.runners:
            self.warming = asyncio.create_task(self._warm_up(self._processes()))
            self.runners = [asyncio.create_task(self._run()) for _ in range(self.workers)]

    async def _warm_up(self, executor: ProcessPoolExecutor) -> list[dict[str, Any]]:
        """One task a worker, which starts it (in a thread: a process's spawn is no work for the event loop)
        and waits for its warm-up; each worker's ``analysis_worker.state``. Logged: how long it took."""
        began = time.monotonic()
        try:
            futures = await asyncio.to_thread(lambda: [executor.submit(state) for _ in range(self.workers)])
            states = list(await asyncio.gather(*(asyncio.wrap_future(f) for f in futures)))
        except asyncio.CancelledError:
            raise
        except Exception as err:  # the first job meets the same broken pool, fails and gets new workers
            log.error("the analysis workers did not start", exc_info=err)
            raise
        log.info("analysis workers ready: %d in %.1f s", len(states), time.monotonic() - began)
        return states

    async def ready(self) -> list[dict[str, Any]]:
        """Once the workers are warmed: their states (``analysis_worker.state``); they start now if not yet."""
        if self.workers < 1:
            return []
        self._start()
        assert self.warming is not None
        return await asyncio.shield(self.warming)

    async def probe(self) -> dict[str, Any]:
        """A worker's state now (with one worker: the one that made the analyses), after the jobs before."""
        await self.ready()
        return await asyncio.get_running_loop().run_in_executor(self._processes(), state)

    def _processes(self) -> ProcessPoolExecutor:
        """The worker processes, each warmed before its first task; new ones when a worker died (the pool is
        then broken for good)."""
        if self.executor is None:
            # spawn, not fork: a fork of a server with threads and an event loop may inherit a held lock
            self.executor = ProcessPoolExecutor(
                self.workers, mp_context=DeafToCtrlC(), initializer=warm, initargs=(os.getpid(),)
            )
        return self.executor

    async def stop(self) -> None:
        tasks = [*self.runners, *([self.warming] if self.warming else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.executor is not None:
            executor, self.executor = self.executor, None
            await end_workers(executor)

    def status(self, job: Job) -> dict[str, Any]:
        out: dict[str, Any] = {"status": job.status, "game": job.game, "deal": job.deal, "seat": job.seat}
        if job.status == "queued":
            out["ahead"] = next((i for i, j in enumerate(self.waiting) if j is job), 0)
        if job.total is not None:
            out["done"], out["total"] = job.done, job.total
        return out

    async def submit(self, job: Job, spend: Callable[[], Awaitable[Refusal | None]]) -> Job:
        """Queue ``job`` (or give the same one already queued or running); AnalysisError when a limit refuses.
        ``spend``: one of the site's budget ``analysis`` for whoever asks, once nothing else refused."""
        if self.workers < 1:
            raise AnalysisError(503, "analysis_off", "this server makes no analyses (atout serve --analysis-workers 0)")
        same = self.jobs.get(job.key)
        if same is not None and same.status != "failed":
            return same
        mine = sum(1 for j in self.jobs.values() if j.person == job.person and j.status in ("queued", "running"))
        if mine >= self.per_person:
            raise AnalysisError(
                429, "analysis_running", f"you have {mine} analysis running or waiting: ask again once it is done"
            )
        if len(self.waiting) >= self.limit:
            raise AnalysisError(503, "busy", f"{len(self.waiting)} analyses are waiting already: try again in a minute")
        refused = await spend()
        if refused is not None:
            raise AnalysisError(429, "rate_limited", refused.message, refused.seconds, refused.fields())
        self._start()
        self.jobs[job.key] = job
        self.waiting.append(job)
        self.wake.set()
        return job

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            while not self.waiting:
                self.wake.clear()
                await self.wake.wait()
            job = self.waiting.popleft()
            job.status = "running"
            try:
                await self._analyse(loop, job)
                job.status = "done"
            except asyncio.CancelledError:
                raise
            except Exception as err:  # a failed analysis must not stop the runner: the person may ask again
                job.status = "failed"
                log.error("analysis failed: game %s deal %s seat %s", job.game, job.deal, job.seat, exc_info=err)
            finally:
                if job.status == "done":
                    self.jobs.pop(job.key, None)  # the store answers from now on

    async def _analyse(self, loop: asyncio.AbstractEventLoop, job: Job) -> None:
        executor = self._processes()
        try:
            job.total = await loop.run_in_executor(executor, count_points, job.record, job.seat)
            decisions: list[Decision] = []
            forced = 0
            for n in range(job.total):
                decision = await loop.run_in_executor(executor, analyse_nth, job.record, job.seat, SEED, n, self.factor)
                if decision is None:
                    forced += 1
                else:
                    decisions.append(decision)
                job.done = n + 1
        except BrokenProcessPool:
            if self.executor is executor:  # a worker died: the pool is broken for good, the next job gets new ones
                executor.shutdown(wait=False, cancel_futures=True)
                self.executor = None
            raise
        data = Analysis(SEED, (job.seat,), decisions, {job.seat: forced}).to_json()
        job.accuracy = await asyncio.to_thread(
            keep, self.engine, job.game, job.deal, job.seat, data, time.time(), job.record, job.person
        )
        job.result = data


# ------------------------------------------------------------------------------- the routes


__all__ = ["SEED", "AnalysisError", "AnalysisPool", "Job", "accuracy_for", "keep", "seat_accuracy_of", "stored"]
