"""Lesson 3: trumping and overtrumping: above the highest trump in the trick when one can, else any trump."""

from __future__ import annotations

from ...engine import Deal
from ..checks import any_answer, card, choice, right, wrong
from ..lesson import Ask, At, Lesson, Step


def _following(deal: Deal) -> bool:
    return bool(deal.trick)  # the learner's lead comes first, prepared


LESSON = Lesson(
    id="trumps",
    dealer=0,
    hands={
        0: "T4 T10 T13 T17 KS QS 8S 5S 2S KH 9H 6H 3H 2C 5C 8C 10C JC",
        1: "5D QD JD 10D 7D 4D T21 T20 T19 T18 T16 T15 T14 T12 QH NH JH 10H",
        2: "9D 1D 2D 3D 6D 8D ND KD 4C T2",
        3: "T8 6C T11",
    },
    dog="1S 3S 4S 1H 4H 5H",
    moves={
        0: "pass 2C",
        1: "prise ecart:1S,3S,4S,1H,4H,5H nochelem 5D T19 T20",
        2: "pass 9D 4C T2",
        3: "pass T8 6C T11",
    },
    steps=(
        Step(
            "over", Ask.PLAY, (right(card("T10")), right(any_answer(), "higher"))
        ),  # above the 8: the engine refuses the rest
        Step(
            "partner",
            Ask.CHOOSE,
            (right(choice("yes")),),
            at=At.TRICK_END,
            options=lambda deal: ("yes", "no"),
            worded=True,
        ),
        Step("under", Ask.PLAY, (right(card("T4")), wrong(card("T13 T17"), "waste")), ready=_following),
    ),
)
