"""The écart rule (docs/rules.md section 6), written once: which cards may be laid aside, and why not.

The deal checks an écart with it, the terminal and the browser explain a refused card with its
reasons, and the robots' compiled dealing (``bots.fastdeal``) keeps a copy that a test holds equal.
"""

from __future__ import annotations

from .cards import BOUTS, KINGS, TRUMPS
from .kinds import EcartRefusal


def ecart_allowed(hand: int, size: int) -> int:
    """The cards of ``hand`` (the taker's, dog included) that may go to an écart of ``size``:
    never a king nor a bout; trumps only when too few other cards may go."""
    plain = hand & ~TRUMPS & ~KINGS & ~BOUTS
    if plain.bit_count() >= size:
        return plain
    return plain | (hand & TRUMPS & ~BOUTS)


def ecart_refusal(hand: int, size: int, card: int, chosen: int = 0) -> EcartRefusal | None:
    """Why ``card`` may not join the écart of ``size`` that holds ``chosen`` so far (cards of ``hand``),
    or None when it may.  The refusals read ``ecart_allowed``: a card it leaves out is a king, a bout or
    a trump while enough other cards may go; and of the trumps it lets in, only as many may go as the
    other allowed cards fall short of ``size``."""
    bit = 1 << card
    if not hand & bit:
        return EcartRefusal.NOT_IN_HAND
    allowed = ecart_allowed(hand, size)
    if not allowed & bit:
        if bit & KINGS:
            return EcartRefusal.KING
        if bit & BOUTS:
            return EcartRefusal.BOUT
        return EcartRefusal.TRUMP
    if (chosen & ~bit).bit_count() >= size:
        return EcartRefusal.FULL
    if bit & TRUMPS and (chosen & TRUMPS & ~bit).bit_count() >= size - (allowed & ~TRUMPS).bit_count():
        return EcartRefusal.TRUMPS_ENOUGH
    return None


def ecart_refusals(hand: int, size: int) -> dict[int, EcartRefusal]:
    """Each card of ``hand`` that may never go to this écart, with the reason (what a client shows)."""
    out = {}
    bits = hand & ~ecart_allowed(hand, size)
    while bits:
        low = bits & -bits
        card = low.bit_length() - 1
        reason = ecart_refusal(hand, size, card)
        assert reason is not None
        out[card] = reason
        bits ^= low
    return out


def ecart_faults(hand: int, size: int, cards: int) -> dict[EcartRefusal, int]:
    """What is wrong with laying ``cards`` (as a set) aside from ``hand``: the cards refused, by reason;
    empty for a good écart of its size.  Suit cards are taken before trumps, so when a suit card that
    may go is kept, the trump laid aside in its place is the one refused."""
    chosen = 0
    out: dict[EcartRefusal, int] = {}
    for card in sorted(_cards(cards), key=lambda c: (bool(1 << c & TRUMPS), c)):
        reason = ecart_refusal(hand, size, card, chosen)
        if reason is None:
            chosen |= 1 << card
        else:
            out[reason] = out.get(reason, 0) | 1 << card
    return out


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


__all__ = ["ecart_allowed", "ecart_faults", "ecart_refusal", "ecart_refusals"]
