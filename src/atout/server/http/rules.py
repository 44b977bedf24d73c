"""The rules' routes: the facts the rules page and the quick guide show, read from the engine
(``GET /api/rules``), and the score calculator, which scores what a person says of a deal with the
engine's own scorer (``POST /api/rules/score``): it can never disagree with a table."""

from __future__ import annotations

from functools import cache

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...engine.calculator import CalculatorError, calculate
from ...engine.rulebook import facts
from ..features.accounts import AccountError
from ..features.limits import Budget
from .requests import body, error_answer, limited, refusal, spend


@cache
def facts_body() -> bytes:
    """The facts as JSON, made once a process (they are the engine's constants)."""
    return orjson.dumps(facts(), option=orjson.OPT_NON_STR_KEYS)


class RulesRoutes:
    """``/api/rules`` and ``/api/rules/score``: open to anyone, logged in or not (the rules are no secret)."""

    def routes(self) -> list[Route]:
        return [
            Route("/api/rules", self.rules, methods=["GET"]),
            Route("/api/rules/score", self.score, methods=["POST"]),
        ]

    async def rules(self, request: Request) -> Response:
        """The game's facts (card points, targets, contracts, table sizes, bonuses, options) and its
        examples played by the engine."""
        return Response(facts_body(), media_type="application/json", headers={"Cache-Control": "max-age=3600"})

    async def score(self, request: Request) -> Response:
        """Every seat's score for a deal's facts, or 400 ``bad_facts`` naming the field that cannot be."""
        if refused := await spend(request, Budget.SCORE, person=None):
            return limited(refused)
        try:
            data = await body(request)
        except AccountError as err:
            return refusal(400, err)
        try:
            answer = calculate(data)
        except CalculatorError as err:
            return error_answer(
                400, "bad_facts", err.message, **{k: v for k, v in err.to_json().items() if k != "message"}
            )
        return JSONResponse(answer, headers={"Cache-Control": "no-store"})


__all__ = ["RulesRoutes", "facts_body"]
