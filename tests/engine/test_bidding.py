"""docs/rules.md sections 3 (petit sec, all pass) and 4 (bidding)."""

import pytest

from atout.engine import (
    GARDE,
    GARDE_CONTRE,
    GARDE_SANS,
    MULTIPLIERS,
    PASS,
    PRISE,
    Bid,
    Chelem,
    IllegalAction,
    PetitSecDecision,
    Play,
)

from .helpers import build, snapshot

PETIT_SEC_HAND = "T1 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H 3H"


def test_multipliers():
    assert MULTIPLIERS == {PRISE: 1, GARDE: 2, GARDE_SANS: 4, GARDE_CONTRE: 6}


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("dealer", [0, 2])
def test_dealers_right_speaks_first_dealer_last_each_once(players, dealer):
    deal = build(players, dealer=dealer)
    order = []
    while deal.phase == "bidding":
        order.append(deal.to_act)
        deal.apply(Bid(PASS), deal.to_act)
    assert order == [(dealer + 1 + k) % players for k in range(players)]
    assert deal.void == "all_pass"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_all_pass_is_void_with_zero_scores_and_no_more_actions(players):
    deal = build(players)
    while deal.phase == "bidding":
        deal.apply(Bid(PASS))
    assert deal.phase == "end" and deal.void == "all_pass"
    assert deal.result.void == "all_pass"
    assert deal.result.scores == [0] * players
    assert deal.legal_actions() == []
    with pytest.raises(IllegalAction) as err:
        deal.apply(Bid(PASS))
    assert err.value.rule == "deal_over"


def test_each_bid_must_overcall():
    deal = build(4, dealer=3)
    deal.apply(Bid(GARDE), 0)
    assert [a for a in deal.legal_actions()] == [Bid(PASS), Bid(GARDE_SANS), Bid(GARDE_CONTRE)]
    before = snapshot(deal)
    for low in (PRISE, GARDE):
        with pytest.raises(IllegalAction) as err:
            deal.apply(Bid(low), 1)
        assert err.value.rule == "bid_too_low"
        assert snapshot(deal) == before
    deal.apply(Bid(GARDE_SANS), 1)
    deal.apply(Bid(PASS), 2)
    deal.apply(Bid(GARDE_CONTRE), 3)
    assert deal.taker == 3 and deal.contract == GARDE_CONTRE
    # Everybody has spoken once: the bidding is over even though seat 0 was overcalled.
    assert deal.phase == "chelem"


def test_a_pass_then_no_second_chance():
    deal = build(3, dealer=2)
    deal.apply(Bid(PASS), 0)
    deal.apply(Bid(PRISE), 1)
    deal.apply(Bid(PASS), 2)
    assert deal.phase == "discard" and deal.taker == 1 and deal.to_act == 1


def test_out_of_turn_and_wrong_phase_change_nothing():
    deal = build(4, dealer=3)
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as err:
        deal.apply(Bid(PRISE), 2)
    assert err.value.rule == "out_of_turn"
    with pytest.raises(IllegalAction) as err:
        deal.apply(Play(0), 0)
    assert err.value.rule == "wrong_phase"
    with pytest.raises(IllegalAction):
        deal.apply(Chelem(True), 0)
    for junk in (Bid(7), Bid(-1), Bid("garde"), None, "pass", 3):
        with pytest.raises(IllegalAction):
            deal.apply(junk, 0)
    assert snapshot(deal) == before


def test_chelem_with_a_bid_only_under_the_option():
    deal = build(4, dealer=3)
    assert Bid(PRISE, True) not in deal.legal_actions()
    with pytest.raises(IllegalAction) as err:
        deal.apply(Bid(PRISE, True))
    assert err.value.rule == "chelem_with_bid"
    deal = build(4, dealer=3, chelem_announce="with_bid")
    assert Bid(PRISE, True) in deal.legal_actions()
    assert Bid(PASS, True) not in deal.legal_actions()
    with pytest.raises(IllegalAction):
        deal.apply(Bid(PASS, True))


# ---------------------------------------------------------------- petit sec


@pytest.mark.parametrize("players", [3, 4, 5])
def test_petit_sec_voids_the_deal_before_bidding(players):
    deal = build(players, {1: " ".join(PETIT_SEC_HAND.split()[:15])} if players == 5 else {1: PETIT_SEC_HAND})
    assert deal.void == "petit_sec" and deal.phase == "end"
    assert deal.result.scores == [0] * players
    assert deal.legal_actions() == []
    with pytest.raises(IllegalAction):
        deal.apply(Bid(PASS))


def test_petit_with_the_excuse_is_not_sec():
    hand = PETIT_SEC_HAND.replace("3H", "EX")
    deal = build(4, {1: hand})
    assert deal.void is None and deal.phase == "bidding"


def test_petit_with_another_trump_is_not_sec():
    deal = build(4, {1: PETIT_SEC_HAND.replace("3H", "T2")})
    assert deal.void is None


def test_petit_in_the_dog_is_not_sec():
    deal = build(4, {1: PETIT_SEC_HAND.replace("T1", "4H")}, dog="T1 5H 6H 7H 8H 9H")
    assert deal.void is None


def test_petit_sec_holder_may_play_option():
    deal = build(4, {2: PETIT_SEC_HAND}, dealer=0, petit_sec="holder_may_play")
    assert deal.phase == "petit_sec" and deal.to_act == 2
    assert set(deal.legal_actions()) == {PetitSecDecision(True), PetitSecDecision(False)}
    with pytest.raises(IllegalAction):
        deal.apply(Bid(PASS), 1)
    with pytest.raises(IllegalAction) as err:
        deal.apply(PetitSecDecision(False), 1)
    assert err.value.rule == "out_of_turn"
    played_on = deal.clone()
    played_on.apply(PetitSecDecision(False), 2)
    assert played_on.phase == "bidding" and played_on.to_act == 1 and played_on.void is None
    deal.apply(PetitSecDecision(True), 2)
    assert deal.void == "petit_sec" and deal.result.scores == [0] * 4
