"""Dealing: a pure function of (seed, dealer, rule set), the same on every machine.

The random source is SHAKE-256 over ``"atout-deal/1/" + seed`` (UTF-8), read
as big-endian 64-bit keys: the first 78 order the deck (card c gets key c,
cards sorted by key, ties by card number), the next ones choose the dog's
places.  Sorting by independent random keys gives every order of the deck
the same chance, and it depends on no library's generator, so a seed deals
the same cards on every machine and in every version of record format 1.
"""

from __future__ import annotations

import hashlib
import secrets
import struct

from .cards import DECK_SIZE
from .rules import RuleSet

DOMAIN = b"atout-deal/1/"


def seed_keys(seed: str, count: int, domain: bytes = DOMAIN) -> tuple[int, ...]:
    """``count`` 64-bit keys from SHAKE-256(domain + seed)."""
    data = hashlib.shake_256(domain + seed.encode("utf-8")).digest(8 * count)
    return struct.unpack(f">{count}Q", data)


def new_seed() -> str:
    """A fresh seed from a cryptographically strong source."""
    return secrets.token_hex(16)


def _order(keys: tuple[int, ...], count: int) -> list[int]:
    """0 .. count-1 sorted by key; the sort is stable, so equal keys keep number order."""
    return sorted(range(count), key=keys.__getitem__)


# For each (players dealt, packet size, hand size): whose packet each position of
# the dealt sequence (the deck without the dog) falls in, as 1 + the position
# of that player from the dealer's right.
_PACKET_OWNERS: dict[tuple[int, int, int], bytes] = {}
# Reading a card-owner byte string as a binary number: owner k's cards become 1s.
_OWNED_BY = tuple(bytes.maketrans(bytes(range(256)), bytes(49 if b == k else 48 for b in range(256))) for k in range(6))


def _packet_owners(active: int, packet: int, hand: int) -> bytes:
    key = (active, packet, hand)
    if key not in _PACKET_OWNERS:
        _PACKET_OWNERS[key] = bytes(1 + (j // packet) % active for j in range(active * hand))
    return _PACKET_OWNERS[key]


def _mask_owned(owner: bytearray, k: int) -> int:
    """The cards whose owner byte is ``k``, as a mask (card 0 is the last digit)."""
    return int(owner[::-1].translate(_OWNED_BY[k]), 2)


def deal_cards(seed: str, dealer: int, rules: RuleSet) -> tuple[list[int], int]:
    """Shuffle and deal: each seat's hand as a bitmask, and the dog.

    Packets go round the table from the dealer's right (seat dealer + 1);
    dog cards go one at a time into distinct gaps between packets, never
    first nor last.  Under ``deal_emulation=uniform`` the dog is simply the
    last cards.  Under ``dealer_sits_out`` the dealer gets no cards.
    """
    if not isinstance(seed, str):
        raise ValueError(f"seed must be a string, not {seed!r}")
    if not (isinstance(dealer, int) and 0 <= dealer < rules.players):
        raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
    settings = rules.settings
    packets = settings.active * settings.hand_size // settings.packet
    keys = seed_keys(seed, DECK_SIZE + packets - 1)
    deck = _order(keys, DECK_SIZE)

    # Who receives each position of the shuffled deck: 0 the dog, k the k-th player.
    owners = bytearray(_packet_owners(settings.active, settings.packet, settings.hand_size))
    if rules.option("deal_emulation") == "uniform":
        owners += bytes(settings.dog_size)
    else:
        gap_keys = keys[DECK_SIZE:]  # gap g (0 .. packets - 2) lies after packet g
        gaps = sorted(_order(gap_keys, packets - 1)[: settings.dog_size])
        # The k-th dog card (k = 0, 1, ...) sits after packet g, behind the k dog cards before it.
        for k, g in enumerate(gaps):
            owners.insert((g + 1) * settings.packet + k, 0)
    owner = bytearray(DECK_SIZE)
    for card, k in zip(deck, owners, strict=True):
        owner[card] = k

    n = rules.players
    order = [(dealer + 1 + k) % n for k in range(n)]
    if rules.dealer_sits_out:
        order.remove(dealer)
    hands = [0] * n
    for k, seat in enumerate(order, start=1):
        hands[seat] = _mask_owned(owner, k)
    return hands, _mask_owned(owner, 0)


def draw_first_dealer(seed: str, players: int) -> int:
    """Emulate the draw for the first dealer: lowest card deals (docs/rules.md section 3).

    Suit cards rank below trumps; among equal ranks spades > hearts >
    diamonds > clubs break the tie (clubs draw lowest); the Excuse draws again.
    """
    keys = seed_keys(seed, DECK_SIZE, domain=b"atout-first-dealer/1/")
    drawn = [c for c in _order(keys, DECK_SIZE) if c != 77][:players]

    def weight(card: int) -> tuple[int, int, int]:
        if card >= 56:
            return (1, card - 55, 0)
        return (0, card % 14 + 1, -(card // 14))

    return min(range(players), key=lambda s: weight(drawn[s]))
