"""Lesson 5: counting: a trick's points card by card, and what the taker needs for the bouts it holds."""

from __future__ import annotations

from ...engine import Deal
from ...engine.scoring import TARGETS
from ..checks import choice, counted, options_around, right, trick_points
from ..lesson import Ask, At, Lesson, Step


def _targets(_deal: Deal) -> tuple[str, ...]:
    return tuple(str(TARGETS[bouts]) for bouts in (3, 2, 1, 0))


LESSON = Lesson(
    id="counting",
    dealer=0,
    hands={0: "7C 2D", 1: "3C 9C T21 T19 T18 T15 T11 T9 T4 KS QS NS 5S KH QH 9H 6H 2H", 2: "KC QD", 3: "NC JD"},
    dog="1S 2S 3H 4H 10C 6C",
    moves={0: "pass 7C 2D", 1: "prise ecart:1S,2S,3H,4H,10C,6C nochelem 3C T21", 2: "pass KC QD", 3: "pass NC JD"},
    steps=(
        Step(
            "first",
            Ask.CHOOSE,
            (right(counted(trick_points)),),
            at=At.TRICK_END,
            options=options_around(trick_points, -3.5, -1, 1.5, 4),
        ),
        Step(
            "second",
            Ask.CHOOSE,
            (right(counted(trick_points)),),
            at=At.TRICK_END,
            options=options_around(trick_points, -4.5, -1, 2, 3.5),
        ),
        Step("two", Ask.CHOOSE, (right(choice(str(TARGETS[2]))),), options=_targets),
        Step("one", Ask.CHOOSE, (right(choice(str(TARGETS[1]))),), options=_targets),
    ),
)
