"""docs/rules.md section 11: the chelem."""

import pytest

from atout.engine import GARDE, GARDE_SANS, PRISE, Bid, Chelem, IllegalAction
from atout.engine.scoring import chelem_bonus

from .helpers import auto, bid_all, build, play, snapshot, to_play

CHELEM = "EX T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21"
WEAK = "1S 2S 3S 4S 5S 6S 7S 8S 9S 1H 2H 3H 4H 5H 6H 7H 8H 9H"


def _expected_unit(r, k, pab, c):
    w = 1 if r.made else -1
    return (w * (25 + r.margin) + pab) * k + c


@pytest.mark.parametrize("announce,name,bonus", [(True, "announced_made", 400), (False, "made", 200)])
def test_chelem_made(announce, name, bonus):
    deal = build(4, {0: CHELEM}, dealer=3)
    to_play(deal, 0, GARDE_SANS, chelem=announce)
    auto(deal)
    r = deal.result
    assert r.chelem == name
    pab = {"taker": 10, "defence": -10, None: 0}[r.petit_au_bout]
    assert r.unit == _expected_unit(r, 4, pab, bonus)
    assert r.scores == [3 * r.unit, -r.unit, -r.unit, -r.unit]


def test_chelem_announced_and_failed():
    deal = build(4, {0: CHELEM.replace("T21", "1C")}, dealer=3)
    to_play(deal, 0, GARDE_SANS, chelem=True)
    auto(deal)
    r = deal.result
    assert any(deal.side[t.winner] == 1 for t in deal.tricks)
    assert r.chelem == "announced_failed"
    pab = {"taker": 10, "defence": -10, None: 0}[r.petit_au_bout]
    assert r.unit == _expected_unit(r, 4, pab, -200)


@pytest.mark.parametrize("announce,name", [(False, "defence"), (True, "announced_failed")])
def test_defence_wins_every_trick(announce, name):
    deal = build(4, {0: WEAK}, dealer=3)
    to_play(deal, 0, GARDE, chelem=announce, discard=None)
    auto(deal)
    assert all(deal.side[t.winner] == 1 for t in deal.tricks)
    r = deal.result
    assert r.chelem == name and not r.made
    pab = {"taker": 10, "defence": -10, None: 0}[r.petit_au_bout]
    assert r.unit == _expected_unit(r, 2, pab, -200)  # −200 once, never −400


def test_chelem_bonus_function():
    assert chelem_bonus(True, 18, 0) == (400, "announced_made")
    assert chelem_bonus(False, 18, 0) == (200, "made")
    assert chelem_bonus(True, 17, 1) == (-200, "announced_failed")
    assert chelem_bonus(True, 0, 18) == (-200, "announced_failed")
    assert chelem_bonus(False, 0, 18) == (-200, "defence")
    assert chelem_bonus(False, 9, 9) == (0, None)


def test_chelem_bonus_is_not_multiplied():
    units = {}
    for contract in (GARDE, GARDE_SANS):
        deal = build(4, {0: CHELEM}, dealer=3)
        to_play(deal, 0, contract, chelem=True)
        auto(deal)
        units[contract] = deal.result
    for contract, k in ((GARDE, 2), (GARDE_SANS, 4)):
        r = units[contract]
        pab = {"taker": 10, "defence": -10, None: 0}[r.petit_au_bout]
        assert r.unit - (25 + r.margin + pab) * k == 400


def test_announcer_leads_the_first_trick():
    deal = build(4, {2: CHELEM}, dealer=3)
    bid_all(deal, 2, GARDE_SANS)
    assert deal.phase == "chelem" and deal.to_act == 2
    assert set(deal.legal_actions()) == {Chelem(True), Chelem(False)}
    deal.apply(Chelem(True), 2)
    assert deal.to_act == 2 and deal.chelem_announced is True
    for seat in range(4):
        assert deal.observation(seat).chelem_announced is True
    no = build(4, {2: CHELEM}, dealer=3)
    to_play(no, 2, GARDE_SANS, chelem=False)
    assert no.to_act == 0


def test_chelem_decision_after_the_ecart_and_only_by_the_taker():
    deal = build(4, {1: CHELEM}, dealer=0)
    bid_all(deal, 1, PRISE)
    assert deal.phase == "discard"
    with pytest.raises(IllegalAction):
        deal.apply(Chelem(True), 1)
    to_play(deal, 1, PRISE)
    deal2 = build(4, {1: CHELEM}, dealer=0)
    bid_all(deal2, 1, GARDE_SANS)
    before = snapshot(deal2)
    with pytest.raises(IllegalAction) as err:
        deal2.apply(Chelem(True), 2)
    assert err.value.rule == "out_of_turn"
    for junk in (Chelem("yes"), Chelem(1), Chelem(None)):
        with pytest.raises(IllegalAction):
            deal2.apply(junk, 1)
    assert snapshot(deal2) == before


def test_no_chelem_announcement_once_play_started():
    deal = build(4, {0: CHELEM}, dealer=3)
    to_play(deal, 0, GARDE_SANS)
    play(deal, "T21")
    with pytest.raises(IllegalAction):
        deal.apply(Chelem(True), deal.to_act)


def test_with_bid_option_chelem_rides_on_the_bid():
    deal = build(4, {2: CHELEM}, dealer=3, chelem_announce="with_bid")
    deal.apply(Bid(0), 0)
    deal.apply(Bid(0), 1)
    deal.apply(Bid(GARDE_SANS, True), 2)
    deal.apply(Bid(0), 3)
    assert deal.phase == "play" and deal.to_act == 2 and deal.chelem_announced is True
    auto(deal)
    assert deal.result.chelem == "announced_made"


def test_with_bid_option_overcalled_chelem_is_dropped():
    deal = build(4, {2: CHELEM}, dealer=3, chelem_announce="with_bid")
    deal.apply(Bid(0), 0)
    deal.apply(Bid(GARDE, True), 1)
    deal.apply(Bid(GARDE_SANS, False), 2)
    deal.apply(Bid(0), 3)
    assert deal.phase == "play" and deal.taker == 2 and deal.chelem_announced is False
    assert deal.to_act == 0
    assert not any(isinstance(a, Chelem) for a in deal.legal_actions())


@pytest.mark.parametrize(
    "players,hand",
    [
        (3, "EX " + " ".join(f"T{n}" for n in range(1, 22)) + " KS KH"),
        (5, "EX " + " ".join(f"T{n}" for n in range(8, 22))),
    ],
)
@pytest.mark.parametrize("announce", [True, False])
def test_chelem_at_three_and_five_players(players, hand, announce):
    deal = build(players, {0: hand}, dealer=players - 1)
    to_play(deal, 0, GARDE_SANS, call="KC", chelem=announce)

    def high_first(d, legal):
        plain = [c for c in legal if c != 77]
        return max(plain) if plain else 77

    auto(deal, policies={0: high_first})
    assert deal.tricks[-1].plays[0] == (0, 77) and deal.tricks[-1].winner == 0
    assert all(deal.side[t.winner] == 0 for t in deal.tricks)
    r = deal.result
    assert r.chelem == ("announced_made" if announce else "made")
    assert r.points == 91.0 and r.bouts == 3 and r.made
    pab = {"taker": 10, "defence": -10, None: 0}[r.petit_au_bout]
    assert r.unit == (25 + 55 + pab) * 4 + (400 if announce else 200)
    assert sum(r.scores) == 0
