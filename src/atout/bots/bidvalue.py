"""A learned taker's edge for the bid (issue 25): what the expert makes as taker beyond its rollouts.

The bid search plays each contract out in its worlds by the rules of thumb, whose taker makes fewer
contracts than the expert at the table; ``expert.TAKER_EDGE`` adds a hand-tuned constant per unit
of multiplier for that.  Here the edge is learned per hand: a ridge regression, on the bidding
seat's hand (``hand_features``) and the search's own means for passing and for Garde, of what the
expert then scored bidding Garde (``atout.training.bid_data``) minus the search's Garde mean, halved
(Garde's multiplier): points per unit of multiplier, as ``TAKER_EDGE``.  Inference is a dot product
in numpy; the weights ship in ``weights/bidvalue.npz`` (a few hundred bytes) and are read once.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from ..engine import GARDE, GARDE_CONTRE, GARDE_SANS, PASS, PRISE
from ..engine.cards import EXCUSE_BIT, HALF_POINTS, KINGS, PETIT_BIT, SUIT_MASKS, TRUMPS, cards_of
from .tactics import HIGH_TRUMPS, T21_BIT, hand_strength

CONTRACTS = (PASS, PRISE, GARDE, GARDE_SANS, GARDE_CONTRE)
"""The contracts of a bid search's means, in this order."""
WEIGHTS = Path(__file__).parent / "weights" / "bidvalue.npz"
EDGE_RANGE = (-50.0, 150.0)
"""The learned edge is clipped to this range (points per unit of multiplier)."""
QUEENS = sum(1 << (14 * s + 12) for s in range(4))
KNIGHTS = sum(1 << (14 * s + 11) for s in range(4))
HAND_NAMES = ("trumps", "high trumps", "petit", "21", "excuse", "bouts", "kings", "queens", "knights",
              "longest suit", "second suit", "third suit", "shortest suit", "voids", "singletons",
              "points", "club count", "bid position", "a bid before", "trumps x bouts")
NAMES = (*HAND_NAMES, "search mean pass", "search mean garde")


def hand_features(hand: int, players: int, position: int, before: int) -> np.ndarray:
    """The bidding hand as ``HAND_NAMES`` lists it: its trumps, bouts, honours, suit shape and points,
    the club count (``tactics.hand_strength``), the seat's place in the bidding (0 first) and whether a
    contract was bid before it."""
    trumps = (hand & TRUMPS).bit_count()
    lengths = sorted(((hand & m).bit_count() for m in SUIT_MASKS), reverse=True)
    bouts = bool(hand & PETIT_BIT) + bool(hand & T21_BIT) + bool(hand & EXCUSE_BIT)
    return np.array([
        trumps, (hand & HIGH_TRUMPS).bit_count(), bool(hand & PETIT_BIT), bool(hand & T21_BIT),
        bool(hand & EXCUSE_BIT), bouts, (hand & KINGS).bit_count(), (hand & QUEENS).bit_count(),
        (hand & KNIGHTS).bit_count(), *lengths, lengths.count(0), lengths.count(1),
        sum(HALF_POINTS[c] for c in cards_of(hand)) / 2.0, hand_strength(hand, players), position,
        float(before != PASS), trumps * bouts], dtype=np.float64)


def row(hand_x: np.ndarray, means: np.ndarray) -> np.ndarray:
    """The model's input: the hand's features and the search's means for passing and Garde (hundreds)."""
    return np.concatenate([hand_x, [means[0] / 100.0, means[CONTRACTS.index(GARDE)] / 100.0]])


class BidEdge:
    """The ridge regression's arrays: ``edge = ((x - mean) * scale) · coef + bias``."""

    def __init__(self, mean: np.ndarray, scale: np.ndarray, coef: np.ndarray, bias: float) -> None:
        self.mean, self.scale, self.coef, self.bias = mean, scale, coef, float(bias)

    @classmethod
    def read(cls, path: Path | str) -> BidEdge:
        with np.load(path) as z:
            mean, scale, coef = (np.asarray(z[k], dtype=np.float64) for k in ("mean", "scale", "coef"))
            bias = float(z["bias"])
        if coef.shape != (len(NAMES),) or mean.shape != coef.shape or scale.shape != coef.shape:
            raise ValueError(f"{path}: weights for {coef.shape} features, not {len(NAMES)}")
        return cls(mean, scale, coef, bias)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The raw edge (points per unit of multiplier) of each row of ``x`` (``row``'s), unclipped."""
        return ((x - self.mean) * self.scale) @ self.coef + self.bias

    def edge(self, hand: int, players: int, position: int, before: int, means: np.ndarray) -> float:
        """The clipped edge of one bidding hand whose search gave ``means`` (``CONTRACTS``' order)."""
        x = row(hand_features(hand, players, position, before), means)
        return float(np.clip(self.predict(x[None, :])[0], *EDGE_RANGE))


@functools.cache
def load() -> BidEdge:
    """The edge shipped with the package (read once)."""
    return BidEdge.read(WEIGHTS)
