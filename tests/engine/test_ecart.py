"""docs/rules.md sections 4 and 6: the dog and the écart."""

import pytest

from atout.engine import GARDE, GARDE_CONTRE, GARDE_SANS, PRISE, Chelem, Discard, DiscardFrom, IllegalAction
from atout.engine.observation import EcartShown

from .helpers import M, bid_all, build, snapshot

# Seat 1 (first to speak, dealer 0) at four players: 18 cards.
RICH = "KS KH KD KC T21 T1 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10"


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("contract", [PRISE, GARDE])
def test_dog_shown_to_all_taken_into_hand_then_ecart(players, contract):
    deal = build(players, dealer=0)
    dog = deal.dog
    hand = deal.hands[1]
    bid_all(deal, 1, contract)
    if deal.phase == "call":
        deal.apply(deal.legal_actions()[0], 1)
    assert deal.phase == "discard" and deal.to_act == 1
    for seat in [None, *range(players)]:
        assert deal.observation(seat).dog == dog
    assert deal.hands[1] == hand | dog
    (choice,) = deal.legal_actions()
    assert isinstance(choice, DiscardFrom) and choice.count == deal.settings.dog_size
    ecart = 0
    cards = choice.cards
    for _ in range(choice.count):
        low = cards & -cards
        ecart |= low
        cards ^= low
    deal.apply(Discard(ecart), 1)
    assert deal.ecart == ecart and deal.hands[1] == (hand | dog) & ~ecart
    assert deal.hands[1].bit_count() == deal.settings.hand_size
    assert deal.phase == "chelem"
    assert deal.observation(1).ecart == ecart
    for seat in [None, *(s for s in range(players) if s != 1)]:
        assert deal.observation(seat).ecart is None


@pytest.mark.parametrize("contract", [GARDE_SANS, GARDE_CONTRE])
def test_nobody_sees_the_dog_in_garde_sans_or_contre(contract):
    deal = build(4, dealer=0)
    hand = deal.hands[1]
    bid_all(deal, 1, contract)
    assert deal.phase == "chelem" and not deal.dog_shown
    assert deal.hands[1] == hand
    for seat in [None, 0, 1, 2, 3]:
        obs = deal.observation(seat)
        assert obs.dog is None and obs.ecart in (None, 0)
    deal.apply(Chelem(False), 1)
    assert all(deal.observation(s).dog is None for s in range(4))


def _discard_phase(hand, dog="2C 3C 4C 5C 6C 7C"):
    deal = build(4, {1: hand}, dog=dog, dealer=0)
    bid_all(deal, 1, GARDE)
    assert deal.phase == "discard"
    return deal


@pytest.mark.parametrize("bad", ["KS 2C 3C 4C 5C 6C", "T21 2C 3C 4C 5C 6C", "T1 2C 3C 4C 5C 6C", "EX 2C 3C 4C 5C 6C"])
def test_ecart_refuses_a_king_or_a_bout(bad):
    deal = _discard_phase(RICH)
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as err:
        deal.apply(Discard(M(bad)), 1)
    assert err.value.rule == "ecart_king_or_bout"
    assert snapshot(deal) == before


def test_ecart_refuses_kings_and_bouts_even_when_short_of_other_cards():
    # Hand + dog: 4 kings, 3 bouts, 17 trumps... the only plain cards are the dog's.
    hand = "KS KH KD KC T21 T1 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10"
    deal = _discard_phase(hand, dog="2C 3C T2 T3 T4 T5")
    (choice,) = deal.legal_actions()
    assert choice.cards & M("KS KH KD KC T21 T1 EX") == 0
    assert choice.cards == M("2C 3C T2 T3 T4 T5 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10")


def test_ecart_size_and_cards_in_hand():
    deal = _discard_phase(RICH)
    before = snapshot(deal)
    for bad, rule in [
        ("2C 3C 4C 5C 6C", "ecart_size"),
        ("2C 3C 4C 5C 6C 7C 8C", "ecart_size"),
        ("2C 3C 4C 5C 6C 9H", "not_in_hand"),
    ]:
        with pytest.raises(IllegalAction) as err:
            deal.apply(Discard(M(bad)), 1)
        assert err.value.rule == rule
    for junk in (Discard(-1), Discard(1 << 80), Discard("2C"), Discard(None)):
        with pytest.raises(IllegalAction):
            deal.apply(junk, 1)
    with pytest.raises(IllegalAction) as err:
        deal.apply(Discard(M("2C 3C 4C 5C 6C 7C")), 2)
    assert err.value.rule == "out_of_turn"
    assert snapshot(deal) == before


def test_trump_refused_when_enough_other_cards():
    deal = _discard_phase("1H 2H 3H 4H 5H 6H T2 T3 " + " ".join(RICH.split()[:10]))
    (choice,) = deal.legal_actions()
    assert not choice.cards & M("T2 T3")
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as err:
        deal.apply(Discard(M("T2 2C 3C 4C 5C 6C")), 1)
    assert err.value.rule == "ecart_trump"
    assert snapshot(deal) == before


def test_forced_trumps_allowed_and_shown_to_all():
    # Plain cards after taking the dog: 2C 3C 4C (3); three trumps must go.
    hand = "KS KH KD KC T21 T1 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10"
    deal = _discard_phase(hand, dog="2C 3C 4C T2 T3 T4")
    (choice,) = deal.legal_actions()
    assert choice.cards == M("2C 3C 4C T2 T3 T4 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10")
    with pytest.raises(IllegalAction) as err:  # a plain card kept while laying a 4th trump aside
        deal.apply(Discard(M("2C 3C T2 T3 T4 T10")), 1)
    assert err.value.rule == "ecart_trump"
    deal.apply(Discard(M("2C 3C 4C T2 T3 T20")), 1)
    assert deal.ecart == M("2C 3C 4C T2 T3 T20")
    for seat in [None, 0, 2, 3]:
        obs = deal.observation(seat)
        assert obs.ecart_trumps == M("T2 T3 T20")
        assert obs.ecart is None
        shown = [a for s, a in obs.history if isinstance(a, EcartShown)]
        assert shown == [EcartShown(M("T2 T3 T20"))]
        assert not any(isinstance(a, Discard) for s, a in obs.history)
    assert deal.observation(1).ecart == M("2C 3C 4C T2 T3 T20")


def test_plain_ecart_shows_nothing():
    deal = _discard_phase(RICH)
    deal.apply(Discard(M("2C 3C 4C 5C 6C 7C")), 1)
    for seat in [None, 0, 2, 3]:
        obs = deal.observation(seat)
        assert obs.ecart_trumps == 0
        assert [a for _, a in obs.history if isinstance(a, EcartShown)] == [EcartShown(0)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_garde_sans_dog_counts_for_the_taker_garde_contre_for_the_defence(players):
    from atout.engine.cards import half_points

    from .helpers import auto, to_play

    results = {}
    for contract in (GARDE_SANS, GARDE_CONTRE):
        deal = build(players, {1: "EX"}, dog=None, dealer=0)
        dog = deal.dog
        hand = deal.hands[1]
        to_play(deal, 1, contract, call="KH")
        assert deal.hands[1] == hand and deal.ecart == 0
        auto(deal)
        assert not (deal.piles[0] | deal.piles[1]) & dog  # the dog is never played nor exchanged
        results[contract] = deal
    sans, contre = results[GARDE_SANS], results[GARDE_CONTRE]
    assert [t.plays for t in sans.tricks] == [t.plays for t in contre.tricks]
    assert sans.result.points - contre.result.points == half_points(sans.dog) / 2
    assert sans.result.points == (half_points(sans.piles[0] | sans.dog) + sans._excuse_settled) / 2
