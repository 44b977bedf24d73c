"""The ``beginner`` level: the club rules of thumb, with a beginner's slips.

It calls, lays aside and shows poignées like the ``heuristic`` level, but
misjudges its hand when bidding (the club count off by up to ``BID_SLIP``
points either way) and one card in three plays a legal card at random instead
of the sound one: an opponent a new player can beat, that still follows the
rules.  A seed fixes its slips.
"""

from __future__ import annotations

import random

from ..engine import Action, Bid, Observation, Play
from .heuristic import HeuristicBot
from .tactics import choose_bid

SLIP_RATE = 1 / 3
"""How often the beginner plays a random legal card instead of the rules-of-thumb one."""

BID_SLIP = 12.0
"""The beginner's count of its hand is off by up to this many points (the club thresholds are 43 to 86)."""


class BeginnerBot:
    """The heuristic with misjudged bids and a random card ``SLIP_RATE`` of the time; deterministic for a seed."""

    name = "beginner"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)
        self.heuristic = HeuristicBot(seed)

    def choose(self, observation: Observation, budget: float | None = None) -> Action:
        obs = observation
        # Draw every time, so one decision's slip does not shift the next ones' draws.
        slip = self.rng.random()
        kind = type(obs.legal[0]) if obs.legal else None
        if kind is Bid:
            margin = (2 * slip - 1) * BID_SLIP
            contract = choose_bid(obs.hand, obs.players, obs.contract, margin=margin)
            return Bid(contract) if Bid(contract) in obs.legal else Bid(0)
        plays = [a for a in obs.legal if type(a) is Play]
        if slip < SLIP_RATE and len(plays) == len(obs.legal) and len(plays) > 1:
            return self.rng.choice(plays)
        return self.heuristic.choose(obs, budget)
