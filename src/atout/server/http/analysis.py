"""The analysis' routes: ask a finished deal's analysis, wait for it, read it (features/analysis.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...engine.record import RecordError, replay
from ..features import daily
from ..features.accounts import Account, AccountError
from ..features.analysis import DEAL, AnalysisError, AnalysisPool, Job, accuracy_for, stored
from ..features.limits import Budget, Refusal
from ..kinds import SeatKind
from ..room import rebuilt
from ..site.hub import Hub
from ..store.db import STORED_ID
from ..table import Table
from .requests import address, body, hub_of, session_token


class AnalysisRoutes:
    """``POST /api/analysis`` and ``GET /api/analysis`` (docs/protocol.md)."""

    def __init__(self, pool: AnalysisPool) -> None:
        self.pool = pool

    def routes(self) -> list[Route]:
        return [Route("/api/analysis", self.ask, methods=["POST"]), Route("/api/analysis", self.poll, methods=["GET"])]

    async def ask(self, request: Request) -> Response:
        """{game, deal[, seat][, table]}: the analysis if made, else it is queued and its progress answered."""
        try:
            person = await self._person(request)
            try:
                data = await body(request)
            except AccountError as err:
                raise AnalysisError(400, err.code, err.message) from None
            game, deal, seat, table = _fields(data)
            record, seat = await self._deal(request, person, game, deal, seat, table)
            done = await asyncio.to_thread(stored, self.pool.engine, game, deal, seat)
            if done is not None:
                return await self._done(request, person, game, deal, seat, record, done)
            job = await self.pool.submit(
                Job(game, deal, seat, person, record), lambda: _spend_analysis(request, person)
            )
        except AnalysisError as err:
            return _refusal(err)
        return JSONResponse(self.pool.status(job), status_code=202)

    async def poll(self, request: Request) -> Response:
        """?game=ID&deal=N[&seat=S][&table=T]: how far the analysis is, or the analysis."""
        try:
            person = await self._person(request)
            query = request.query_params
            unknown = sorted(set(query) - {"game", "deal", "seat", "table"})
            if unknown:
                raise AnalysisError(
                    400, "bad_query", f"no parameter {unknown[0][:20]!r}: the analysis takes game, deal, seat, table"
                )
            deal_text, seat_text = query.get("deal", ""), query.get("seat")
            if not DEAL.match(deal_text) or (seat_text is not None and not DEAL.match(seat_text)):
                raise AnalysisError(400, "bad_query", "deal (and seat) are whole numbers from 0")
            game, deal, table = query.get("game", ""), int(deal_text), query.get("table")
            if not STORED_ID.match(game) or (table is not None and not STORED_ID.match(table)):
                raise AnalysisError(400, "bad_query", "game (and table): a game's (a table's) id")
            seat = None if seat_text is None else int(seat_text)
            jobs = [
                j
                for j in self.pool.jobs.values()
                if j.game == game and j.deal == deal and j.person == person and (seat is None or j.seat == seat)
            ]
            if jobs:
                job = jobs[0]
                if job.status == "failed":
                    raise AnalysisError(500, "internal", "the analysis failed (it is in the server's log): ask again")
                if job.status != "done":
                    return JSONResponse(self.pool.status(job), status_code=202)
            record, seat = await self._deal(request, person, game, deal, seat, table, lookup_only=True)
            done = await asyncio.to_thread(stored, self.pool.engine, game, deal, seat)
            if done is None:  # an answer, not an error: a page asks before it offers the button (no 404 in its console)
                return JSONResponse({"status": "not_requested", "game": game, "deal": deal, "seat": seat})
        except AnalysisError as err:
            return _refusal(err)
        return await self._done(request, person, game, deal, seat, record, done)

    async def _done(
        self,
        request: Request,
        person: str,
        game: str,
        deal: int,
        seat: int,
        record: dict[str, Any],
        done: dict[str, Any],
    ) -> Response:
        """A made analysis, with the seat's accuracy (stored with it; made now for an analysis kept before)."""
        now = hub_of(request).clock.now()
        found = await asyncio.to_thread(accuracy_for, self.pool.engine, game, deal, seat, record, done, person, now)
        return JSONResponse(
            {"status": "done", "game": game, "deal": deal, "seat": seat, "analysis": done, "accuracy": found}
        )

    async def _person(self, request: Request) -> str:
        """Who asks: the session's account, or a guest by the token ``hello`` gave (``Authorization: Bearer``)."""
        hub = hub_of(request)
        cookie = session_token(request)
        if cookie and hub.accounts is not None:
            account: Account | None = await asyncio.to_thread(hub.accounts.session, cookie)
            if account is not None:
                return account.id
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and token:
            player = hub.identity.player_from_token(token.strip())
            if player is not None:
                return player
        raise AnalysisError(401, "not_logged_in", "log in, or send your guest token as Authorization: Bearer TOKEN")

    async def _deal(
        self,
        request: Request,
        person: str,
        game: str,
        deal: int,
        seat: int | None,
        table: str | None,
        lookup_only: bool = False,
    ) -> tuple[dict[str, Any], int]:
        """The finished deal's record and the seat the person played in it; AnalysisError names what
        is wrong.  A stored game first (finished or cancelled), else the game running at ``table``."""
        hub = request.app.state.hub
        row = await asyncio.to_thread(hub.store.game, game)
        if row is not None:
            records = row.data.get("records", [])
            mine = [s["seat"] for s in row.data["seats"] if s.get("player") == person]
            day = await asyncio.to_thread(daily.locked_game, hub.store.engine, game, hub.clock.now())
        else:
            found = await self._running(request, person, game, table)
            if found is None:
                raise AnalysisError(
                    404,
                    "no_game",
                    f"no game {game[:40]!r}" + ("" if table else " is stored (a game still running needs its table)"),
                )
            records, mine, day = found
        if day is not None:
            raise AnalysisError(
                403,
                "daily_not_over",
                f"this game is a play of the daily deal of {day}: its deals are "
                "analysed once the day is over (UTC), for nobody before",
            )
        if not 0 <= deal < len(records):
            raise AnalysisError(
                404, "no_deal", f"game {game[:40]!r} has {len(records)} finished deals: deal is 0 to {len(records) - 1}"
            )
        if not mine:
            raise AnalysisError(403, "not_your_seat", "you did not play in this game: a person analyses their own seat")
        if seat is None:
            seat = mine[0]
        elif seat not in mine:
            raise AnalysisError(403, "not_your_seat", f"seat {seat} is not yours: you played seat {mine[0]}")
        record = records[deal]
        if not lookup_only:
            try:
                over = replay(record).deal.is_over
            except RecordError:
                over = False
            if not over:
                raise AnalysisError(404, "no_deal", "that deal is not finished")
        return record, seat

    async def _running(
        self, request: Request, person: str, game: str, table_id: str | None
    ) -> tuple[list[dict[str, Any]], list[int], str | None] | None:
        """The finished deals of the game running (or just ended) at ``table_id``, the seats the asker sat
        in, and the day of the daily deal it plays while that day is locked; this process's table, else the
        table as the store holds it."""
        if not table_id:
            return None
        hub = request.app.state.hub
        room = hub.rooms.get(table_id)
        if room is not None:
            table = room.table
        else:
            table = await asyncio.to_thread(_stored_table, hub, table_id)
        if table is None or table.game_id != game:
            return None
        seats = [i for i, s in enumerate(table.seats) if s.player == person and s.kind == SeatKind.PERSON]
        day = None
        if table.daily is not None and "tournament" not in table.daily:
            day = await asyncio.to_thread(daily.locked_day, hub.store.engine, table.daily.get("day"), hub.clock.now())
        return list(table.records), seats, day


def _stored_table(hub: Hub, table_id: str) -> Table | None:
    """The table as stored (snapshot and the events after it), rebuilt as a restart would: read only."""
    item = hub.store.table(table_id)
    if item is None:
        return None
    return rebuilt(item.snapshot, [e.data for e in item.events], hub.config.timing, hub.clock.now())


def _fields(data: dict[str, Any]) -> tuple[str, int, int | None, str | None]:
    game, deal, seat, table = data.get("game"), data.get("deal"), data.get("seat"), data.get("table")
    if not isinstance(game, str) or not STORED_ID.match(game):
        raise AnalysisError(400, "malformed", "game: the id of a game you played")
    if not isinstance(deal, int) or isinstance(deal, bool) or not 0 <= deal < 1000:
        raise AnalysisError(400, "malformed", "deal: the deal's place in the game's records, from 0")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 5):
        raise AnalysisError(400, "malformed", "seat: 0 to 4, or left out for your own")
    if table is not None and (not isinstance(table, str) or not STORED_ID.match(table)):
        raise AnalysisError(400, "malformed", "table: the id of the table the game is played at")
    return game, deal, seat, table


def _spend_analysis(request: Request, person: str) -> Awaitable[Refusal | None]:
    """One of the budget ``analysis`` for this person and this address (``features/limits.py``)."""
    return hub_of(request).limits.spend(Budget.ANALYSIS, person=person, address=address(request))


def _refusal(err: AnalysisError) -> Response:
    response = JSONResponse({"error": {"code": err.code, "message": err.message, **err.fields}}, status_code=err.status)
    if err.status in (429, 503):
        response.headers["Retry-After"] = str(err.retry_after)
    return response
