"""The tournaments' clock (``features/tournaments.py``): each tournament starts when full or at its time,
on every process (the first to start one wins), and each round's tables open when the last one closed (and when
a look now and then finds a round over: that cue may be lost)."""

from __future__ import annotations

import asyncio
import math
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.exc import IntegrityError

from ..features import tournaments
from ..logs import log
from ..room import Room
from ..table import Batch, Table, play

if TYPE_CHECKING:
    from ..clock import Clock
    from ..room import Services
    from ..store import Store
    from .config import Config
    from .local import Site
    from .roles import Identities, RunHere

TOURNAMENT_RETRY = 5.0
"""Seconds before the tournament clock tries again a start the store refused (its failure logged)."""
LOOK_EVERY = 30.0
"""Real seconds between two looks for a round over whose next round nobody opened (its last table's close is the
usual cue; this one catches a cue lost: a process gone at that moment, a store failing)."""


class ClockHub(Protocol):
    """What the tournaments' clock uses of its hub (``Hub`` is one)."""

    @property
    def store(self) -> Store: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def config(self) -> Config: ...
    @property
    def site(self) -> Site: ...
    @property
    def services(self) -> Services[Room]: ...
    @property
    def identity(self) -> Identities: ...
    @property
    def run_here(self) -> RunHere: ...


class TournamentClock:
    """Starts tournaments when due and opens their rounds' tables here."""

    def __init__(self, hub: ClockHub) -> None:
        self.hub = hub
        self.wake = asyncio.Event()  # a tournament created (its start time may be the next), a table closed, ...
        self.opening: set[str] = set()  # tournament tables being opened here now
        self.behind = False  # a table not opened: the clock looks again TOURNAMENT_RETRY seconds later

    async def run(self) -> None:
        """Start each tournament whose start time has come, on the server's clock (every process does:
        the first to start one wins, tournaments.start), and open the next round of each tournament whose
        round is over (the first process to see it wins, tournaments.advance): when a tournament's table
        closes, and every ``LOOK_EVERY`` real seconds whatever happened (every ``TOURNAMENT_RETRY`` while the
        store fails)."""
        while True:
            self.wake.clear()
            self.behind = False
            caught_up = await self.open_rounds_over() and not self.behind
            try:
                ready, later = await asyncio.to_thread(tournaments.due, self.hub.store.engine, self.hub.clock.now())
            except Exception as err:  # the store away (logged once, by its health): look again a moment later
                if self.hub.store.health.report(err) is None:
                    log.warning("tournament clock: %s", err)
                ready, later = [], self.hub.clock.now() + TOURNAMENT_RETRY
            if ready:
                tried = self.hub.clock.now()  # the retry counts from the attempt, not from when its failure came back
                if all([await self.start(tid) for tid in ready]):
                    continue
                later = min(later or math.inf, tried + TOURNAMENT_RETRY)  # a start failed: not in a loop
            waiters: list[asyncio.Future[Any]] = [
                asyncio.ensure_future(self.wake.wait()),
                asyncio.ensure_future(asyncio.sleep(LOOK_EVERY if caught_up else TOURNAMENT_RETRY)),  # real time
            ]
            if later is not None:
                waiters.append(asyncio.ensure_future(self.hub.clock.sleep_until(later)))
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()

    async def open_rounds_over(self) -> bool:
        """The next round (or the end) of every tournament whose round is over, and any table of a current round
        that was seated and never opened; False when the store failed (the failure logged: the clock looks again
        ``TOURNAMENT_RETRY`` seconds later, as it does after a table not opened, ``behind``)."""
        engine = self.hub.store.engine
        try:
            for tid in await asyncio.to_thread(tournaments.rounds_over, engine):
                opened = await asyncio.to_thread(
                    tournaments.advance, engine, tid, self.hub.clock.now(), self.hub.site.new_table_id
                )
                if opened is not None:
                    await self.open_round(opened)
            for opened in await asyncio.to_thread(tournaments.unopened, engine):
                await self.open_round(opened)
        except Exception as err:
            if self.hub.store.health.report(err) is None:
                log.warning("tournament clock: a round over not advanced: %r", err)
            return False
        return True

    async def start(self, tid: str) -> bool:
        """Start a tournament that is due (when full, or at its time): False when the store failed, the
        tournament still open (``tournaments.due`` offers it again, and the clock tries again)."""
        try:
            opened = await asyncio.to_thread(
                tournaments.start, self.hub.store.engine, tid, self.hub.clock.now(), self.hub.site.new_table_id
            )
        except Exception as err:
            if self.hub.store.health.report(err) is None:
                log.warning("tournament %s did not start: %s", tid, err)
            return False
        if opened is not None:
            await self.open_round(opened)
            if self.behind:  # a table not opened: the clock looks again soon (asleep, if this is a registration)
                self.wake.set()
        return True

    async def open_round(self, opened: tournaments.Round) -> None:
        """A round's tables, run here (each may move to another process as any table does), their people told. One
        that could not be opened (the store failing) makes the clock ``behind``: it opens it at a look soon after
        (``tournaments.unopened``), as it does one another process was opening when it went."""
        for _, table_id, seats in opened.tables:
            if table_id in self.opening:  # this process is opening it already (a start beside the clock's look)
                continue
            table = Table(table_id, opened.players, opened.options(), self.hub.config.timing)
            room = Room(table, self.hub.services)

            def make(b: Batch, seats: list[tuple[str, str] | None] = seats) -> None:
                play.tournament_open(b, seats, opened.spec(), opened.seed)

            self.opening.add(table_id)
            try:
                await room.open(make, self.hub.run_here(room), lease=self.hub.site.new_lease())
            except IntegrityError:  # another process stored it first, and runs it
                log.debug("tournament table %s: opened by another process", table_id)
                continue
            except Exception as err:
                if self.hub.store.health.report(err) is None:
                    log.warning("tournament table %s not opened: %r", table_id, err)
                self.behind = True
                continue
            finally:
                self.opening.discard(table_id)
            room.start()
            for player, _ in (s for s in seats if s is not None):
                self.hub.identity.tell_player(
                    player,
                    {"type": "tournament", "tournament": opened.tournament, "round": opened.round, "table": table_id},
                )

    def table_closed(self, room: Room) -> None:
        """A tournament's table closed: its round may be over (the clock looks at once)."""
        self.wake.set()
