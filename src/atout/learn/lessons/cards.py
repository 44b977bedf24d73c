"""Lesson 1: the cards and their points: the bouts, the honours, a suit counted, the 21 led."""

from __future__ import annotations

from ...engine import Deal
from ...engine.cards import SPADES, SUIT_MASKS
from ..checks import (
    bout,
    card,
    counted,
    excuse,
    hand_points,
    options_around,
    right,
    trick_points,
    trump,
    wrong,
)
from ..lesson import LEARNER, Ask, At, Lesson, Step


def _spades(deal: Deal) -> float:
    return hand_points(deal, LEARNER, SUIT_MASKS[SPADES])


LESSON = Lesson(
    id="cards",
    hands={0: "T21 EX T20 T15 T9 T4 KS NS 7S 2S QH 5H JD 8D 3D 9C 6C 1C", 1: "T3", 2: "T7", 3: "T12"},
    dog="5C 6D 10H 3S 4D 2C",
    moves={0: "pass", 1: "pass T3", 2: "prise ecart:5C,6D,10H,3S,4D,2C nochelem T7", 3: "pass T12"},
    steps=(
        Step(
            "bouts",
            Ask.PICK,
            (
                right(card("T21"), "t21"),
                right(excuse(), "excuse"),
                wrong(trump(), "trump"),
                wrong(card("KS"), "king"),
            ),
        ),
        Step(
            "queen",
            Ask.PICK,
            (
                right(card("QH")),
                wrong(card("KS"), "king"),
                wrong(card("NS"), "knight"),
                wrong(card("JD"), "jack"),
                wrong(bout(), "bout"),
            ),
            otherwise="small",
        ),
        Step("spades", Ask.CHOOSE, (right(counted(_spades)),), options=options_around(_spades, -4, -0.5, 1, 2.5)),
        Step(
            "lead",
            Ask.PLAY,
            (
                right(card("T21")),
                wrong(card("KS"), "king"),
                wrong(excuse(), "excuse"),
                wrong(trump(), "trump"),
            ),
            otherwise="suit",
        ),
        Step(
            "won",
            Ask.CHOOSE,
            (right(counted(trick_points)),),
            at=At.TRICK_END,
            options=options_around(trick_points, -1.5, -0.5, 1, 2),
        ),
    ),
)
