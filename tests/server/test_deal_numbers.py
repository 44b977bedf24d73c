"""One rule for a deal's number around void deals (issue 34): "deal k of n", a void deal dealt again under
its number; the same in the deal_start event (the log), the view (the bar, the score sheet) and the
review, and, at a daily deal's or tournament's table, a void deal is one of the preset deals."""

from __future__ import annotations

from typing import Any

from atout.bots import make_bot
from atout.engine.kinds import Void
from atout.engine.record import action_to_json
from atout.server.options import TableOptions
from atout.server.review import deal_places
from atout.server.table import Observer, Table, Timing, clocks, decided, play, seating

from .helpers import when_next_deal

BOT = make_bot("random", 34)


def robots_table(deals: int) -> Table:
    table = Table("t", 3, TableOptions(deals=deals), Timing())
    decided(table, 0.0, seating.create, "p0", "Ann")
    for seat in (1, 2):
        decided(table, 0.0, seating.add_robot, "p0", seat, "random", table.seq)
    decided(table, 0.0, play.start, "p0", table.seq)
    return table


def act(table: Table, everyone_passes: bool) -> list[dict[str, Any]]:
    """The seat to act's pass, or a random robot's action."""
    deal = table.deal
    if everyone_passes:
        action = next(a for a in deal.legal_actions() if getattr(a, "contract", None) == 0)
    else:
        action = BOT.choose(deal.observation(deal.to_act))
    body = action_to_json(deal.to_act, action)
    del body["seat"]
    return decided(table, 1.0, play.play, deal.to_act, body, by="robot")


def test_a_void_deal_keeps_its_number_in_the_log_the_bar_and_the_review() -> None:
    table = robots_table(2)
    while not table.deal.is_over:  # everyone passes (or a petit sec voided it): a void deal 1
        act(table, everyone_passes=True)
    assert table.deal.void in (Void.ALL_PASS, Void.PETIT_SEC)
    view = Observer(table).view(0, 1.0)["game"]
    assert (view["deal_number"], view["deals"]) == (1, 2)  # "Deal 1 of 2", not "Deal 0 of 2"
    said = [1]  # the first deal_start (at the game's start) said deal 1
    while table.status == "playing":
        if table.deal.is_over:  # the pause after a deal: the bar says the number the log said for it
            assert Observer(table).view(0, 1.0)["game"]["deal_number"] == said[-1]
            said += [
                e["number"] for e in decided(table, when_next_deal(table), clocks.tick) if e["type"] == "deal_start"
            ]
            continue
        assert Observer(table).view(0, 1.0)["game"]["deal_number"] == said[-1]
        act(table, everyone_passes=False)
    places = [table.deal_place(n + 1) for n in range(len(table.game.sheet))]
    assert [k for k, _ in places] == said[: len(places)]  # each deal's review: the number its deal_start said
    assert {of for _, of in places} == {2}  # "of" the game's deals, not of the records (void ones included)
    assert places[0] == (1, 2) and places[-1] == (2, 2) and table.game_outcome == "finished"


def test_deal_places_redealt_or_preset() -> None:
    sheet = [{"void": "all_pass"}, {"void": None}, {"void": "petit_sec"}, {"void": None}, {"void": None}]
    assert deal_places(sheet) == [1, 1, 2, 2, 3]  # a void deal: the number it is dealt again under
    assert deal_places(sheet, redealt=False) == [1, 2, 3, 4, 5]  # a daily deal's: one of the preset deals
