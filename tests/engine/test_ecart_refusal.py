"""The écart rule written once (``engine.ecart``): which cards may go, why the others may not, and the
private deal view that carries both to the taker alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.engine import GARDE, Discard, DiscardFrom, EcartRefusal, IllegalAction
from atout.engine.cards import BOUTS, KINGS, TRUMPS, card_code
from atout.engine.ecart import ecart_allowed, ecart_faults, ecart_refusal, ecart_refusals
from atout.engine.observation import private_parts
from atout.engine.view import observation_to_json, private_json

from .helpers import M, bid_all, build

# Hand and dog of a 4-player taker: 4 kings, 3 bouts, trumps, and six plain cards.
ENOUGH = M("KS KH KD KC T21 T1 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 2C 3C 4C 5C 6C 7C")
# Only three plain cards: three trumps must go too.
SHORT = M("KS KH KD KC T21 T1 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 2C 3C 4C T2 T3 T4")


@pytest.mark.parametrize(
    ("card", "reason"),
    [
        ("KS", EcartRefusal.KING),
        ("KC", EcartRefusal.KING),
        ("T21", EcartRefusal.BOUT),
        ("T1", EcartRefusal.BOUT),
        ("EX", EcartRefusal.BOUT),
        ("T10", EcartRefusal.TRUMP),  # six plain cards may go: no trump may
        ("9H", EcartRefusal.NOT_IN_HAND),
        ("2C", None),
    ],
)
def test_the_reason_for_each_card_when_enough_plain_cards_may_go(card, reason):
    assert ecart_refusal(ENOUGH, 6, M(card).bit_length() - 1) == reason


def test_trumps_go_only_as_many_as_the_other_cards_fall_short():
    card = {code: M(code).bit_length() - 1 for code in ("T10", "T2", "2C", "KS", "T21")}
    assert ecart_refusal(SHORT, 6, card["T10"]) is None  # three plain cards: trumps may go
    assert ecart_refusal(SHORT, 6, card["KS"]) == EcartRefusal.KING  # kings and bouts never
    assert ecart_refusal(SHORT, 6, card["T21"]) == EcartRefusal.BOUT
    three = M("T2 T3 T4")
    assert ecart_refusal(SHORT, 6, card["T10"], chosen=three) == EcartRefusal.TRUMPS_ENOUGH
    assert ecart_refusal(SHORT, 6, card["2C"], chosen=three) is None
    assert ecart_refusal(SHORT, 6, card["2C"], chosen=M("T2 T3 3C 4C T20 T19")) == EcartRefusal.FULL
    # A card already chosen is judged as if it were not: taking it back and again is the same.
    assert ecart_refusal(SHORT, 6, card["T2"], chosen=three) is None


def test_the_refusals_name_every_card_the_allowed_set_leaves_out():
    for hand in (ENOUGH, SHORT):
        refused = ecart_refusals(hand, 6)
        assert sum(1 << c for c in refused) == hand & ~ecart_allowed(hand, 6)
    assert {card_code(c): r.value for c, r in ecart_refusals(SHORT, 6).items()} == {
        "KS": "king",
        "KH": "king",
        "KD": "king",
        "KC": "king",
        "T21": "bout",
        "T1": "bout",
        "EX": "bout",
    }


@settings(max_examples=300, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), cards=st.randoms(use_true_random=False))
def test_a_whole_ecart_is_good_exactly_when_the_rule_says(players, cards):
    size = {3: 6, 4: 6, 5: 3}[players]
    hand = sum(1 << c for c in cards.sample(range(78), {3: 30, 4: 24, 5: 18}[players]))
    ecart = sum(1 << c for c in cards.sample([c for c in range(78) if hand >> c & 1], size))
    plain = hand & ~TRUMPS & ~KINGS & ~BOUTS
    good = not ecart & (KINGS | BOUTS) and (
        not ecart & TRUMPS or not plain & ~ecart
    )  # a trump only once every plain card went
    assert (ecart_faults(hand, size, ecart) == {}) == good


def _discard_deal(dog: str):
    hand = "KS KH KD KC T21 T1 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10"
    deal = build(4, {1: hand}, dog=dog, dealer=0)
    bid_all(deal, 1, GARDE)
    assert deal.phase == "discard" and deal.to_act == 1
    return deal


def test_the_deal_refuses_a_trump_laid_aside_for_a_kept_plain_card_and_names_both():
    deal = _discard_deal("2C 3C 4C T2 T3 T4")
    with pytest.raises(IllegalAction) as err:
        deal.apply(Discard(M("2C 3C T2 T3 T4 T10")), 1)
    assert err.value.rule == "ecart_trump"
    assert "keep T10 and lay aside 4C" in err.value.message


def test_only_the_takers_view_carries_the_allowed_cards_and_the_refusals():
    deal = _discard_deal("2C 3C 4C 5C 6C 7C")
    (choice,) = deal.legal_actions()
    assert isinstance(choice, DiscardFrom)
    taker = private_json(private_parts(deal, 1))
    (entry,) = taker["legal"]
    assert set(entry["discard_from"]) == {"2C", "3C", "4C", "5C", "6C", "7C"}
    assert entry["refused"] == {
        **dict.fromkeys(["KS", "KH", "KD", "KC"], "king"),
        **dict.fromkeys(["T21", "T1", "EX"], "bout"),
        **{f"T{n}": "trump" for n in range(10, 21)},
    }
    assert observation_to_json(deal.observation(1))["legal"] == taker["legal"]
    for seat in (None, 0, 2, 3):
        view = observation_to_json(deal.observation(seat))
        assert view["legal"] == []
        assert "refused" not in str(view) and "discard_from" not in str(view)
        if seat is not None:
            assert private_json(private_parts(deal, seat))["legal"] == []
