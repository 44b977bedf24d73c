"""The ``beginner`` level: the club rules of thumb, with a beginner's slips.

It bids, calls, lays aside and shows poignées like the ``heuristic`` level,
but one card in four it plays a legal card at random instead of the sound one:
an opponent a new player can beat, that still follows the rules.  A seed fixes
its slips.
"""

from __future__ import annotations

import random

from ..engine import Action, Observation, Play
from .heuristic import HeuristicBot

SLIP_RATE = 0.25
"""How often the beginner plays a random legal card instead of the rules-of-thumb one."""


class BeginnerBot:
    """The heuristic with a random card ``SLIP_RATE`` of the time; deterministic for a seed."""

    name = "beginner"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)
        self.heuristic = HeuristicBot(seed)

    def choose(self, observation: Observation, budget: float | None = None) -> Action:
        plays = [a for a in observation.legal if type(a) is Play]
        # Draw every time, so one decision's slip does not shift the next ones' draws.
        slip = self.rng.random() < SLIP_RATE
        if slip and len(plays) == len(observation.legal) and len(plays) > 1:
            return self.rng.choice(plays)
        return self.heuristic.choose(observation, budget)
