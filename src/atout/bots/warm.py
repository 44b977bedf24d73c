"""Compiling the robots' card play ahead of a robot's first decision: the compiled entry points of
``fastplay``, ``rollout`` and ``fastdeal`` called once each (numba compiles them, or loads them from its cache).
Apart from them because it uses all three, and ``rollout`` and ``fastdeal`` are built on ``fastplay``."""

from __future__ import annotations

import numpy as np

from ..engine import RuleSet, new_deal
from . import fastdeal
from .fastplay import STATE_SIZE, card_outcomes, card_values, ecart_values, exact_values, replay
from .rollout import rollout_score

_warm = False


def warm_up() -> None:
    """Compile (or load from numba's cache) the entry points now, not in a robot's first decision:
    about 6 s the very first time on a machine, 0.2 s after. Every entry point a robot or a test reaches:
    one left out is compiled in the first process that calls it, by each process that calls it before
    the cache holds it (``draw_model`` was: 12 s of CPU in each of two test workers on a fresh clone)."""
    global _warm
    if _warm:
        return
    for seed in range(20):
        deal = new_deal(RuleSet(4), 0, f"warm-up {seed}")
        rollout_score(deal, 0)  # plays the bidding in Python, the cards compiled
        if deal.taker is not None:
            break
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    card_values(st, 0, none, none)
    card_outcomes(st, 0, none, none, none)
    exact_values(st, 0, none, none)
    ecart_values(st, 0, 0, 0, none, none, none)
    replay(st, none, none, 0)
    fastdeal.seed(0)
    one = np.zeros(1, dtype=np.int64)
    fastdeal.draw(
        one,
        one,
        one,
        none,
        none,
        none,
        none,
        np.full(13, -1, dtype=np.int64),
        np.zeros(2),
        1,
        1,
        one.copy(),
        one.copy(),
    )
    fastdeal.draw_model(  # the expert's draws from the learned model (inference.draw_probabilities)
        one,
        one,
        one,
        none,
        np.zeros((0, 1)),
        none,
        np.full(13, -1, dtype=np.int64),
        np.zeros(2),
        1,
        1,
        one.copy(),
        one.copy(),
    )
    _warm = True
