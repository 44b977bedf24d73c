"""The compiled dealing (``fastdeal``) lays aside the same écart, counts the same hands and deals
by the same law as ``sampling.Deck``, within the facts of the observation."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.bots import fastdeal, sampling, tactics
from atout.bots.knowledge import infer
from atout.engine.ecart import ecart_allowed

from .test_sampling import observed_states

LO = (1 << 56) - 1


@settings(max_examples=300, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), cards=st.randoms(use_true_random=False))
def test_the_club_count_and_the_club_ecart_are_the_rules_of_thumb(players, cards):
    size = {3: 30, 4: 24, 5: 18}[players]  # a taker's hand with the dog
    hand = sum(1 << c for c in cards.sample(range(78), size))
    lo, hi = hand & LO, hand >> 56
    assert fastdeal.hand_strength(lo, hi, players) == pytest.approx(tactics.hand_strength(hand, players))
    count = {3: 6, 4: 6, 5: 3}[players]
    allowed = ecart_allowed(hand, count)
    a_lo, a_hi = fastdeal.ecart_allowed(lo, hi, count)
    assert a_lo | a_hi << 56 == allowed
    e_lo, e_hi = fastdeal.choose_ecart(lo, hi, a_lo, a_hi, count)
    assert e_lo | e_hi << 56 == tactics.choose_ecart(hand, allowed, count)


@settings(max_examples=300, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), plain=st.integers(0, 8), cards=st.randoms(use_true_random=False))
def test_the_compiled_ecart_rule_is_the_engines(players, plain, cards):
    """Hands short of plain cards as often as not, so the trumps' half of the rule is met too."""
    from atout.engine.cards import BOUTS, KINGS, TRUMPS

    size = {3: 30, 4: 24, 5: 18}[players]
    count = {3: 6, 4: 6, 5: 3}[players]
    honours = [c for c in range(78) if (TRUMPS | KINGS | BOUTS) >> c & 1]
    others = [c for c in range(78) if not (TRUMPS | KINGS | BOUTS) >> c & 1]
    plain = max(plain, size - len(honours))  # 26 honours (trumps, Excuse, kings): a 30-card hand needs 4 more
    hand = sum(1 << c for c in cards.sample(others, plain) + cards.sample(honours, size - plain))
    a_lo, a_hi = fastdeal.ecart_allowed(hand & LO, hand >> 56, count)
    assert a_lo | a_hi << 56 == ecart_allowed(hand, count)


def _defenders_decks(players: int, games: int):
    for g in range(games):
        for _true, obs in observed_states(players, f"fastdeal/{players}/{g}", every=3):
            if obs.phase == "play" and obs.taker is not None and obs.seat != obs.taker:
                yield obs, sampling.Deck(obs, infer(obs))


@pytest.mark.parametrize("players", [3, 4])
def test_a_world_fits_the_club_taker_alike(players):
    """The compiled ``as_club`` accepts and reshapes a dealt world exactly as ``sampling._as_club``."""
    rng = random.Random(3)
    checked = fitted = 0
    for _obs, deck in _defenders_decks(players, 12):
        if deck.model is None:
            continue
        arrays = deck.compiled()
        model, bid = arrays[7], arrays[8]
        for _ in range(5):
            out = deck.deal_once(rng)
            if out is None:
                continue
            lo = np.array([out[b] & LO for b in deck.places], dtype=np.int64)
            hi = np.array([out[b] >> 56 for b in deck.places], dtype=np.int64)
            python = dict(out)
            fits = sampling._as_club(python, deck.model)
            assert fastdeal.as_club(lo, hi, model, bid) == fits
            assert {b: int(lo[i]) | int(hi[i]) << 56 for i, b in enumerate(deck.places)} == python
            checked += 1
            fitted += fits
    assert checked > 100 and fitted > 10


@pytest.mark.parametrize("players", [3, 4, 5])
def test_compiled_draws_keep_to_the_facts_and_to_the_law(players):
    """Every compiled draw gives each hidden place its size, its known cards and none it cannot
    hold, and the compiled and Python draws place the cards alike (the share of each card in
    each place, over 1,000 draws, within sampling noise)."""
    rng = random.Random(5)
    fastdeal.seed(5)
    decks = 0
    gaps = []
    for obs, deck in _defenders_decks(players, 6):
        k = infer(obs)
        sizes, banned = sampling._buckets(obs, k)
        counts_c: dict[tuple[int, int], int] = {}
        counts_p: dict[tuple[int, int], int] = {}
        draws = 1000
        for _ in range(draws):
            world = deck.draw_compiled()
            assert set(world) == set(sizes)
            for place, cards in world.items():
                assert cards.bit_count() == sizes[place]
                assert not cards & banned[place]
                if place >= 0:
                    assert cards & k.known[place] == k.known[place]
                for c in range(78):
                    if cards >> c & 1:
                        counts_c[(place, c)] = counts_c.get((place, c), 0) + 1
            for place, cards in deck.draw(rng).items():
                for c in range(78):
                    if cards >> c & 1:
                        counts_p[(place, c)] = counts_p.get((place, c), 0) + 1
        for key in set(counts_c) | set(counts_p):
            gaps.append(abs(counts_c.get(key, 0) - counts_p.get(key, 0)) / draws)
        decks += 1
        if decks >= 5:
            break
    assert decks >= 4
    # Sampling noise on 1,000 draws each is about 0.016 a share on average (0.05 at most).
    assert sum(gaps) / len(gaps) < 0.022
    assert max(gaps) < 0.1
