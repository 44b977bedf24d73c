"""The course: every lesson, in the order a newcomer takes them (each module is one lesson)."""

from __future__ import annotations

from ..lesson import Lesson
from . import bidding, bonuses, cards, counting, defence, ecart, excuse, five, follow, scoring, trumps

LESSONS: tuple[Lesson, ...] = tuple(
    m.LESSON for m in (cards, follow, trumps, excuse, counting, bidding, ecart, defence, bonuses, five, scoring)
)
BY_ID = {lesson.id: lesson for lesson in LESSONS}

__all__ = ["BY_ID", "LESSONS"]
