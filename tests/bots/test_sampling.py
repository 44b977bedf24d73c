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


def _true_hidden(deal: Deal, obs) -> dict[int, int]:
    """The hidden places of ``obs`` as they truly are in ``deal``."""
    from atout.bots.sampling import DOG, ECART

    hidden = {s: deal.hands[s] for s in deal.seats if s != obs.seat}
    if obs.dog is None:
        hidden[DOG] = deal.dog
    elif obs.seat != obs.taker and obs.phase != "discard":
        hidden[ECART] = deal.ecart & ~obs.ecart_trumps
    return hidden


@pytest.mark.parametrize("players", [3, 4, 5])
def test_club_players_never_surprise_in_the_true_world(players):
    """Replaying the true deal, the rules of thumb seen from each seat predict every heuristic card."""
    from atout.bots.sampling import replay_world

    judged = 0
    for g in range(10):
        for true, obs in observed_states(players, f"surprise/{players}/{g}", every=5):
            if obs.phase != "play" or not obs.tricks:
                continue
            world, surprises = replay_world(obs, _true_hidden(true, obs))
            assert world is not None and world.hands == true.hands
            assert surprises == 0
            judged += 1
    assert judged > 30


def test_random_players_surprise_and_their_worlds_still_count():
    """Cards a club player would not play are counted, and resampling still returns worlds."""
    from atout.bots.sampling import replay_world, sample_worlds

    deal = new_deal(RuleSet(4), 0, "surprise/random")
    bots = [make_bot("random", s) for s in range(4)]
    while not deal.is_over and len(deal.tricks) < 8:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat=seat)
    if deal.is_over:
        pytest.skip("this deal was void")
    obs = deal.observation(deal.to_act)
    _, surprises = replay_world(obs, _true_hidden(deal, obs))
    assert surprises > 3
    worlds = sample_worlds(obs, random.Random(1), 10)
    assert sum(c for _, c in worlds) == 10
    assert all(w.phase == "play" and w.hands[obs.seat] == obs.hand for w, _ in worlds)


def test_weighted_worlds_weigh_by_surprise():
    """Every world is distinct and weighted in (0, 1]; a world explaining every card weighs most."""
    from atout.bots.sampling import PLAY_SURPRISE, replay_world, weighted_worlds

    checked = 0
    states = [obs for g in range(6) for _, obs in observed_states(4, f"weights/4/{g}", every=7)]
    for obs in states:
        if obs.phase != "play" or len(obs.tricks) < 4:
            continue
        worlds = weighted_worlds(obs, random.Random(3), 12)
        assert len(worlds) == 12
        assert len({id(w) for w, _ in worlds}) == 12
        for world, weight in worlds:
            assert 0 < weight <= 1
            assert world.hands[obs.seat] == obs.hand
        # Recomputing one world's surprises gives its weight back (bids aside).
        world, weight = worlds[0]
        hidden = {s: world.hands[s] for s in world.seats if s != obs.seat}
        _, surprises = replay_world(obs, {**hidden, **_true_hidden(world, obs)})
        assert weight in (PLAY_SURPRISE**surprises, PLAY_SURPRISE**surprises * 0.2)
        checked += 1
    assert checked >= 2
