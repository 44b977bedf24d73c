"""Dealing: a pure function of (seed, dealer, rule set), the same on every machine.

The random stream is SHA-256 in counter mode over the seed's UTF-8 bytes, so
it depends on no library's internal generator and never changes within
record format 1.
"""

from __future__ import annotations

import hashlib
import secrets

from .cards import DECK_SIZE
from .rules import RuleSet


class SeedStream:
    """Unbiased integers from SHA-256(seed || counter), 32 bits at a time."""

    __slots__ = ("_counter", "_seed", "_words")

    def __init__(self, seed: str) -> None:
        self._seed = seed.encode("utf-8")
        self._counter = 0
        self._words: list[int] = []

    def _word(self) -> int:
        if not self._words:
            digest = hashlib.sha256(self._seed + b"/" + str(self._counter).encode()).digest()
            self._counter += 1
            self._words = [int.from_bytes(digest[i : i + 4], "big") for i in range(28, -1, -4)]
        return self._words.pop()

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) by rejection sampling."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            word = self._word()
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
    for i in range(DECK_SIZE - 1, 0, -1):  # Fisher-Yates
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]

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
    for p in range(packets):
        if p in chosen:
            dog |= 1 << deck[pos]
            pos += 1
        seat = order[p % settings.active]
        for card in deck[pos : pos + settings.packet]:
            hands[seat] |= 1 << card
        pos += settings.packet
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
