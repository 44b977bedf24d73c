"""The seat's own next card searched without seeing the world: a second ply over information sets.

The expert's card search (``expert.score_worlds``) plays each candidate card in each sampled world
and finishes the deal with the rules of thumb for every seat, its own included.  Here the searching
seat's *next* card in each world is chosen instead by a small search of its own that does not look
at the world: at that node the seat knows only its hand, the cards gone (the candidate and the
others' cards since) and the voids shown, so the node is keyed by the cards played since the root
(an information set: every world that reaches it with the same cards gets the same answer), and its
card is the one with the best mean over ``redeals`` worlds re-dealt in compiled code from what the
seat knows there (the unseen cards shared among the hidden places by their sizes, each seat's voids
and the trumps of a poignée it showed), each card played out by the rules of thumb; the rules of
thumb's card wins ties.  That card is then played in the true sampled world, and the rest of the
deal by the rules of thumb as before.

So the candidate at the root is valued by a continuation that reacts to what the others did after
it, with a search, without the world's hands (a one-step search with a fixed continuation cannot
see a plan whose second card depends on what the others did after the first; a cheating second
ply can, but by seeing the world).  Worlds with a called partner not yet shown are left to the
rules of thumb (the partner would be re-dealt too).  Off by default (``expert.SECOND_PLY``): it
changed about a quarter of the taker's cards at 4 players and gained nothing measurable
(benchmarks/results/strength.md, issue 25's third session).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from .fastplay import (
    ACTIVE,
    CALLED,
    EXTRA_HI,
    EXTRA_LO,
    FIRST_SEAT,
    HALF,
    HAND_HI,
    HAND_LO,
    HAND_SIZE,
    KNOWN_HI,
    KNOWN_LO,
    NEXT,
    NO_TRUMP,
    NTRICKS,
    REVEALED,
    TO_ACT,
    UNSEEN_HI,
    UNSEEN_LO,
    VOIDS,
    _note_void,
    legal_cards,
    lowest,
    play,
    play_out,
    popcount,
    rules_card,
)

_INTS = types.Array(types.int64, 1, "C")
KEY_CAP = 4096
"""Information sets remembered in one decision (more are searched again, not remembered)."""


@njit(cache=True)
def _rand(rs) -> np.int64:
    """xorshift64*: the next 31-bit draw of the generator state ``rs[0]`` (a uint64, not 0)."""
    x = rs[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rs[0] = x
    return np.int64((x * np.uint64(2685821657736338717)) >> np.uint64(33))


@njit(cache=True)
def _below(rs, n: int) -> int:
    return int(_rand(rs) % n)


@njit(cache=True)
def _may_hold(voids: int, card: int) -> bool:
    if card >= 77:  # the Excuse
        return True
    if card >= 56:
        return not voids & NO_TRUMP
    return not (voids >> (card // 14)) & 1


@njit(cache=True)
def redeal(node, me: int, fixed_lo, fixed_hi, rs, out) -> bool:
    """``out``: ``node`` with the cards ``me`` cannot see dealt again at random among the hidden
    places, each seat keeping its hand size, holding no card of a suit it showed void in and the
    cards of ``fixed_lo``/``fixed_hi`` (a poignée it showed) still unplayed; what is left over (a
    dog no one has seen) goes where the world keeps it (the taker's extra cards in a Garde sans).
    Reads of ``node`` only what ``me`` knows there.  False if no such deal was found."""
    pool_lo = node[UNSEEN_LO] & ~node[HAND_LO + me] & ~node[KNOWN_LO + me]
    pool_hi = node[UNSEEN_HI] & ~node[HAND_HI + me] & ~node[KNOWN_HI + me]
    n = node[ACTIVE]
    seats = np.empty(5, dtype=np.int64)
    room0 = np.zeros(6, dtype=np.int64)  # one per hidden seat, then the leftover place
    ns = 0
    s = node[FIRST_SEAT]
    for _ in range(n):
        if s != me:
            seats[ns] = s
            room0[ns] = popcount(node[HAND_LO + s]) + popcount(node[HAND_HI + s])
            ns += 1
        s = node[NEXT + s]
    total = popcount(pool_lo) + popcount(pool_hi)
    held = 0
    for i in range(ns):
        held += room0[i]
    room0[ns] = total - held
    if room0[ns] < 0:
        return False
    # Where the leftover lies in the world: the taker's extra cards or nowhere (its points then
    # go to the defence, as a Garde contre's dog): the contract says which, not the cards.
    extra_hidden = (node[EXTRA_LO] & pool_lo) != 0 or (node[EXTRA_HI] & pool_hi) != 0
    cards = np.empty(total, dtype=np.int64)
    k = 0
    for word in range(2):
        m = pool_lo if word == 0 else pool_hi
        while m:
            cards[k] = lowest(m) + 56 * word
            m &= m - 1
            k += 1
    new_lo = np.zeros(6, dtype=np.int64)
    new_hi = np.zeros(6, dtype=np.int64)
    room = np.empty(6, dtype=np.int64)
    order = np.empty(total, dtype=np.int64)
    for _attempt in range(16):
        for i in range(ns + 1):
            room[i] = room0[i]
            new_lo[i] = 0
            new_hi[i] = 0
        # The poignée's cards first, to the seat that showed them; then the cards fewest places
        # may hold (a seat's voids), each to a place drawn by its room left.
        no = 0
        for j in range(total):
            c = cards[j]
            placed = False
            for i in range(ns):
                f = fixed_lo[seats[i]] if c < 56 else fixed_hi[seats[i]]
                if (f >> (c if c < 56 else c - 56)) & 1:
                    if c < 56:
                        new_lo[i] |= 1 << c
                    else:
                        new_hi[i] |= 1 << (c - 56)
                    room[i] -= 1
                    placed = True
            if not placed:
                order[no] = c
                no += 1
        for i in range(no - 1, 0, -1):
            j = _below(rs, i + 1)
            order[i], order[j] = order[j], order[i]
        # Stable pass by the number of places that may hold each card: the constrained first.
        ok = True
        for want in range(1, ns + 2):
            for j in range(no):
                c = order[j]
                places = 1  # the leftover place takes any card
                for i in range(ns):
                    if _may_hold(node[VOIDS + seats[i]], c):
                        places += 1
                if places != want:
                    continue
                r = 0
                for i in range(ns):
                    if room[i] > 0 and _may_hold(node[VOIDS + seats[i]], c):
                        r += room[i]
                r += room[ns]
                if r <= 0:
                    ok = False
                    break
                pick = _below(rs, r)
                chosen = ns
                for i in range(ns):
                    if room[i] > 0 and _may_hold(node[VOIDS + seats[i]], c):
                        if pick < room[i]:
                            chosen = i
                            break
                        pick -= room[i]
                room[chosen] -= 1
                if c < 56:
                    new_lo[chosen] |= 1 << c
                else:
                    new_hi[chosen] |= 1 << (c - 56)
            if not ok:
                break
        if not ok:
            continue
        bad = False
        for i in range(ns + 1):
            if room[i] != 0:
                bad = True
        if bad:
            continue
        out[:] = node
        for i in range(ns):
            out[HAND_LO + seats[i]] = new_lo[i]
            out[HAND_HI + seats[i]] = new_hi[i]
        if extra_hidden:
            out[EXTRA_LO] = (node[EXTRA_LO] & ~pool_lo) | new_lo[ns]
            out[EXTRA_HI] = (node[EXTRA_HI] & ~pool_hi) | new_hi[ns]
        return True
    return False


@njit(cache=True)
def _node_card(node, me: int, redeals: int, fixed_lo, fixed_hi, rs) -> int:
    """``me``'s card at ``node`` (``me`` to act): the best mean over ``redeals`` worlds re-dealt from
    what ``me`` knows (``redeal``), each card then played out by the rules of thumb; the rules of
    thumb's card wins ties and stands when no world could be dealt."""
    l_lo, l_hi = legal_cards(node, me)
    rules = rules_card(node)
    if popcount(l_lo) + popcount(l_hi) <= 1:
        return rules
    if node[CALLED] >= 0 and not node[REVEALED]:
        return rules
    # One card per run of touching cards of the same points (playing one or another is the same).
    cands = np.empty(24, dtype=np.int64)
    nc = 1
    cands[0] = rules
    for word in range(2):
        m = l_lo if word == 0 else l_hi
        while m:
            c = lowest(m) + 56 * word
            m &= m - 1
            if c == rules:
                continue
            if word == 0:
                alike = c % 14 > 0 and (l_lo >> (c - 1)) & 1 == 1 and HALF[c] == HALF[c - 1]
            else:
                alike = 57 <= c < 76 and (l_hi >> (c - 57)) & 1 == 1 and HALF[c] == HALF[c - 1]
            if alike:
                continue
            cands[nc] = c
            nc += 1
    if nc == 1:
        return rules
    totals = np.zeros(nc, dtype=np.int64)
    world = np.empty_like(node)
    work = np.empty_like(node)
    done = 0
    for _ in range(redeals):
        if not redeal(node, me, fixed_lo, fixed_hi, rs, world):
            continue
        done += 1
        for i in range(nc):
            work[:] = world
            _note_void(work, me, cands[i])
            play(work, cands[i])
            totals[i] += play_out(work, me)
    if done == 0:
        return rules
    best = 0
    for i in range(1, nc):
        if totals[i] > totals[best]:
            best = i
    return cands[best]


@njit(cache=True, nogil=True)
def card_values_is(st, me: int, cards, out, redeals: int, fixed_lo, fixed_hi, rs, keys, picks, nkeys) -> None:
    """``fastplay.card_values`` with ``me``'s next card chosen by ``_node_card`` instead of the rules
    of thumb: ``out[i]``, ``me``'s score after ``cards[i]``.  The node's card is remembered under the
    cards played since the root (``keys``/``picks``, ``nkeys[0]`` used), so every world that
    reaches the same information set plays the same card there."""
    work = np.empty_like(st)
    for i in range(len(cards)):
        work[:] = st
        key = cards[i] + 1
        _note_void(work, me, cards[i])
        play(work, cards[i])
        while work[NTRICKS] < work[HAND_SIZE] and work[TO_ACT] != me:
            seat = work[TO_ACT]
            c = rules_card(work)
            key = key * 128 + c + 1
            _note_void(work, seat, c)
            play(work, c)
        if work[NTRICKS] < work[HAND_SIZE]:
            pick = -1
            for j in range(nkeys[0]):
                if keys[j] == key:
                    pick = picks[j]
                    break
            if pick < 0:
                pick = _node_card(work, me, redeals, fixed_lo, fixed_hi, rs)
                if nkeys[0] < len(keys):
                    keys[nkeys[0]] = key
                    picks[nkeys[0]] = pick
                    nkeys[0] += 1
            _note_void(work, me, pick)
            play(work, pick)
        out[i] = play_out(work, me)


class SecondPly:
    """One decision's second-ply scorer (``card_values_is`` with its remembered information sets)."""

    def __init__(self, redeals: int, fixed: dict[int, int], seed: int) -> None:
        self.redeals = redeals
        self.fixed_lo = np.zeros(5, dtype=np.int64)
        self.fixed_hi = np.zeros(5, dtype=np.int64)
        for seat, cards in fixed.items():
            self.fixed_lo[seat] = cards & ((1 << 56) - 1)
            self.fixed_hi[seat] = cards >> 56
        self.rs = np.array([seed | 1], dtype=np.uint64)
        self.keys = np.zeros(KEY_CAP, dtype=np.int64)
        self.picks = np.zeros(KEY_CAP, dtype=np.int64)
        self.nkeys = np.zeros(1, dtype=np.int64)

    def __call__(self, st, me, cards, values) -> None:
        card_values_is(st, me, cards, values, self.redeals, self.fixed_lo, self.fixed_hi, self.rs,
                       self.keys, self.picks, self.nkeys)


def warm_up() -> None:
    """Compile (or load from numba's cache) the entry points now, running them on nothing."""
    st = np.zeros(84, dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    SecondPly(1, {}, 1)(st, 0, none, none)
    redeal.compile((_INTS, types.int64, _INTS, _INTS, types.Array(types.uint64, 1, "C"), _INTS))
    _node_card.compile((_INTS, types.int64, types.int64, _INTS, _INTS, types.Array(types.uint64, 1, "C")))
