"""The card play of a sampled world, compiled: the expert's rollouts at native speed.

A world's play phase is packed into one int64 array (``pack``) and played to
its end by the club rules of thumb (``play_out``) in code numba compiles once
(and caches on disk).  It is the same play, card for card, as
``rollout.rollout`` over ``engine.Deal`` and ``tactics.play_card`` (a test
holds the two equal on random worlds at 3, 4 and 5 players), about fifty
times faster, so the expert can afford many more worlds per decision.

Cards keep the engine's numbers; a set of cards is two words, since 78 bits do
not fit in one: ``lo`` holds the suit cards 0-55 (card c is bit c), ``hi`` the
trumps and the Excuse 56-77 (card c is bit c - 56).  A suit never straddles
the two, so the rules of thumb read one word or the other.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine import GARDE_SANS, MULTIPLIERS, Deal
from ..engine.cards import EXCUSE, HALF_POINTS, PETIT
from ..engine.scoring import TARGETS
from ..engine.state import PHASE_PLAY, TAKER_SIDE

LO_BITS = (1 << 56) - 1
HI_TRUMPS = (1 << 21) - 1  # trumps 1..21, without the Excuse
HI_EXCUSE = 1 << 21
HI_PETIT = 1
HI_T21 = 1 << 20
HI_BOUTS = HI_PETIT | HI_T21 | HI_EXCUSE
NO_TRUMP = 16  # bit 4 of a seat's voids
SUIT_LO = np.array([((1 << 14) - 1) << (14 * s) for s in range(4)], dtype=np.int64)
HALF = np.array(HALF_POINTS, dtype=np.int64)
_KINGS = sum(1 << (14 * s + 13) for s in range(4))
_QUEENS = _KINGS >> 1
_KNIGHTS = _KINGS >> 2
_JACKS = _KINGS >> 3
_LOW_SUIT = LO_BITS & ~(_KINGS | _QUEENS | _KNIGHTS | _JACKS)
TARGET_BY_BOUTS = np.array([TARGETS[b] for b in range(4)], dtype=np.int64)

# The packed state: one int64 array, these offsets (seats index arrays of 5).
HAND_LO, HAND_HI, VOIDS, KNOWN_LO, KNOWN_HI, FRIENDS, SIDE, NEXT = (5 * i for i in range(8))
TRICK_SEAT, TRICK_CARD = 40, 45
(
    TLEN,
    LED,
    TOP,
    TOP_SEAT,
    PILE0_LO,
    PILE0_HI,
    PILE1_LO,
    PILE1_HI,
    WON0,
    WON1,
    NTRICKS,
    HAND_SIZE,
    ACTIVE,
    DEBT,
    SETTLED,
    TO_ACT,
    TAKER,
    PARTNER,
    CALLED,
    REVEALED,
    ALONE,
    MULT,
    CHELEM,
    EXTRA_LO,
    EXTRA_HI,
    BONUS,
    EXCUSE_RULE,
    UNSEEN_LO,
    UNSEEN_HI,
    PETIT_TRICK,
    PETIT_SIDE,
    EXCUSE_WON_LAST,
    FIRST_SEAT,
) = range(50, 83)
STATE_SIZE = 84


@njit(cache=True)
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True)
def lowest(x: int) -> int:
    """The index of the lowest set bit of ``x`` (> 0)."""
    return popcount((x & -x) - 1)


@njit(cache=True)
def highest(x: int) -> int:
    """The index of the highest set bit of ``x`` (> 0)."""
    n = 0
    if x >> 32:
        x >>= 32
        n += 32
    if x >> 16:
        x >>= 16
        n += 16
    if x >> 8:
        x >>= 8
        n += 8
    if x >> 4:
        x >>= 4
        n += 4
    if x >> 2:
        x >>= 2
        n += 2
    if x >> 1:
        n += 1
    return n


@njit(cache=True)
def low_card(lo: int, hi: int) -> int:
    """The lowest card of a set (suit cards below trumps below the Excuse)."""
    if lo:
        return lowest(lo)
    return 56 + lowest(hi)


@njit(cache=True)
def high_card(lo: int, hi: int) -> int:
    if hi:
        return 56 + highest(hi)
    return highest(lo)


@njit(cache=True)
def has(lo: int, hi: int, card: int) -> bool:
    if card < 56:
        return (lo >> card) & 1 == 1
    return (hi >> (card - 56)) & 1 == 1


@njit(cache=True)
def half_points(lo: int, hi: int) -> int:
    return (
        9 * popcount(lo & _KINGS)
        + 7 * popcount(lo & _QUEENS)
        + 5 * popcount(lo & _KNIGHTS)
        + 3 * popcount(lo & _JACKS)
        + popcount(lo & _LOW_SUIT)
        + 9 * popcount(hi & HI_BOUTS)
        + popcount(hi & ~HI_BOUTS)
    )


@njit(cache=True)
def _is_master(card: int, out_lo: int) -> bool:
    return (out_lo & SUIT_LO[card // 14]) >> (card + 1) == 0


@njit(cache=True)
def _lead(h_lo: int, h_hi: int, friends: int, out_lo: int, out_hi: int, taker: int, taker_void: int) -> int:
    """``tactics._lead`` on two words."""
    trumps = h_hi & HI_TRUMPS
    out_trumps = out_hi & HI_TRUMPS
    n_tr = popcount(trumps)
    n_out = popcount(out_trumps)
    if trumps & HI_PETIT and not out_trumps:
        return PETIT
    if (friends >> taker) & 1:
        if trumps and n_out and n_tr > n_out:
            top = highest(trumps)
            if not out_trumps >> (top + 1):
                return 56 + top
            rest = trumps & ~HI_PETIT
            if rest:
                return 56 + lowest(rest)
        best = -1
        k1 = -1
        k2 = 0
        for s in range(4):
            suit = h_lo & SUIT_LO[s]
            if not suit:
                continue
            top = highest(suit)
            if _is_master(top, out_lo) and popcount(out_lo & SUIT_LO[s]) >= 6:
                a, b, c = 2, HALF[top], top
            else:
                a, b, c = 1, -popcount(suit), lowest(suit)
            if best < 0 or a > k1 or (a == k1 and b > k2):
                best, k1, k2 = c, a, b
        if best >= 0:
            return best
        rest = trumps & ~HI_PETIT
        if rest:
            return 56 + lowest(rest)
        return low_card(h_lo, h_hi)
    if out_trumps & HI_PETIT and n_tr >= 4 and n_out <= 8 and trumps & ~HI_PETIT:
        return 56 + highest(trumps & ~HI_PETIT)
    best = -1
    k1 = -1
    k2 = 0
    for s in range(4):
        suit = h_lo & SUIT_LO[s]
        if not suit:
            continue
        top = highest(suit)
        void_here = (taker_void >> s) & 1
        if not void_here and top % 14 == 13 and popcount(out_lo & SUIT_LO[s]) >= 7:
            a, b, c = 3, 0, top
        elif void_here:
            a, b, c = 2, popcount(suit), lowest(suit)
        else:
            a, b, c = 1, popcount(suit), lowest(suit)
        if best < 0 or a > k1 or (a == k1 and b > k2):
            best, k1, k2 = c, a, b
    if best >= 0:
        return best
    rest = trumps & ~HI_PETIT
    if rest:
        return 56 + lowest(rest)
    return low_card(h_lo, h_hi)


@njit(cache=True)
def club_card(st, seat: int, l_lo: int, l_hi: int, friends: int, out_lo: int, out_hi: int) -> int:
    """``tactics.play_card`` for ``seat`` to act in the packed state ``st``: legal cards
    ``l_lo``/``l_hi``, known allies ``friends``, cards not seen and not its own ``out``."""
    if popcount(l_lo) + popcount(l_hi) == 1:
        return low_card(l_lo, l_hi)
    h_lo = st[HAND_LO + seat]
    h_hi = st[HAND_HI + seat]
    tlen = st[TLEN]
    if l_hi & HI_EXCUSE and popcount(h_lo) + popcount(h_hi) == 2:
        return EXCUSE
    taker = st[TAKER]
    if tlen == 0 or (tlen == 1 and st[TRICK_CARD] == EXCUSE):
        if h_lo or h_hi & ~HI_EXCUSE:
            card = _lead(h_lo, h_hi & ~HI_EXCUSE, friends, out_lo, out_hi, taker, st[VOIDS + taker])
        else:
            card = _lead(h_lo, h_hi, friends, out_lo, out_hi, taker, st[VOIDS + taker])
        if has(l_lo, l_hi, card):
            return card
        if l_lo or l_hi & ~HI_EXCUSE:
            return low_card(l_lo, l_hi & ~HI_EXCUSE)
        return low_card(l_lo, l_hi)
    # The seats still to play, the winner so far, the suit led, the points in the trick.
    enemies_after = False
    left = st[ACTIVE] - tlen - 1
    s = seat
    for _ in range(left):
        s = st[NEXT + s]
        if not (friends >> s) & 1:
            enemies_after = True
    led = -1
    win_seat = -1
    win_card = -1
    best_key = -1
    pts = 0
    for i in range(tlen):
        c = st[TRICK_CARD + i]
        pts += HALF[c]
        if c == EXCUSE:
            if win_seat < 0:
                win_seat = st[TRICK_SEAT + i]
                win_card = c
            continue
        if led < 0:
            led = 4 if c >= 56 else c // 14
        if c >= 56:
            key = 100 + c
        elif c // 14 == led:
            key = c
        else:
            key = -1
        if key > best_key:
            win_seat = st[TRICK_SEAT + i]
            win_card = c
            best_key = key
    friend_wins = (friends >> win_seat) & 1 == 1
    out_trumps = out_hi & HI_TRUMPS
    secure = False
    if friend_wins:
        if not enemies_after or (56 <= win_card < EXCUSE and not out_trumps >> (win_card - 55)):
            secure = True
        elif win_card < 56 and not (out_lo & SUIT_LO[led]) >> (win_card + 1):
            secure = True
            s = seat
            for _ in range(left):
                s = st[NEXT + s]
                if not (friends >> s) & 1 and (st[VOIDS + s] >> led) & 1:
                    secure = False
    p_lo = l_lo
    p_hi = l_hi & ~HI_EXCUSE
    excuse_legal = l_hi & HI_EXCUSE
    if led < 4 and p_lo & SUIT_LO[led]:
        suit = p_lo & SUIT_LO[led]
        if secure:
            return highest(suit)
        if win_card < 56 or win_card == EXCUSE:
            top = highest(suit)
            if top > win_card:
                if not enemies_after:
                    return top
                higher_out = (out_lo & SUIT_LO[led]) >> (top + 1)
                cut_risk = False
                s = seat
                for _ in range(left):
                    s = st[NEXT + s]
                    v = st[VOIDS + s]
                    if not (friends >> s) & 1 and (v >> led) & 1 and not v & NO_TRUMP:
                        cut_risk = True
                if not higher_out and not cut_risk:
                    return top
        low = lowest(suit)
        if excuse_legal and HALF[low] >= 5 and not friend_wins:
            return EXCUSE
        return low
    if p_hi:
        trumps = p_hi
        petit = trumps & HI_PETIT
        top_trump = win_card if 56 <= win_card < EXCUSE else -1
        if petit and (secure or (top_trump < 0 and not (enemies_after and out_trumps))):
            return PETIT
        rest = trumps & ~HI_PETIT
        if not rest:
            if excuse_legal and not friend_wins:
                return EXCUSE
            return PETIT
        if friend_wins and (secure or not enemies_after):
            return 56 + lowest(rest)
        if top_trump >= 0:
            sh = top_trump - 55
            over = (rest >> sh) << sh
        else:
            over = rest
        if over:
            if not enemies_after:
                return 56 + lowest(over)
            master = over & ~((1 << (highest(out_trumps) + 1)) - 1) if out_trumps else over
            if master and (pts >= 8 or out_hi & HI_PETIT):
                return 56 + lowest(master)
            return 56 + lowest(over)
        low = 56 + lowest(rest)
        if excuse_legal and low == 76:
            return EXCUSE
        return low
    # Neither follow nor trump: a discard.
    m = p_lo
    if friend_wins and (secure or not enemies_after):
        best = -1
        key = -1
        while m:
            c = lowest(m)
            m &= m - 1
            if HALF[c] > key:
                best, key = c, HALF[c]
        return best
    best = -1
    k1 = 0
    k2 = 0
    k3 = 0
    while m:
        c = lowest(m)
        m &= m - 1
        a = HALF[c] + 20 if _is_master(c, out_lo) else HALF[c]
        b = popcount(h_lo & SUIT_LO[c // 14]) - 14
        d = c % 14
        if best < 0 or a < k1 or (a == k1 and (b < k2 or (b == k2 and d < k3))):
            best, k1, k2, k3 = c, a, b, d
    if excuse_legal and HALF[best] >= 5:
        return EXCUSE
    return best


@njit(cache=True)
def legal_cards(st, seat: int):
    """The engine's legal play mask for ``seat`` to act, as (lo, hi)."""
    h_lo = st[HAND_LO + seat]
    h_hi = st[HAND_HI + seat]
    led = st[LED]
    if led < 0:
        called = st[CALLED]
        if called >= 0 and st[TLEN] == 0 and st[NTRICKS] == 0:
            o_lo = h_lo & ~(SUIT_LO[called // 14] & ~(1 << called))
            if o_lo or h_hi:
                return o_lo, h_hi
        return h_lo, h_hi
    if led < 4:
        follow = h_lo & SUIT_LO[led]
        if follow:
            return follow, h_hi & HI_EXCUSE
    trumps = h_hi & HI_TRUMPS
    if trumps:
        top = st[TOP]
        over = trumps
        if top >= 56:
            sh = top - 55
            over = (trumps >> sh) << sh
        if not over:
            over = trumps
        return 0, over | (h_hi & HI_EXCUSE)
    return h_lo, h_hi


@njit(cache=True)
def _pay_debt(st) -> None:
    owner = st[DEBT]
    lo_at = PILE0_LO + 2 * owner
    low = st[lo_at] & _LOW_SUIT
    if low:
        bit = low & -low
        st[lo_at] ^= bit
        st[PILE0_LO + 2 * (1 - owner)] |= bit
        st[DEBT] = -1
        return
    hi_at = lo_at + 1
    low = st[hi_at] & ~HI_BOUTS
    if low:
        bit = low & -low
        st[hi_at] ^= bit
        st[PILE0_HI + 2 * (1 - owner)] |= bit
        st[DEBT] = -1


@njit(cache=True)
def _finish_trick(st) -> None:
    """``Deal._finish_trick`` on the packed state."""
    n = st[ACTIVE]
    last = st[NTRICKS] == st[HAND_SIZE] - 1
    c_lo = 0
    c_hi = 0
    for i in range(n):
        c = st[TRICK_CARD + i]
        if c < 56:
            c_lo |= 1 << c
        else:
            c_hi |= 1 << (c - 56)
    if st[TOP_SEAT] >= 0:
        winner = st[TOP_SEAT]
    else:
        best = highest(c_lo & SUIT_LO[st[LED]])
        winner = -1
        for i in range(n):
            if st[TRICK_CARD + i] == best:
                winner = st[TRICK_SEAT + i]
    petit_here = c_hi & HI_PETIT
    excuse_won = False
    if c_hi & HI_EXCUSE:
        excuse_seat = -1
        for i in range(n):
            if st[TRICK_CARD + i] == EXCUSE:
                excuse_seat = st[TRICK_SEAT + i]
        owner = st[SIDE + excuse_seat]
        if last:
            if st[WON0 + owner] == st[NTRICKS]:
                winner = excuse_seat
                excuse_won = True
                goes_to = owner
            elif st[EXCUSE_RULE] == 1:
                goes_to = st[SIDE + winner]
            else:
                goes_to = 1 - owner
            st[PILE0_HI + 2 * goes_to] |= HI_EXCUSE
            c_hi &= ~HI_EXCUSE
        elif owner != st[SIDE + winner]:
            st[PILE0_HI + 2 * owner] |= HI_EXCUSE
            c_hi &= ~HI_EXCUSE
            st[DEBT] = owner
            _pay_debt(st)
    win_side = st[SIDE + winner]
    st[PILE0_LO + 2 * win_side] |= c_lo
    st[PILE0_HI + 2 * win_side] |= c_hi
    st[WON0 + win_side] += 1
    if petit_here:
        st[PETIT_TRICK] = st[NTRICKS]
        st[PETIT_SIDE] = win_side
    st[NTRICKS] += 1
    if st[DEBT] == win_side:
        _pay_debt(st)
    if last:
        st[EXCUSE_WON_LAST] = 1 if excuse_won else 0
        if st[DEBT] >= 0:
            st[SETTLED] = 1 if st[DEBT] == 1 else -1
    st[TLEN] = 0
    st[LED] = -1
    st[TOP] = -1
    st[TOP_SEAT] = -1
    st[TO_ACT] = winner


@njit(cache=True)
def play(st, card: int) -> None:
    """``Deal.apply(Play(card))`` for the seat to act (the card is known legal)."""
    seat = st[TO_ACT]
    if card < 56:
        st[HAND_LO + seat] ^= 1 << card
        st[UNSEEN_LO] &= ~(1 << card)
    else:
        st[HAND_HI + seat] ^= 1 << (card - 56)
        st[UNSEEN_HI] &= ~(1 << (card - 56))
    tlen = st[TLEN]
    st[TRICK_SEAT + tlen] = seat
    st[TRICK_CARD + tlen] = card
    st[TLEN] = tlen + 1
    if card == st[CALLED]:
        st[REVEALED] = 1
    if card >= 56:
        if card != EXCUSE:
            if card > st[TOP]:
                st[TOP] = card
                st[TOP_SEAT] = seat
            if st[LED] < 0:
                st[LED] = 4
    elif st[LED] < 0:
        st[LED] = card // 14
    if tlen + 1 < st[ACTIVE]:
        st[TO_ACT] = st[NEXT + seat]
    else:
        _finish_trick(st)


@njit(cache=True)
def _note_void(st, seat: int, card: int) -> None:
    led = st[LED]
    if led >= 0 and card != EXCUSE:
        if led < 4:
            if not (card < 56 and card // 14 == led):
                if card >= 56:
                    st[VOIDS + seat] |= 1 << led
                else:
                    st[VOIDS + seat] |= (1 << led) | NO_TRUMP
        elif card < 56:
            st[VOIDS + seat] |= NO_TRUMP


@njit(cache=True)
def _known_friends(st, seat: int) -> int:
    taker = st[TAKER]
    if seat == taker:
        return 1 << seat
    if seat == st[PARTNER]:
        return (1 << seat) | (1 << taker)
    if st[ALONE]:
        mask = 0
        s = st[FIRST_SEAT]
        for _ in range(st[ACTIVE]):
            if s != taker:
                mask |= 1 << s
            s = st[NEXT + s]
        return mask
    return 1 << seat


@njit(cache=True)
def rules_card(st) -> int:
    """The rules-of-thumb card of the seat to act, knowing what it would know at the table."""
    seat = st[TO_ACT]
    hidden = st[CALLED] >= 0 and not st[REVEALED]
    friends = _known_friends(st, seat) if hidden else st[FRIENDS + seat]
    l_lo, l_hi = legal_cards(st, seat)
    out_lo = st[UNSEEN_LO] & ~st[HAND_LO + seat] & ~st[KNOWN_LO + seat]
    out_hi = st[UNSEEN_HI] & ~st[HAND_HI + seat] & ~st[KNOWN_HI + seat]
    return club_card(st, seat, l_lo, l_hi, friends, out_lo, out_hi)


@njit(cache=True)
def score_for(st, me: int) -> int:
    """``scoring.score(deal).scores[me]`` of the finished packed deal."""
    t_lo = st[PILE0_LO] | st[EXTRA_LO]
    t_hi = st[PILE0_HI] | st[EXTRA_HI]
    points = half_points(t_lo, t_hi) + st[SETTLED]
    bouts = popcount(t_hi & HI_BOUTS)
    taker_tricks = st[WON0]
    defence_tricks = st[WON1]
    if defence_tricks == 0:
        bonus = 400 if st[CHELEM] else 200
    elif st[CHELEM] or taker_tricks == 0:
        bonus = -200
    else:
        bonus = 0
    pab_trick = st[HAND_SIZE] - 1
    if st[EXCUSE_WON_LAST]:
        pab_trick -= 1
    pab = 0
    if st[PETIT_TRICK] == pab_trick:
        pab = 1 if st[PETIT_SIDE] == 0 else -1
    target = TARGET_BY_BOUTS[bouts]
    made = points >= 2 * target
    w = 1 if made else -1
    margin = (abs(points - 2 * target) + 1) // 2
    u = (w * (25 + margin) + 10 * pab) * st[MULT] + w * st[BONUS] + bonus
    if st[SIDE + me] < 0:
        return 0
    if me == st[TAKER]:
        if st[PARTNER] >= 0:
            return 2 * u
        return (st[ACTIVE] - 1) * u
    if me == st[PARTNER]:
        return u
    return -u


@njit(cache=True, nogil=True)
def play_out(st, me: int) -> int:
    """Play the packed deal ``st`` to its end in place by the rules of thumb; ``me``'s score."""
    while st[NTRICKS] < st[HAND_SIZE]:
        seat = st[TO_ACT]
        card = rules_card(st)
        _note_void(st, seat, card)
        play(st, card)
    return score_for(st, me)


@njit(cache=True, nogil=True)
def card_values(st, me: int, cards, out) -> None:
    """``me``'s score after each card of ``cards`` (``me`` to act), then the rules of thumb: ``out[i]``."""
    work = np.empty_like(st)
    for i in range(len(cards)):
        work[:] = st
        _note_void(work, me, cards[i])
        play(work, cards[i])
        out[i] = play_out(work, me)


@njit(cache=True, nogil=True)
def card_outcomes(st, me: int, cards, out, petit) -> None:
    """``card_values``, and after each card whether the Petit ended with ``me``'s side (1) or not (0):
    ``petit[i]``, the hint's and the analysis's chance that a bout falls (``reasons``)."""
    work = np.empty_like(st)
    for i in range(len(cards)):
        work[:] = st
        _note_void(work, me, cards[i])
        play(work, cards[i])
        out[i] = play_out(work, me)
        side = work[PETIT_SIDE]
        if side < 0:  # never played: in the dog of a Garde sans (the taker's) or a Garde contre (the defence's)
            side = 0 if work[EXTRA_HI] & HI_PETIT else 1
        petit[i] = 1 if side == work[SIDE + me] else 0


@njit(cache=True, nogil=True)
def ecart_values(st, me: int, h_lo: int, h_hi: int, ecart_lo, ecart_hi, out) -> None:
    """``me``'s score, as taker, after laying aside each écart (``ecart_lo[i]``, ``ecart_hi[i]``)
    from the cards ``h_lo``/``h_hi``, then the rules of thumb: ``out[i]``.  ``st`` is the world
    packed at its first card after any one of these écarts (they change only the taker's hand,
    its pile and what each seat knows lies in the écart)."""
    work = np.empty_like(st)
    for i in range(len(out)):
        work[:] = st
        e_lo = ecart_lo[i]
        e_hi = ecart_hi[i]
        work[HAND_LO + me] = h_lo & ~e_lo
        work[HAND_HI + me] = h_hi & ~e_hi
        work[EXTRA_LO] = e_lo
        work[EXTRA_HI] = e_hi
        s = work[FIRST_SEAT]
        for _ in range(work[ACTIVE]):
            work[KNOWN_LO + s] = e_lo if s == me else 0
            work[KNOWN_HI + s] = e_hi if s == me else e_hi & HI_TRUMPS
            s = work[NEXT + s]
        out[i] = play_out(work, me)


@njit(cache=True)
def exact(st, me: int) -> int:
    """``me``'s score with best play on both sides from the packed ``st`` (minimax over the world's
    true hands: for the last few cards, where it is cheap)."""
    if st[NTRICKS] >= st[HAND_SIZE]:
        return score_for(st, me)
    seat = st[TO_ACT]
    mine = st[SIDE + seat] == st[SIDE + me]
    l_lo, l_hi = legal_cards(st, seat)
    best = 0
    first = True
    child = np.empty_like(st)
    for word in range(2):
        m = l_lo if word == 0 else l_hi
        while m:
            c = lowest(m) + 56 * word
            m &= m - 1
            child[:] = st
            _note_void(child, seat, c)
            play(child, c)
            v = exact(child, me)
            if first or (v > best if mine else v < best):
                best = v
                first = False
    return best


@njit(cache=True, nogil=True)
def exact_values(st, me: int, cards, out) -> None:
    """``exact`` after each card of ``cards`` (``me`` to act): ``out[i]``."""
    work = np.empty_like(st)
    for i in range(len(cards)):
        work[:] = st
        _note_void(work, me, cards[i])
        play(work, cards[i])
        out[i] = exact(work, me)


@njit(cache=True, nogil=True)
def replay(st, seats, cards, me: int) -> int:
    """Play the cards ``seats[i]`` played (``cards[i]``) from the packed ``st``, judging each card
    of another seat than ``me`` against the rules of thumb (``sampling.replay_world``): the
    number of surprising cards, or -1 if a card cannot be played in this world."""
    surprises = 0
    for i in range(len(cards)):
        seat = seats[i]
        card = cards[i]
        if st[TO_ACT] != seat or st[NTRICKS] >= st[HAND_SIZE]:
            return -1
        l_lo, l_hi = legal_cards(st, seat)
        if not has(l_lo, l_hi, card):
            return -1
        if seat != me:
            guess = rules_card(st)
            alike = guess < 56 and card < 56 and guess // 14 == card // 14 and HALF[guess] == 1 and HALF[card] == 1
            if guess != card and not alike:
                surprises += 1
        _note_void(st, seat, card)
        play(st, card)
    return surprises


# ------------------------------------------------------------------ packing
def _poignee_bonus(deal: Deal, seat: int) -> int:
    """The bonus of the poignée the rules of thumb show for ``seat`` at its first card (0: none)."""
    return poignee_bonus(deal._poignee_pool(seat), deal.settings.poignees)


def poignee_bonus(pool: int, sizes) -> int:
    """The bonus of the largest poignée ``pool`` (a seat's trumps and Excuse) allows (0: none)."""
    trumps = (pool & ((1 << 77) - (1 << 56))).bit_count()
    has_excuse = pool >> EXCUSE & 1
    best_size, best_bonus = -1, 0
    for _, size, bonus in sizes:
        if (trumps >= size or (has_excuse and trumps == size - 1)) and size > best_size:
            best_size, best_bonus = size, bonus
    return best_bonus


def pack(deal: Deal, voids: list[int], skip: int = -1, poignees: bool = True) -> np.ndarray:
    """The play phase of ``deal`` (phase play, not over) as the state ``play_out`` plays.

    ``voids`` are the voids shown so far (``rollout.shown_voids``); the seats still to play
    their first card show their poignée as the rules of thumb do, but ``skip`` (without
    ``poignees``, nobody: the caller counts them, see ``first_trick_poignees``).
    """
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    n = deal.players
    taker = deal.taker
    to_act = deal.to_act
    assert taker is not None and to_act is not None, "the play has a taker and a seat to play"
    partner = deal.partner
    side = deal.side
    for seat in range(n):
        h = deal.hands[seat]
        st[HAND_LO + seat] = h & LO_BITS
        st[HAND_HI + seat] = h >> 56
        st[VOIDS + seat] = voids[seat]
        st[SIDE + seat] = side[seat]
        st[NEXT + seat] = deal._next[seat]
    known = deal.ecart & ((1 << 77) - (1 << 56))
    for seat in deal.seats:
        k = deal.ecart if seat == taker else known
        st[KNOWN_LO + seat] = k & LO_BITS
        st[KNOWN_HI + seat] = k >> 56
        f = 0
        for s in deal.seats:
            if side[s] == side[seat]:
                f |= 1 << s
        st[FRIENDS + seat] = f
    seen = deal.piles[0] | deal.piles[1]
    trick = deal.trick
    for i, (s, c) in enumerate(trick):
        st[TRICK_SEAT + i] = s
        st[TRICK_CARD + i] = c
        seen |= 1 << c
    unseen = ((1 << 78) - 1) & ~seen
    st[UNSEEN_LO] = unseen & LO_BITS
    st[UNSEEN_HI] = unseen >> 56
    st[TLEN] = len(trick)
    st[LED] = deal._led
    st[TOP] = deal._top_trump
    st[TOP_SEAT] = deal._top_trump_seat
    for p in range(2):
        st[PILE0_LO + 2 * p] = deal.piles[p] & LO_BITS
        st[PILE0_HI + 2 * p] = deal.piles[p] >> 56
    st[WON0], st[WON1] = deal._tricks_won
    st[NTRICKS] = len(deal.tricks)
    st[HAND_SIZE] = deal.settings.hand_size
    st[ACTIVE] = deal.settings.active
    st[DEBT] = deal._excuse_debt
    st[SETTLED] = deal._excuse_settled
    st[TO_ACT] = to_act
    st[TAKER] = taker
    st[PARTNER] = -1 if partner is None else partner
    st[CALLED] = -1 if deal.called is None else deal.called
    st[REVEALED] = int(deal.partner_revealed)
    st[ALONE] = int(bool(deal.dog_shown and deal.called is not None and deal.initial_dog >> deal.called & 1))
    st[MULT] = MULTIPLIERS[deal.contract]
    st[CHELEM] = int(bool(deal.chelem_announced))
    extra = deal.ecart
    if deal.contract == GARDE_SANS:  # the dog counts for the taker
        extra |= deal.dog
    st[EXTRA_LO] = extra & LO_BITS
    st[EXTRA_HI] = extra >> 56
    bonus = sum(b for *_, b in deal.poignees)
    if poignees and not deal.tricks:
        played = {s for s, _ in trick}
        for seat in deal.seats:
            if seat not in played and seat != skip and not deal._poignee_seats >> seat & 1:
                bonus += _poignee_bonus(deal, seat)
    st[BONUS] = bonus
    st[EXCUSE_RULE] = 1 if deal.rules.option("excuse_last_trick") == "trick_winner" else 0
    st[PETIT_TRICK] = -1
    st[PETIT_SIDE] = -1
    for i, t in enumerate(deal.tricks):
        if any(c == PETIT for _, c in t.plays):
            st[PETIT_TRICK] = i
            st[PETIT_SIDE] = side[t.winner]
    st[FIRST_SEAT] = deal.seats[0]
    assert deal.phase == PHASE_PLAY and TAKER_SIDE == 0
    return st


__all__ = [
    "STATE_SIZE",
    "card_values",
    "ecart_values",
    "exact",
    "exact_values",
    "pack",
    "play_out",
    "poignee_bonus",
    "replay",
]
