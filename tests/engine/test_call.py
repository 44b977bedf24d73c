"""docs/rules.md section 5: the call at five players."""

import pytest

from atout.engine import GARDE, GARDE_CONTRE, GARDE_SANS, PRISE, Call, IllegalAction, Play

from .helpers import C, M, bid_all, build, play, snapshot, to_play

KINGS = "KS KH KD KC"
QUEENS = "QS QH QD QC"
KNIGHTS = "NS NH ND NC"
JACKS = "JS JH JD JC"


def _callables(deal):
    return {a.card for a in deal.legal_actions()}


def test_call_comes_after_the_bidding_and_names_a_king():
    deal = build(5, dealer=4)
    bid_all(deal, 1, PRISE)
    assert deal.phase == "call" and deal.to_act == 1
    assert _callables(deal) == {C(k) for k in KINGS.split()}
    before = snapshot(deal)
    for bad in ("QH", "T21", "EX", "1S"):
        with pytest.raises(IllegalAction) as err:
            deal.apply(Call(C(bad)), 1)
        assert err.value.rule == "call"
    for junk in (Call(-1), Call(99), Call("KH"), Call(None)):
        with pytest.raises(IllegalAction):
            deal.apply(junk, 1)
    with pytest.raises(IllegalAction) as err:
        deal.apply(Call(C("KH")), 2)
    assert err.value.rule == "out_of_turn"
    assert snapshot(deal) == before
    deal.apply(Call(C("KH")), 1)
    assert deal.called == C("KH") and deal.phase == "discard"


@pytest.mark.parametrize(
    "held,callable_",
    [
        ("KS KH KD", KINGS),
        (KINGS, KINGS + " " + QUEENS),
        (KINGS + " QS QH QD", KINGS + " " + QUEENS),
        (KINGS + " " + QUEENS, " ".join([KINGS, QUEENS, KNIGHTS])),
        (" ".join([KINGS, QUEENS, KNIGHTS]), " ".join([KINGS, QUEENS, KNIGHTS, JACKS])),
    ],
)
def test_queen_when_holding_all_kings_and_so_on(held, callable_):
    deal = build(5, {1: held}, dealer=0)
    bid_all(deal, 1, GARDE)
    assert _callables(deal) == {C(c) for c in callable_.split()}


def test_queen_call_refused_without_all_kings():
    deal = build(5, {1: "KS KH KD"}, dealer=0)
    bid_all(deal, 1, GARDE)
    with pytest.raises(IllegalAction):
        deal.apply(Call(C("QC")), 1)
    deal = build(5, {1: KINGS}, dealer=0)
    bid_all(deal, 1, GARDE)
    deal.apply(Call(C("QC")), 1)
    assert deal.called == C("QC")


def test_partner_is_the_holder_and_hidden_until_the_called_card_is_played():
    # Seat 0 leads (dealer 4); seat 3 holds the called KH.
    deal = build(5, {0: "3S", 3: "KH 6H 7H 8H 9H 10H 1D 2D 3D 4D 5D 6D 7D 8D 9D"}, dealer=4)
    to_play(deal, 1, GARDE_SANS, call="KH")
    assert deal.partner == 3 and not deal.partner_revealed
    for seat in (None, 0, 1, 2, 4):
        assert deal.observation(seat).partner is None
    assert deal.observation(3).partner == 3
    play(deal, "3S")
    for _ in range(2):
        deal.apply(next(a for a in deal.legal_actions() if isinstance(a, Play)), deal.to_act)
    assert deal.to_act == 3
    assert deal.observation(0).partner is None
    play(deal, "KH")
    assert deal.partner_revealed
    for seat in (None, 0, 1, 2, 3, 4):
        assert deal.observation(seat).partner == 3


def test_calling_oneself_is_playing_alone():
    deal = build(5, {1: "KH"}, dealer=0)
    to_play(deal, 1, GARDE_SANS, call="KH")
    assert deal.partner is None
    assert deal.side.count(0) == 1


def test_called_card_in_the_dog_means_alone_seen_at_prise():
    deal = build(5, {1: "KS"}, dog="KH 2C 3C", dealer=0)
    bid_all(deal, 1, PRISE)
    deal.apply(Call(C("KH")), 1)
    assert deal.dog_shown
    for seat in (None, 0, 2, 3, 4):
        assert deal.observation(seat).dog == M("KH 2C 3C")
    to_play(deal, 1, PRISE, discard="2C 3C " + next(c for c in ("4C", "5C", "6C") if deal.hands[1] >> C(c) & 1))
    assert deal.partner is None and deal.side.count(0) == 1


@pytest.mark.parametrize("contract", [GARDE_SANS, GARDE_CONTRE])
def test_called_card_in_the_unseen_dog_alone_known_at_the_end(contract):
    deal = build(5, {1: "KS"}, dog="KH 2C 3C", dealer=0)
    to_play(deal, 1, contract, call="KH")
    assert deal.partner is None
    for seat in range(5):
        assert deal.observation(seat).dog is None
        assert deal.observation(seat).partner is None


def test_first_lead_may_not_be_the_called_suit_but_the_called_card():
    deal = build(5, {0: "KH 2H 3H 4S T2", 1: "KS"}, dealer=4)
    to_play(deal, 1, GARDE_SANS, call="KH")
    legal = {a.card for a in deal.legal_actions() if isinstance(a, Play)}
    assert C("KH") in legal and C("4S") in legal and C("T2") in legal
    assert C("2H") not in legal and C("3H") not in legal
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as err:
        deal.apply(Play(C("2H")), 0)
    assert err.value.rule == "called_suit_lead"
    assert snapshot(deal) == before


def test_called_suit_barred_at_first_lead_even_with_many_of_it():
    hearts = "1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH NH QH"
    deal = build(5, {0: hearts + " 1S 2S", 1: "KS KD KC"}, dealer=4)
    to_play(deal, 1, GARDE_SANS, call="KH")
    assert {a.card for a in deal.legal_actions() if isinstance(a, Play)} == {C("1S"), C("2S")}


def test_the_called_card_itself_may_be_led():
    deal = build(5, {0: "KH 2H", 1: "KS KD KC"}, dealer=4)
    to_play(deal, 1, GARDE_SANS, call="KH")
    legal = {a.card for a in deal.legal_actions() if isinstance(a, Play)}
    assert C("KH") in legal and C("2H") not in legal
    play(deal, "KH")
    assert deal.partner == 0 and deal.partner_revealed


def test_restriction_is_only_for_the_first_trick():
    # Seat 0 leads KS and wins the first trick, then may lead hearts.
    deal = build(5, {0: "KS 2H 3H", 1: "KD 1S", 2: "5S", 3: "6S", 4: "7S"}, dealer=4)
    to_play(deal, 1, GARDE_SANS, call="KH")
    assert C("2H") not in {a.card for a in deal.legal_actions() if isinstance(a, Play)}
    play(deal, "KS", "1S", "5S", "6S", "7S")
    assert deal.tricks[0].winner == 0 and deal.to_act == 0
    assert C("2H") in {a.card for a in deal.legal_actions() if isinstance(a, Play)}
