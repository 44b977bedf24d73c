"""Lesson 4: the Excuse: played instead of following, it saves a card the trick would take, and stays yours."""

from __future__ import annotations

from ..checks import card, choice, excuse, right, wrong
from ..lesson import Ask, At, Lesson, Step

LESSON = Lesson(
    id="excuse",
    dealer=0,
    hands={0: "EX QH T3 T7 T12 KS 9S 6S 4S 2S KD JD 7D 3D NC 8C 4C 1C", 1: "KH", 2: "3H", 3: "5H"},
    dog="1S 5S 2D 4D 2C 3C",
    moves={0: "pass", 1: "prise ecart:1S,5S,2D,4D,2C,3C nochelem KH", 2: "pass 3H", 3: "pass 5H"},
    steps=(
        Step("find", Ask.PICK, (right(excuse()),)),
        Step("save", Ask.PLAY, (right(excuse()), wrong(card("QH"), "queen"))),
        Step(
            "keeps",
            Ask.CHOOSE,
            (right(choice("you")),),
            at=At.TRICK_END,
            options=lambda deal: ("you", "anna"),
            worded=True,
        ),
        Step(
            "last",
            Ask.CHOOSE,
            (right(choice("other")),),
            options=lambda deal: ("yours", "other", "winner"),
            worded=True,
        ),
    ),
)
