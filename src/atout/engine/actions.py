"""Actions: every decision of a deal is one (OpenSpiel style), plus the engine's errors."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import DECK_SIZE, FULL_DECK, card_code, codes
from .kinds import Contract


def _card_text(card: object) -> str:
    """A card's code, or its repr when it is no card: describing junk must never fail."""
    if type(card) is int and 0 <= card < DECK_SIZE:
        return card_code(card)
    return repr(card)


def _cards_text(cards: object) -> str:
    if type(cards) is int and 0 <= cards <= FULL_DECK:
        return " ".join(codes(cards))
    return repr(cards)


# The engine numbers the contracts (a deal compares and stores them as ints); their names and
# multipliers are ``kinds.Contract``'s.
PASS, PRISE, GARDE, GARDE_SANS, GARDE_CONTRE = (c.rank for c in Contract)
CONTRACTS: tuple[Contract, ...] = tuple(Contract)[1:]
"""The contracts one may bid, in rising order (a pass is none)."""
MULTIPLIERS = {c.rank: c.multiplier for c in CONTRACTS}


def contract_name(contract: int) -> str:
    """``pass``, ``prise``, ``garde``, ``garde_sans`` or ``garde_contre`` (a ``Contract``)."""
    if type(contract) is int and PASS <= contract <= GARDE_CONTRE:
        return Contract.of_rank(contract)
    return f"no contract {contract!r}"


class IllegalAction(ValueError):
    """An action the rules forbid; ``rule`` names the broken rule in a word or two."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


@dataclass(frozen=True, slots=True)
class Bid:
    """Pass (contract 0) or a contract 1..4; ``chelem`` only under chelem_announce=with_bid."""

    contract: int
    chelem: bool = False

    def __str__(self) -> str:
        return contract_name(self.contract) + (" + chelem" if self.chelem else "")


@dataclass(frozen=True, slots=True)
class PetitSecDecision:
    """Under petit_sec=holder_may_play: ``redeal`` True voids the deal."""

    redeal: bool

    def __str__(self) -> str:
        return "petit sec: " + ("redeal" if self.redeal else "play")


@dataclass(frozen=True, slots=True)
class Call:
    """The taker's called card at five players."""

    card: int

    def __str__(self) -> str:
        return "call " + _card_text(self.card)


@dataclass(frozen=True, slots=True)
class Discard:
    """The écart, as a bitmask of cards."""

    cards: int

    def __str__(self) -> str:
        return "discard " + _cards_text(self.cards)


@dataclass(frozen=True, slots=True)
class Chelem:
    """The taker announces a chelem (True) or not."""

    announce: bool

    def __str__(self) -> str:
        return "chelem" if self.announce else "no chelem"


@dataclass(frozen=True, slots=True)
class Poignee:
    """Trumps (and maybe the Excuse) shown as a poignée, as a bitmask."""

    cards: int

    def __str__(self) -> str:
        return "poignée " + _cards_text(self.cards)


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to the trick."""

    card: int

    def __str__(self) -> str:
        return _card_text(self.card)


@dataclass(frozen=True, slots=True)
class DiscardFrom:
    """Listed by ``legal_actions``: choose ``count`` cards of ``cards`` (every trump in
    ``forced_trumps`` is allowed only when too few other cards are)."""

    cards: int
    count: int


@dataclass(frozen=True, slots=True)
class PoigneeFrom:
    """Listed by ``legal_actions``: a poignée of one of ``sizes`` cards taken from ``cards``."""

    cards: int
    sizes: dict[str, int] = field(hash=False, compare=True)


Action = Bid | PetitSecDecision | Call | Discard | Chelem | Poignee | Play
Choice = Action | DiscardFrom | PoigneeFrom

PLAYS = tuple(Play(c) for c in range(78))
"""One shared Play per card, so the hot path allocates nothing."""
