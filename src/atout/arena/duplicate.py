"""Duplicate deals: the same cards played by the baseline everywhere, then by the candidate in each seat.

Luck of the cards cancels out: the candidate's figure on a deal is its score
minus the baseline's score in the same seat on the same deal.  Every deal is a
pure function of (arena seed, deal number), robots included, so a run is
reproducible and can be split over processes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..bots import make_bot
from ..engine import (
    Bid,
    Call,
    Chelem,
    DiscardFrom,
    Observation,
    PetitSecDecision,
    Play,
    PoigneeFrom,
    RuleSet,
    new_deal,
)

DECISION_KINDS = ("bid", "call", "ecart", "chelem", "poignee", "petit_sec", "card")
"""The kinds of decision the arena times separately (the issue's targets are per kind)."""

_KIND_OF = {Bid: "bid", Call: "call", DiscardFrom: "ecart", Chelem: "chelem", PoigneeFrom: "poignee",
            PetitSecDecision: "petit_sec", Play: "card"}


def decision_kind(observation: Observation) -> str:
    """What the seat is asked to decide: one of ``DECISION_KINDS`` (a poignée offer beats the card)."""
    legal = observation.legal
    if any(type(a) is PoigneeFrom for a in legal):
        return "poignee"
    return _KIND_OF.get(type(legal[0]), "other")


@dataclass(slots=True)
class Game:
    """One playing of a deal: scores, who took, and the decision times of the watched seat."""

    scores: list[int]
    taker: int | None
    partner: int | None
    contract: str | None
    made: bool | None
    void: str | None
    times: list[float] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)

    def role(self, seat: int) -> str:
        if self.void:
            return "void"
        if seat == self.taker:
            return "taker"
        if seat == self.partner:
            return "partner"
        return "defender"


def deal_seed(seed: str, index: int) -> str:
    return f"{seed}/deal/{index}"


def play_game(
    rules: RuleSet,
    dealer: int,
    seed: str,
    levels: list[str],
    budget: float | None = None,
    watch: int | None = None,
) -> Game:
    """Play one deal with robots of ``levels`` (one per seat); time ``watch``'s decisions."""
    deal = new_deal(rules, dealer, seed)
    bots = [make_bot(level, f"{seed}/seat/{s}/{level}") for s, level in enumerate(levels)]
    times: list[float] = []
    kinds: list[str] = []
    while (seat := deal.to_act) is not None:  # None once the deal is over
        obs = deal.observation(seat)
        start = time.perf_counter()
        action = bots[seat].choose(obs, budget)
        elapsed = time.perf_counter() - start
        if seat == watch:
            times.append(elapsed)
            kinds.append(decision_kind(obs))
        deal.apply(action, seat=seat)
    r = deal.result
    assert r is not None
    return Game(list(r.scores), r.taker, r.partner, r.contract, r.made, r.void, times, kinds)


def play_duplicate(
    players: int,
    candidate: str,
    baseline: str,
    seed: str,
    index: int,
    budget: float | None = None,
) -> dict:
    """Deal ``index``: once all-baseline, then the candidate in each seat in turn.

    Returns a JSON-ready record with, per seat, the candidate's score, the
    baseline's score in that seat, their difference, the roles, and the
    candidate's decision times with their kinds (``DECISION_KINDS``).
    """
    rules = RuleSet(players)
    dealer = index % players
    dseed = deal_seed(seed, index)
    base = play_game(rules, dealer, dseed, [baseline] * players, budget)
    seats = []
    for seat in range(players):
        levels = [baseline] * players
        levels[seat] = candidate
        game = play_game(rules, dealer, dseed, levels, budget, watch=seat)
        seats.append(
            {
                "seat": seat,
                "candidate": game.scores[seat],
                "baseline": base.scores[seat],
                "diff": game.scores[seat] - base.scores[seat],
                "role": game.role(seat),
                "baseline_role": base.role(seat),
                "made": game.made,
                "baseline_made": base.made,
                "contract": game.contract,
                "times": [round(t, 6) for t in game.times],
                "kinds": game.kinds,
            }
        )
    return {
        "index": index,
        "seed": dseed,
        "dealer": dealer,
        "baseline_scores": base.scores,
        "baseline_contract": base.contract,
        "seats": seats,
    }
