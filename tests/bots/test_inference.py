"""The card-location model: a distribution over the legal places, true to the counts, quick to load."""

from __future__ import annotations

import subprocess
import sys
import time
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.bots import fastdeal, fastplay, inference, make_bot, sampling
from atout.bots.knowledge import infer
from atout.bots.sampling import Deck
from atout.engine import Observation, RuleSet, new_deal


def mid_play(seed: str, players: int = 4) -> Observation:
    """A defender's view some tricks into a deal of club robots, once a void is shown."""
    for n in range(50):
        deal = new_deal(RuleSet(players), n % players, f"{seed}{n}")
        bots = [make_bot("club", s) for s in range(players)]
        while not deal.is_over:
            seat = deal.to_act
            obs = deal.observation(seat)
            ready = deal.phase == "play" and seat != deal.taker and len(deal.tricks) >= 5 and not deal.trick
            if ready and any(infer(obs).voids[s] for s in obs.seats if s != seat):
                return obs
            deal.apply(bots[seat].choose(obs), seat)
    raise AssertionError("no position with a void shown")


def test_a_shown_void_is_respected() -> None:
    obs = mid_play("inference")
    k = infer(obs)
    places, p = inference.placement(obs, k)
    void = [(i, s) for i, s in enumerate(places) if s >= 0 and k.voids[s] & 15]
    assert void
    i, seat = void[0]
    suit = (k.voids[seat] & 15).bit_length() - 1
    assert not p[14 * suit : 14 * suit + 14, i].any()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_placement_is_a_distribution_over_legal_places_keeping_counts(players: int) -> None:
    obs = mid_play("inference", players)
    k = infer(obs)
    places, p = inference.placement(obs, k)
    deck = Deck(obs, k)
    assert places == deck.places
    unseen = [c for c in range(78) if k.unseen >> c & 1]
    seen = [c for c in range(78) if not k.unseen >> c & 1]
    assert np.allclose(p[unseen].sum(axis=1), 1.0)
    assert not p[seen].any()
    assert (p >= 0).all()
    for i, place in enumerate(places):
        # Each place expects as many cards as it holds, and none it cannot hold.
        size = obs.hand_sizes[place] if place >= 0 else deck.room[place] + deck.fixed[place].bit_count()
        assert abs(p[:, i].sum() - size) < 1e-6
        if place >= 0:
            banned = [c for c in unseen if k.banned(place) >> c & 1]
            assert not p[banned, i].any()
            for c in range(78):
                if k.known[place] >> c & 1:
                    assert p[c, i] == 1.0


def test_each_table_size_has_its_own_weights_small_and_fitting_the_features() -> None:
    # the CPU its loading takes, not the wall clock's seconds (which a loaded machine's other work stretches: 5.4 s
    # seen for a load that takes a fraction of a second of CPU)
    code = (
        "import time; t = time.process_time(); from atout.bots import inference; inference.weights(); "
        "print(time.process_time() - t)"
    )
    took = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert took < 3.0
    assert sorted(inference.WEIGHTS) == [3, 4, 5]
    assert sum(path.stat().st_size for path in inference.WEIGHTS.values()) <= 10_000_000
    fitted = [inference.weights(n) for n in (3, 4, 5)]
    for w in fitted:
        assert w["w"].shape == (inference.FEATURES,)
    # Fitted apart: no two sizes share their weights.
    assert not np.allclose(fitted[0]["w"], fitted[1]["w"]) and not np.allclose(fitted[2]["w"], fitted[1]["w"])
    with pytest.raises(ValueError, match="6 players"):
        inference.weights(6)
    obs = mid_play("inference-fast")
    t = time.perf_counter()
    inference.placement(obs)
    assert time.perf_counter() - t < 0.1


def test_worlds_weighted_by_the_model() -> None:
    import random

    from atout.bots import fastplay, sampling

    obs = mid_play("inference")
    k = infer(obs)
    plain = sampling.weighted_states(obs, random.Random(5), 12, k)
    weighed = inference.weigh_states(obs, k, plain, 1.0)
    places, p = inference.placement(obs, k)
    logs = []
    for state, _ in plain:
        total, found = 0.0, 0
        for i, place in enumerate(places):
            if place >= 0:
                hand = int(state[fastplay.HAND_HI + place]) << 56 | int(state[fastplay.HAND_LO + place])
                for c in range(78):
                    if k.unseen >> c & 1 and hand >> c & 1:
                        total += np.log(p[c, i])
                        found |= 1 << c
        pile = [i for i, b in enumerate(places) if b < 0]
        for c in range(78):
            if k.unseen >> c & 1 and not found >> c & 1:
                total += np.log(p[c, pile[0]])
        logs.append(total)
    assert [s.tolist() for s, _ in plain] == [s.tolist() for s, _ in weighed]
    ratios = [b / a for (_, a), (_, b) in zip(plain, weighed, strict=True)]
    top = max(logs)
    assert np.allclose(ratios, np.exp(np.array(logs) - top), rtol=1e-4)
    assert min(ratios) < 0.5


def _scores_off_then_on(monkeypatch, constant: str, samples: int) -> tuple[Observation, list, Any, Any]:
    """A mid-play position, its cards, and the expert's scores of them on one seed: without, then with
    ``expert.<constant>`` at 1.0 (left on for the rest of the test)."""
    import random

    from atout.bots import expert
    from atout.engine import Play

    obs = mid_play("inference")
    actions = [a for a in obs.legal if isinstance(a, Play)]
    off = expert.score_worlds(obs, actions, samples, random.Random(3))
    monkeypatch.setattr(expert, constant, 1.0)
    on = expert.score_worlds(obs, actions, samples, random.Random(3))
    assert off is not None and on is not None
    return obs, actions, off, on


def test_the_expert_weighs_its_worlds_by_the_model_only_when_asked(monkeypatch) -> None:
    _, _, off, on = _scores_off_then_on(monkeypatch, "MODEL_WORLDS", 12)
    assert off.values == on.values
    assert off.weights != on.weights


@cache
def _play_positions() -> list[Observation]:
    """Observations in the play of heuristic games at each table size, every few decisions."""
    from .test_sampling import observed_states

    out = []
    for players in (3, 4, 5):
        for g in range(3):
            out += [obs for _, obs in observed_states(players, f"drawn/{players}/{g}", every=4) if obs.phase == "play"]
    return out


def _assert_hard_facts(obs: Observation, k, world: dict[int, int]) -> None:
    """``world`` deals exactly the unseen cards, each place its size, its known cards and none it may not hold."""
    sizes, banned = sampling._buckets(obs, k)
    assert set(world) == set(sizes)
    together = 0
    for place, cards in world.items():
        assert cards.bit_count() == sizes[place]
        assert not cards & banned[place]
        assert not cards & together
        together |= cards
        if place >= 0:
            assert cards & k.known[place] == k.known[place]
    hidden_ecart_shown = obs.ecart_trumps if obs.seat != obs.taker else 0
    assert together | hidden_ecart_shown == k.unseen | hidden_ecart_shown
    if obs.dog is not None and obs.taker != obs.seat:
        # The shown dog's unseen cards went to the taker: in its hand or its écart.
        for place, cards in world.items():
            if place not in (obs.taker, sampling.ECART):
                assert not cards & obs.dog


@settings(max_examples=150, deadline=None)
@given(index=st.integers(0, 10_000), weights=st.randoms(use_true_random=False), seed=st.integers(0, 2**31 - 1))
def test_worlds_drawn_from_any_probabilities_keep_every_hard_fact(index, weights, seed) -> None:
    """Whatever the probabilities (the model's, or any over the legal places), a drawn world holds every
    fact the seat saw: sizes, voids and trump ceilings, known cards, the shown dog's rest."""
    positions = _play_positions()
    obs = positions[index % len(positions)]
    k = infer(obs)
    deck = Deck(obs, k)
    probs = inference.draw_probabilities(obs, k, deck, 1.0)
    if probs is None:
        return
    cards, q, nopts = probs
    if weights.random() < 0.5:
        q = np.where(q > 0, np.array([[weights.random() ** 3 + 1e-6 for _ in range(q.shape[1])] for _ in q]), 0.0)
    fastdeal.seed(seed)
    for _ in range(4):
        try:
            world = deck.draw_compiled(probs=(cards, q, nopts))
        except sampling.NoWorld:
            continue
        _assert_hard_facts(obs, k, world)


def test_the_drawn_worlds_follow_the_models_probabilities() -> None:
    """Without the club taker's fitting, each card lands in each place about as often as the model says
    (sampling noise on 3,000 draws: 0.005 a share on average), unlike by room alone."""
    gaps_model, gaps_room = [], []
    for seed in ("inference", "inference-drawn"):
        obs = mid_play(seed)
        k = infer(obs)
        deck = Deck(obs, k)
        deck.compiled()[7][:] = -1  # the club-taker model off: the bare law
        probs = inference.draw_probabilities(obs, k, deck, 1.0)
        assert probs is not None
        cards, q, _ = probs
        fastdeal.seed(11)
        for use, gaps in ((probs, gaps_model), (None, gaps_room)):
            share = np.zeros_like(q)
            for _ in range(3000):
                world = deck.draw_compiled(probs=use)
                for i, place in enumerate(deck.places):
                    share[:, i] += [world[place] >> int(c) & 1 for c in cards]
            gaps.append(np.abs(share / 3000 - q).mean())
    assert max(gaps_model) < 0.01
    assert min(gaps_room) > 2 * max(gaps_model)


def test_the_expert_draws_its_worlds_from_the_model_only_when_asked(monkeypatch) -> None:
    import random

    from atout.bots import expert

    obs, actions, off, on = _scores_off_then_on(monkeypatch, "MODEL_DRAW", 24)
    again = expert.score_worlds(obs, actions, 24, random.Random(3))
    assert again is not None
    assert off.values != on.values
    assert (on.values, on.weights) == (again.values, again.weights)  # a seed still fixes every world
    k = infer(obs)
    for state, _ in sampling.weighted_states(obs, random.Random(4), 24, k, chances=inference.draw_probabilities):
        world = {
            b: int(state[fastplay.HAND_HI + b]) << 56 | int(state[fastplay.HAND_LO + b])
            for b in obs.seats
            if b != obs.seat
        }
        for b, cards in world.items():
            assert cards.bit_count() == obs.hand_sizes[b]
            assert not cards & k.banned(b)
