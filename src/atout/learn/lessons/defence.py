"""Lesson 8: defending: low under the taker's winning card, points onto a partner's, the Petit saved under a partner's
21."""

from __future__ import annotations

from ..checks import card, right, wrong
from ..lesson import Ask, Lesson, Step

LESSON = Lesson(
    id="defence",
    dealer=0,
    hands={0: "QH 4H QS 2S T1 T9 KD JD 8D 5D 2D NC JC 10C 6C 4C 3C 1C", 1: "KH 3S", 2: "3H KS T21", 3: "5H 7S T3"},
    dog="1S 4S 2H 6H 2C 7D",
    moves={0: "pass", 1: "prise ecart:1S,4S,2H,6H,2C,7D nochelem KH 3S", 2: "pass 3H KS T21", 3: "pass 5H 7S T3"},
    steps=(
        Step("low", Ask.PLAY, (right(card("4H")), wrong(card("QH"), "queen"))),
        Step("feed", Ask.PLAY, (right(card("QS")), wrong(card("2S"), "low"))),
        Step("petit", Ask.PLAY, (right(card("T1")), wrong(card("T9"), "nine"))),
    ),
)
