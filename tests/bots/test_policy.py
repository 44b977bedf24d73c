"""The learned card policy (``policy``): it sees only its seat's view, plays legal cards, and with
weights that say "the rules of thumb" it plays exactly the compiled rollouts."""

from __future__ import annotations

import numpy as np
import pytest

from atout.bots import fastplay, policy
from atout.bots.rollout import shown_voids

from .test_fastplay import position


def positions(players: int, count: int):
    for g in range(count):
        deal = position(players, {}, f"policy/{players}/{g}")
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
def test_the_shipped_policy_plays_a_legal_card(players):
    shipped = policy.load()
    for deal in positions(players, 15):
        st = fastplay.pack(deal, shown_voids(deal), deal.to_act)
        assert deal.legal_play_mask() >> int(policy.policy_card(st, *shipped.args)) & 1


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


@pytest.mark.parametrize("who", ["own", "taker", "all"])
def test_the_expert_with_rules_weights_in_its_rollouts_plays_as_without(who, monkeypatch):
    """The switch only changes who plays by the policy: weights that mean "the rules of thumb" give
    the very cards of the plain search."""
    from atout.bots import expert, make_bot
    from atout.engine import Play, RuleSet, new_deal

    def cards_played(seed: str) -> list:
        deal = new_deal(RuleSet(4), 0, seed)
        bots = [make_bot("expert", f"{seed}/{s}") for s in range(4)]
        out = []
        while not deal.is_over and len(out) < 24:
            seat = deal.to_act
            action = bots[seat].choose(deal.observation(seat))
            if type(action) is Play:
                out.append(action.card)
            deal.apply(action, seat=seat)
        return out

    # No safety stop: a loaded machine must not cut one search short and not the other.
    monkeypatch.setattr(expert, "SAFETY_SECONDS", 1e9)
    plain = cards_played("policy-switch/2")  # seat 2 takes
    monkeypatch.setattr(expert, "load_policy", policy.rules_policy)
    monkeypatch.setattr(expert, "ROLLOUT_POLICY", who)
    assert cards_played("policy-switch/2") == plain
    assert len(plain) == 24
