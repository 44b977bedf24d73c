"""Why the search prefers a choice, in its own figures: the reasons a hint gives and the analysis shows.

A search (``expert.score_worlds``) plays every candidate out in the same worlds; ``reasons`` reads
that result and says, as data, why one candidate beats another: what it wins on average over the
worlds searched (with the paired 95% interval, so a difference the search cannot tell from noise is
said to be one), and then the one other figure that differs most between the two — the chance the
Petit ends with the seat's side, the chance the seat's side wins the deal, or (an écart) the suit it
empties that the other keeps.  Every number and the choice of which reason to give come from the
search; the sentences are the clients' (the page's ``hint.js``, the terminal's catalogues), which
word each ``Reason`` by its kind.  The terminal's hint, the site's hint and the analysis all call this
one function, so the three can never explain a choice differently.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..engine import Discard
from ..engine.cards import SUIT_MASKS, SUITS

Z95 = 1.96
EVEN = 0.5
"""Two choices whose means differ by less than this (points) are said to be as good as each other."""
TELLING = 0.08
"""A chance (of the Petit, of winning the deal) said only when it differs by this much between the two."""


class ReasonKind(StrEnum):
    """What a reason says; each client has one sentence a kind, its figures put in."""

    GAIN = "gain"  # wins ``gain`` points on average over ``worlds`` worlds against ``other``, surely (interval above 0)
    NOISE = "noise"  # ahead by ``gain``, but the interval holds 0: within the search's noise
    EVEN = "even"  # as good as ``other``
    PETIT = "petit"  # the Petit ends with the seat's side in ``chance`` of the worlds, ``other_chance`` after ``other``
    WINS = "wins"  # the seat's side wins the deal in ``chance`` of the worlds, ``other_chance`` after ``other``
    VOIDS = "voids"  # the écart empties ``suits``, which ``other`` keeps
    ONLY = "only"  # the only choice (no search)


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason: its kind and its figures (``other`` is the action it is compared with)."""

    kind: ReasonKind
    other: Any = None
    figures: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Figures:
    """What a search found, as reasons read it: the candidates, each world's score for each (bonus apart),
    the worlds' weights, each candidate's bonus (the expert's edges), where the Petit ended (a card's
    search, while the Petit is still to fall: else None), whether the seat's side is known (the deal is
    being played) and the seat's hand (an écart's voids)."""

    actions: Sequence[Any]
    values: Sequence[Sequence[int]]
    weights: Sequence[float]
    bonus: Sequence[float]
    petit: Sequence[Sequence[int]] | None = None
    sides: bool = False
    hand: int = 0

    def mean(self, i: int) -> float:
        total = sum(self.weights)
        return sum(w * row[i] for row, w in zip(self.values, self.weights, strict=True)) / total + self.bonus[i]

    def chance(self, rows: Sequence[Sequence[int]], i: int, test: Any) -> float:
        """The weighted share of the worlds where ``test`` holds of candidate ``i``'s figure."""
        total = sum(self.weights)
        return sum(w for row, w in zip(rows, self.weights, strict=True) if test(row[i])) / total


def paired_interval(diffs: Sequence[float], weights: Sequence[float], mean: float) -> tuple[float, float]:
    """A 95% interval for the weighted mean ``mean`` of the per-world differences ``diffs`` (normal
    approximation, with the weights' effective number of worlds): the analysis's, and the reasons'."""
    total = sum(weights)
    n_eff = total * total / sum(w * w for w in weights)
    if n_eff <= 1.0:
        return (mean, mean)
    var = sum(w * (d - mean) ** 2 for d, w in zip(diffs, weights, strict=True)) / total
    half = Z95 * math.sqrt(var / (n_eff - 1.0))
    return (mean - half, mean + half)


def runner_up(fig: Figures, chosen: int) -> int:
    """The best candidate other than ``chosen`` by mean (the first on a tie)."""
    rest = [i for i in range(len(fig.actions)) if i != chosen]
    return max(rest, key=lambda i: (fig.mean(i), -i))


def reasons(fig: Figures, chosen: int, against: int | None = None) -> list[Reason]:
    """Why candidate ``chosen`` rather than ``against`` (default: the next best): one or two reasons."""
    if len(fig.actions) < 2:
        return [Reason(ReasonKind.ONLY)]
    if against is None:
        against = runner_up(fig, chosen)
    other = fig.actions[against]
    gain = fig.mean(chosen) - fig.mean(against)
    extra = fig.bonus[chosen] - fig.bonus[against]
    diffs = [row[chosen] - row[against] + extra for row in fig.values]
    low, high = paired_interval(diffs, fig.weights, gain)
    worlds = len(fig.weights)
    numbers = {"gain": round(gain, 1), "low": round(low, 1), "high": round(high, 1), "worlds": worlds}
    if abs(gain) < EVEN:
        first = Reason(ReasonKind.EVEN, other, {"worlds": worlds})
    elif low > 0 or high < 0:
        first = Reason(ReasonKind.GAIN, other, numbers)
    else:
        first = Reason(ReasonKind.NOISE, other, numbers)
    out = [first]
    second = _telling(fig, chosen, against)
    if second is not None:
        out.append(second)
    return out


def _telling(fig: Figures, chosen: int, against: int) -> Reason | None:
    """The figure besides the mean that differs most between the two candidates, if one differs enough."""
    other = fig.actions[against]
    found: list[tuple[float, Reason]] = []
    if fig.petit is not None:
        mine, theirs = (fig.chance(fig.petit, i, lambda v: v == 1) for i in (chosen, against))
        if abs(mine - theirs) >= TELLING:
            found.append(
                (
                    abs(mine - theirs),
                    Reason(ReasonKind.PETIT, other, {"chance": round(100 * mine), "other_chance": round(100 * theirs)}),
                )
            )
    if fig.sides:
        mine, theirs = (fig.chance(fig.values, i, lambda v: v > 0) for i in (chosen, against))
        if abs(mine - theirs) >= TELLING:
            found.append(
                (
                    abs(mine - theirs),
                    Reason(ReasonKind.WINS, other, {"chance": round(100 * mine), "other_chance": round(100 * theirs)}),
                )
            )
    if found:
        return max(found, key=lambda f: f[0])[1]
    a, b = fig.actions[chosen], other
    if type(a) is Discard and type(b) is Discard:
        voids = [
            s
            for s in range(4)
            if fig.hand & SUIT_MASKS[s]
            and not fig.hand & ~a.cards & SUIT_MASKS[s]
            and fig.hand & ~b.cards & SUIT_MASKS[s]
        ]
        if voids:
            return Reason(ReasonKind.VOIDS, other, {"suits": [SUITS[s] for s in voids]})
    return None


def reason_json(reason: Reason, action_json: Any) -> dict[str, Any]:
    """A reason as the page reads it: its kind, its figures, and the action it is compared with
    (``action_json`` writes it in the record's form)."""
    out: dict[str, Any] = {"kind": str(reason.kind), **reason.figures}
    if reason.other is not None:
        out["other"] = action_json(reason.other)
    return out


__all__ = ["Figures", "Reason", "ReasonKind", "paired_interval", "reason_json", "reasons", "runner_up"]
