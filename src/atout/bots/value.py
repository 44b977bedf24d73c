"""A learned value of a position, compiled: the end of a card's rollout (issue 25's design (b)).

The card search plays each candidate in each world by the rules of thumb to the end of the deal
(``fastplay.card_values``), so it values the candidate as if every seat then played like a club
player.  Here each candidate is played only to the end of its trick in each world (the others'
cards by the rules of thumb, as in the rollouts), and the position there is valued by a small
network trained on the outcomes of deals the expert played (``atout.training.value_data``): it
predicts, from what the searching seat itself can see there (``features``: its hand, the cards it
has not seen, the piles, the voids shown, who is who, the contract), the deal's result for the
taker's side, which the seat's role turns into its own score.  A deal's last trick is scored
exactly.

The network is ``u = w3 · relu(W2 relu(W1 x + b1) + b2) + b3`` on the features standardised by the
training set's mean and spread; inference is plain numba over the packed state (and
``forward_numpy`` for the tests); the weights ship in the package (``weights/value.npz``, tens of
kB) and are read once.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
from numba import njit

from .fastplay import (
    ACTIVE,
    BONUS,
    CALLED,
    CHELEM,
    EXTRA_HI,
    EXTRA_LO,
    FRIENDS,
    HAND_HI,
    HAND_LO,
    HAND_SIZE,
    HI_BOUTS,
    HI_TRUMPS,
    KNOWN_HI,
    KNOWN_LO,
    MULT,
    NEXT,
    NTRICKS,
    PARTNER,
    PETIT_SIDE,
    PILE0_HI,
    PILE0_LO,
    PILE1_HI,
    PILE1_LO,
    REVEALED,
    SIDE,
    TAKER,
    TLEN,
    TO_ACT,
    UNSEEN_HI,
    UNSEEN_LO,
    VOIDS,
    WON0,
    WON1,
    _known_friends,
    _note_void,
    half_points,
    play,
    play_out,
    popcount,
    rules_card,
    score_for,
)

NV = 78 + 78 + 3 + 4 + 4 * 8 + 5 + 16
"""Features of a position seen from one seat (see ``features``)."""
WEIGHTS = Path(__file__).parent / "weights" / "value.npz"
_MULTS = (1, 2, 4, 6)


@njit(cache=True)
def _bits(lo: int, hi: int, x, at: int) -> None:
    for c in range(56):
        if (lo >> c) & 1:
            x[at + c] = 1.0
    for c in range(22):
        if (hi >> c) & 1:
            x[at + 56 + c] = 1.0


@njit(cache=True)
def role_factor(st, me: int) -> int:
    """What one point of the taker's side's result ``u`` is worth to ``me`` (``score_for``'s factor)."""
    if st[SIDE + me] < 0:
        return 0
    if me == st[TAKER]:
        if st[PARTNER] >= 0:
            return 2
        return st[ACTIVE] - 1
    if me == st[PARTNER]:
        return 1
    return -1


@njit(cache=True)
def features(st, me: int, x) -> None:
    """The position of the packed ``st`` (between two tricks) as ``me`` sees it, into ``x`` (``NV``).

    0-77 ``me``'s hand; 78-155 the cards it has not seen (in the others' hands, or an écart or dog
    it has not seen); 156-158 its role (taker, partner, defender); 159-162 the contract; then for
    each other seat in playing order after ``me`` (up to four, 8 each): taker, a known ally, seated
    at this deal, its five voids shown (four suits, trumps); then who leads next (5, by distance
    from ``me``); then 16 numbers: tricks played and left, the points and bouts in each side's pile
    (the taker's écart counted only by the taker), the tricks each side won, ``me``'s trumps and the
    trumps out, the Petit's fate, the poignées' bonus, a chelem announced, the player count, and 1
    (the continuation is the expert's: ``value_data`` writes 0 there for deals other levels played).
    """
    x[:] = 0.0
    h_lo = st[HAND_LO + me]
    h_hi = st[HAND_HI + me]
    _bits(h_lo, h_hi, x, 0)
    out_lo = st[UNSEEN_LO] & ~h_lo & ~st[KNOWN_LO + me]
    out_hi = st[UNSEEN_HI] & ~h_hi & ~st[KNOWN_HI + me]
    _bits(out_lo, out_hi, x, 78)
    taker = st[TAKER]
    partner = st[PARTNER]
    if me == taker:
        x[156] = 1.0
    elif me == partner:
        x[157] = 1.0
    else:
        x[158] = 1.0
    for i in range(4):
        if st[MULT] == _MULTS[i]:
            x[159 + i] = 1.0
    hidden = st[CALLED] >= 0 and not st[REVEALED]
    friends = _known_friends(st, me) if hidden else st[FRIENDS + me]
    n = st[ACTIVE]
    s = st[NEXT + me]
    at = 163
    lead = st[TO_ACT]
    for k in range(1, n):
        if s == taker:
            x[at] = 1.0
        if (friends >> s) & 1:
            x[at + 1] = 1.0
        x[at + 2] = 1.0
        v = st[VOIDS + s]
        for b in range(5):
            if (v >> b) & 1:
                x[at + 3 + b] = 1.0
        if s == lead:
            x[195 + k] = 1.0
        at += 8
        s = st[NEXT + s]
    if lead == me:
        x[195] = 1.0
    at = 200
    size = st[HAND_SIZE]
    x[at] = st[NTRICKS] / size
    x[at + 1] = (size - st[NTRICKS]) / 24.0
    t_lo = st[PILE0_LO]
    t_hi = st[PILE0_HI]
    if me == taker:
        t_lo |= st[EXTRA_LO]
        t_hi |= st[EXTRA_HI]
    x[at + 2] = half_points(t_lo, t_hi) / 182.0
    x[at + 3] = half_points(st[PILE1_LO], st[PILE1_HI]) / 182.0
    x[at + 4] = popcount(t_hi & HI_BOUTS)
    x[at + 5] = popcount(st[PILE1_HI] & HI_BOUTS)
    x[at + 6] = st[WON0] / size
    x[at + 7] = st[WON1] / size
    x[at + 8] = popcount(h_hi & HI_TRUMPS) / 21.0
    x[at + 9] = popcount(out_hi & HI_TRUMPS) / 21.0
    if st[PETIT_SIDE] == 0:
        x[at + 10] = 1.0
    elif st[PETIT_SIDE] == 1:
        x[at + 11] = 1.0
    x[at + 12] = st[BONUS] / 100.0
    x[at + 13] = st[CHELEM]
    x[at + 14] = n / 5.0
    x[at + 15] = 1.0


@njit(cache=True)
def forward(x, mean, scale, w1, b1, w2, b2, w3, b3: float) -> float:
    """The network's ``u`` for the features ``x`` (compiled; ``forward_numpy`` is the same)."""
    n1 = w1.shape[0]
    n2 = w2.shape[0]
    z = (x - mean) * scale
    h1 = np.empty(n1)
    for j in range(n1):
        a = b1[j]
        for i in range(len(z)):
            a += w1[j, i] * z[i]
        h1[j] = a if a > 0.0 else 0.0
    u = b3
    for j in range(n2):
        a = b2[j]
        for i in range(n1):
            a += w2[j, i] * h1[i]
        if a > 0.0:
            u += w3[j] * a
    return u


def forward_numpy(x: np.ndarray, net: Value) -> np.ndarray:
    """``forward`` for a batch of feature rows, in numpy."""
    z = (x - net.mean) * net.scale
    h1 = np.maximum(z @ net.w1.T + net.b1, 0.0)
    h2 = np.maximum(h1 @ net.w2.T + net.b2, 0.0)
    return h2 @ net.w3 + net.b3


@njit(cache=True)
def leaf_value(st, me: int, x, mean, scale, w1, b1, w2, b2, w3, b3: float) -> float:
    """``me``'s score of the packed ``st`` between two tricks: exact once the deal is over, else the
    network's ``u`` times ``me``'s share."""
    if st[NTRICKS] >= st[HAND_SIZE]:
        return float(score_for(st, me))
    features(st, me, x)
    return role_factor(st, me) * forward(x, mean, scale, w1, b1, w2, b2, w3, b3)


@njit(cache=True, nogil=True)
def card_values_value(st, me: int, cards, out, mix: float, mean, scale, w1, b1, w2, b2, w3, b3: float) -> None:
    """``me``'s score after each card of ``cards`` (``me`` to act): its trick finished by the rules of
    thumb, then the position valued (``leaf_value``), rounded to a point: ``out[i]``.  ``mix`` below 1
    blends in the rules of thumb's play-out from there (``fastplay.card_values``' score), weighing
    the value ``mix`` and the play-out ``1 - mix``."""
    work = np.empty_like(st)
    x = np.empty(NV)
    for i in range(len(cards)):
        work[:] = st
        _note_void(work, me, cards[i])
        play(work, cards[i])
        while work[TLEN] != 0:
            seat = work[TO_ACT]
            card = rules_card(work)
            _note_void(work, seat, card)
            play(work, card)
        v = leaf_value(work, me, x, mean, scale, w1, b1, w2, b2, w3, b3)
        if mix < 1.0:
            v = mix * v + (1.0 - mix) * play_out(work, me)
        out[i] = round(v)


class Value:
    """The network's arrays (float64, C order) as ``forward`` takes them."""

    def __init__(self, mean, scale, w1, b1, w2, b2, w3, b3) -> None:
        self.mean, self.scale = mean, scale
        self.w1, self.b1, self.w2, self.b2, self.w3 = w1, b1, w2, b2, w3
        self.b3 = float(b3)

    @classmethod
    def read(cls, path: Path | str) -> Value:
        with np.load(path) as z:
            arrays = [np.ascontiguousarray(z[k], dtype=np.float64)
                      for k in ("mean", "scale", "w1", "b1", "w2", "b2", "w3")]
            b3 = float(z["b3"])
        if arrays[0].shape != (NV,) or arrays[2].shape[1] != NV:
            raise ValueError(f"{path}: weights for {arrays[2].shape[1]} features, not {NV}")
        mean, scale, w1, b1, w2, b2, w3 = arrays
        return cls(mean, scale, w1, b1, w2, b2, w3, b3)

    @property
    def args(self) -> tuple:
        return (self.mean, self.scale, self.w1, self.b1, self.w2, self.b2, self.w3, self.b3)


@functools.cache
def load() -> Value:
    """The value shipped with the package (read once)."""
    return Value.read(WEIGHTS)


def value_card_values(mix: float = 1.0):
    """``fastplay.card_values``' signature, the shipped value at each trick's end (blended ``mix``)."""
    args = load().args

    def score(st, me: int, cards, out) -> None:
        card_values_value(st, me, cards, out, float(mix), *args)
    return score
