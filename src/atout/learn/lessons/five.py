"""Lesson 10: five players: the taker calls a king, whose holder is a secret partner until it is played."""

from __future__ import annotations

from ...engine import Deal
from ..checks import any_answer, card, choice, right, wrong
from ..lesson import NAMES, Answer, Ask, At, Lesson, Step

OPTIONS = tuple(name.lower().replace("é", "e") for name in NAMES)
"""The robots as a choice's words: ``anna``, ``basile``, ``chloe``, ``denis``."""


def _is_partner(deal: Deal, answer: Answer) -> bool:
    return deal.partner is not None and answer.choice == OPTIONS[deal.partner - 1]


def _partner_shown(deal: Deal) -> bool:
    return deal.partner_revealed


LESSON = Lesson(
    id="five",
    players=5,
    dealer=4,
    hands={0: "KS 8S 3S KH 6H QC JC 4C 9D T21 T20 T17 T14 T11 T6", 3: "KC"},
    dog="2H 5S 1D",
    moves={0: "garde ecart:9D,1D,8S nochelem", 1: "pass", 2: "pass", 3: "pass", 4: "pass"},
    keep="QC JC 4C",
    steps=(
        Step("call", Ask.CALL, (right(card("KC")), wrong(card("KS KH"), "own"), wrong(card("KD"), "diamonds"))),
        Step("lead", Ask.PLAY, (right(any_answer()),)),
        Step(
            "partner",
            Ask.CHOOSE,
            (right(_is_partner),),
            at=At.TRICK_END,
            options=lambda deal: OPTIONS,
            worded=True,
            ready=_partner_shown,
        ),
        Step("shares", Ask.CHOOSE, (right(choice("100")),), options=lambda deal: ("50", "100", "150", "200")),
    ),
)
