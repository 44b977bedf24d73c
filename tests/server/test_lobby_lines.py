"""A table's lobby line after its game (issue 34): a game over is told as such, not as a table waiting for
people, and quick play sends nobody there."""

from __future__ import annotations

from atout.bots import make_bot
from atout.engine.record import action_to_json
from atout.server.site import quick
from atout.server.table import Observer, clocks, decided, play, votes

from .helpers import when_next_deal
from .test_cancel_vote import table_of


def test_a_finished_game_is_not_listed_as_a_table_waiting_for_people() -> None:
    table = table_of(3, 1)
    assert Observer(table).summary()["over"] is None and Observer(table).summary()["status"] == "playing"
    bot = make_bot("random", 7)
    now = 1.0
    while table.status == "playing":
        if table.deal.is_over:
            decided(table, when_next_deal(table), clocks.tick)
            continue
        seat = table.deal.to_act
        body = action_to_json(seat, bot.choose(table.deal.observation(seat)))
        del body["seat"]
        decided(table, now, play.play, seat, body, by="robot")
    line = Observer(table).summary()
    assert line["status"] == "waiting" and line["over"] == "finished"
    assert quick.pick([{**line, "you": None, "free": 1}], 3) is None  # not a table waiting for people
    assert quick.pick([{**line, "over": None, "you": None, "free": 1}], 3) == table.id


def test_a_cancelled_game_is_told_as_cancelled_and_a_new_game_clears_it() -> None:
    table = table_of(3, 2)
    decided(table, 1.0, votes.propose_cancel, "p0", table.seq)
    decided(table, 2.0, votes.cast_vote, "p1", True, table.seq)
    assert Observer(table).summary()["over"] == "cancelled"
    decided(table, 3.0, play.start, "p0", table.seq)
    assert Observer(table).summary()["over"] is None
