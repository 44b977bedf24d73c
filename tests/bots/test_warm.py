"""The warm-up compiles every compiled entry point a robot reaches, with the types the robot passes: one it
misses is compiled again by each process that reaches it first (a test worker, an analysis worker, a server)."""

from __future__ import annotations

import random

from atout.bots import expert, fastdeal
from atout.bots.warm import warm_up
from atout.engine import Play
from atout.server.features.analysis_worker import compiled

from .test_inference import mid_play


def test_the_experts_decisions_compile_nothing_after_the_warm_up(monkeypatch) -> None:
    warm_up()
    before = compiled()  # the compiled versions of every robots' numba function this process holds
    assert fastdeal.draw.signatures and fastdeal.draw_model.signatures
    obs = mid_play("warm")
    actions = [a for a in obs.legal if isinstance(a, Play)]
    for constant in ("MODEL_WORLDS", "MODEL_DRAW"):  # the worlds drawn by room, then from the learned model
        assert expert.score_worlds(obs, actions, 6, random.Random(1)) is not None
        monkeypatch.setattr(expert, constant, 1.0)
    assert expert.score_worlds(obs, actions, 6, random.Random(1)) is not None
    assert compiled() == before, "the expert compiled a function the warm-up left out (or at other types)"
