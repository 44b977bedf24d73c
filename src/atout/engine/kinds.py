"""The game's closed sets, which the engine, the robots, the server and the clients' views share, as string
enums (the site's own, a table's status or its events, are in ``server/kinds.py``).

A leaf module: it imports nothing of the project, so every layer may import it.  A ``StrEnum`` member
is its string, so the JSON, the records and the stored rows keep the same text; code names the member
instead of repeating the literal.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a deal stands: what it waits for next."""

    PETIT_SEC = "petit_sec"
    BIDDING = "bidding"
    CALL = "call"
    DISCARD = "discard"
    CHELEM = "chelem"
    PLAY = "play"
    END = "end"


class Contract(StrEnum):
    """A bid, from a pass to the garde contre, in rising order; the engine counts them 0 to 4."""

    PASS = "pass"
    PRISE = "prise"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"

    @property
    def rank(self) -> int:
        """The engine's number for the contract: 0 for a pass, 1 for a prise ... 4 for a garde contre."""
        return _RANKS[self]

    @property
    def multiplier(self) -> int:
        """What the deal's score is multiplied by (docs/rules.md section 4); 0 for a pass."""
        return _MULTIPLIERS[self]

    @property
    def dog(self) -> Dog:
        """What becomes of the dog under this contract (docs/rules.md section 4)."""
        return _DOGS[self]

    @classmethod
    def of_rank(cls, rank: int) -> Contract:
        """The contract the engine numbers ``rank`` (0 to 4)."""
        return _CONTRACT_ORDER[rank]


class Dog(StrEnum):
    """What becomes of the dog: shown and taken into the taker's hand (who then lays an écart aside), or
    left unseen and counted for the taker, or for the defence."""

    TAKEN = "taken"
    TAKER = "taker"
    DEFENCE = "defence"


_CONTRACT_ORDER: tuple[Contract, ...] = tuple(Contract)
_RANKS = {contract: rank for rank, contract in enumerate(_CONTRACT_ORDER)}
# The one place the multipliers are written: the engine's scoring and every client read them from here.
_MULTIPLIERS = {
    Contract.PASS: 0,
    Contract.PRISE: 1,
    Contract.GARDE: 2,
    Contract.GARDE_SANS: 4,
    Contract.GARDE_CONTRE: 6,
}
# The one place the dog's fate is written: the deal (shown and taken, or not) and the count read it.
_DOGS = {
    Contract.PASS: Dog.TAKEN,
    Contract.PRISE: Dog.TAKEN,
    Contract.GARDE: Dog.TAKEN,
    Contract.GARDE_SANS: Dog.TAKER,
    Contract.GARDE_CONTRE: Dog.DEFENCE,
}


class Void(StrEnum):
    """Why a deal ended before its first card."""

    ALL_PASS = "all_pass"
    PETIT_SEC = "petit_sec"


class EcartRefusal(StrEnum):
    """Why a card may not go to the écart (``engine.ecart.ecart_refusal``)."""

    NOT_IN_HAND = "not_in_hand"
    KING = "king"  # a king never goes
    BOUT = "bout"  # nor a bout (the 21, the Petit, the Excuse)
    TRUMP = "trump"  # a trump goes only when too few other cards may
    TRUMPS_ENOUGH = "trumps_enough"  # as many trumps as the écart needs are chosen already
    FULL = "full"  # the écart has its cards already


class Side(StrEnum):
    """The two sides of a deal: the taker's (with a called partner at five) and the defence."""

    TAKER = "taker"
    DEFENCE = "defence"


class ChelemOutcome(StrEnum):
    """A chelem's outcome as a result names it (docs/rules.md section 11); no chelem is none of these."""

    ANNOUNCED_MADE = "announced_made"
    MADE = "made"  # every trick to the taker's side, unannounced
    ANNOUNCED_FAILED = "announced_failed"
    DEFENCE = "defence"  # every trick to the defence


class DecisionKind(StrEnum):
    """What a seat decides (the arena times them apart; the analysis marks each)."""

    BID = "bid"
    CALL = "call"
    ECART = "ecart"
    CHELEM = "chelem"
    POIGNEE = "poignee"
    PETIT_SEC = "petit_sec"
    CARD = "card"


class Mark(StrEnum):
    """How bad a decision was, by what it cost in expected points (``bots.analysis``), mildest first."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


__all__ = ["ChelemOutcome", "Contract", "DecisionKind", "Dog", "EcartRefusal", "Mark", "Phase", "Side", "Void"]
