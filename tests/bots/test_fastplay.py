"""The compiled card play (``fastplay``) plays the same cards and scores as ``rollout.rollout``."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.bots import fastplay, make_bot
from atout.bots.rollout import rollout, rollout_score, shown_voids
from atout.engine import Play, PoigneeFrom, RuleSet, new_deal
from atout.engine.actions import GARDE_SANS, PLAYS
from atout.engine.cards import HALF_POINTS, PETIT
from atout.engine.state import PHASE_PLAY

TABLES = [
    (3, {}),
    (4, {}),
    (5, {}),
    (5, {"five_players": "dealer_sits_out"}),
    (4, {"excuse_last_trick": "trick_winner"}),
    (4, {"first_lead": "taker"}),
    (3, {"petit_sec": "holder_may_play"}),
]


def position(players: int, options: dict, seed: str):
    """A deal played by a mix of heuristic and random robots up to a random point of the play
    (a random robot makes odd positions: the Excuse early, points given away, chelems missed)."""
    rng = random.Random(seed)
    rules = RuleSet.make(players, **options)
    deal = new_deal(rules, rng.randrange(players), seed)
    bots = [make_bot(rng.choice(("heuristic", "random")), f"{seed}/{s}") for s in range(players)]
    stop = rng.randrange(rules.settings.hand_size * rules.settings.active)
    played = 0
    while not deal.is_over:
        if deal.phase == PHASE_PLAY and not any(type(a) is PoigneeFrom for a in deal.legal_actions()):
            if played >= stop:
                return deal
            played += 1
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat=seat)
    return None


def python_value(deal, card: int, me: int) -> int:
    world = deal.clone()
    world.apply(PLAYS[card])
    rollout(world)
    return world.result.scores[me]


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_every_candidate_card_scores_as_the_python_rollout(players, options):
    compared = 0
    for g in range(25):
        deal = position(players, options, f"fast/{players}/{sorted(options)}/{g}")
        if deal is None:
            continue
        me = deal.to_act
        legal = deal.legal_play_mask()
        cards = np.array([c for c in range(78) if legal >> c & 1], dtype=np.int64)
        values = np.zeros(len(cards), dtype=np.int64)
        fastplay.card_values(fastplay.pack(deal, shown_voids(deal), me), me, cards, values)
        assert [int(v) for v in values] == [python_value(deal, int(c), me) for c in cards]
        compared += len(cards)
    assert compared > 20


def python_petit(deal, card: int, me: int) -> int:
    """1 if, after ``card`` and the Python rollout, the Petit ends in a trick won by ``me``'s side."""
    world = deal.clone()
    world.apply(PLAYS[card])
    rollout(world)
    taker_side = {world.taker, world.partner} - {None}
    for trick in world.tricks:
        if any(c == PETIT for _, c in trick.plays):
            return int((trick.winner in taker_side) == (me in taker_side))
    assert world.dog >> PETIT & 1, "the Petit was neither played nor in the dog"
    return int((world.contract == GARDE_SANS) == (me in taker_side))  # the dog: the taker's, or the defence's


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_where_the_petit_ends_after_each_card_is_the_python_rollouts(players, options):
    """``card_outcomes``: the same scores as ``card_values``, and where the Petit ended (the hint's reasons)."""
    compared = 0
    for g in range(25):
        deal = position(players, options, f"fast/{players}/{sorted(options)}/{g}")
        if deal is None or any(c == PETIT for t in deal.tricks for _, c in t.plays):
            continue
        me = deal.to_act
        legal = deal.legal_play_mask()
        cards = np.array([c for c in range(78) if legal >> c & 1], dtype=np.int64)
        values, petit = np.zeros(len(cards), dtype=np.int64), np.zeros(len(cards), dtype=np.int64)
        fastplay.card_outcomes(fastplay.pack(deal, shown_voids(deal), me), me, cards, values, petit)
        assert [int(v) for v in values] == [python_value(deal, int(c), me) for c in cards]
        assert [int(p) for p in petit] == [python_petit(deal, int(c), me) for c in cards]
        compared += len(cards)
    assert compared > 20


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 10**9), declined=st.booleans())
def test_the_whole_rollout_is_the_same_for_every_seat(players, seed, declined):
    """With the poignées still to show at the first trick (or the seat to act keeping its own)."""
    deal = position(players, {}, f"whole/{seed}")
    if deal is None:
        return
    world = deal.clone()
    rollout(world, declined)
    for seat in deal.seats:
        assert rollout_score(deal.clone(), seat, declined) == world.result.scores[seat]
    # The cards themselves, one by one, against the Python rollout's.
    state = fastplay.pack(deal, shown_voids(deal), deal.to_act if declined else -1)
    for seat, action in world.history[len(deal.history) :]:
        if type(action) is not Play:
            continue
        assert state[fastplay.TO_ACT] == seat
        card = fastplay.rules_card(state)
        assert card == action.card
        fastplay._note_void(state, seat, card)
        fastplay.play(state, card)


def test_a_rollout_from_the_bidding_plays_the_other_phases_in_python():
    for g in range(10):
        deal = new_deal(RuleSet(4), g % 4, f"from-bids/{g}")
        world = deal.clone()
        rollout(world)
        assert rollout_score(deal.clone(), 1) == world.result.scores[1]


def test_card_sets_on_two_words():
    rng = random.Random(7)
    for _ in range(300):
        lo, hi = rng.getrandbits(56), rng.getrandbits(22)
        if not lo and not hi:
            continue
        cards = [c for c in range(56) if lo >> c & 1] + [56 + c for c in range(22) if hi >> c & 1]
        assert fastplay.low_card(lo, hi) == cards[0]
        assert fastplay.high_card(lo, hi) == cards[-1]
        assert fastplay.popcount(lo) + fastplay.popcount(hi) == len(cards)
        assert fastplay.half_points(lo, hi) == sum(HALF_POINTS[c] for c in cards)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_packed_worlds_are_the_python_worlds(players, monkeypatch):
    """``weighted_states`` (worlds replayed and judged in compiled code), dealing in Python, draws
    the same worlds with the same weights as ``weighted_worlds`` for the same generator, and every
    candidate card scores the same from either."""
    from atout.bots import sampling
    from atout.bots.knowledge import infer
    from atout.bots.sampling import NoWorld, weighted_states, weighted_worlds

    monkeypatch.setattr(sampling, "COMPILED_DEAL", False)

    compared = 0
    for g in range(6):
        deal = new_deal(RuleSet(players), g % players, f"packed/{players}/{g}")
        bots = [make_bot("heuristic", s) for s in range(players)]
        while not deal.is_over:
            seat = deal.to_act
            obs = deal.observation(seat)
            legal = deal.legal_actions()
            if deal.phase == PHASE_PLAY and len(legal) > 1 and all(type(a) is Play for a in legal):
                k = infer(obs)
                try:
                    worlds = weighted_worlds(obs, random.Random(len(deal.history)), 5, k)
                except NoWorld:
                    worlds = []
                if worlds:
                    states = weighted_states(obs, random.Random(len(deal.history)), 5, k)
                    assert [w for _, w in worlds] == [w for _, w in states]
                    cards = np.array([a.card for a in legal], dtype=np.int64)
                    for (world, _), (state, _) in zip(worlds, states, strict=True):
                        a, b = np.zeros(len(cards), dtype=np.int64), np.zeros(len(cards), dtype=np.int64)
                        fastplay.card_values(fastplay.pack(world, shown_voids(world), seat), seat, cards, a)
                        fastplay.card_values(state, seat, cards, b)
                        assert list(a) == list(b)
                        compared += 1
            deal.apply(bots[seat].choose(obs), seat=seat)
    assert compared > 100


def minimax(deal, me: int) -> int:
    """The reference: ``me``'s score with best play on both sides, over ``engine.Deal``."""
    if deal.is_over:
        return deal.result.scores[me]
    mine = deal.side[deal.to_act] == deal.side[me]
    values = []
    for card in range(78):
        if deal.legal_play_mask() >> card & 1:
            child = deal.clone()
            child.apply(PLAYS[card])
            values.append(minimax(child, me))
    return max(values) if mine else min(values)


@pytest.mark.parametrize(("players", "options"), TABLES[:4])
def test_the_exact_endgame_is_minimax(players, options):
    compared = 0
    for g in range(60):
        rng = random.Random(g)
        deal = position(players, options, f"exact/{players}/{sorted(options)}/{g}")
        while deal is not None and not deal.is_over and deal.hands[deal.to_act].bit_count() > 2:
            deal.apply(
                PLAYS[fastplay.rules_card(fastplay.pack(deal, shown_voids(deal), -1))]
                if rng.random() < 0.5
                else rng.choice([a for a in deal.legal_actions() if type(a) is Play])
            )
        if deal is None or deal.is_over:
            continue
        me = deal.to_act
        legal = deal.legal_play_mask()
        cards = np.array([c for c in range(78) if legal >> c & 1], dtype=np.int64)
        values = np.zeros(len(cards), dtype=np.int64)
        fastplay.exact_values(fastplay.pack(deal, shown_voids(deal), me), me, cards, values)
        expected = []
        for c in cards:
            child = deal.clone()
            child.apply(PLAYS[int(c)])
            expected.append(minimax(child, me))
        assert [int(v) for v in values] == expected
        compared += 1
    assert compared > 30


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_ecart_scores_as_its_rollout(players):
    """``rollout.ecart_scores`` (the world played to its first card once, each écart patched in)
    gives each écart the score ``rollout_score`` gives it on its own."""
    from atout.bots.rollout import ecart_scores
    from atout.bots.tactics import choose_ecart
    from atout.engine import Discard
    from atout.engine.cards import cards_of

    compared = 0
    for g in range(30):
        deal = new_deal(RuleSet(players), g % players, f"ecart/{players}/{g}")
        bots = [make_bot("heuristic", s) for s in range(players)]
        while not deal.is_over and deal.phase != "discard":
            seat = deal.to_act
            deal.apply(bots[seat].choose(deal.observation(seat)), seat=seat)
        if deal.phase != "discard":
            continue
        me, allowed, count = deal.taker, deal.ecart_allowed(), deal.settings.dog_size
        rng = random.Random(g)
        ecarts = [choose_ecart(deal.hands[me], allowed, count)]
        ecarts += [sum(1 << c for c in rng.sample(cards_of(allowed), count)) for _ in range(4)]
        for ecart, value in zip(ecarts, ecart_scores(deal, me, ecarts), strict=True):
            world = deal.clone()
            world.apply(Discard(ecart))
            assert value == rollout_score(world, me)
            compared += 1
    assert compared > 40
