"""The rules engine: pure Python, no I/O.  See docs/rules.md for the rules it implements."""

from .actions import (
    CONTRACTS,
    GARDE,
    GARDE_CONTRE,
    GARDE_SANS,
    MULTIPLIERS,
    PASS,
    PRISE,
    Action,
    Bid,
    Call,
    Chelem,
    Choice,
    Discard,
    DiscardFrom,
    IllegalAction,
    PetitSecDecision,
    Play,
    Poignee,
    PoigneeFrom,
    contract_name,
)
from .deal import deal_cards, draw_first_dealer, new_seed
from .ecart import ecart_allowed, ecart_refusal
from .kinds import Contract, EcartRefusal, Phase, Void
from .observation import EcartShown, Observation
from .rules import OPTIONS, RuleError, RuleSet
from .scoring import Result
from .state import Deal, Trick, new_deal

__all__ = [
    "CONTRACTS",
    "GARDE",
    "GARDE_CONTRE",
    "GARDE_SANS",
    "MULTIPLIERS",
    "OPTIONS",
    "PASS",
    "PRISE",
    "Action",
    "Bid",
    "Call",
    "Chelem",
    "Choice",
    "Contract",
    "Deal",
    "Discard",
    "DiscardFrom",
    "EcartRefusal",
    "EcartShown",
    "IllegalAction",
    "Observation",
    "PetitSecDecision",
    "Phase",
    "Play",
    "Poignee",
    "PoigneeFrom",
    "Result",
    "RuleError",
    "RuleSet",
    "Trick",
    "Void",
    "contract_name",
    "deal_cards",
    "draw_first_dealer",
    "ecart_allowed",
    "ecart_refusal",
    "new_deal",
    "new_seed",
]  # fmt: skip
