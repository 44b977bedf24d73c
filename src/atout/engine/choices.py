"""Turning the ``*From`` entries of ``legal_actions`` into concrete actions."""

from __future__ import annotations

import random

from .actions import Action, Choice, Discard, DiscardFrom, Play, Poignee, PoigneeFrom
from .cards import EXCUSE_BIT, TRUMPS, cards_of, mask_of


def random_discard(choice: DiscardFrom, rng: random.Random) -> Discard:
    """A uniformly drawn legal écart: all plain cards first when trumps are needed."""
    plain = choice.cards & ~TRUMPS
    plain_cards = cards_of(plain)
    if len(plain_cards) >= choice.count:
        return Discard(mask_of(rng.sample(plain_cards, choice.count)))
    trumps = rng.sample(cards_of(choice.cards & TRUMPS), choice.count - len(plain_cards))
    return Discard(plain | mask_of(trumps))


def random_poignee(choice: PoigneeFrom, rng: random.Random, size: str | None = None) -> Poignee:
    """A legal poignée of ``size`` (drawn at random if None) from ``choice``."""
    name = size if size is not None else rng.choice(sorted(choice.sizes))
    n = choice.sizes[name]
    trumps = cards_of(choice.cards & TRUMPS)
    if len(trumps) >= n:
        return Poignee(mask_of(rng.sample(trumps, n)))
    return Poignee(mask_of(trumps) | EXCUSE_BIT)


def concrete(choice: Choice, rng: random.Random) -> Action:
    """``choice`` itself, or a random concrete action for a ``*From`` entry."""
    if isinstance(choice, DiscardFrom):
        return random_discard(choice, rng)
    if isinstance(choice, PoigneeFrom):
        return random_poignee(choice, rng)
    return choice


def random_action(legal: list[Choice] | tuple[Choice, ...], rng: random.Random) -> Action:
    """Uniform over the legal entries, then a random concrete action."""
    choice = legal[int(rng.random() * len(legal))]
    if type(choice) is Play:
        return choice
    return concrete(choice, rng)


def random_card(mask: int, rng: random.Random) -> int:
    """A uniformly drawn card of ``mask`` (non-empty): the fast path for random playouts."""
    k = int(rng.random() * mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1
