"""Club-player rules of thumb on bitmasks, shared by the heuristic robot and the expert's rollouts.

Everything here takes plain masks and seat numbers, never an ``Observation``
nor a ``Deal``: the heuristic robot feeds it what a seat may know, and the
expert's rollouts feed it a sampled world, thousands of times per decision,
so these functions must stay cheap.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import GARDE, GARDE_CONTRE, GARDE_SANS, PASS, PRISE
from ..engine.cards import (
    EXCUSE,
    EXCUSE_BIT,
    HALF_POINTS,
    KINGS,
    PETIT,
    PETIT_BIT,
    SUIT_MASKS,
    T21,
    TRUMPS,
)

T21_BIT = 1 << T21
HIGH_TRUMPS = sum(1 << c for c in range(T21 - 5, T21))  # trumps 16..20
TRUMP_VOID = 4  # bit 4 of a seat's void mask: no trump left

# Bidding thresholds at 4 players (hand-strength points), scaled by hand size elsewhere.
_THRESHOLDS = ((GARDE_CONTRE, 86), (GARDE_SANS, 74), (GARDE, 54), (PRISE, 43))


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _cards(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def points(mask: int) -> int:
    """Half-points of ``mask``."""
    total = 0
    while mask:
        low = mask & -mask
        total += HALF_POINTS[low.bit_length() - 1]
        mask ^= low
    return total


# ------------------------------------------------------------------ bidding
def hand_strength(hand: int, players: int) -> float:
    """The usual club count: bouts, trumps and their height, honours, long and short suits."""
    trumps = hand & TRUMPS
    n_trumps = trumps.bit_count()
    score = 2.0 * n_trumps + (hand & HIGH_TRUMPS).bit_count() * 1.5
    if hand & T21_BIT:
        score += 10
    if hand & EXCUSE_BIT:
        score += 8
    if hand & PETIT_BIT:
        # The Petit is a bout only if it survives: worth little with few trumps.
        score += 9 if n_trumps >= 7 else 6 if n_trumps >= 5 else 1
    for s in range(4):
        suit = hand & SUIT_MASKS[s]
        n = suit.bit_count()
        king = suit >> (14 * s + 13) & 1
        queen = suit >> (14 * s + 12) & 1
        knight = suit >> (14 * s + 11) & 1
        score += 6 * king + 3 * queen + 2 * knight + (suit >> (14 * s + 10) & 1)
        if king and queen:
            score += 1
        if n == 0:
            score += 6 if n_trumps >= 5 else 3
        elif n == 1 and not king:
            score += 3
        if n >= 5:
            score += 2 * (n - 4)
    # At five players the partner's help lowers the bar; normalise to an 18-card hand.
    scale = {3: 0.86, 4: 1.0, 5: 1.18}[players]
    return score * scale


def threshold(contract: int) -> float:
    """The hand strength from which the heuristic bids ``contract``."""
    return dict(_THRESHOLDS)[contract]


def choose_bid(hand: int, players: int, current: int, margin: float = 0.0) -> int:
    """The highest contract the hand is worth, if it overcalls ``current``; else pass."""
    strength = hand_strength(hand, players) + margin
    for contract, bar in _THRESHOLDS:
        if strength >= bar:
            return contract if contract > current else PASS
    return PASS


def choose_call(hand: int, callable_cards: list[int]) -> int:
    """Call the card whose suit the hand supports best, not one we hold."""
    best, best_score = callable_cards[0], -1e9
    for card in callable_cards:
        suit = SUIT_MASKS[card // 14]
        score = 0.0 if hand >> card & 1 else 100.0
        score += (hand & suit).bit_count() + points(hand & suit) / 4
        if score > best_score:
            best, best_score = card, score
    return best


# -------------------------------------------------------------------- écart
def choose_ecart(hand: int, allowed: int, count: int) -> int:
    """Void the shortest kingless suits, then bank unprotected honours, then low cards."""
    plain = allowed & ~TRUMPS
    chosen = 0
    if plain.bit_count() < count:
        # Forced to lay aside trumps: all plain cards and the lowest trumps.
        chosen = plain
        trumps = allowed & TRUMPS
        while chosen.bit_count() < count:
            low = trumps & -trumps
            chosen |= low
            trumps ^= low
        return chosen
    suits = []
    for s in range(4):
        in_suit = hand & SUIT_MASKS[s]
        if in_suit and not in_suit & KINGS and in_suit & ~plain == 0:
            suits.append((in_suit.bit_count(), -points(in_suit), s))
    suits.sort()
    for n, _, s in suits:
        if chosen.bit_count() + n <= count:
            chosen |= hand & SUIT_MASKS[s]
    return complete_ecart(hand, plain, count, chosen)


def complete_ecart(hand: int, plain: int, count: int, chosen: int) -> int:
    """Fill the écart ``chosen`` up to ``count`` from ``plain``: unprotected honours first
    (they are lost to the defence otherwise), then the shortest suits' cards."""
    rest = plain & ~chosen
    while chosen.bit_count() < count and rest:
        best, key = -1, None
        for c in _cards(rest):
            suit = hand & ~chosen & SUIT_MASKS[c // 14]
            k = (HALF_POINTS[c] if not suit & KINGS else 0, -suit.bit_count(), -(c % 14))
            if key is None or k > key:
                best, key = c, k
        chosen |= 1 << best
        rest &= ~(1 << best)
    return chosen


def choose_poignee_cards(pool: int, size: int) -> int:
    """``size`` cards of ``pool`` to show, hiding the bouts when we can."""
    trumps = pool & TRUMPS
    if trumps.bit_count() < size:
        return trumps | EXCUSE_BIT
    order = sorted(_cards(trumps), key=lambda c: (c in (PETIT, T21), c))
    out = 0
    for c in order[:size]:
        out |= 1 << c
    return out


# ------------------------------------------------------------- card play
def trick_winner(trick) -> tuple[int, int]:
    """(seat, card) winning ``trick`` so far (a list of (seat, card)); (-1, -1) if empty."""
    led = -1
    best_seat, best_card, best_key = -1, -1, -1
    for seat, card in trick:
        if card == EXCUSE:
            if best_seat < 0:
                best_seat, best_card = seat, card
            continue
        if led < 0:
            led = 4 if card >= 56 else card // 14
        if card >= 56:
            key = 100 + card
        elif card // 14 == led:
            key = card
        else:
            key = -1
        if key > best_key:
            best_seat, best_card, best_key = seat, card, key
    return best_seat, best_card


def led_suit(trick) -> int:
    for _, card in trick:
        if card != EXCUSE:
            return 4 if card >= 56 else card // 14
    return -1


def play_card(
    hand: int,
    legal: int,
    trick,
    me: int,
    friends: int,
    after: Sequence[int],
    out: int,
    taker: int,
    voids: list[int] | None = None,
) -> int:
    """A card of ``legal`` in the manner of a club player.

    ``friends`` is a seat mask of known allies (with ``me``); ``after`` the seats
    still to play this trick; ``out`` the cards not yet seen (others' hands and
    hidden écart/dog); ``voids[seat]`` bits 0-3 for suits, 4 for trumps.
    """
    if legal & (legal - 1) == 0:
        return _low(legal)
    n_hand = hand.bit_count()
    if legal & EXCUSE_BIT and n_hand == 2:
        return EXCUSE  # never keep the Excuse for the last trick
    if not trick or (len(trick) == 1 and trick[0][1] == EXCUSE):
        card = _lead(hand & ~EXCUSE_BIT or hand, me, friends, out, taker, voids)
        return card if legal >> card & 1 else _low(legal & ~EXCUSE_BIT or legal)
    enemies_after = any(not friends >> s & 1 for s in after)
    win_seat, win_card = trick_winner(trick)
    friend_wins = bool(friends >> win_seat & 1)
    led = led_suit(trick)
    out_trumps = out & TRUMPS
    pts = 0
    for _, c in trick:
        pts += HALF_POINTS[c]
    secure = friend_wins and (
        not enemies_after
        or (win_card >= 56 and win_card != EXCUSE and not out_trumps >> (win_card + 1))
        or (
            voids is not None
            and win_card < 56
            and not (out & SUIT_MASKS[led]) >> (win_card + 1)
            and all(friends >> s & 1 or not voids[s] & (1 << led) for s in after)
        )
    )
    plain = legal & ~EXCUSE_BIT
    if led < 4 and plain & SUIT_MASKS[led]:
        suit = plain & SUIT_MASKS[led]
        if secure:
            return _high(suit)  # points on the partner's trick
        if win_card < 56 or win_card == EXCUSE:
            top = _high(suit)
            if top > win_card:
                if not enemies_after:
                    return top
                higher_out = (out & SUIT_MASKS[led]) >> (top + 1)
                cut_risk = voids is not None and any(
                    not friends >> s & 1 and voids[s] & (1 << led) and not voids[s] & 16 for s in after
                )
                if not higher_out and not cut_risk:
                    return top
        low = _low(suit)
        if legal & EXCUSE_BIT and HALF_POINTS[low] >= 5 and not friend_wins:
            return EXCUSE
        return low
    if plain & TRUMPS:
        trumps = plain & TRUMPS
        petit = trumps & PETIT_BIT
        top_trump = win_card if 56 <= win_card < EXCUSE else -1
        # Save the Petit: on a partner's sure trick, or where nothing can beat it.
        if petit and (secure or (top_trump < 0 and not (enemies_after and out_trumps))):
            return PETIT
        rest = trumps & ~PETIT_BIT
        if not rest:
            if legal & EXCUSE_BIT and not friend_wins:
                return EXCUSE
            return PETIT
        if friend_wins and (secure or not enemies_after):
            return _low(rest)
        over = rest >> (top_trump + 1) << (top_trump + 1) if top_trump >= 0 else rest
        if over:
            if not enemies_after:
                return _low(over)
            master = over & ~((1 << _high(out_trumps) + 1) - 1) if out_trumps else over
            if master and (pts >= 8 or out & PETIT_BIT):
                return _low(master)
            return _low(over)
        low = _low(rest)
        if legal & EXCUSE_BIT and low == T21:
            return EXCUSE
        return low
    # Neither follow nor trump: discard.
    if friend_wins and (secure or not enemies_after):
        best, key = -1, None
        for c in _cards(plain):
            k = HALF_POINTS[c]
            if key is None or k > key:
                best, key = c, k
        return best
    best, key = -1, None
    for c in _cards(plain):
        suit_len = (hand & SUIT_MASKS[c // 14]).bit_count()
        k = (HALF_POINTS[c] if not _is_master(c, out) else HALF_POINTS[c] + 20, suit_len - 14, c % 14)
        if key is None or k < key:
            best, key = c, k
    if legal & EXCUSE_BIT and HALF_POINTS[best] >= 5:
        return EXCUSE
    return best


def _is_master(card: int, out: int) -> bool:
    return not (out & SUIT_MASKS[card // 14]) >> (card + 1)


def _lead(hand: int, me: int, friends: int, out: int, taker: int, voids) -> int:
    """The lead: the taker draws trumps when long and cashes kings; defenders cash and hunt."""
    trumps = hand & TRUMPS
    out_trumps = out & TRUMPS
    n_tr, n_out = trumps.bit_count(), out_trumps.bit_count()
    taker_side = bool(friends >> taker & 1)
    if trumps & PETIT_BIT and not out_trumps:
        return PETIT  # the Petit is master: bank it
    if taker_side:
        if trumps and n_out and n_tr > n_out:
            top = _high(trumps)
            if not out_trumps >> (top + 1):
                return top
            rest = trumps & ~PETIT_BIT
            if rest:
                return _low(rest)
        best, key = -1, None
        for s in range(4):
            suit = hand & SUIT_MASKS[s]
            if not suit:
                continue
            top = _high(suit)
            if _is_master(top, out) and (out & SUIT_MASKS[s]).bit_count() >= 6:
                k = (2, HALF_POINTS[top])
                c = top
            else:
                k = (1, -suit.bit_count())
                c = _low(suit)
            if key is None or k > key:
                best, key = c, k
        if best >= 0:
            return best
        rest = trumps & ~PETIT_BIT
        return _low(rest) if rest else _low(hand)
    # Defence.
    taker_void = voids[taker] if voids is not None else 0
    if out & PETIT_BIT and n_tr >= 4 and n_out <= 8 and trumps & ~PETIT_BIT:
        return _high(trumps & ~PETIT_BIT)  # hunt the Petit
    best, key = -1, None
    for s in range(4):
        suit = hand & SUIT_MASKS[s]
        if not suit:
            continue
        top = _high(suit)
        void_here = bool(taker_void >> s & 1)
        if not void_here and top % 14 == 13 and (out & SUIT_MASKS[s]).bit_count() >= 7:
            k = (3, 0)
            c = top
        elif void_here:
            k = (2, suit.bit_count())
            c = _low(suit)
        else:
            k = (1, suit.bit_count())
            c = _low(suit)
        if key is None or k > key:
            best, key = c, k
    if best >= 0:
        return best
    rest = trumps & ~PETIT_BIT
    return _low(rest) if rest else _low(hand)
