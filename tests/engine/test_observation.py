"""What a seat may know: ``observation(seat)`` never reveals another seat's hidden cards."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from atout.engine import GARDE, GARDE_SANS, PRISE, Observation
from atout.engine.actions import (
    Bid,
    Call,
    Chelem,
    Discard,
    DiscardFrom,
    PetitSecDecision,
    Play,
    Poignee,
    PoigneeFrom,
)
from atout.engine.cards import TRUMPS
from atout.engine.observation import EcartShown

from .helpers import M, bid_all, build, to_play

KNOWN_FIELDS = {
    "seat",
    "rules",
    "dealer",
    "seats",
    "phase",
    "to_act",
    "hand",
    "hand_sizes",
    "history",
    "contract",
    "taker",
    "called",
    "partner",
    "dog",
    "ecart",
    "ecart_trumps",
    "chelem_announced",
    "poignees",
    "tricks",
    "trick",
    "legal",
    "result",
    "void",
}


def _bits(card):
    return 1 << card


def _action_cards(action):
    if isinstance(action, Call):
        return 0  # a call names a card, never where it lies
    if isinstance(action, Play):
        return _bits(action.card)
    if isinstance(action, (Discard, Poignee)):
        return action.cards
    if isinstance(action, EcartShown):
        return action.trumps
    if isinstance(action, (DiscardFrom, PoigneeFrom)):
        return action.cards
    assert isinstance(action, (Bid, Chelem, PetitSecDecision)), f"unknown action {action!r}: what cards does it show?"
    return 0


def seen_cards(obs: Observation) -> int:
    """Every card named anywhere in an observation."""
    fields = set(type(obs)._fields)
    assert fields == KNOWN_FIELDS, f"new observation fields {fields ^ KNOWN_FIELDS}: teach this test their cards"
    seen = obs.hand | (obs.dog or 0) | (obs.ecart or 0) | obs.ecart_trumps
    if obs.called is not None:
        seen |= _bits(obs.called)
    for _, action in obs.history:
        seen |= _action_cards(action)
    for _, cards, _, _ in obs.poignees:
        seen |= cards
    for t in obs.tricks:
        for _, c in t.plays:
            seen |= _bits(c)
    for _, c in obs.trick:
        seen |= _bits(c)
    for choice in obs.legal:
        seen |= _action_cards(choice)
    return seen


def public_cards(deal) -> int:
    out = deal.ecart & TRUMPS
    if deal.dog_shown:
        out |= deal.dog
    if deal.called is not None:
        out |= _bits(deal.called)  # the call names a card, not where it is
    for _, cards, _, _ in deal.poignees:
        out |= cards
    for t in deal.tricks:
        for _, c in t.plays:
            out |= _bits(c)
    for _, c in deal.trick:
        out |= _bits(c)
    return out


def check_observation(deal, seat):
    obs = deal.observation(seat)
    allowed = public_cards(deal)
    if seat is not None:
        allowed |= deal.hands[seat]
        if seat == deal.taker:
            allowed |= deal.ecart
    leak = seen_cards(obs) & ~allowed
    assert not leak, f"seat {seat} sees hidden cards {leak:#x}"
    if seat is None:
        assert obs.hand == 0 and obs.ecart is None and obs.legal == ()
    else:
        assert obs.hand == deal.hands[seat]
    if seat != deal.to_act:
        assert obs.legal == ()
    if deal.partner is not None and not deal.partner_revealed and deal.phase != "end":
        assert obs.partner == (deal.partner if seat == deal.partner else None)
    if not deal.dog_shown:
        assert obs.dog is None
    assert obs.hand_sizes == tuple(h.bit_count() for h in deal.hands)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("contract", [PRISE, GARDE, GARDE_SANS])
def test_observations_along_a_scripted_deal(players, contract):
    deal = build(players, dealer=0)
    for seat in [None, *range(players)]:
        check_observation(deal, seat)
        assert deal.observation(seat).dog is None
    to_play(deal, 1, contract, call="KH")
    for seat in [None, *range(players)]:
        check_observation(deal, seat)
        obs = deal.observation(seat)
        assert (obs.dog == deal.dog) == (contract != GARDE_SANS)


def test_ecart_only_to_the_taker_trumps_to_all():
    hand = "KS KH KD KC T21 T1 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10"
    deal = build(4, {1: hand}, dog="2C 3C 4C T2 T3 T4", dealer=0)
    bid_all(deal, 1, GARDE)
    deal.apply(Discard(M("2C 3C 4C T2 T3 T4")), 1)
    deal.apply(Chelem(False), 1)
    assert deal.observation(1).ecart == M("2C 3C 4C T2 T3 T4")
    for seat in (None, 0, 2, 3):
        obs = deal.observation(seat)
        assert obs.ecart is None and obs.ecart_trumps == M("T2 T3 T4")
        check_observation(deal, seat)


def test_spectator_sees_no_hand():
    deal = build(4, dealer=3)
    to_play(deal, 0, GARDE_SANS)
    obs = deal.observation(None)
    assert obs.hand == 0 and obs.legal == ()
    assert seen_cards(obs) == 0


@pytest.mark.parametrize("bad", [-1, 4, 7, "0", 1.5])
def test_bad_seat_refused(bad):
    deal = build(4)
    with pytest.raises(ValueError):
        deal.observation(bad)


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32 - 1))
@example(players=3, seed=234).via("a poignée shown")
@example(players=4, seed=20).via("a poignée shown")
@example(players=5, seed=26).via("a poignée shown")
def test_a_spectators_view_made_from_the_last_equals_the_view_made_whole(players: int, seed: int) -> None:
    """PublicViews (the server's view after each action, reusing what did not change) says exactly what
    observation_to_json says, after every action of two deals in a row (the second from the same views)."""
    import random

    from atout.engine.choices import random_action
    from atout.engine.rules import RuleSet
    from atout.engine.state import new_deal
    from atout.engine.view import PublicViews, observation_to_json

    rng = random.Random(seed)
    views = PublicViews()
    before = None
    for dealer in (0, 1 % players):
        deal = new_deal(RuleSet(players=players), dealer, seed=str(seed + dealer))
        while True:
            obs = deal.observation(None)
            view = views.view(obs)
            assert view == observation_to_json(obs)
            if before is not None and (known := views.changes(before)) is not None:  # what a patch carries
                assert known == {k: v for k, v in view.items() if before[k] != v}
            elif before is not None:
                assert before["dealer"] != view["dealer"], "the changes are known within a deal"
            before = view
            if deal.phase == "end":
                break
            deal.apply(random_action(deal.legal_actions(), rng), deal.to_act)
