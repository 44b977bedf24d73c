"""The hint that explains itself: the expert's choice and, in one line, why.

``explain(observation)`` runs the expert's search for the seat to act and says
what its choice is worth against the best other option, e.g. ``"Garde:
expected +62 over passing"``.  The terminal game and the online tables can
show the line as it is.
"""

from __future__ import annotations

from ..engine import (
    PASS,
    Action,
    Bid,
    Call,
    Chelem,
    Discard,
    Observation,
    PetitSecDecision,
    Play,
    Poignee,
)
from ..engine.actions import CONTRACTS
from ..engine.cards import EXCUSE, cards_of, english_word
from .expert import NO_POIGNEE, ExpertBot, Search

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


def explain_search(action: Action, search: Search | None, legal_count: int) -> str:
    """The line for ``action`` given the search that chose it (None: chosen without one)."""
    words = action_words(action)
    if search is None or len(search.actions) < 2:
        if legal_count <= 1:
            return f"{words}: the only legal choice"
        if type(action) is Bid and action.contract == PASS:
            return "Pass: the hand is far from a Prise"
        if type(action) is Chelem and not action.announce:
            return "No chelem: the hand is far from one"
        if type(action) is Play:
            return f"{words}: the legal cards are all alike here"
        return f"{words}: the only sensible choice"
    acts = search.actions
    chosen = acts.index(action) if action in acts else (acts.index(NO_POIGNEE) if NO_POIGNEE in acts else 0)
    if type(acts[chosen]) is Bid and acts[chosen].contract != PASS and Bid(PASS) in acts:
        other = acts.index(Bid(PASS))
        against = "passing"
    else:
        rest = [i for i in range(len(acts)) if i != chosen]
        other = max(rest, key=lambda i: search.means[i])
        against = action_words(acts[other])
        if type(acts[other]) is Bid and acts[other].contract == PASS:
            against = "passing"
    gain = search.means[chosen] - search.means[other]
    label = action_words(acts[chosen])
    if acts[chosen] is NO_POIGNEE:
        label = f"{label}, then {words[0].lower()}{words[1:]}"
    if abs(gain) < 0.5:
        return f"{label}: as good as {against[0].lower()}{against[1:]} ({search.worlds} deals searched)"
    return f"{label}: expected {gain:+.0f} over {against[0].lower()}{against[1:]} ({search.worlds} deals searched)"


def explain(observation: Observation, seed: int | str | None = "hint",
            budget: float | None = None) -> tuple[Action, str]:
    """The expert's action for ``observation.seat`` and a one-line reason for it.

    Deterministic for a seed without a budget; ``budget`` (seconds) bounds the search.
    """
    bot = ExpertBot(seed)
    action = bot.choose(observation, budget)
    return action, explain_search(action, bot.last_search, len(observation.legal))
