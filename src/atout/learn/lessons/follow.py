"""Lesson 2: following suit: the suit led is followed; without it, a trump; without trumps, any card."""

from __future__ import annotations

from ..checks import any_answer, card, right, wrong
from ..lesson import Ask, Lesson, Step

LESSON = Lesson(
    id="follow",
    dealer=0,
    hands={
        0: "T6 QH 9H 8H 5H 3H 2H 1H KC NC JC 10C 9C 8C 7C 6C 5C 4C",
        1: "4H 7H KD QD JD 7D 2D T20 T19 T18 T17 T15 T12 T11 T5 T3 3C 2C",
        2: "10H 2S 6D",
        3: "KH 6S 8D",
    },
    dog="1S 3S 4S 9S 1D 3D",
    moves={0: "pass", 1: "prise ecart:1S,3S,4S,9S,1D,3D nochelem 4H T15 KD", 2: "pass 10H 2S 6D", 3: "pass KH 6S 8D"},
    steps=(
        Step(
            "follow", Ask.PLAY, (right(card("QH"), "queen"), right(any_answer()))
        ),  # any heart: the engine refuses the rest
        Step("void", Ask.PLAY, (right(any_answer()),)),  # the 6, the only trump: the engine refuses the rest
        Step("discard", Ask.PLAY, (wrong(card("KC"), "king"), wrong(card("QH NC JC"), "honour"), right(any_answer()))),
    ),
)
