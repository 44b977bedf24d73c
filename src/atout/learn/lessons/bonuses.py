"""Lesson 9: the poignée and the petit au bout: ten trumps shown, trumps drawn, the Petit kept for the last trick."""

from __future__ import annotations

from ...engine import Deal
from ...engine.kinds import Contract
from ..checks import any_answer, card, choice, counted, excuse, holds, right, trump, wrong
from ..lesson import Answer, Ask, At, Lesson, Step


def _declined(deal: Deal, answer: Answer) -> bool:
    return not answer.cards


def _petit_bonus(deal: Deal) -> int:
    return 10 * Contract.of_rank(deal.contract).multiplier


LESSON = Lesson(
    id="bonuses",
    hands={0: "T21 T20 T19 T18 T17 T16 T15 T12 T8 T3 T1 EX KS QS KH KD 5C 2C"},
    dog="",
    moves={0: "garde_sans nochelem", 1: "pass", 2: "pass", 3: "pass"},
    keep="T1 T21",
    steps=(
        Step("show", Ask.POIGNEE, (wrong(_declined, "no"), wrong(holds("T1"), "petit"), right(any_answer()))),
        Step(
            "lead", Ask.PLAY, (wrong(card("T1"), "petit"), wrong(excuse(), "excuse"), right(trump())), otherwise="suit"
        ),
        Step(
            "keep",
            Ask.PLAY,
            (wrong(card("T1"), "petit"), right(any_answer())),
            ready=lambda deal: len(deal.tricks) == deal.settings.hand_size - 2,
        ),
        Step(
            "bout",
            Ask.CHOOSE,
            (right(counted(_petit_bonus)),),
            at=At.DEAL_END,
            options=lambda deal: ("10", "20", "40", "60"),
        ),
        Step("poignee", Ask.CHOOSE, (right(choice("20")),), options=lambda deal: ("10", "20", "40", "80")),
    ),
)
