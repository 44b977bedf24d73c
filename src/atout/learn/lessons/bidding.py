"""Lesson 6: judging a hand for a bid: its bouts, its trumps, its kings and voids; a Garde overcalls a Prise."""

from __future__ import annotations

from ...engine import Deal
from ...engine.cards import BOUTS, TRUMPS
from ...engine.kinds import Contract
from ..checks import bid, counted, options_around, right, wrong
from ..lesson import LEARNER, Ask, Lesson, Step


def _bouts(deal: Deal) -> int:
    return (deal.hands[LEARNER] & BOUTS).bit_count()


def _trumps(deal: Deal) -> int:
    return (deal.hands[LEARNER] & TRUMPS).bit_count()


def _multiplier(deal: Deal) -> int:
    return Contract.of_rank(deal.contract).multiplier


LESSON = Lesson(
    id="bidding",
    dealer=0,
    hands={0: "T21 EX T19 T17 T16 T13 T11 T8 T6 T2 KS 5S KH QH 4H 7C 3C 1C"},
    dog="",
    moves={1: "prise", 2: "pass", 3: "pass"},
    steps=(
        Step("bouts", Ask.CHOOSE, (right(counted(_bouts)),), options=lambda deal: ("0", "1", "2", "3")),
        Step("trumps", Ask.CHOOSE, (right(counted(_trumps)),), options=options_around(_trumps, -3, -1, 1, 3)),
        Step(
            "bid",
            Ask.BID,
            (right(bid("garde")), wrong(bid("pass"), "pass"), wrong(bid("garde_sans", "garde_contre"), "high")),
        ),
        Step("times", Ask.CHOOSE, (right(counted(_multiplier)),), options=lambda deal: ("1", "2", "4", "6")),
    ),
)
