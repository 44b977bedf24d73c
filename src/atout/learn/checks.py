"""The tests a lesson's outcomes are made of, in tarot's terms: which card, which bid, what an écart holds,
which count. Each is a function of the deal as the step found it and the learner's answer; the counts are
the engine's own (``engine.cards``, ``engine.scoring``), so a lesson's figures cannot disagree with a table.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Deal
from ..engine.cards import BOUTS, EXCUSE, TRUMPS, half_points, mask_of, parse_card
from .lesson import Answer, Outcome, Test


def mask(text: str) -> int:
    """The cards of ``text`` (codes, space separated) as a mask."""
    return mask_of(parse_card(c) for c in text.split())


def right(test: Test, key: str = "right") -> Outcome:
    return Outcome(test, key, True)


def wrong(test: Test, key: str) -> Outcome:
    return Outcome(test, key, False)


def card(text: str) -> Test:
    """The answer is one of these cards."""
    cards = mask(text)
    return lambda deal, answer: answer.card is not None and bool(cards >> answer.card & 1)


def any_answer() -> Test:
    """Any answer (the engine's rules judged it first): the last outcome of a step, it leaves no answer to
    the step's ``otherwise``."""

    def anything(deal: Deal, answer: Answer) -> bool:
        return True

    anything.catch_all = True  # type: ignore[attr-defined]
    return anything


def trump() -> Test:
    """The answer is a trump (not the Excuse)."""
    return lambda deal, answer: answer.card is not None and bool(TRUMPS >> answer.card & 1)


def excuse() -> Test:
    return lambda deal, answer: answer.card == EXCUSE


def bout() -> Test:
    return lambda deal, answer: answer.card is not None and bool(BOUTS >> answer.card & 1)


def bid(*names: str) -> Test:
    """The answer is one of these bids (``Contract`` names)."""
    return lambda deal, answer: answer.bid in names


def holds(text: str) -> Test:
    """The chosen cards (an écart, a poignée) include every one of these."""
    cards = mask(text)
    return lambda deal, answer: answer.cards is not None and answer.cards & cards == cards


def misses(text: str) -> Test:
    """The chosen cards (an écart) leave out one of these at least."""
    cards = mask(text)
    return lambda deal, answer: answer.cards is not None and answer.cards & cards != cards


def choice(*values: str) -> Test:
    return lambda deal, answer: answer.choice in values


def counted(count: Callable[[Deal], float | int | str]) -> Test:
    """The answer is what ``count`` finds in the deal (a number's text: "8.5", "41")."""
    return lambda deal, answer: answer.choice == figure(count(deal))


def figure(value: float | int | str) -> str:
    """A count as an option's text: ``8``, ``8.5``, ``-52``."""
    if isinstance(value, str):
        return value
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# ------------------------------------------------------------------ the counts lessons ask for
def trick_points(deal: Deal, index: int = -1) -> float:
    """The card points of a finished trick (``index``: the last one by default), every card counted."""
    return half_points(mask_of(c for _, c in deal.tricks[index].plays)) / 2


def hand_points(deal: Deal, seat: int, cards: int = -1) -> float:
    """The card points of ``seat``'s cards among ``cards`` (all its hand by default)."""
    return half_points(deal.hands[seat] & cards) / 2


def options_around(count: Callable[[Deal], float], *steps: float) -> Callable[[Deal], tuple[str, ...]]:
    """Options for a count made from the deal: the right one and others ``steps`` away, rising."""

    def options(deal: Deal) -> tuple[str, ...]:
        value = count(deal)
        return tuple(figure(v) for v in sorted({value, *(value + s for s in steps)}))

    return options


__all__ = [
    "any_answer",
    "bid",
    "bout",
    "card",
    "choice",
    "counted",
    "excuse",
    "figure",
    "hand_points",
    "holds",
    "mask",
    "misses",
    "options_around",
    "right",
    "trick_points",
    "trump",
    "wrong",
]
