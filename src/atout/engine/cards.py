"""Cards as small integers and hands as bitmasks.

Card numbering: suit cards are ``suit * 14 + rank - 1`` (suits S, H, D, C;
ranks 1..10, J=11, N=12, Q=13, K=14), trumps 1..21 are 56..76, the Excuse is
77.  Inside a suit and among trumps a higher number is a higher card, so trick
resolution is a max over integers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import compress

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
TRUMP_SUIT = 4
EXCUSE_SUIT = 5

PETIT = 56
T21 = 76
EXCUSE = 77
DECK_SIZE = 78

SUIT_MASKS = tuple(((1 << 14) - 1) << (14 * s) for s in range(4))
TRUMPS = ((1 << 21) - 1) << 56
EXCUSE_BIT = 1 << EXCUSE
PETIT_BIT = 1 << PETIT
FULL_DECK = (1 << DECK_SIZE) - 1
BOUTS = PETIT_BIT | (1 << T21) | EXCUSE_BIT
KINGS = sum(1 << (14 * s + 13) for s in range(4))

_RANK_CODES = {11: "J", 12: "N", 13: "Q", 14: "K"}
_CODE_RANKS = {v: k for k, v in _RANK_CODES.items()}
# French letters: Roi, Dame, Cavalier, Valet.
_FRENCH_RANKS = {"R": 14, "D": 13, "C": 12, "V": 11}


def holds_petit_sec(hand: int) -> bool:
    """Whether ``hand`` holds the petit sec: the Petit its only trump, and no Excuse (the deal may be void)."""
    return hand & TRUMPS == PETIT_BIT and not hand & EXCUSE_BIT


def suit_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (1..14) in ``suit`` (0..3)."""
    return suit * 14 + rank - 1


def trump(n: int) -> int:
    """Trump number ``n`` (1 = the Petit .. 21)."""
    return PETIT + n - 1


def suit_of(card: int) -> int:
    """0..3 for suit cards, TRUMP_SUIT for trumps, EXCUSE_SUIT for the Excuse."""
    if card < 56:
        return card // 14
    return TRUMP_SUIT if card < EXCUSE else EXCUSE_SUIT


def rank_of(card: int) -> int:
    """Rank 1..14 of a suit card, 1..21 of a trump, 0 for the Excuse."""
    if card < 56:
        return card % 14 + 1
    return card - 55 if card < EXCUSE else 0


def _half_points(card: int) -> int:
    if card == EXCUSE or card in (PETIT, T21):
        return 9
    if card < 56:
        return {14: 9, 13: 7, 12: 5, 11: 3}.get(card % 14 + 1, 1)
    return 1


HALF_POINTS = tuple(_half_points(c) for c in range(DECK_SIZE))
LOW_CARDS = sum(1 << c for c in range(DECK_SIZE) if HALF_POINTS[c] == 1)
"""Cards worth half a point: what the Excuse's owner gives in exchange."""


def card_code(card: int) -> str:
    """Canonical code: ``1S``..``KS``, ``T1``..``T21``, ``EX``."""
    if not 0 <= card < DECK_SIZE:
        raise ValueError(f"no card numbered {card}")
    if card == EXCUSE:
        return "EX"
    if card >= 56:
        return f"T{card - 55}"
    rank = card % 14 + 1
    return f"{_RANK_CODES.get(rank, str(rank))}{SUITS[card // 14]}"


_CANONICAL = {card_code(card): card for card in range(DECK_SIZE)}
"""Each card by its canonical code (``card_code``)."""


def french_name(card: int) -> str:
    """A short French label for display: ``R♠``, ``10♥``, ``21``, ``Ex``."""
    if card == EXCUSE:
        return "Ex"
    if card >= 56:
        return str(card - 55)
    rank = card % 14 + 1
    letter = {14: "R", 13: "D", 12: "C", 11: "V"}.get(rank, str(rank))
    return f"{letter}{SUIT_SYMBOLS[card // 14]}"


def english_name(card: int) -> str:
    """A short English label for display: ``K♠`` (king), ``Q♥`` (queen), ``C♦`` (knight), ``J♣`` (jack),
    ``10♥``, ``21``, ``Ex``: the letters an English-speaking player reads, on the site and in the terminal."""
    if card == EXCUSE:
        return "Ex"
    if card >= 56:
        return str(card - 55)
    rank = card % 14 + 1
    letter = {14: "K", 13: "Q", 12: "C", 11: "J"}.get(rank, str(rank))
    return f"{letter}{SUIT_SYMBOLS[card // 14]}"


def english_word(card: int) -> str:
    """A card in an English sentence, as the terminal names it everywhere but in the hand: ``K♠``, ``trump 19``,
    ``Excuse`` (a trump's bare number reads as a count: "Play 20")."""
    if card == EXCUSE:
        return "Excuse"
    if card >= 56:
        return f"trump {card - 55}"
    return english_name(card)


def parse_card(text: str) -> int:
    """Read a canonical or French card code; raise ValueError naming the bad code."""
    if not isinstance(text, str):
        raise ValueError(f"card code must be a string, not {text!r}")
    card = _CANONICAL.get(text)
    if card is not None:  # what clients send: looked up (a server parses a card per action)
        return card
    code = text.strip()
    upper = code.upper()
    if upper in ("EX", "EXCUSE"):
        return EXCUSE
    if upper.startswith("T") and upper[1:].isdigit():
        n = int(upper[1:])
        if 1 <= n <= 21:
            return trump(n)
    elif upper.isdigit():
        n = int(upper)
        if 1 <= n <= 21:
            return trump(n)
    elif len(code) >= 2:
        rank_text, suit_text = code[:-1].upper(), code[-1]
        suit = SUITS.find(suit_text.upper()) if suit_text.isascii() else SUIT_SYMBOLS.find(suit_text)
        if suit >= 0:
            if suit_text in SUIT_SYMBOLS and rank_text in _FRENCH_RANKS:
                return suit_card(_FRENCH_RANKS[rank_text], suit)
            if rank_text in _CODE_RANKS:
                return suit_card(_CODE_RANKS[rank_text], suit)
            if rank_text.isdigit() and 1 <= int(rank_text) <= 10:
                return suit_card(int(rank_text), suit)
    raise ValueError(f"unknown card code {text!r}")


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask holding ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


_BIT_BYTES = bytes.maketrans(b"01", b"\x00\x01")
_CARDS = range(DECK_SIZE)


def _digits(mask: int) -> bytes:
    """``mask``'s bits as 0/1 bytes, card 0 first: a selector for ``itertools.compress``,
    which walks the bits in C rather than one Python step per card."""
    return bin(mask)[:1:-1].encode().translate(_BIT_BYTES)


def cards_of(mask: int) -> list[int]:
    """The cards of ``mask``, lowest number first."""
    if mask < 0:
        raise ValueError(f"a set of cards is a non-negative mask, not {mask}")
    if mask.bit_count() > 4:  # the loop in C: bits as 0/1 bytes, lowest first
        return list(compress(_CARDS, _digits(mask)))
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    """Iterate the cards of ``mask``, lowest number first."""
    if mask < 0:
        raise ValueError(f"a set of cards is a non-negative mask, not {mask}")
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    """How many cards ``mask`` holds."""
    return mask.bit_count()


def half_points(mask: int) -> int:
    """Card points of ``mask`` in half-points (the deck totals 182)."""
    if mask < 0:
        raise ValueError(f"a set of cards is a non-negative mask, not {mask}")
    return sum(compress(HALF_POINTS, _digits(mask)))


def codes(mask: int) -> list[str]:
    """Canonical codes of ``mask`` in card order (the server writes a hand per viewer per event)."""
    if not 0 <= mask <= FULL_DECK:
        raise ValueError(f"a set of cards is a mask of 78 bits, not {mask}")
    return list(compress(_CODES, _digits(mask)))


def parse_cards(texts: Iterable[str]) -> list[int]:
    return [parse_card(t) for t in texts]


# Display order for a hand: trumps high to low, the Excuse, then suits.
def display_order(mask: int) -> list[int]:
    """Cards sorted as a player holds them: trumps (high first), Excuse, S, H, C, D."""
    trumps = sorted(iter_cards(mask & TRUMPS), reverse=True)
    excuse = [EXCUSE] if mask & EXCUSE_BIT else []
    suits = []
    for s in (SPADES, HEARTS, CLUBS, DIAMONDS):  # alternate colours
        suits += sorted(iter_cards(mask & SUIT_MASKS[s]), reverse=True)
    return trumps + excuse + suits


_CODES = tuple(card_code(c) for c in range(DECK_SIZE))
