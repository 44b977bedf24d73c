"""A room's robots: when a robot must play (a robot's seat, or a person's away or in automatic mode), it
thinks off the event loop at the table's pace, then plays as a request (``play.play``) like anybody else."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar

from ...bots import make_bot
from ...bots.base import Bot
from ...bots.random_bot import RandomBot
from ...engine.record import action_to_json
from ..features.daily import robot_seed
from ..kinds import SeatKind
from ..logs import event_log
from ..protocol import ProtocolError
from ..store import StoreError
from ..table import Batch, play
from .timer import TimerRoom

T = TypeVar("T")


class RobotsRoom(TimerRoom, Protocol):
    """What its robots use of a room (``Room`` is one): what its timer does (its table, its turn, committing, its
    services), and its tasks."""

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]: ...


class Robots:
    """Plays for ``room``'s robots, one decision at a time."""

    def __init__(self, room: RobotsRoom) -> None:
        self.room = room
        self.thinking: tuple[int, int] | None = None  # (seq, seat) a robot is thinking about
        self.bots: dict[tuple[int, str], Bot] = {}

    def schedule(self, retry: bool = False) -> None:
        """A robot starts thinking if one must play now (and none thinks of this turn already; none while the
        table is paused: its resumption schedules again). ``retry``: its move of this turn was not stored."""
        room = self.room
        table = room.table
        seat = table.robot_turn()
        if seat is None or table.paused or self.thinking == (table.seq, seat):
            return
        self.thinking = (table.seq, seat)
        room.spawn(self._play(seat, table.seq, retry), "robot")

    def forget(self) -> None:
        """The table was loaded again: whatever a robot was thinking of is void."""
        self.thinking = None

    async def _think(self, work: Callable[[], T]) -> T:
        """``work`` in the process's threads for robots: never in the pool the store's reads wait in (a dozen
        tables' robots thinking at once held a fresh connection's welcome behind them)."""
        return await asyncio.get_running_loop().run_in_executor(self.room.services.thinking, work)

    def _bot(self, seat: int) -> Bot:
        table = self.room.table
        level = table.robot_level(seat)
        key = (seat, level)
        if key not in self.bots:
            self.bots[key] = make_bot(level, f"{table.id}/{seat}/{level}")
        return self.bots[key]

    async def _play(self, seat: int, seq: int, retry: bool) -> None:
        """``seat``'s move at ``seq``, if the table still waits for it then; whatever happens, this turn is no
        longer thought of when it returns (the table rolled back or read again waits for a robot once more)."""
        over = False  # returned or failed (not cancelled: a room stopping thinks of nothing more)
        try:
            if retry:
                await asyncio.sleep(ROBOT_RETRY)  # real time: a refusal or a bug does not spin the process
            await self._think_and_play(seat, seq)
            over = True
        except Exception:
            over = True
            raise
        finally:
            if self.thinking == (seq, seat):
                self.thinking = None
                if over and self.room.table.seq == seq:  # the move was not made (the table went back to its store)
                    self.schedule(retry=True)

    async def _think_and_play(self, seat: int, seq: int) -> None:
        room = self.room
        clock = room.services.clock
        await clock.sleep_until(room.table.last_event_at + room.services.timing.robot_pace)
        table = room.table  # as it stands now (rolled back or read again, the same turn still counts)
        if table.seq != seq or table.robot_turn() != seat or table.paused:
            return
        deal = table.deal
        assert deal is not None and table.game is not None
        deal_index = table.game.deal_index - 1  # the deal being played, from 0 (void deals included)
        observation = deal.observation(seat)
        # A robot's first move makes it off the event loop: an expert loads its compiled card
        # play then (0.2 s, or seconds the first time on a machine).
        try:
            if table.daily is not None and table.daily_seed is not None:
                # a daily deal's robot answers the same play the same way: its seed is the day's, the deal's,
                # the seat's and the actions' so far (daily.py), a new robot for each decision
                seed = robot_seed(table.daily_seed, deal_index, seat, [action_to_json(s, a) for s, a in deal.history])
                level = table.robot_level(seat)
                action = await self._think(lambda: make_bot(level, seed).choose(observation))
            else:
                bot = self.bots.get((seat, table.robot_level(seat)))
                if bot is None:
                    bot = await self._think(lambda: self._bot(seat))
                action = await self._think(lambda: bot.choose(observation))
        except Exception as err:  # a failing robot must not stop the table: a legal move instead
            event_log(event="robot_failed", table=table.id, seat=seat, error=repr(err))
            action = RandomBot(f"{table.id}/{seq}").choose(observation)
        body = action_to_json(seat, action)
        del body["seat"]
        async with room.lock:
            table = room.table
            if table.seq != seq or table.robot_turn() != seat or table.paused:
                return
            batch = Batch(table, clock.now())
            try:
                play.play(batch, seat, body, by=SeatKind.ROBOT)
            except ProtocolError as err:  # refused before any event: the batch is empty still
                event_log(event="robot_refused", table=table.id, seat=seat, error=err.message)
                fallback = RandomBot(f"{table.id}/{seq}/fallback").choose(observation)
                body = action_to_json(seat, fallback)
                del body["seat"]
                play.play(batch, seat, body, by=SeatKind.ROBOT)
            try:
                await room.commit(batch.events)
            except StoreError as err:  # the table went back to what is stored (paused if the store is away)
                if not err.outage:  # an outage is logged once, by the store's health
                    event_log(event="robot_not_stored", table=table.id, seat=seat, error=str(err))
            except Exception as err:  # not stored either (a bug): the room rolled back and logged it
                event_log(event="robot_not_stored", table=table.id, seat=seat, error=repr(err))


ROBOT_RETRY = 0.5
"""Seconds before a robot whose move was not stored (refused, or a bug) tries again."""


__all__ = ["ROBOT_RETRY", "Robots", "RobotsRoom"]
