"""The score calculator (engine/calculator.py, issue 46): every fact checked and a wrong one named, every
score zero-sum and equal to its own working, and the table's scorer reached through the same code."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.engine.calculator import FIELDS, CalculatorError, Fault, calculate, points_range
from atout.engine.rules import SETTINGS
from atout.engine.scoring import BASE, CHELEM_BONUSES, PETIT_AU_BOUT

GARDE = {"players": 4, "contract": "garde", "bouts": 2, "points": 45}


def refused(data: object) -> CalculatorError:
    with pytest.raises(CalculatorError) as caught:
        calculate(data)
    return caught.value


@pytest.mark.parametrize(
    ("change", "field", "fault"),
    [
        ({"players": 6}, "players", Fault.RANGE),
        ({"players": "4"}, "players", Fault.TYPE),
        ({"players": True}, "players", Fault.TYPE),
        ({"players": None}, "players", Fault.MISSING),
        ({"contract": "pass"}, "contract", Fault.CHOICE),
        ({"contract": None}, "contract", Fault.MISSING),
        ({"bouts": 4}, "bouts", Fault.RANGE),
        ({"bouts": 1.0}, "bouts", Fault.TYPE),
        ({"points": 45.3}, "points", Fault.HALF),
        ({"points": "45"}, "points", Fault.TYPE),
        ({"points": 95}, "points", Fault.RANGE),
        ({"points": -1}, "points", Fault.RANGE),
        ({"points": None}, "points", Fault.MISSING),
        ({"bouts": 0, "points": 80}, "points", Fault.RANGE),  # the defence's three bouts are 13.5 points
        ({"bouts": 3, "points": 10}, "points", Fault.RANGE),  # three bouts are 13.5 points
        ({"petit_au_bout": "dealer"}, "petit_au_bout", Fault.CHOICE),
        ({"petit_au_bout": "taker", "bouts": 0, "points": 40}, "petit_au_bout", Fault.IMPOSSIBLE),
        ({"petit_au_bout": "defence", "bouts": 3, "points": 40}, "petit_au_bout", Fault.IMPOSSIBLE),
        ({"poignees": "simple"}, "poignees", Fault.TYPE),
        ({"poignees": [{"size": "quadruple", "side": "taker"}]}, "poignees.size", Fault.CHOICE),
        ({"poignees": [{"size": "simple"}]}, "poignees.side", Fault.MISSING),
        ({"poignees": [{"size": "simple", "side": "taker"}] * 2}, "poignees", Fault.IMPOSSIBLE),  # one taker at four
        ({"poignees": [{"size": "triple", "side": "defence"}] * 3}, "poignees", Fault.IMPOSSIBLE),  # 45 trumps
        ({"poignees": [{"size": "simple", "side": "defence"}] * 5}, "poignees", Fault.RANGE),
        ({"chelem": True}, "chelem", Fault.TYPE),
        ({"chelem": {"announced": "yes"}}, "chelem.announced", Fault.TYPE),
        ({"chelem": {"made": True}}, "chelem", Fault.UNKNOWN),
        ({"chelem": {"all_tricks": "taker"}, "petit_au_bout": "defence"}, "chelem", Fault.IMPOSSIBLE),
        ({"partner": 2}, "partner", Fault.IMPOSSIBLE),  # no partner at four
        ({"five_players": "dealer_sits_out"}, "five_players", Fault.IMPOSSIBLE),
        ({"taker": 4}, "taker", Fault.RANGE),
        ({"seat": 1}, "seat", Fault.UNKNOWN),
    ],
)
def test_a_wrong_fact_is_refused_naming_its_field(change, field, fault):
    error = refused({**GARDE, **change})
    assert (error.field, error.fault) == (field, fault), error.message
    assert error.message.startswith(f"{field}: ")
    answer = error.to_json()
    assert answer["field"] == field and answer["fault"] == fault.value
    if fault is Fault.IMPOSSIBLE:
        assert answer["reason"]  # which rule: the page says it in its words


def test_refusals_at_five_the_partner_and_the_dealer_who_sits_out():
    five = {"players": 5, "contract": "garde", "bouts": 2, "points": 45}
    assert refused({**five, "partner": 0}).field == "partner"  # the taker's own king: alone, no partner
    assert refused({**five, "partner": 5}).fault is Fault.RANGE
    out = {**five, "five_players": "dealer_sits_out"}
    assert refused({**out, "partner": 1}).to_json()["reason"] == "partner_five"
    assert refused({**out, "dealer": 0}).field == "taker"  # seat 0 takes by default: it cannot deal and sit out
    assert calculate({**out, "dealer": 2})["scores"][2] == 0
    assert refused([1, 2]).field == "request"


def test_the_points_range_is_the_bouts_and_the_excuses_half_point():
    assert points_range(0) == (0, 156)  # at most 91 − 13.5, and a half point the Excuse's owner could not give
    assert points_range(3) == (26, 182)


def test_the_poignee_goes_to_the_side_that_wins_whoever_showed_it():
    made = calculate({**GARDE, "poignees": [{"size": "simple", "side": "defence"}]})
    failed = calculate({**GARDE, "points": 35, "poignees": [{"size": "simple", "side": "taker"}]})
    assert made["working"]["poignees"] == 20 and made["unit"] == (25 + 4) * 2 + 20
    assert failed["working"]["poignees"] == -20 and failed["unit"] == -(25 + 6) * 2 - 20
    assert made["poignees"] == [{"side": "defence", "size": "simple", "bonus": 20}]


@st.composite
def deals(draw):
    """Any facts the calculator takes."""
    players = draw(st.sampled_from([3, 4, 5]))
    out: dict = {
        "players": players,
        "contract": draw(st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"])),
    }
    five = players == 5 and draw(st.sampled_from(["call_king", "dealer_sits_out"]))
    if five:
        out["five_players"] = five
    bouts = draw(st.integers(0, 3))
    low, high = points_range(bouts)
    out.update(bouts=bouts, points=draw(st.integers(low, high)) / 2)
    pab = draw(st.sampled_from([None, "taker", "defence"]))
    if not ((pab == "taker" and bouts == 0) or (pab == "defence" and bouts == 3)):
        out["petit_au_bout"] = pab
    partner = five == "call_king" and draw(st.booleans())
    if partner:
        out["partner"] = draw(st.integers(1, 4))
    active = 4 if five == "dealer_sits_out" else players
    takers = 2 if partner else 1
    trumps = {name: n for name, n, _ in SETTINGS[active].poignees}
    shown = draw(
        st.lists(st.tuples(st.sampled_from(sorted(trumps)), st.sampled_from(["taker", "defence"])), max_size=2)
    )
    if (
        sum(side == "taker" for _, side in shown) <= takers
        and sum(side == "defence" for _, side in shown) <= active - takers
        and sum(trumps[size] for size, _ in shown) <= 22
    ):  # 21 trumps and the Excuse
        out["poignees"] = [{"size": size, "side": side} for size, side in shown]
    sweep = draw(st.sampled_from([None, "taker", "defence"]))
    if sweep is None or out.get("petit_au_bout") in (None, sweep):
        out["chelem"] = {"announced": draw(st.booleans()), "all_tricks": sweep}
    return out


@settings(max_examples=200, deadline=None)
@given(deals())
def test_every_score_adds_up_to_zero_and_is_its_working(data):
    result = calculate(data)
    assert sum(result["scores"]) == 0
    w = result["working"]
    assert w["base"] == BASE and w["petit_au_bout"] in (-PETIT_AU_BOUT, 0, PETIT_AU_BOUT)
    assert (
        result["unit"]
        == (w["sign"] * (w["base"] + w["margin"]) + w["petit_au_bout"]) * w["multiplier"] + w["poignees"] + w["chelem"]
    )
    assert w["chelem"] in (0, *CHELEM_BONUSES.values())
    roles = result["roles"]
    taker = result["scores"][roles.index("taker")]
    defenders = [s for s, r in zip(result["scores"], roles, strict=True) if r == "defender"]
    assert set(defenders) == {-result["unit"]} and taker == result["unit"] * (
        2 if "partner" in roles else len(defenders)
    )
    assert result["made"] == (result["points"] >= result["target"])
    assert set(data) <= set(FIELDS)
