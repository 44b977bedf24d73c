"""Bad input never crashes the engine or changes its state: it gets an error naming the broken rule."""

import random

import pytest

from atout.engine import (
    Bid,
    Call,
    Chelem,
    Discard,
    IllegalAction,
    PetitSecDecision,
    Play,
    Poignee,
    RuleSet,
    new_deal,
)
from atout.engine.choices import random_action

from .helpers import build, snapshot

JUNK = [None, -1, 78, 1.5, "KS", "", True, False, [], {}, (1,), 1 << 200, -(1 << 80), object(), float("nan")]
KINDS = [Bid, Call, Discard, Chelem, Poignee, Play, PetitSecDecision]


def _states():
    """Deals stopped in every phase, at 3, 4 and 5 players and under options."""
    out = [build(4, {1: "T1 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H 3H"}, petit_sec="holder_may_play")]
    for players, options in (
        (3, {}),
        (4, {}),
        (5, {}),
        (4, {"chelem_announce": "with_bid"}),
        (5, {"five_players": "dealer_sits_out"}),
    ):
        for k in range(12):
            deal = new_deal(RuleSet.make(players, **options), k % players, f"junk-{k}")
            rng = random.Random(k)
            stop = rng.randrange(0, 40)
            for _ in range(stop):
                if deal.phase == "end":
                    break
                deal.apply(random_action(deal.legal_actions(), rng), deal.to_act)
            out.append(deal)
    return out


STATES = _states()


@pytest.mark.parametrize("index", range(len(STATES)))
def test_junk_actions_refused_and_nothing_changes(index):
    deal = STATES[index].clone()
    before = snapshot(deal)
    seats = [None, deal.to_act, -1, 99, "0"]
    for kind in KINDS:
        for value in JUNK:
            action = kind(value)
            for seat in seats:
                legal = deal.legal_actions()
                if action in legal:
                    continue
                try:
                    deal.apply(action, seat)
                except IllegalAction as err:
                    assert isinstance(err.rule, str) and err.rule and err.message
                else:
                    raise AssertionError(f"{action!r} accepted in phase {deal.phase}")
                assert snapshot(deal) == before, (action, seat)
    for junk in JUNK:
        with pytest.raises(IllegalAction):
            deal.apply(junk, deal.to_act)
    assert snapshot(deal) == before


def test_every_listed_legal_entry_is_accepted():
    """Every legal entry the engine lists is accepted (after making discards/poignées concrete)."""
    rng = random.Random(3)
    for deal in STATES:
        deal = deal.clone()
        if deal.phase == "end":
            continue
        for _ in range(5):
            copy = deal.clone()
            copy.apply(random_action(copy.legal_actions(), rng), copy.to_act)


def test_bools_and_junk_flags_are_not_contracts():
    deal = build(4, dealer=3, chelem_announce="with_bid")
    before = snapshot(deal)
    for action in (Bid(True), Bid(False), Bid(1, "yes"), Bid(2, 1), Bid(0, None)):
        with pytest.raises(IllegalAction):
            deal.apply(action, 0)
    assert snapshot(deal) == before
