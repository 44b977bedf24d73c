"""The ``heuristic`` level: sound club play from rules of thumb, in microseconds.

It bids from hand strength, calls the king its hand supports, lays aside an
écart that makes voids and banks points, shows its poignée, and plays cards
with ``tactics.play_card`` fed by what ``knowledge.infer`` reads from the
observation (cards gone, voids shown, allies known).
"""

from __future__ import annotations

import random
from typing import cast

from ..engine import (
    Action,
    Bid,
    Call,
    Chelem,
    Discard,
    DiscardFrom,
    Observation,
    PetitSecDecision,
    Play,
    Poignee,
    PoigneeFrom,
)
from ..engine.actions import PLAYS
from .knowledge import infer
from .tactics import choose_bid, choose_call, choose_ecart, choose_poignee_cards, play_card


def seats_after(obs: Observation) -> tuple[int, ...]:
    """Seats still to play in the current trick after ``obs.seat``."""
    seats = obs.seats
    left = len(seats) - len(obs.trick) - 1
    i = seats.index(obs.seat)
    return tuple(seats[(i + k) % len(seats)] for k in range(1, left + 1))


def poignee_choice(choice: PoigneeFrom) -> Poignee:
    """Show the largest poignée the hand allows: its bonus goes to the winning side."""
    name = max(choice.sizes, key=choice.sizes.__getitem__)
    return Poignee(choose_poignee_cards(choice.cards, choice.sizes[name]))


def heuristic_card(obs: Observation) -> int:
    """The card ``tactics.play_card`` picks from what the seat knows."""
    legal = 0
    for a in obs.legal:
        if type(a) is Play:
            legal |= 1 << a.card
    me, taker = obs.seat, obs.taker
    assert me is not None and taker is not None, "a seat plays its card, after someone took"
    k = infer(obs)
    return play_card(
        obs.hand, legal, list(obs.trick), me, k.friends, seats_after(obs), k.unseen,
        taker, k.voids,
    )  # fmt: skip


class HeuristicBot:
    """Rules of thumb for every decision; deterministic (the seed only breaks nothing)."""

    name = "heuristic"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation, budget: float | None = None) -> Action:
        obs = observation
        legal = obs.legal
        if not legal:
            raise ValueError(f"seat {obs.seat} has nothing to do now")
        first = legal[0]
        kind = type(first)
        if kind is Play or kind is PoigneeFrom:
            for a in legal:
                if type(a) is PoigneeFrom:
                    return poignee_choice(a)
            return PLAYS[heuristic_card(obs)]
        if kind is Bid:
            return Bid(choose_bid(obs.hand, obs.players, obs.contract))
        if kind is Call:
            return Call(choose_call(obs.hand, [cast(Call, a).card for a in legal]))
        if kind is DiscardFrom:
            offer = cast(DiscardFrom, first)
            return Discard(choose_ecart(obs.hand, offer.cards, offer.count))
        if kind is Chelem:
            return Chelem(False)
        if kind is PetitSecDecision:
            return PetitSecDecision(True)
        # nothing else is listed today; stay legal if the engine grows (the offers were answered above)
        return cast(Action, first)
