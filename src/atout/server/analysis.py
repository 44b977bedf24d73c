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
import multiprocessing
import os
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..bots.analysis import VERSION, WORLDS_FACTOR, Analysis, Decision
from ..engine.kinds import SeatKind
from ..engine.record import RecordError, replay
from .accounts import AccountError
from .analysis_worker import analyse_nth, count_points, state, warm
from .db import STORED_ID, analyses
from .limits import Budget, Refusal
from .logs import log

SEED = "analysis"
"""The seed of every analysis the site makes: ``atout analyse FILE --seat N`` gives the same one."""
_DEAL = re.compile(r"^[0-9]{1,3}$")


class AnalysisError(Exception):
    """A request the site refuses: HTTP ``status``, error ``code``, a message naming what was wrong."""

    def __init__(self, status: int, code: str, message: str, retry_after: int = 60,
                 fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.retry_after = retry_after  # what a 429 or 503 tells to wait (Retry-After)
        self.fields = fields or {}  # more of the error's fields: a spent budget's budget, scope and retry_after


# ------------------------------------------------------------------------------- the store
def stored(engine: sa.Engine, game: str, deal: int, seat: int) -> dict[str, Any] | None:
    with engine.connect() as conn:
        row = conn.execute(sa.select(analyses.c.data).where(
            analyses.c.game_id == game, analyses.c.deal == deal, analyses.c.seat == seat,
            analyses.c.version == VERSION)).first()
    return None if row is None else row.data


def keep(engine: sa.Engine, game: str, deal: int, seat: int, data: dict[str, Any], at: float) -> None:
    """Store an analysis; one made meanwhile by another process is the same (same record, seed, version)."""
    with engine.begin() as conn:
        exists = conn.execute(sa.select(analyses.c.game_id).where(
            analyses.c.game_id == game, analyses.c.deal == deal, analyses.c.seat == seat,
            analyses.c.version == VERSION)).first()
        if exists is None:
            conn.execute(analyses.insert().values(game_id=game, deal=deal, seat=seat, version=VERSION, seed=SEED,
                                                  created_at=at, data=data))


# ------------------------------------------------------------------------------- the pool
@dataclass
class Job:
    """One analysis asked for: a seat of a deal, who asked, and how far it is."""

    game: str
    deal: int
    seat: int
    person: str
    record: dict
    status: str = "queued"  # queued, running, done, failed
    done: int = 0
    total: int | None = None
    result: dict[str, Any] | None = None

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.game, self.deal, self.seat)


class AnalysisPool:
    """The worker processes, the queue before them and the limits on it (see the module docstring)."""

    def __init__(self, engine: sa.Engine, workers: int = 1, queue: int = 16, per_person: int = 1,
                 factor: int = WORLDS_FACTOR, warm_at_start: bool = True) -> None:
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
        self.runners: list[asyncio.Task] = []
        self.warming: asyncio.Task | None = None  # the workers' start and warm-up: their states once warmed

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
            self.executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=warm, initargs=(os.getpid(),))
        return self.executor

    async def stop(self) -> None:
        tasks = [*self.runners, *([self.warming] if self.warming else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.executor is not None:
            workers = dict(getattr(self.executor, "_processes", None) or {})
            self.executor.shutdown(wait=False, cancel_futures=True)
            for process in workers.values():  # a worker still compiling, or analysing, is not waited for
                with contextlib.suppress(Exception):
                    process.terminate()
            self.executor = None

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
            raise AnalysisError(429, "analysis_running",
                                f"you have {mine} analysis running or waiting: ask again once it is done")
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
                decision = await loop.run_in_executor(executor, analyse_nth, job.record, job.seat, SEED, n,
                                                      self.factor)
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
        await asyncio.to_thread(keep, self.engine, job.game, job.deal, job.seat, data, time.time())
        job.result = data


# ------------------------------------------------------------------------------- the routes
class AnalysisRoutes:
    """``POST /api/analysis`` and ``GET /api/analysis`` (docs/protocol.md)."""

    def __init__(self, pool: AnalysisPool) -> None:
        self.pool = pool

    def routes(self) -> list[Route]:
        return [Route("/api/analysis", self.ask, methods=["POST"]), Route("/api/analysis", self.poll, methods=["GET"])]

    async def ask(self, request: Request) -> Response:
        """{game, deal[, seat][, table]}: the analysis if made, else it is queued and its progress answered."""
        from .api import _body

        try:
            person = await self._person(request)
            try:
                data = await _body(request)
            except AccountError as err:
                raise AnalysisError(400, err.code, err.message) from None
            game, deal, seat, table = _fields(data)
            record, seat = await self._deal(request, person, game, deal, seat, table)
            done = await asyncio.to_thread(stored, self.pool.engine, game, deal, seat)
            if done is not None:
                return JSONResponse({"status": "done", "game": game, "deal": deal, "seat": seat, "analysis": done})
            job = await self.pool.submit(Job(game, deal, seat, person, record), lambda: _spend(request, person))
        except AnalysisError as err:
            return _refusal(err)
        return JSONResponse(self.pool.status(job), status_code=202)

    async def poll(self, request: Request) -> Response:
        """?game=ID&deal=N[&seat=S][&table=T]: how far the analysis is, or the analysis."""
        try:
            person = await self._person(request)
            query = request.query_params
            unknown = sorted(set(query) - {"game", "deal", "seat", "table"})
            if unknown:
                raise AnalysisError(400, "bad_query",
                                    f"no parameter {unknown[0][:20]!r}: the analysis takes game, deal, seat, table")
            deal_text, seat_text = query.get("deal", ""), query.get("seat")
            if not _DEAL.match(deal_text) or (seat_text is not None and not _DEAL.match(seat_text)):
                raise AnalysisError(400, "bad_query", "deal (and seat) are whole numbers from 0")
            game, deal, table = query.get("game", ""), int(deal_text), query.get("table")
            if not STORED_ID.match(game) or (table is not None and not STORED_ID.match(table)):
                raise AnalysisError(400, "bad_query", "game (and table): a game's (a table's) id")
            seat = None if seat_text is None else int(seat_text)
            jobs = [j for j in self.pool.jobs.values() if j.game == game and j.deal == deal
                    and j.person == person and (seat is None or j.seat == seat)]
            if jobs:
                job = jobs[0]
                if job.status == "failed":
                    raise AnalysisError(500, "internal", "the analysis failed (it is in the server's log): ask again")
                if job.status != "done":
                    return JSONResponse(self.pool.status(job), status_code=202)
            _, seat = await self._deal(request, person, game, deal, seat, table, lookup_only=True)
            done = await asyncio.to_thread(stored, self.pool.engine, game, deal, seat)
            if done is None:
                raise AnalysisError(404, "not_requested", "nobody asked for this analysis yet: POST /api/analysis")
        except AnalysisError as err:
            return _refusal(err)
        return JSONResponse({"status": "done", "game": game, "deal": deal, "seat": seat, "analysis": done})

    async def _person(self, request: Request) -> str:
        """Who asks: the session's account, or a guest by the token ``hello`` gave (``Authorization: Bearer``)."""
        from .api import COOKIE

        hub = request.app.state.hub
        cookie = request.cookies.get(COOKIE)
        if cookie and hub.accounts is not None:
            account = await asyncio.to_thread(hub.accounts.session, cookie)
            if account is not None:
                return account.id
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and token:
            player = hub.player_from_token(token.strip())
            if player is not None:
                return player
        raise AnalysisError(401, "not_logged_in", "log in, or send your guest token as Authorization: Bearer TOKEN")

    async def _deal(self, request: Request, person: str, game: str, deal: int, seat: int | None,
                    table: str | None, lookup_only: bool = False) -> tuple[dict, int]:
        """The finished deal's record and the seat the person played in it; AnalysisError names what
        is wrong.  A stored game first (finished or cancelled), else the game running at ``table``."""
        hub = request.app.state.hub
        row = await asyncio.to_thread(hub.store.game, game)
        if row is not None:
            records = row.data.get("records", [])
            mine = [s["seat"] for s in row.data["seats"] if s.get("player") == person]
        else:
            found = await self._running(request, person, game, table)
            if found is None:
                raise AnalysisError(404, "no_game", f"no game {game[:40]!r}" + ("" if table else
                                    " is stored (a game still running needs its table)"))
            records, mine = found
        if not 0 <= deal < len(records):
            raise AnalysisError(404, "no_deal", f"game {game[:40]!r} has {len(records)} finished deals: deal is 0 to "
                                f"{len(records) - 1}")
        if not mine:
            raise AnalysisError(403, "not_your_seat", "you did not play in this game: a person analyses their own seat")
        if seat is None:
            seat = mine[0]
        elif seat not in mine:
            raise AnalysisError(403, "not_your_seat", f"seat {seat} is not yours: you played seat {mine[0]}")
        record = records[deal]
        if not lookup_only:
            try:
                over = replay(record).deal.is_over
            except RecordError:
                over = False
            if not over:
                raise AnalysisError(404, "no_deal", "that deal is not finished")
        return record, seat

    async def _running(self, request: Request, person: str, game: str,
                       table_id: str | None) -> tuple[list, list[int]] | None:
        """The finished deals of the game running (or just ended) at ``table_id``, and the seats the
        asker sat in; this process's table, else the table as the store holds it."""
        if not table_id:
            return None
        hub = request.app.state.hub
        room = hub.rooms.get(table_id)
        if room is not None:
            table = room.table
        else:
            table = await asyncio.to_thread(_stored_table, hub, table_id)
        if table is None or table.game_id != game:
            return None
        seats = [i for i, s in enumerate(table.seats) if s.player == person and s.kind == SeatKind.PERSON]
        return list(table.records), seats


def _stored_table(hub, table_id: str):
    """The table as stored (snapshot and the events after it), rebuilt as a restart would: read only."""
    from .room import rebuilt

    item = hub.store.table(table_id)
    if item is None:
        return None
    return rebuilt(item.snapshot, [e.data for e in item.events], hub.config.timing, hub.clock.now())


def _fields(data: dict[str, Any]) -> tuple[str, int, int | None, str | None]:
    game, deal, seat, table = data.get("game"), data.get("deal"), data.get("seat"), data.get("table")
    if not isinstance(game, str) or not STORED_ID.match(game):
        raise AnalysisError(400, "malformed", "game: the id of a game you played")
    if not isinstance(deal, int) or isinstance(deal, bool) or not 0 <= deal < 1000:
        raise AnalysisError(400, "malformed", "deal: the deal's place in the game's records, from 0")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 5):
        raise AnalysisError(400, "malformed", "seat: 0 to 4, or left out for your own")
    if table is not None and (not isinstance(table, str) or not STORED_ID.match(table)):
        raise AnalysisError(400, "malformed", "table: the id of the table the game is played at")
    return game, deal, seat, table


def _spend(request: Request, person: str) -> Awaitable[Refusal | None]:
    """One of the budget ``analysis`` for this person and this address (``limits.py``)."""
    from .api import _address

    return request.app.state.hub.limits.spend(Budget.ANALYSIS, person=person, address=_address(request))


def _refusal(err: AnalysisError) -> Response:
    response = JSONResponse({"error": {"code": err.code, "message": err.message, **err.fields}}, status_code=err.status)
    if err.status in (429, 503):
        response.headers["Retry-After"] = str(err.retry_after)
    return response


__all__ = ["SEED", "AnalysisError", "AnalysisPool", "AnalysisRoutes", "Job"]
