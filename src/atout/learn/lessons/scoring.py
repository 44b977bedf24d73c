"""Lesson 11: scoring a deal: the bouts and the target, made or failed and by how much, the deal's value, the shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ...engine import Deal
from ...engine.cards import EXCUSE_BIT, TRUMPS, codes
from ..checks import counted, options_around, right
from ..lesson import LEARNER, Answer, Ask, At, Lesson, Step


class Figures(NamedTuple):
    """What the engine's scorer found in the finished deal, the figures each question asks for."""

    bouts: int
    points: float
    target: int
    made: bool
    margin: int
    k: int
    unit: int
    score: int


def figures(deal: Deal) -> Figures:
    r = deal.result
    assert r is not None and r.bouts is not None and r.points is not None and r.target is not None, (
        "the scoring lesson asks its questions once the deal is over"
    )
    assert r.made is not None and r.margin is not None and r.multiplier is not None and r.unit is not None
    return Figures(r.bouts, r.points, r.target, r.made, r.margin, r.multiplier, r.unit, r.scores[LEARNER])


def _figure(name: str) -> Callable[[Deal], float]:
    return lambda deal: getattr(figures(deal), name)


def _args(deal: Deal, _answer: Answer | None) -> dict[str, Any]:
    """What the questions tell: the pile's trumps, then each figure (a question names only what it gives)."""
    pile = deal.piles[0] | deal.ecart  # the taker's side's cards: its tricks and its écart
    return {"trumps": codes(pile & (TRUMPS | EXCUSE_BIT)), **figures(deal)._asdict()}


def _shares(deal: Deal) -> tuple[str, ...]:
    """The deal's value once, twice, three and four times: a defender's, the taker's at three, four, five alone."""
    unit = figures(deal).unit
    return tuple(str(k * unit) for k in (1, 2, 3, 4))


def _made(deal: Deal) -> str:
    return "yes" if figures(deal).made else "no"


LESSON = Lesson(
    id="scoring",
    hands={0: "T21 T18 T16 T13 T10 T7 T4 T3 EX KS QS 9S KH 7H 5H KC 4D 2D"},
    dog="6C 3C 8D 1H 2S JD",
    moves={0: "garde ecart:6C,3C,8D,4D,2D,JD nochelem", 1: "pass", 2: "pass", 3: "pass"},
    steps=(
        Step(
            "bouts",
            Ask.CHOOSE,
            (right(counted(_figure("bouts"))),),
            at=At.DEAL_END,
            options=lambda deal: ("0", "1", "2", "3"),
            args=_args,
        ),
        Step(
            "target",
            Ask.CHOOSE,
            (right(counted(_figure("target"))),),
            options=lambda deal: ("36", "41", "51", "56"),
            args=_args,
        ),
        Step("made", Ask.CHOOSE, (right(counted(_made)),), options=lambda deal: ("yes", "no"), worded=True, args=_args),
        Step(
            "margin",
            Ask.CHOOSE,
            (right(counted(_figure("margin"))),),
            options=options_around(_figure("margin"), -2, -1, 1, 3),
            args=_args,
        ),
        Step(
            "unit",
            Ask.CHOOSE,
            (right(counted(_figure("unit"))),),
            options=options_around(_figure("unit"), -25, -12, 12, 40),
            args=_args,
        ),
        Step("score", Ask.CHOOSE, (right(counted(_figure("score"))),), options=_shares, args=_args),
    ),
)
