"""The daily deal's routes: today's deal, playing it, its ranking and past days (features/daily.py)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..fair_sets import DAILY_FORMAT
from ..features.daily import (
    DailyError,
    Day,
    day_of,
    is_over,
    next_day,
    past_days,
    play_of,
    plays,
    ranking,
    stored_day,
    unranked_if_played,
    valid_day,
)
from ..features.daily_marks import BROWSER_COOKIE, mark, reason_text
from .requests import address, session_token, with_browser_mark


class DailyRoutes:
    """``GET /api/daily``, ``/api/daily/days``, ``/api/daily/DAY``, ``/api/daily/DAY/plays`` and
    ``/api/daily/DAY/deals`` (docs/protocol.md, "The daily deal")."""

    def routes(self) -> list[Route]:
        return [
            Route("/api/daily", self.today, methods=["GET"]),
            Route("/api/daily/days", self.days, methods=["GET"]),
            Route("/api/daily/{day}", self.day, methods=["GET"]),
            Route("/api/daily/{day}/plays", self.plays, methods=["GET"]),
            Route("/api/daily/{day}/deals", self.deals, methods=["GET"]),
        ]

    @staticmethod
    async def _person(request: Request) -> str | None:
        """The session's account, if any (guests do not play the daily deal)."""
        hub = request.app.state.hub
        cookie = session_token(request)
        if not cookie or hub.accounts is None:
            return None
        account = await asyncio.to_thread(hub.accounts.session, cookie)
        return None if account is None else account.id

    @staticmethod
    async def _day(request: Request) -> Day:
        hub = request.app.state.hub
        day = request.path_params["day"]
        found = await asyncio.to_thread(stored_day, hub.store.engine, day) if valid_day(day) else None
        if found is None:
            raise DailyError(404, "no_day", f"no daily deal on {day[:20]!r}: days are written 2026-11-25")
        return found

    async def today(self, request: Request) -> Response:
        """Today's set (drawn and committed to now if nobody asked yet), tomorrow's commitment, and
        whether the asker has played it."""
        hub = request.app.state.hub
        now = hub.clock.now()
        engine = hub.store.engine
        today = await asyncio.to_thread(hub.opening.daily_day, day_of(now))
        tomorrow = await asyncio.to_thread(hub.opening.daily_day, next_day(today.day))
        person = await self._person(request)
        played = await asyncio.to_thread(play_of, engine, today.day, person)
        salt = today.salt or ""
        would = (
            None
            if played is not None
            else await asyncio.to_thread(
                unranked_if_played,
                engine,
                today.day,
                mark(salt, "address", address(request)),
                mark(salt, "browser", request.cookies.get(BROWSER_COOKIE)),
            )
        )
        answer = JSONResponse(
            {
                **today.public(),
                "registered": person is not None,
                "played": played,
                "unranked_if_played": would,
                "unranked_reason": reason_text(would),
                "next": {"day": tomorrow.day, "commitment": tomorrow.commitment},
            }
        )
        return with_browser_mark(answer, request)

    async def days(self, request: Request) -> Response:
        hub = request.app.state.hub
        now = hub.clock.now()
        found = await asyncio.to_thread(past_days, hub.store.engine, day_of(now))
        return JSONResponse({"days": found})

    async def day(self, request: Request) -> Response:
        """A day's ranking; its seed once it is over."""
        hub = request.app.state.hub
        try:
            day = await self._day(request)
        except DailyError as err:
            return _refusal(err)
        engine = hub.store.engine
        over = await asyncio.to_thread(is_over, engine, day, hub.clock.now())
        person = await self._person(request)
        rows = await asyncio.to_thread(ranking, engine, day.day)
        you = await asyncio.to_thread(play_of, engine, day.day, person)
        return JSONResponse(
            {**day.public(), "over": over, "seed": day.seed if over else None, "ranking": rows, "you": you}
        )

    async def plays(self, request: Request) -> Response:
        """The day's plays with their records, best first: to anyone once the day is over, to nobody before
        (not even to who played: a second account would play the day knowing every card, issue 37)."""
        hub = request.app.state.hub
        try:
            day = await self._day(request)
            engine = hub.store.engine
            over = await asyncio.to_thread(is_over, engine, day, hub.clock.now())
            if not over:
                raise DailyError(
                    403,
                    "daily_not_over",
                    f"the plays of {day.day}, and their cards, are shown to "
                    "everyone once the day is over (UTC), to nobody before",
                )
        except DailyError as err:
            return _refusal(err)
        found = await asyncio.to_thread(plays, engine, day, over)
        return JSONResponse({"day": day.day, "over": over, "plays": found})

    async def deals(self, request: Request) -> Response:
        """The whole day's set with its revealed seed, for ``atout verify`` (once the day is over)."""
        hub = request.app.state.hub
        try:
            day = await self._day(request)
            engine = hub.store.engine
            if not await asyncio.to_thread(is_over, engine, day, hub.clock.now()):
                raise DailyError(
                    403,
                    "daily_not_over",
                    f"the seed of {day.day} is revealed when the day is over and nobody plays it any more",
                )
        except DailyError as err:
            return _refusal(err)
        found = await asyncio.to_thread(plays, engine, day, True)
        return JSONResponse(
            {
                "format": DAILY_FORMAT,
                "day": day.day,
                "commitment": day.commitment,
                "seed": day.seed,
                "players": day.players,
                "deals": day.deals,
                "plays": [
                    {"name": p["name"], "status": p["status"], "total": p["total"], "records": p["records"]}
                    for p in found
                ],
            }
        )


def _refusal(err: DailyError) -> Response:
    return JSONResponse({"error": {"code": err.code, "message": err.message}}, status_code=err.status)
