"""Lesson 7: the dog and a good écart: the dog taken, six cards laid aside to make voids and bank points."""

from __future__ import annotations

from ...engine import Deal, Phase
from ...engine.cards import half_points
from ..checks import any_answer, counted, misses, options_around, right, wrong
from ..lesson import Ask, Lesson, Step


def _size(deal: Deal) -> int:
    return deal.settings.dog_size


def _laid(deal: Deal) -> float:
    return half_points(deal.ecart) / 2


LESSON = Lesson(
    id="ecart",
    hands={0: "T20 T18 T14 T10 T7 T2 EX KS QS 6S 3S KH NH 8H 4H 9D 3D 5C"},
    dog="6D NC 1S 7H 2H T5",
    moves={0: "garde", 1: "pass", 2: "pass", 3: "pass"},
    steps=(
        Step(
            "size",
            Ask.CHOOSE,
            (right(counted(_size)),),
            options=lambda deal: ("3", "6", "9"),
            ready=lambda deal: deal.phase == Phase.DISCARD,
        ),
        Step(
            "lay",
            Ask.ECART,
            (
                wrong(misses("9D 6D 3D"), "void"),
                wrong(misses("NC"), "knight"),
                wrong(misses("5C"), "clubs"),
                right(any_answer()),
            ),
        ),
        Step(
            "counts",
            Ask.CHOOSE,
            (right(counted(_laid)),),
            options=options_around(_laid, -2.5, -1, 1, 2),
            args=lambda deal, answer: {"points": _laid(deal)},
        ),
    ),
)
