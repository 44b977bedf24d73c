"""A learned card policy, compiled: the expert's own later cards in its rollouts.

The rollouts (``fastplay.play_out``) play every seat by the club rules of thumb, so the search
values each candidate card as if the seat then played like a club player; the expert plays better
than that.  This policy is a small network trained on the expert's searched card choices
(``generate``, ``train``): each legal card of the seat to act is described by ``NF`` numbers the seat
itself can see (its hand, the trick, the cards gone, the voids shown, its known allies, and the
rules of thumb's card), scored by ``score = w2 · relu(W1 x + b1) + v · x``, and the best score is
played.  Inference is plain numba over the packed state; the weights are ``weights/policy.npz``
(8 kB), loaded once.  Research, not shipped (research/README.md): the expert's switch that put it in
its rollouts (``expert.ROLLOUT_POLICY``) was taken out with the measurement that it gains nothing.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import numpy as np
from numba import njit

from atout.bots.fastplay import (
    ACTIVE,
    CALLED,
    FRIENDS,
    HAND_HI,
    HAND_LO,
    HAND_SIZE,
    HI_TRUMPS,
    KNOWN_HI,
    KNOWN_LO,
    MULT,
    NEXT,
    NTRICKS,
    PARTNER,
    REVEALED,
    SUIT_LO,
    TAKER,
    TLEN,
    TO_ACT,
    TRICK_CARD,
    TRICK_SEAT,
    UNSEEN_HI,
    UNSEEN_LO,
    VOIDS,
    _known_friends,
    _note_void,
    club_card,
    exact,
    highest,
    legal_cards,
    lowest,
    play,
    popcount,
    score_for,
)
from atout.bots.heuristic import HeuristicBot
from atout.bots.sampling import NoWorld, weighted_states
from atout.engine import Play
from atout.engine.actions import PLAYS
from atout.engine.cards import EXCUSE, PETIT

NF = 48
"""Features per legal card (see ``card_features``)."""
NCTX = 16
"""The first ``NCTX`` features describe the position, not the card: the same for every candidate."""
WEIGHTS = Path(__file__).parent / "weights" / "policy.npz"
HALF_PTS = np.array([1] * 10 + [3, 5, 7, 9], dtype=np.int64)


@njit(cache=True)
def _view(st, seat: int):
    """What ``seat`` knows at its turn: its allies and the cards it has not seen (``rules_card``'s)."""
    hidden = st[CALLED] >= 0 and not st[REVEALED]
    friends = _known_friends(st, seat) if hidden else st[FRIENDS + seat]
    out_lo = st[UNSEEN_LO] & ~st[HAND_LO + seat] & ~st[KNOWN_LO + seat]
    out_hi = st[UNSEEN_HI] & ~st[HAND_HI + seat] & ~st[KNOWN_HI + seat]
    return friends, out_lo, out_hi


@njit(cache=True)
def _card_points(c: int) -> int:
    if c >= 56:
        return 9 if c in (PETIT, 76, EXCUSE) else 1
    return HALF_PTS[c % 14]


@njit(cache=True)
def card_features(st, seat: int, card: int, rules: int, friends: int, out_lo: int, out_hi: int, row) -> None:
    """The ``NF`` numbers describing ``card`` for ``seat`` to act in ``st`` (its own view only)."""
    for i in range(NF):
        row[i] = 0.0
    n = st[ACTIVE]
    taker = st[TAKER]
    tlen = st[TLEN]
    h_lo = st[HAND_LO + seat]
    h_hi = st[HAND_HI + seat]
    # The trick so far: the suit led, the winner, the points.
    led = -1
    win_seat = -1
    best_key = -1
    pts = 0
    for i in range(tlen):
        c = st[TRICK_CARD + i]
        pts += _card_points(c)
        if c == EXCUSE:
            if win_seat < 0:
                win_seat = st[TRICK_SEAT + i]
            continue
        if led < 0:
            led = 4 if c >= 56 else c // 14
        key = 100 + c if c >= 56 else (c if c // 14 == led else -1)
        if key > best_key:
            win_seat = st[TRICK_SEAT + i]
            best_key = key
    enemies_after = False
    s = seat
    for _ in range(n - tlen - 1):
        s = st[NEXT + s]
        if not (friends >> s) & 1:
            enemies_after = True
    friend_wins = win_seat >= 0 and (friends >> win_seat) & 1 == 1
    out_trumps = out_hi & HI_TRUMPS
    my_trumps = h_hi & HI_TRUMPS
    row[n - 3] = 1.0
    if seat == taker:
        row[3] = 1.0
    elif seat == st[PARTNER]:
        row[4] = 1.0
    else:
        row[5] = 1.0
    if tlen == 0:
        row[6] = 1.0
    if tlen == n - 1:
        row[7] = 1.0
    row[8] = tlen / (n - 1)
    row[9] = st[NTRICKS] / st[HAND_SIZE]
    row[10] = popcount(my_trumps) / 10.0
    row[11] = popcount(out_trumps) / 21.0
    row[12] = pts / 20.0
    row[13] = 1.0 if friend_wins else 0.0
    row[14] = 1.0 if enemies_after else 0.0
    row[15] = st[MULT] / 6.0
    row[16] = 1.0 if card == rules else 0.0
    # The card itself.
    p = _card_points(card)
    if card == EXCUSE:
        row[28] = 1.0
    elif card == PETIT:
        row[26] = 1.0
    elif card == 76:
        row[27] = 1.0
    elif card >= 56:
        t = card - 55
        row[23 if t <= 10 else (24 if t <= 16 else 25)] = 1.0
    else:
        r = card % 14
        row[17 + (0 if r < 10 else r - 9)] = 1.0  # 17 low, 18 jack, 19 knight, 20 queen, 21 king
        if r < 5:
            row[22] = 1.0  # very low (1-5)
    row[29] = p / 9.0
    # Does it win the trick as it stands, is it the highest left of its kind.
    wins = False
    if tlen > 0 and card != EXCUSE:
        if card >= 56:
            wins = best_key < 100 + card
        elif led < 0:  # only the Excuse so far: this card leads the suit
            wins = True
        elif card // 14 == led:
            wins = card > best_key
    master = False
    if card < 56:
        master = (out_lo & SUIT_LO[card // 14]) >> (card + 1) == 0
        mine = h_lo & SUIT_LO[card // 14]
        row[36] = popcount(mine) / 14.0
        row[37] = popcount(out_lo & SUIT_LO[card // 14]) / 14.0
        if seat != taker and (st[VOIDS + taker] >> (card // 14)) & 1:
            row[38] = 1.0
        if st[CALLED] >= 0 and st[CALLED] < 56 and st[CALLED] // 14 == card // 14:
            row[43] = 1.0
    elif card != EXCUSE:
        master = out_trumps >> (card - 55) == 0
        row[36] = popcount(my_trumps) / 21.0
        row[37] = popcount(out_trumps) / 21.0
    row[30] = 1.0 if wins else 0.0
    row[31] = 1.0 if master else 0.0
    if tlen == 0 or led < 0:
        row[35] = 1.0
        if 56 <= card < EXCUSE:
            if seat == taker:
                row[44] = 1.0
            else:
                row[45] = 1.0
    elif card < 56 and card // 14 == led:
        row[32] = 1.0
    elif 56 <= card < EXCUSE:
        row[33] = 1.0
    elif card < 56:
        row[34] = 1.0
    fw = 1.0 if friend_wins else 0.0
    ea = 1.0 if enemies_after else 0.0
    row[39] = p / 9.0 * fw
    row[40] = p / 9.0 * ea
    row[41] = (pts / 20.0) if wins else 0.0
    row[42] = ea if wins else 0.0
    row[46] = p / 9.0 if master else 0.0
    # Trumps: the Petit's danger and the highest trump held.
    if card == PETIT:
        row[47] = popcount(out_trumps) / 21.0
    elif 56 <= card < EXCUSE and my_trumps:
        row[47] = 1.0 if card == 56 + highest(my_trumps) else 0.0


@njit(cache=True)
def policy_card(st, w1, b1, w2, v) -> int:
    """The policy's card for the seat to act in ``st``."""
    seat = st[TO_ACT]
    l_lo, l_hi = legal_cards(st, seat)
    if popcount(l_lo) + popcount(l_hi) == 1:
        return lowest(l_lo) if l_lo else 56 + lowest(l_hi)
    friends, out_lo, out_hi = _view(st, seat)
    rules = club_card(st, seat, l_lo, l_hi, friends, out_lo, out_hi)
    x = np.empty(NF)
    nh = b1.shape[0]
    ctx = np.empty(nh)
    best = rules
    best_s = -1e300
    first = True
    for word in range(2):
        m = l_lo if word == 0 else l_hi
        while m:
            c = lowest(m) + 56 * word
            m &= m - 1
            card_features(st, seat, c, rules, friends, out_lo, out_hi, x)
            if first:
                # The position's share of each hidden unit, once for every candidate.
                first = False
                for j in range(nh):
                    a = b1[j]
                    for i in range(NCTX):
                        if x[i] != 0.0:
                            a += x[i] * w1[i, j]
                    ctx[j] = a
            sc = 0.0
            for j in range(nh):
                a = ctx[j]
                for i in range(NCTX, NF):
                    if x[i] != 0.0:
                        a += x[i] * w1[i, j]
                if a > 0.0:
                    sc += a * w2[j]
            for i in range(NCTX, NF):
                sc += x[i] * v[i]
            if sc > best_s:
                best, best_s = c, sc
    return best


@njit(cache=True)
def rules_or_policy(st, mask: int, w1, b1, w2, v) -> int:
    seat = st[TO_ACT]
    if (mask >> seat) & 1:
        return policy_card(st, w1, b1, w2, v)
    l_lo, l_hi = legal_cards(st, seat)
    friends, out_lo, out_hi = _view(st, seat)
    return club_card(st, seat, l_lo, l_hi, friends, out_lo, out_hi)


@njit(cache=True, nogil=True)
def play_out_policy(st, me: int, mask: int, w1, b1, w2, v) -> int:
    """``fastplay.play_out`` with the seats of ``mask`` playing the policy's cards."""
    while st[NTRICKS] < st[HAND_SIZE]:
        seat = st[TO_ACT]
        card = rules_or_policy(st, mask, w1, b1, w2, v)
        _note_void(st, seat, card)
        play(st, card)
    return score_for(st, me)


@njit(cache=True, nogil=True)
def card_values_policy(st, me: int, cards, out, mask: int, w1, b1, w2, v) -> None:
    """``fastplay.card_values`` with the seats of ``mask`` (bits) playing the policy's cards."""
    work = np.empty_like(st)
    for i in range(len(cards)):
        work[:] = st
        _note_void(work, me, cards[i])
        play(work, cards[i])
        out[i] = play_out_policy(work, me, mask, w1, b1, w2, v)


@njit(cache=True, nogil=True)
def candidate_features(st, cards, out) -> None:
    """``card_features`` of each card of ``cards`` for the seat to act: ``out[i]`` (training data)."""
    seat = st[TO_ACT]
    l_lo, l_hi = legal_cards(st, seat)
    friends, out_lo, out_hi = _view(st, seat)
    rules = club_card(st, seat, l_lo, l_hi, friends, out_lo, out_hi)
    for i in range(len(cards)):
        card_features(st, seat, cards[i], rules, friends, out_lo, out_hi, out[i])


class Policy:
    """The shipped weights, loaded once (``load``)."""

    __slots__ = ("b1", "v", "w1", "w2")

    def __init__(self, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, v: np.ndarray) -> None:
        if w1.shape[0] != NF or v.shape != (NF,) or b1.shape != w2.shape or w1.shape[1] != b1.shape[0]:
            raise ValueError(
                f"policy weights of shapes {w1.shape}, {b1.shape}, {w2.shape}, {v.shape} do not fit {NF} features"
            )
        self.w1 = np.ascontiguousarray(w1, dtype=np.float64)
        self.b1 = np.ascontiguousarray(b1, dtype=np.float64)
        self.w2 = np.ascontiguousarray(w2, dtype=np.float64)
        self.v = np.ascontiguousarray(v, dtype=np.float64)

    @classmethod
    def read(cls, path: Path | str) -> Policy:
        with np.load(path) as z:
            return cls(z["w1"], z["b1"], z["w2"], z["v"])

    def write(self, path: Path | str) -> None:
        np.savez(path, w1=self.w1, b1=self.b1, w2=self.w2, v=self.v)

    @property
    def args(self) -> tuple:
        return self.w1, self.b1, self.w2, self.v


@functools.cache
def load() -> Policy:
    """The policy shipped with the package (read once)."""
    return Policy.read(WEIGHTS)


def warm_up() -> None:
    """Compile (or load from numba's cache) the policy's entry points for the arrays the callers
    pass, without running them: the test run does it once before its workers start."""
    from numba import types

    ints, grid = types.Array(types.int64, 1, "C"), types.Array(types.float64, 2, "C")
    floats = types.Array(types.float64, 1, "C")
    weights = (grid, floats, floats, floats)
    card_values_policy.compile((ints, types.int64, ints, ints, types.int64, *weights))
    policy_card.compile((ints, *weights))
    candidate_features.compile((ints, ints, grid))


class PolicyBot:
    """The policy alone at the table: its cards as taker, the rules of thumb's everywhere else (a
    development yardstick for the policy's own strength as the rollouts use it, not a level
    people pick)."""

    name = "policy"

    def __init__(self, seed: int | str | None = None, weights: Policy | None = None) -> None:
        self.rng = random.Random(seed)
        self.heuristic = HeuristicBot(seed)
        self.weights = weights

    def choose(self, obs, budget: float | None = None):
        if not all(type(a) is Play for a in obs.legal) or len(obs.legal) == 1 or obs.seat != obs.taker:
            return self.heuristic.choose(obs, budget)
        try:
            worlds = weighted_states(obs, self.rng, 1)
        except NoWorld:
            worlds = []
        if not worlds:
            return self.heuristic.choose(obs, budget)
        w = self.weights or load()
        return PLAYS[int(policy_card(worlds[0][0], *w.args))]


def rules_policy() -> Policy:
    """A policy that plays the rules of thumb's card (the one feature that says so, nothing else)."""
    v = np.zeros(NF)
    v[16] = 1.0
    return Policy(np.zeros((NF, 1)), np.zeros(1), np.zeros(1), v)


__all__ = [
    "NF",
    "Policy",
    "PolicyBot",
    "candidate_features",
    "card_values_policy",
    "exact",
    "load",
    "play_out_policy",
    "policy_card",
    "rules_policy",
    "warm_up",
]
