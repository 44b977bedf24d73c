"""An account's progress in the guided lessons (issue 46, ``atout.learn``): for each lesson, the right answers
of its furthest run (the lesson replays from them) and whether it was finished. A guest's stays in its
browser; a guest who registers or logs in sends its runs, and the furthest of each is kept here."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ..store import Store
from ..store.db import lesson_progress


class LessonProgress:
    """Each account's lessons in the store: finished for good once finished, never moved back."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    def of(self, player_id: str) -> dict[str, dict[str, Any]]:
        """``{lesson: {"answers": [...], "done": bool}}`` for every lesson the account has begun."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(lesson_progress.c.lesson, lesson_progress.c.answers, lesson_progress.c.done).where(
                    lesson_progress.c.player_id == player_id
                )
            ).all()
        return {r.lesson: {"answers": r.answers, "done": r.done} for r in rows}

    def keep(self, player_id: str, lesson: str, answers: list[dict[str, Any]], done: bool) -> bool:
        """Record a run of ``lesson`` (its right answers so far, every one checked by replaying it): kept if
        it goes further than the one stored, and a lesson finished once stays finished. Whether it changed
        anything."""
        for _ in range(2):  # a first row inserted by a request at the same moment: read it, then update
            try:
                with self.store.engine.begin() as conn:
                    row = conn.execute(
                        sa.select(lesson_progress.c.answers, lesson_progress.c.done)
                        .where(lesson_progress.c.player_id == player_id, lesson_progress.c.lesson == lesson)
                        .with_for_update()
                    ).first()
                    if row is None:
                        conn.execute(
                            lesson_progress.insert().values(
                                player_id=player_id, lesson=lesson, answers=answers, done=done, updated_at=self.clock()
                            )
                        )
                        return True
                    further = len(answers) > len(row.answers)
                    if not further and (row.done or not done):
                        return False
                    conn.execute(
                        lesson_progress.update()
                        .where(lesson_progress.c.player_id == player_id, lesson_progress.c.lesson == lesson)
                        .values(
                            answers=answers if further else row.answers, done=row.done or done, updated_at=self.clock()
                        )
                    )
                    return True
            except IntegrityError:
                continue
        return False


__all__ = ["LessonProgress"]
