"""Common random numbers: a robot's random stream restarted at each decision from one seed and the
decision's place in the deal.

A robot's own running stream makes every decision depend on how many numbers the earlier ones
drew: two robots with the same code part after their first searched decision, and a time budget
makes every later world depend on the machine's speed.  Restarted at each decision, two robots
given the same seed draw the same worlds wherever they face the same decision, and nearly the same
where their games have parted (the duplicate arena's pairing, ``atout.arena.duplicate``).
"""

from __future__ import annotations

import random

from ..engine import Action, Observation, PoigneeFrom
from .base import Bot


def decision_seed(seed: str, obs: Observation) -> str:
    """The seed of ``obs``'s decision: a seat meets each phase once, and each card at its own hand
    size (a poignée offer, at the first card, is its own decision)."""
    offer = "+poignee" if any(type(a) is PoigneeFrom for a in obs.legal) else ""
    return f"{seed}/{obs.phase}{offer}/{obs.hand.bit_count()}"


class PerDecision:
    """``bot`` with its stream (its ``rng``) restarted at each decision from ``decision_seed``; a robot
    without a stream of its own (the heuristic) plays as it is."""

    def __init__(self, bot: Bot, seed: str) -> None:
        self.bot = bot
        self.seed = seed
        self.name: str = getattr(bot, "name", type(bot).__name__)

    def choose(self, observation: Observation, budget: float | None = None) -> Action:
        rng = getattr(self.bot, "rng", None)
        if isinstance(rng, random.Random):
            rng.seed(decision_seed(self.seed, observation))
        return self.bot.choose(observation, budget)
