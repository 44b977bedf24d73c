"""The expert's rollouts play exactly as the heuristic robot would, seeing only what each seat sees."""

from __future__ import annotations

import pytest

from atout.bots import make_bot
from atout.bots.knowledge import infer
from atout.bots.rollout import rollout, shown_voids
from atout.engine import Play, RuleSet, new_deal
from atout.engine.state import PHASE_PLAY


def heuristic_game(players: int, seed: str):
    """A deal played by heuristic robots: the deal at the first card, and the finished deal."""
    deal = new_deal(RuleSet(players), 0, seed)
    bots = [make_bot("heuristic", s) for s in range(players)]
    start = None
    while not deal.is_over:
        if deal.phase == PHASE_PLAY and start is None:
            start = deal.clone()
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat=seat)
    return start, deal


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_rollout_replays_the_heuristic_game(players):
    compared = 0
    for g in range(40):
        start, true = heuristic_game(players, f"rollout/{players}/{g}")
        if start is None:
            continue  # every seat passed
        world = start.clone()
        rollout(world)
        played = [(s, a) for s, a in world.history if type(a) is Play]
        assert played == [(s, a) for s, a in true.history if type(a) is Play]
        assert world.poignees == true.poignees
        assert world.result.scores == true.result.scores
        compared += 1
    assert compared > 15


def test_a_rollout_from_mid_deal_follows_the_heuristic_too():
    for g in range(20):
        start, true = heuristic_game(5, f"rollout/mid/{g}")
        if start is None:
            continue
        world = start.clone()
        history = [(s, a) for s, a in true.history[len(start.history) :]]
        for seat, action in history[: len(history) // 2]:
            world.apply(action, seat=seat)
        obs = world.observation(world.to_act)
        assert shown_voids(world) == infer(obs).voids
        rollout(world)
        assert world.result.scores == true.result.scores


def test_a_declined_poignee_stays_hidden():
    for g in range(200):
        start, true = heuristic_game(4, f"rollout/poignee/{g}")
        if start is None or not true.poignees:
            continue
        seat = true.poignees[0][0]
        world = start.clone()
        while world.to_act != seat:
            world.apply(make_bot("heuristic").choose(world.observation(world.to_act)))
        rollout(world, declined=True)
        assert seat not in [p[0] for p in world.poignees]
        return
    pytest.skip("no poignée in these deals")
