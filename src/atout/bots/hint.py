"""The hint: the expert's choice for the seat to act, and why, asked exactly as the analysis asks it.

A hint is the analysis of a decision not yet taken (``analysis.search_point`` with no action taken):
the same candidates, the same number of worlds, drawn from the same generator (the analysis seed, the
seat, the decision's place in the deal and its kind), so that the choice a hint gives is the one the
analysis of the finished deal finds best, and following it is never marked (issue 46; measured in
``benchmarks/hint_agreement.py``).  Its reasons are ``reasons``' figures of that search.  Only the
seat's observation goes in: a hint knows what the seat knows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import Bid, Call, Chelem, DiscardFrom, Observation, PetitSecDecision, Play, PoigneeFrom
from ..engine.actions import PLAYS
from ..engine.kinds import DecisionKind
from .analysis import WORLDS_FACTOR, Point, action_json, search_point
from .expert import NO_POIGNEE, equivalent_cards
from .knowledge import infer
from .reasons import Reason, ReasonKind, reason_json, reasons

HINT_SECONDS = 4.0
"""The most a hint searches (seconds of one thread): at 8 times the expert's worlds it takes 0.1 to 0.4 s
on an idle core, so only a loaded machine cuts it short, with fewer worlds (its reasons say how many)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The expert's choice (a hidden poignée's card comes with ``hidden_poignee``), its reasons and the
    worlds searched (0: no search, the only choice)."""

    action: Any
    reasons: tuple[Reason, ...]
    worlds: int
    hidden_poignee: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "action": action_json(self.action),
            "reasons": [reason_json(r, action_json) for r in self.reasons],
            "worlds": self.worlds,
            "poignee_hidden": self.hidden_poignee,
        }


def _kind(obs: Observation) -> DecisionKind:
    kinds = {
        Bid: DecisionKind.BID,
        Call: DecisionKind.CALL,
        DiscardFrom: DecisionKind.ECART,
        Chelem: DecisionKind.CHELEM,
        PetitSecDecision: DecisionKind.PETIT_SEC,
        Play: DecisionKind.CARD,
    }
    if any(type(a) is PoigneeFrom for a in obs.legal):
        return DecisionKind.POIGNEE
    return kinds[type(obs.legal[0])]


def _forced(obs: Observation) -> Any:
    """The one choice there is (or, among cards all alike, the first)."""
    plays = [a for a in obs.legal if type(a) is Play]
    if plays:
        legal = 0
        for a in plays:
            legal |= 1 << a.card
        return PLAYS[equivalent_cards(legal, infer(obs).unseen)[0]]
    return obs.legal[0]


def hint(
    obs: Observation,
    index: int,
    seed: str = "analysis",
    factor: int = WORLDS_FACTOR,
    seconds: float | None = HINT_SECONDS,
) -> Hint:
    """The hint for ``obs.seat``, to act at the deal's ``index``-th action (its record's place): the
    analysis's best choice there (analysis ``seed`` and ``factor``: the site's and the terminal's own),
    with its reasons.  ``seconds`` None: no time limit (deterministic)."""
    seat = obs.seat
    if seat is None or not obs.legal or obs.to_act != seat:
        raise ValueError("a hint is for the seat to act")
    kind = _kind(obs)
    hidden = False
    if kind is DecisionKind.POIGNEE:
        shown = _search(Point(seat, index, kind, obs, None), seed, factor, seconds)
        if shown is not None and shown.action is not NO_POIGNEE:
            return shown
        hidden = True
        kind = DecisionKind.CARD
    found = _search(Point(seat, index, kind, obs, None), seed, factor, seconds)
    if found is None:
        return Hint(_forced(obs), (Reason(ReasonKind.ONLY),), 0, hidden)
    return Hint(found.action, found.reasons, found.worlds, hidden)


def _search(point: Point, seed: str, factor: int, seconds: float | None) -> Hint | None:
    searched = search_point(point, seed, factor, seconds)
    if searched is None:
        return None
    means = searched.means
    best = max(range(len(means)), key=lambda i: (means[i], -i))
    return Hint(searched.plan.actions[best], tuple(reasons(searched.figures, best)), len(searched.figures.weights))


__all__ = ["HINT_SECONDS", "Hint", "hint"]
