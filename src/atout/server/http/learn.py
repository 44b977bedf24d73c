"""The guided lessons over HTTP (issue 46): the course, its words, and a lesson's step judged.

The server keeps no lesson in memory between two requests: the page sends the right answers it was given so
far with the new one, and the lesson is replayed from them (``atout.learn.replay``: a few milliseconds, in a
thread), so any process of a site answers, a reload loses nothing, and no answer is taken on the page's word.
No name is needed to learn: a guest's progress stays in its browser, an account's is kept in the store, and a
guest who registers sends its runs (the same route), each replayed before it counts.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...learn import BY_ID, LESSONS, LessonRun, WrongAnswer, replay
from ...learn.texts import LANGUAGES, version, words
from ...learn.wire import (
    BadAnswer,
    answer_from_json,
    answer_to_json,
    answers_from_json,
    catalogue_json,
    state_json,
)
from ..features.accounts import AccountError, Accounts
from ..features.lessons import LessonProgress
from ..features.limits import Budget
from .requests import body, error_answer, limited, refusal, session_token, spend

IMMUTABLE = "public, max-age=31536000, immutable"


class LearnRoutes:
    """``/api/learn`` (the course and an account's progress), ``/api/learn/words/LANG``, ``/api/learn/LESSON``."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.progress = LessonProgress(accounts.store, accounts.clock)

    def routes(self) -> list[Route]:
        return [
            Route("/api/learn", self.course, methods=["GET"]),
            Route("/api/learn/words/{language}", self.words, methods=["GET"]),
            Route("/api/learn/{lesson}", self.step, methods=["POST"]),
        ]

    async def _account_id(self, request: Request) -> str | None:
        """The logged-in account's id, or None for a guest (who needs no name to learn)."""
        token = session_token(request)
        if not token:
            return None
        account = await asyncio.to_thread(self.accounts.session, token)
        return None if account is None else account.id

    async def course(self, request: Request) -> Response:
        """The lessons in order (id, table size, steps), the words' version, and the account's progress
        (null for a guest, whose progress its browser keeps)."""
        player = await self._account_id(request)
        progress = None if player is None else await asyncio.to_thread(self.progress.of, player)
        return JSONResponse(
            {"lessons": catalogue_json(LESSONS), "words": version(), "progress": progress},
            headers={"Cache-Control": "no-store"},
        )

    async def words(self, request: Request) -> Response:
        """Every lesson's words in one language; kept a year under the version ``/api/learn`` names."""
        language = request.path_params["language"]
        if language not in LANGUAGES:
            return error_answer(404, "no_language", f"the lessons speak {', '.join(LANGUAGES)}, not {language[:8]!r}")
        cache = IMMUTABLE if request.query_params.get("v") == version() else "no-cache"
        return JSONResponse(words(language), headers={"Cache-Control": cache})

    async def step(self, request: Request) -> Response:
        """``{"answers": [...], "attempt": ANSWER}``: the lesson replayed from its right answers so far, then
        the attempt judged (right: the lesson moves on; wrong: why, and nothing moves). Without an attempt, the
        lesson where the answers left it. An account's furthest run is kept."""
        lesson = BY_ID.get(request.path_params["lesson"])
        if lesson is None:
            return error_answer(
                404,
                "no_lesson",
                f"no lesson {request.path_params['lesson'][:32]!r}: the lessons are {', '.join(x.id for x in LESSONS)}",
            )
        try:
            data = await body(request)
        except AccountError as err:
            return refusal(400, err)
        player = await self._account_id(request)
        if refused := await spend(request, Budget.LESSON, person=player):
            return limited(refused)
        try:
            answers = answers_from_json(data.get("answers", []), len(lesson.steps))
            attempt = None if data.get("attempt") is None else answer_from_json(data["attempt"])
        except BadAnswer as err:
            return error_answer(400, "bad_answer", str(err))

        def judged() -> tuple[LessonRun, dict[str, Any]]:
            run = replay(lesson, answers)
            verdict = None
            if attempt is not None and not run.done:
                verdict = run.answer(attempt)
            return run, state_json(run, verdict)

        try:
            run, state = await asyncio.to_thread(judged)
        except WrongAnswer as err:
            return error_answer(409, "not_the_lesson", f"{err}: start the lesson again", step=err.step)
        verdict = state["verdict"]
        if player is not None and run.answers and (verdict is None or verdict["right"]):
            await asyncio.to_thread(
                self.progress.keep, player, lesson.id, [answer_to_json(a) for a in run.answers], run.done
            )
        return JSONResponse(state, headers={"Cache-Control": "no-store"})


__all__ = ["LearnRoutes"]
