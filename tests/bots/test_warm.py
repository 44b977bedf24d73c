"""The warm-up compiles every compiled entry point a robot reaches, with the types the robot passes: one it
misses is compiled again by each process that reaches it first (a test worker, an analysis worker, a server)."""

from __future__ import annotations

import random

from numba.core.registry import CPUDispatcher

from atout.bots import expert, fastdeal, fastplay, rollout
from atout.bots.warm import warm_up
from atout.engine import Play

from .test_inference import mid_play


def _signatures() -> dict[str, int]:
    return {
        f"{module.__name__}.{name}": len(value.signatures)
        for module in (fastplay, fastdeal, rollout)
        for name, value in vars(module).items()
        if isinstance(value, CPUDispatcher)
    }


def test_the_experts_decisions_compile_nothing_after_the_warm_up(monkeypatch) -> None:
    warm_up()
    before = _signatures()
    assert before["atout.bots.fastdeal.draw"] and before["atout.bots.fastdeal.draw_model"]
    obs = mid_play("warm")
    actions = [a for a in obs.legal if isinstance(a, Play)]
    for constant in ("MODEL_WORLDS", "MODEL_DRAW"):  # the worlds drawn by room, then from the learned model
        assert expert.score_worlds(obs, actions, 6, random.Random(1)) is not None
        monkeypatch.setattr(expert, constant, 1.0)
    assert expert.score_worlds(obs, actions, 6, random.Random(1)) is not None
    after = _signatures()
    grew = {name: (count, after[name]) for name, count in before.items() if after[name] != count}
    assert not grew, f"compiled after the warm-up (signatures before, after): {grew}"
