"""The ``random`` level: uniform over legal actions (tests and baselines)."""

from __future__ import annotations

import random

from ..engine import Action, Observation
from ..engine.choices import random_action


class RandomBot:
    """Uniform over the legal entries; seeded, so deterministic."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation, budget: float | None = None) -> Action:
        if not observation.legal:
            raise ValueError(f"seat {observation.seat} has nothing to do now")
        return random_action(observation.legal, self.rng)
