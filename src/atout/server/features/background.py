"""Every finished deal's accuracy, made in the background under a budget (issue 50, docs/analysis.md "In the
background").

A registered person's seat in a finished game (ranked or practice, a seat they did not abandon; a daily deal's
once its day is over, a tournament's once its round is over) gets its analysis and accuracy made, deal by deal,
as if the person had asked (``analysis.keep``: the same seed and search, stored the same way), so their profile's
insights cover every deal they played and not only those they asked about.

It never slows the tables: the work runs in worker processes of its own (``jobs`` of them, ``atout serve
--insights-jobs``), started at the first job, at a lower priority than the server and than the analyses people
ask for (nice 10, ``analysis_worker.warm_low``), never in the server's event loop nor its robots' threads; and
under a budget of CPU seconds an hour (``atout serve --insights-budget``; 0: none made), counted in the workers,
decision by decision: once the last hour's spending reaches it, the next decision waits until it falls back; and
each decision is followed by a rest that keeps the worker's share of a core near budget / 3600 (paced, not spent
at full speed in the hour's first minutes).
The deals are found by a scan of the store (``pending``), newest games first, every ``scan_every`` seconds
while nothing is waiting; with several server processes each runs its own (a deal made twice is stored once).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ...bots.analysis import VERSION, WORLDS_FACTOR, Analysis, Decision
from ...engine.record import RecordError, replay
from ..logs import log
from ..store.db import accuracy, games, players
from ..store.db import game_players as gp
from . import daily, tournament_results
from .analysis import SEED, accuracy_for, keep, stored
from .analysis_worker import DeafToCtrlC, count_points, end_workers, timed_nth, warm_low

HOUR = 3600.0
SCAN = 20
"""Games a scan looks at, at most."""


@dataclass(frozen=True)
class Seat:
    """One seat of one deal to make the accuracy of."""

    game: str
    deal: int
    seat: int
    player: str
    record: dict[str, Any]


def pending(engine: sa.Engine, now: float, skip: set[str], limit: int = SCAN) -> tuple[list[Seat], set[str]]:
    """The seats of finished deals that need an accuracy, from the ``limit`` latest games with a registered
    person's seat that has fewer accuracies than deals (``skip``: games not to look at); and the games looked at
    that may be made later (a daily deal's before its day is over, a tournament's before its round is)."""
    counted = (
        sa.select(sa.func.count())
        .select_from(accuracy)
        .where(accuracy.c.game_id == gp.c.game_id, accuracy.c.seat == gp.c.seat, accuracy.c.version == VERSION)
        .scalar_subquery()
    )
    query = (
        sa.select(gp.c.game_id, gp.c.seat, gp.c.player_id)
        .join(players, players.c.id == gp.c.player_id)
        .where(
            players.c.robot_of.is_(None),
            players.c.deleted_at.is_(None),
            gp.c.abandoned.is_(False),
            counted < gp.c.deals,
        )
        .order_by(gp.c.ended_at.desc(), gp.c.game_id, gp.c.seat)
        .limit(limit)
    )
    if skip:
        query = query.where(gp.c.game_id.not_in(skip))
    with engine.connect() as conn:
        seats = conn.execute(query).all()
    found: list[Seat] = []
    later: set[str] = set()
    for game_id, seat, player in seats:
        if daily.locked_game(engine, game_id, now) is not None or tournament_results.locked_game(engine, game_id, None):
            later.add(game_id)
            continue
        with engine.connect() as conn:
            data = conn.execute(sa.select(games.c.data).where(games.c.id == game_id)).scalar()
            done = set(
                conn.execute(
                    sa.select(accuracy.c.deal).where(
                        accuracy.c.game_id == game_id, accuracy.c.seat == seat, accuracy.c.version == VERSION
                    )
                ).scalars()
            )
        for deal, record in enumerate((data or {}).get("records", [])):
            if deal not in done and _over(record):
                found.append(Seat(game_id, deal, seat, player, record))
        later.add(game_id)  # looked at: not again in this scan's round (a deal never over stays so)
    return found, later


def _over(record: dict[str, Any]) -> bool:
    try:
        return replay(record).deal.is_over
    except RecordError:
        return False


class Background:
    """The background's queue, workers and budget (see the module docstring)."""

    def __init__(
        self,
        engine: sa.Engine,
        budget: float = 0.0,
        jobs: int = 1,
        factor: int = WORLDS_FACTOR,
        scan_every: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine = engine
        self.budget = budget  # CPU seconds an hour; 0: nothing is made
        self.jobs = jobs
        self.factor = factor
        self.scan_every = scan_every
        self.clock = clock  # what the budget's hour is measured on (tests move it)
        self.now: Callable[[], float] = time.time  # the site's clock, for a daily deal's day (the hub's, once started)
        self.spent: deque[tuple[float, float]] = deque()  # (when, CPU seconds) of the last hour's decisions
        self.waiting: deque[Seat] = deque()
        self.looked: set[str] = set()  # games looked at since the last full round of scans
        self.made = 0  # seats made since the start
        self.decisions = 0  # decisions searched since the start
        self.poke = asyncio.Event()  # wakes the runners: a scan to make, a budget to look at again
        self.executor: ProcessPoolExecutor | None = None
        self.runners: list[asyncio.Task[None]] = []
        self.scanning: asyncio.Lock = asyncio.Lock()
        self.state = "idle"  # idle, scanning, running, over budget

    @property
    def on(self) -> bool:
        return self.budget > 0 and self.jobs > 0

    def start(self) -> None:
        if self.on and not self.runners:
            self.runners = [asyncio.create_task(self._run()) for _ in range(self.jobs)]

    async def stop(self) -> None:
        for task in self.runners:
            task.cancel()
        for task in self.runners:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.runners = []
        if self.executor is not None:
            executor, self.executor = self.executor, None
            await end_workers(executor)

    def spent_last_hour(self) -> float:
        now = self.clock()
        while self.spent and self.spent[0][0] <= now - HOUR:
            self.spent.popleft()
        return sum(cpu for _, cpu in self.spent)

    def status(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "waiting": len(self.waiting),
            "made": self.made,
            "spent": round(self.spent_last_hour(), 2),
            "budget": self.budget,
        }

    def _processes(self) -> ProcessPoolExecutor:
        if self.executor is None:
            self.executor = ProcessPoolExecutor(
                self.jobs,
                mp_context=DeafToCtrlC(),
                initializer=warm_low,
                initargs=(os.getpid(),),
            )
        return self.executor

    async def _next(self) -> Seat:
        """The next seat to make: from the queue, else a scan of the store, else after ``scan_every`` seconds."""
        while True:
            if self.waiting:
                return self.waiting.popleft()
            async with self.scanning:
                if not self.waiting:
                    self.state = "scanning"
                    found, looked = await asyncio.to_thread(pending, self.engine, self.now(), set(self.looked))
                    self.looked |= looked
                    self.waiting.extend(found)
                    if not looked:  # every game looked at: the next round looks at them all again
                        self.looked.clear()
                    if not found and not looked:
                        self.state = "idle"
                        self.poke.clear()
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self.poke.wait(), self.scan_every)

    async def _within_budget(self) -> None:
        """Wait while the last hour's CPU reaches the budget: until its oldest spending is an hour old (or a poke)."""
        while self.spent_last_hour() >= self.budget:
            self.state = "over budget"
            wait = self.spent[0][0] + HOUR - self.clock() if self.spent else 1.0
            self.poke.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.poke.wait(), max(0.05, min(wait, 60.0)))
        self.state = "running"

    async def _pace(self, seconds: float) -> None:
        """Spread the budget over the hour: after a decision of ``seconds``, rest so that the worker's share of a
        core stays near ``budget`` / 3600 (900: a quarter) rather than spending the hour's budget at full speed
        in its first minutes (with a full queue, a core flat out raised the tables' p99: insights_load.md)."""
        share = self.budget / HOUR
        if 0 < share < 1 and seconds > 0 and self.spent_last_hour() < self.budget:  # else the budget's wait waits
            self.poke.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.poke.wait(), seconds * (1 / share - 1))

    async def _run(self) -> None:
        while True:
            item = await self._next()
            try:
                await self._make(item)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # one seat that fails must not stop the background
                log.error("background accuracy failed: game %s deal %s seat %s", item.game, item.deal, item.seat,
                          exc_info=err)  # fmt: skip

    async def _make(self, item: Seat) -> None:
        done = await asyncio.to_thread(stored, self.engine, item.game, item.deal, item.seat)
        if done is not None:  # analysed already (a person asked): its accuracy costs no search
            await asyncio.to_thread(
                accuracy_for, self.engine, item.game, item.deal, item.seat, item.record, done, item.player, self.now()
            )
            self.made += 1
            return
        loop = asyncio.get_running_loop()
        executor = self._processes()
        decisions: list[Decision] = []
        forced = 0
        cpu = 0.0
        try:
            await self._within_budget()
            total = await loop.run_in_executor(executor, count_points, item.record, item.seat)
            for n in range(total):
                await self._within_budget()
                decision, seconds = await loop.run_in_executor(
                    executor, timed_nth, item.record, item.seat, SEED, n, self.factor
                )
                self.spent.append((self.clock(), seconds))
                self.decisions += 1
                await self._pace(seconds)
                cpu += seconds
                if decision is None:
                    forced += 1
                else:
                    decisions.append(decision)
        except BrokenProcessPool:
            if self.executor is executor:
                executor.shutdown(wait=False, cancel_futures=True)
                self.executor = None
            raise
        data = Analysis(SEED, (item.seat,), decisions, {item.seat: forced}).to_json()
        await asyncio.to_thread(
            keep, self.engine, item.game, item.deal, item.seat, data, self.now(), item.record, item.player
        )
        self.made += 1
        log.info("background accuracy: game %s deal %d seat %d, %.2f s of CPU", item.game, item.deal, item.seat, cpu)


__all__ = ["Background", "Seat", "pending"]
