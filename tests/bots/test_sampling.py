"""The expert's worlds agree with everything the seat saw, and with nothing it did not."""

from __future__ import annotations

import random

import pytest

from atout.bots import make_bot
from atout.bots.knowledge import infer
from atout.bots.sampling import sample_world
from atout.engine import Deal, RuleSet, new_deal
from atout.engine.cards import TRUMPS


def observed_states(players: int, seed: str, every: int = 3):
    """(true deal, observation) pairs along a heuristic game, every few decisions."""
    deal = new_deal(RuleSet(players), 0, seed)
    bots = [make_bot("heuristic", s) for s in range(players)]
    step = 0
    while not deal.is_over:
        seat = deal.to_act
        obs = deal.observation(seat)
        if step % every == 0:
            yield deal, obs
        deal.apply(bots[seat].choose(obs), seat=seat)
        step += 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_worlds_agree_with_public_information(players):
    rng = random.Random(7)
    checked = 0
    for g in range(12):
        for true, obs in observed_states(players, f"worlds/{players}/{g}"):
            k = infer(obs)
            for _ in range(3):
                w = sample_world(obs, rng, k)
                me = obs.seat
                assert isinstance(w, Deal) and w is not true
                assert w.hands[me] == obs.hand
                assert w.phase == true.phase and w.to_act == true.to_act
                assert w.contract == true.contract and w.taker == true.taker
                assert w.called == true.called
                assert [t.plays for t in w.tricks] == [t.plays for t in true.tricks]
                assert w.trick == true.trick
                assert [p[:2] for p in w.poignees] == [p[:2] for p in true.poignees]
                assert w.ecart & TRUMPS == true.ecart & TRUMPS
                if obs.dog is not None:
                    assert w.dog == true.dog
                if obs.ecart is not None:
                    assert w.ecart == obs.ecart
                for seat in obs.seats:
                    assert w.hands[seat].bit_count() == true.hands[seat].bit_count()
                    if seat != me:
                        assert not w.hands[seat] & k.banned(seat)
                        assert w.hands[seat] & k.known[seat] == k.known[seat]
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [3, 4, 5])
def test_inferred_voids_and_ceilings_are_true(players):
    """Everything ``infer`` concludes holds in the real hands, and it concludes something."""
    found = 0
    for g in range(25):
        for true, obs in observed_states(players, f"voids/{players}/{g}", every=1):
            k = infer(obs)
            for seat in obs.seats:
                if seat == obs.seat:
                    continue
                banned = k.banned(seat)
                assert not true.hands[seat] & banned
                assert true.hands[seat] & k.known[seat] == k.known[seat]
                found += bool(banned)
            assert not k.unseen & obs.hand
    assert found > 100
