"""The unseen cards dealt into the hidden places, compiled: ``sampling.Deck.draw`` at native speed.

A card decision of the expert draws dozens of worlds, and each draw may try
many deals before one gives the taker a club taker's écart and bid
(``sampling._as_club``).  Here the same dealing, the same club écart
(``tactics.choose_ecart``) and the same club count (``tactics.hand_strength``)
run in code numba compiles, on the two-word card sets of ``fastplay``, with
numba's own random generator (seeded from the robot's, so a seed still fixes
every world).  Tests hold the écart and the count equal to the Python ones
and every drawn world to the facts of the observation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .fastplay import (
    HALF,
    HI_BOUTS,
    HI_EXCUSE,
    HI_PETIT,
    HI_T21,
    HI_TRUMPS,
    LO_BITS,
    SUIT_LO,
    lowest,
    popcount,
)

_KINGS_LO = sum(1 << (14 * s + 13) for s in range(4))
HI_HIGH = sum(1 << b for b in range(15, 20))  # trumps 16..20
SCALE = np.array([0.0, 0.0, 0.0, 0.86, 1.0, 1.18], dtype=np.float64)


@njit(cache=True)
def seed(value: int) -> None:
    """Seed numba's generator (one per thread) for the draws of one decision."""
    np.random.seed(value)


@njit(cache=True)
def hand_strength(lo: int, hi: int, players: int) -> float:
    """``tactics.hand_strength`` on two words."""
    n_trumps = popcount(hi & HI_TRUMPS)
    score = 2.0 * n_trumps + popcount(hi & HI_HIGH) * 1.5
    if hi & HI_T21:
        score += 10
    if hi & HI_EXCUSE:
        score += 8
    if hi & HI_PETIT:
        score += 9 if n_trumps >= 7 else 6 if n_trumps >= 5 else 1
    for s in range(4):
        suit = lo & SUIT_LO[s]
        n = popcount(suit)
        king = (suit >> (14 * s + 13)) & 1
        queen = (suit >> (14 * s + 12)) & 1
        knight = (suit >> (14 * s + 11)) & 1
        score += 6 * king + 3 * queen + 2 * knight + ((suit >> (14 * s + 10)) & 1)
        if king and queen:
            score += 1
        if n == 0:
            score += 6 if n_trumps >= 5 else 3
        elif n == 1 and not king:
            score += 3
        if n >= 5:
            score += 2 * (n - 4)
    return score * SCALE[players]


@njit(cache=True)
def ecart_allowed(lo: int, hi: int, size: int):
    """``engine.ecart.ecart_allowed`` on two words (compiled; a test holds the two equal): no king,
    no bout, trumps only when needed."""
    plain = lo & ~_KINGS_LO
    if popcount(plain) >= size:
        return plain, 0
    return plain, hi & HI_TRUMPS & ~HI_BOUTS


@njit(cache=True)
def _points(lo: int) -> int:
    total = 0
    while lo:
        c = lowest(lo)
        lo &= lo - 1
        total += HALF[c]
    return total


@njit(cache=True)
def complete_ecart(h_lo: int, plain: int, count: int, chosen: int) -> int:
    """``tactics.complete_ecart`` (suit cards only: ``plain`` and ``chosen`` are low words)."""
    rest = plain & ~chosen
    while popcount(chosen) < count and rest:
        best = -1
        k1 = k2 = k3 = 0
        m = rest
        while m:
            c = lowest(m)
            m &= m - 1
            suit = h_lo & ~chosen & SUIT_LO[c // 14]
            a = 0 if suit & _KINGS_LO else HALF[c]
            b = -popcount(suit)
            d = -(c % 14)
            if best < 0 or a > k1 or (a == k1 and (b > k2 or (b == k2 and d > k3))):
                best, k1, k2, k3 = c, a, b, d
        chosen |= 1 << best
        rest &= ~(1 << best)
    return chosen


@njit(cache=True)
def choose_ecart(h_lo: int, h_hi: int, a_lo: int, a_hi: int, count: int):
    """``tactics.choose_ecart`` on two words: void the shortest kingless suits, then bank
    unprotected honours, then low cards; trumps only when forced."""
    plain = a_lo
    if popcount(plain) < count:
        chosen_hi = 0
        trumps = a_hi & HI_TRUMPS
        n = popcount(plain)
        while n < count:
            low = trumps & -trumps
            chosen_hi |= low
            trumps ^= low
            n += 1
        return plain, chosen_hi
    # Kingless suits wholly in the allowed cards, shortest first, then the most points.
    keys = np.empty(4, dtype=np.int64)
    k = 0
    for s in range(4):
        in_suit = h_lo & SUIT_LO[s]
        if in_suit and not in_suit & _KINGS_LO and in_suit & ~plain == 0:
            keys[k] = (popcount(in_suit) * 1000 - _points(in_suit)) * 8 + s
            k += 1
    order = np.sort(keys[:k])
    chosen = 0
    for i in range(k):
        s = order[i] % 8
        n = popcount(h_lo & SUIT_LO[s])
        if popcount(chosen) + n <= count:
            chosen |= h_lo & SUIT_LO[s]
    return complete_ecart(h_lo, plain, count, chosen), 0


@njit(cache=True)
def as_club(out_lo, out_hi, model, bid) -> bool:
    """``sampling._as_club`` over place arrays; ``model`` packs its parameters and ``bid`` the
    range of club counts its contract allows (``sampling.Deck.compiled``)."""
    taker = model[0]
    ecart_at = model[1]
    also_lo, also_hi = model[2], model[3]
    shown_hi = model[4]
    ban_lo, ban_hi = model[5], model[6]
    dog_lo, dog_hi = model[7], model[8]
    count = model[9]
    ecart_hidden = model[10]
    has_bid = model[11]
    players = model[12]
    j_lo = out_lo[taker]
    j_hi = out_hi[taker]
    if ecart_at >= 0:
        j_lo |= out_lo[ecart_at]
        j_hi |= out_hi[ecart_at]
    c_lo = j_lo | also_lo
    c_hi = j_hi | also_hi
    e_lo = e_hi = h_lo = h_hi = 0
    if ecart_hidden:
        a_lo, a_hi = ecart_allowed(c_lo, c_hi, count)
        e_lo, e_hi = choose_ecart(c_lo, c_hi, a_lo, a_hi, count)
        if e_hi & HI_TRUMPS != shown_hi or e_lo & also_lo or e_hi & also_hi & ~shown_hi:
            return False
        h_lo = j_lo & ~e_lo
        h_hi = j_hi & ~e_hi
        if h_lo & ban_lo or h_hi & ban_hi:
            return False
    if has_bid:
        strength = hand_strength(c_lo & ~dog_lo, c_hi & ~dog_hi, players)
        if not (bid[0] <= strength < bid[1]):
            return False
    if ecart_hidden:
        out_lo[taker] = h_lo
        out_hi[taker] = h_hi
        out_lo[ecart_at] = e_lo
        out_hi[ecart_at] = e_hi & ~shown_hi
    return True


@njit(cache=True)
def _deal_once(room0, fixed_lo, fixed_hi, con_cards, con_allowed, con_n, anywhere, out_lo, out_hi) -> bool:
    """One deal of the unseen cards (``sampling.Deck.deal_once``) into ``out``; False if stuck."""
    places = len(room0)
    room = room0.copy()
    out_lo[:] = fixed_lo
    out_hi[:] = fixed_hi
    k = len(con_cards)
    if k:
        # The cards with fewest places first, in a random order among equals.
        keys = np.empty(k, dtype=np.float64)
        for i in range(k):
            keys[i] = con_n[i] + np.random.random()
        order = np.argsort(keys)
        for i in range(k):
            j = order[i]
            c = con_cards[j]
            allowed = con_allowed[j]
            total = 0
            for b in range(places):
                if (allowed >> b) & 1:
                    total += room[b]
            if total == 0:
                return False
            r = np.random.random() * total
            chosen = -1
            for b in range(places):
                if (allowed >> b) & 1 and room[b]:
                    chosen = b
                    r -= room[b]
                    if r < 0:
                        break
            if c < 56:
                out_lo[chosen] |= 1 << c
            else:
                out_hi[chosen] |= 1 << (c - 56)
            room[chosen] -= 1
    m = len(anywhere)
    cards = anywhere.copy()
    for i in range(m - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    at = 0
    for b in range(places):
        for _ in range(room[b]):
            if at >= m:
                return False
            c = cards[at]
            at += 1
            if c < 56:
                out_lo[b] |= 1 << c
            else:
                out_hi[b] |= 1 << (c - 56)
    return at == m


@njit(cache=True, nogil=True)
def draw(
    room0,
    fixed_lo,
    fixed_hi,
    con_cards,
    con_allowed,
    con_n,
    anywhere,
    model,
    bid,
    tries: int,
    fits: int,
    out_lo,
    out_hi,
) -> int:
    """``sampling.Deck.draw``: 0 a world that fits the club taker (or any world, without a model),
    1 a world that does not (none did within ``fits`` tries), -1 none at all."""
    have_fallback = False
    fb_lo = np.empty_like(out_lo)
    fb_hi = np.empty_like(out_hi)
    for _ in range(tries):
        if not _deal_once(room0, fixed_lo, fixed_hi, con_cards, con_allowed, con_n, anywhere, out_lo, out_hi):
            continue
        if model[0] < 0:
            return 0
        if not have_fallback:
            fb_lo[:] = out_lo
            fb_hi[:] = out_hi
            have_fallback = True
        if as_club(out_lo, out_hi, model, bid):
            return 0
        fits -= 1
        if fits == 0:
            break
    if have_fallback:
        out_lo[:] = fb_lo
        out_hi[:] = fb_hi
        return 1
    return -1


@njit(cache=True)
def _deal_model(room0, fixed_lo, fixed_hi, cards, q, nopts, out_lo, out_hi) -> bool:
    """One deal of the unseen cards with each card's place drawn from the model's probabilities
    ``q`` (one row per card of ``cards``, zero where it may not lie), rescaled as the deal goes so
    each place fills to its room: a card goes to place ``b`` in proportion to ``q[card, b]`` times
    the room ``b`` has left over the probability mass still to come its way.  The cards with
    fewest places first (random among equals); False if stuck (a card with no room in its places)."""
    places = len(room0)
    room = room0.copy()
    out_lo[:] = fixed_lo
    out_hi[:] = fixed_hi
    k = len(cards)
    mass = np.zeros(places, dtype=np.float64)
    for i in range(k):
        for b in range(places):
            mass[b] += q[i, b]
    keys = np.empty(k, dtype=np.float64)
    for i in range(k):
        keys[i] = nopts[i] + np.random.random()
    order = np.argsort(keys)
    w = np.empty(places, dtype=np.float64)
    for i in range(k):
        j = order[i]
        total = 0.0
        for b in range(places):
            if room[b] > 0 and q[j, b] > 0:
                w[b] = q[j, b] * room[b] / max(mass[b], 1e-12)
            else:
                w[b] = 0.0
            total += w[b]
        if total <= 0:
            return False
        r = np.random.random() * total
        chosen = -1
        for b in range(places):
            if w[b] > 0:
                chosen = b
                r -= w[b]
                if r < 0:
                    break
        c = cards[j]
        if c < 56:
            out_lo[chosen] |= 1 << c
        else:
            out_hi[chosen] |= 1 << (c - 56)
        room[chosen] -= 1
        for b in range(places):
            mass[b] -= q[j, b]
    return bool((room == 0).all())


@njit(cache=True, nogil=True)
def draw_model(room0, fixed_lo, fixed_hi, cards, q, nopts, model, bid, tries: int, fits: int, out_lo, out_hi) -> int:
    """``draw`` with the cards dealt by ``_deal_model`` (the learned model's probabilities) rather
    than by room alone: the same hard facts and the same fitting to the club taker."""
    have_fallback = False
    fb_lo = np.empty_like(out_lo)
    fb_hi = np.empty_like(out_hi)
    for _ in range(tries):
        if not _deal_model(room0, fixed_lo, fixed_hi, cards, q, nopts, out_lo, out_hi):
            continue
        if model[0] < 0:
            return 0
        if not have_fallback:
            fb_lo[:] = out_lo
            fb_hi[:] = out_hi
            have_fallback = True
        if as_club(out_lo, out_hi, model, bid):
            return 0
        fits -= 1
        if fits == 0:
            break
    if have_fallback:
        out_lo[:] = fb_lo
        out_hi[:] = fb_hi
        return 1
    return -1


__all__ = ["LO_BITS", "as_club", "choose_ecart", "draw", "draw_model", "ecart_allowed", "hand_strength", "seed"]
