"""A room's robots: when a robot must play (a robot's seat, or a person's away or in automatic mode), it
thinks off the event loop at the table's pace, then plays as a request (``play.play``) like anybody else."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from .actor import Room


class Robots:
    """Plays for ``room``'s robots, one decision at a time."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.thinking: tuple[int, int] | None = None  # (seq, seat) a robot is thinking about
        self.bots: dict[tuple[int, str], Bot] = {}

    def schedule(self) -> None:
        """A robot starts thinking if one must play now (and none thinks of this turn already)."""
        room = self.room
        table = room.table
        seat = table.robot_turn()
        if seat is None or self.thinking == (table.seq, seat):
            return
        self.thinking = (table.seq, seat)
        room.tasks = [t for t in room.tasks if not t.done()]
        room.tasks.append(asyncio.create_task(self._play(seat, table.seq)))

    def forget(self) -> None:
        """The table was loaded again: whatever a robot was thinking of is void."""
        self.thinking = None

    def _bot(self, seat: int) -> Bot:
        table = self.room.table
        level = table.robot_level(seat)
        key = (seat, level)
        if key not in self.bots:
            self.bots[key] = make_bot(level, f"{table.id}/{seat}/{level}")
        return self.bots[key]

    async def _play(self, seat: int, seq: int) -> None:
        room = self.room
        table = room.table
        clock = room.services.clock
        await clock.sleep_until(table.last_event_at + room.services.timing.robot_pace)
        if room.table is not table or table.seq != seq or table.robot_turn() != seat or table.paused:
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
                action = await asyncio.to_thread(lambda: make_bot(level, seed).choose(observation))
            else:
                bot = self.bots.get((seat, table.robot_level(seat)))
                if bot is None:
                    bot = await asyncio.to_thread(self._bot, seat)
                action = await asyncio.to_thread(bot.choose, observation)
        except Exception as err:  # a failing robot must not stop the table: a legal move instead
            event_log(event="robot_failed", table=table.id, seat=seat, error=repr(err))
            action = RandomBot(f"{table.id}/{seq}").choose(observation)
        body = action_to_json(seat, action)
        del body["seat"]
        async with room.lock:
            if room.table is not table or table.seq != seq or table.paused:
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
            except StoreError as err:  # the table is paused or reloaded: the robot plays again after
                if not err.outage:  # an outage is logged once, by the store's health
                    event_log(event="robot_not_stored", table=table.id, seat=seat, error=str(err))


__all__ = ["Robots"]
