"""Dealing: a pure function of (seed, dealer, rule set), the same on every machine.

The random stream is SHA-256 in counter mode over the seed's UTF-8 bytes, so
it depends on no library's internal generator and never changes within
record format 1.
"""

from __future__ import annotations

import hashlib
import secrets
import struct

from .cards import DECK_SIZE
from .rules import RuleSet

_LIMITS = tuple(4294967296 - 4294967296 % n if n else 0 for n in range(80))
"""For each n, the words below which ``word % n`` is unbiased."""


class SeedStream:
    """Unbiased integers from SHA-256(seed "/" counter), read as big-endian 32-bit words."""

    __slots__ = ("_counter", "_pos", "_seed", "_words")

    def __init__(self, seed: str, blocks: int = 11) -> None:
        self._seed = seed.encode("utf-8")
        self._counter = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0
        self._refill(blocks)  # 88 words: a whole deal needs about 83

    def _refill(self, blocks: int) -> None:
        seed = self._seed + b"/"
        data = b"".join(
            hashlib.sha256(seed + str(self._counter + i).encode()).digest() for i in range(blocks)
        )
        self._counter += blocks
        self._words = self._words[self._pos :] + struct.unpack(f">{8 * blocks}I", data)
        self._pos = 0

    def shuffle(self, deck: list[int]) -> None:
        """Fisher-Yates over ``deck`` in place: position i swaps with ``below(i + 1)``.

        The same draws as calling ``below`` in a loop, with the loop kept local
        because dealing is on every simulated deal's path.
        """
        words, pos = self._words, self._pos
        for i in range(len(deck) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n]
            while True:
                if pos >= len(words):
                    self._pos = pos
                    self._refill(1)
                    words, pos = self._words, self._pos
                word = words[pos]
                pos += 1
                if word < limit:
                    break
            j = word % n
            deck[i], deck[j] = deck[j], deck[i]
        self._pos = pos

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) by rejection sampling."""
        limit = _LIMITS[n] if n < len(_LIMITS) else 4294967296 - 4294967296 % n
        while True:
            if self._pos >= len(self._words):
                self._refill(1)
            word = self._words[self._pos]
            self._pos += 1
            if word < limit:
                return word % n


def new_seed() -> str:
    """A fresh seed from a cryptographically strong source."""
    return secrets.token_hex(16)


def deal_cards(seed: str, dealer: int, rules: RuleSet) -> tuple[list[int], int]:
    """Shuffle and deal: each seat's hand as a bitmask, and the dog.

    Packets go round the table from the dealer's right (seat dealer + 1);
    dog cards go one at a time into distinct gaps between packets, never
    first nor last.  Under ``dealer_sits_out`` the dealer gets no cards.
    """
    if not isinstance(seed, str):
        raise ValueError(f"seed must be a string, not {seed!r}")
    if not (isinstance(dealer, int) and 0 <= dealer < rules.players):
        raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
    stream = SeedStream(seed)
    deck = list(range(DECK_SIZE))
    stream.shuffle(deck)

    settings = rules.settings
    n = rules.players
    order = [(dealer + 1 + k) % n for k in range(n)]
    if rules.dealer_sits_out:
        order.remove(dealer)
    hands = [0] * n
    dog = 0
    if rules.option("deal_emulation") == "uniform":
        for k, seat in enumerate(order):
            for card in deck[k * settings.hand_size : (k + 1) * settings.hand_size]:
                hands[seat] |= 1 << card
        for card in deck[settings.active * settings.hand_size :]:
            dog |= 1 << card
        return hands, dog

    packets = settings.active * settings.hand_size // settings.packet
    gaps = list(range(1, packets))  # gap g lies after packet g - 1
    chosen = set()
    for _ in range(settings.dog_size):
        chosen.add(gaps.pop(stream.below(len(gaps))))
    pos = 0
    size = settings.packet
    active = settings.active
    bits = [1 << card for card in deck]
    for p in range(packets):
        if p in chosen:
            dog |= bits[pos]
            pos += 1
        seat = order[p % active]
        hand = hands[seat]
        for k in range(pos, pos + size):
            hand |= bits[k]
        hands[seat] = hand
        pos += size
    return hands, dog


def draw_first_dealer(seed: str, players: int) -> int:
    """Emulate the draw for the first dealer: lowest card deals (RULES.md section 3).

    Suit cards rank below trumps; among equal ranks spades > hearts >
    diamonds > clubs break the tie (the lower suit draws lower); the Excuse
    draws again.
    """
    stream = SeedStream("first-dealer/" + seed)
    deck = list(range(DECK_SIZE))
    drawn: list[int] = []
    for _ in range(players):
        while True:
            card = deck.pop(stream.below(len(deck)))
            if card != 77:
                break
        drawn.append(card)

    def weight(card: int) -> tuple[int, int, int]:
        # (suit card or trump, rank, tie-break): clubs draw lowest, spades highest.
        if card >= 56:
            return (1, card - 55, 0)
        return (0, card % 14 + 1, -(card // 14))

    return min(range(players), key=lambda s: weight(drawn[s]))
