"""Actions in short English words, as a player says them: the analysis's file and the terminal's lists.

Why a choice is good is ``reasons`` (the search's own figures), worded by each client; the hint that
gives it is ``hint``.
"""

from __future__ import annotations

from ..engine import (
    PASS,
    Bid,
    Call,
    Chelem,
    Discard,
    PetitSecDecision,
    Play,
    Poignee,
)
from ..engine.actions import CONTRACTS
from ..engine.cards import EXCUSE, cards_of, english_word
from .expert import NO_POIGNEE

_CONTRACT_WORDS = {PASS: "Pass", **{i + 1: name.replace("_", " ").capitalize() for i, name in enumerate(CONTRACTS)}}


def action_words(action: object) -> str:
    """A short label for an action, as a player would say it and the terminal names cards ("Garde", "Play K♥",
    "Play trump 20", "Écart 3♠ 5♠ …")."""
    if action is NO_POIGNEE:
        return "Keep the poignée hidden"
    if type(action) is Bid:
        return _CONTRACT_WORDS.get(action.contract, str(action)) + (" with a chelem" if action.chelem else "")
    if type(action) is Play:
        return f"Play {english_word(action.card)}"
    if type(action) is Call:
        return f"Call {english_word(action.card)}"
    if type(action) is Discard:
        return "Écart " + _cards_words(action.cards)
    if type(action) is Poignee:
        return f"Show a poignée of {action.cards.bit_count()}"
    if type(action) is Chelem:
        return "Announce a chelem" if action.announce else "No chelem"
    if type(action) is PetitSecDecision:
        return "Redeal (petit sec)" if action.redeal else "Play on with the petit sec"
    return str(action)


def _cards_words(cards: int) -> str:
    """Cards as the terminal names them, trumps grouped first: ``trumps 5 3, 2♠ 7♠`` (``trump 5, 2♠``)."""
    trumps = [c for c in reversed(cards_of(cards)) if 56 <= c < EXCUSE]
    others = " ".join(english_word(c) for c in cards_of(cards) if not 56 <= c < EXCUSE)
    group = ("trump " if len(trumps) == 1 else "trumps ") + " ".join(str(c - 55) for c in trumps) if trumps else ""
    return ", ".join(part for part in (group, others) if part)
