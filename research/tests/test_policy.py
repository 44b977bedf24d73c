"""The learned card policy (``research.card_policy.policy``): it sees only its seat's view, plays legal
cards, and with weights that say "the rules of thumb" it plays exactly the compiled rollouts.

Research, not collected by the project's ``pytest`` (testpaths is ``tests``): ``pytest research/tests``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from atout.bots import fastplay, make_bot
from atout.bots.rollout import shown_voids
from atout.engine import PoigneeFrom, RuleSet, new_deal
from atout.engine.state import PHASE_PLAY
from research.card_policy import policy


def position(players: int, seed: str):
    """A deal played by a mix of heuristic and random robots up to a random point of the play
    (as ``tests/bots/test_fastplay.py``'s)."""
    rng = random.Random(seed)
    rules = RuleSet(players)
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


def positions(players: int, count: int):
    for g in range(count):
        deal = position(players, f"policy/{players}/{g}")
        if deal is not None:
            yield deal


@pytest.mark.parametrize("players", [3, 4, 5])
def test_weights_on_the_rules_feature_alone_play_the_rollouts(players):
    rules = policy.rules_policy()
    compared = 0
    for deal in positions(players, 15):
        me = deal.to_act
        st = fastplay.pack(deal, shown_voids(deal), me)
        legal = deal.legal_play_mask()
        cards = np.array([c for c in range(78) if legal >> c & 1], dtype=np.int64)
        plain = np.zeros(len(cards), dtype=np.int64)
        learned = np.zeros(len(cards), dtype=np.int64)
        fastplay.card_values(st, me, cards, plain)
        policy.card_values_policy(st, me, cards, learned, (1 << players) - 1, *rules.args)
        assert list(learned) == list(plain)
        compared += len(cards)
    assert compared > 10


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_trained_policy_plays_a_legal_card(players):
    trained = policy.load()
    for deal in positions(players, 15):
        st = fastplay.pack(deal, shown_voids(deal), deal.to_act)
        assert deal.legal_play_mask() >> int(policy.policy_card(st, *trained.args)) & 1


@pytest.mark.parametrize("players", [4, 5])
def test_features_see_only_the_seat_s_own_view(players):
    """Two worlds that differ only in the other seats' hands describe every card alike."""
    seen = 0
    for deal in positions(players, 20):
        me = deal.to_act
        others = [s for s in deal.seats if s != me]
        a, b = others[0], others[1]
        st = fastplay.pack(deal, shown_voids(deal), me)
        swapped = st.copy()
        # The two seats trade one card each of the same count: the seat to act cannot tell.
        for word in (fastplay.HAND_LO, fastplay.HAND_HI):
            swapped[word + a], swapped[word + b] = st[word + b], st[word + a]
        legal = deal.legal_play_mask()
        cards = np.array([c for c in range(78) if legal >> c & 1], dtype=np.int64)
        x = np.zeros((len(cards), policy.NF))
        y = np.zeros((len(cards), policy.NF))
        policy.candidate_features(st, cards, x)
        policy.candidate_features(swapped, cards, y)
        assert (x == y).all()
        seen += 1
    assert seen > 5


def test_weights_of_the_wrong_shape_are_refused():
    with pytest.raises(ValueError, match="features"):
        policy.Policy(np.zeros((3, 2)), np.zeros(2), np.zeros(2), np.zeros(3))
