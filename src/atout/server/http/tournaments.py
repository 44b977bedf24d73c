"""The tournaments' routes: create, register, list, view, publish (features/tournaments.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..features.accounts import AccountError, name_key
from ..features.tournament_results import listing, published_deals, view
from ..features.tournaments import (
    TournamentError,
    create,
    register,
    unregister,
    validate,
)
from ..store.db import (
    STORED_ID,
    players,
)
from .requests import body, session_token


class TournamentRoutes:
    """``GET /api/tournaments``, ``POST /api/tournaments`` (create), ``GET /api/tournaments/ID``,
    ``POST /api/tournaments/ID/register`` and ``/unregister``, ``GET /api/tournaments/ID/deals`` (docs/protocol.md,
    "Tournaments")."""

    def routes(self) -> list[Route]:
        return [
            Route("/api/tournaments", self.index, methods=["GET", "POST"]),
            Route("/api/tournaments/{tid}", self.one, methods=["GET"]),
            Route("/api/tournaments/{tid}/deals", self.deals, methods=["GET"]),
            Route("/api/tournaments/{tid}/register", self.register, methods=["POST"]),
            Route("/api/tournaments/{tid}/unregister", self.unregister, methods=["POST"]),
        ]

    @staticmethod
    async def _person(request: Request) -> Any:
        hub = request.app.state.hub
        cookie = session_token(request)
        if not cookie or hub.accounts is None:
            return None
        return await asyncio.to_thread(hub.accounts.session, cookie)

    async def _registered(self, request: Request) -> Any:
        account = await self._person(request)
        if account is None:
            raise TournamentError(
                401, "registered_only", "tournaments are for registered players: log in (or register)"
            )
        return account

    async def index(self, request: Request) -> Response:
        hub = request.app.state.hub
        engine = hub.store.engine
        try:
            if request.method == "GET":
                account = await self._person(request)
                player = None
                if "player" in request.query_params:  # a profile's tournaments
                    name = request.query_params["player"][:40]
                    player = await asyncio.to_thread(_player_id, engine, name)
                    if player is None:
                        raise TournamentError(404, "no_player", f"no registered player is called {name!r}")
                found = await asyncio.to_thread(listing, engine, None if account is None else account.id, player)
                return JSONResponse(found)
            account = await self._registered(request)
            try:
                data = await body(request)
            except AccountError as err:
                raise TournamentError(400, err.code, err.message) from None
            spec = validate(data, hub.clock.now())
            tid = await asyncio.to_thread(create, engine, spec, account.id, hub.config.daily_level, hub.clock.now())
            hub.tournaments.wake.set()
            made = await asyncio.to_thread(view, engine, tid, account.id)
            return JSONResponse(made, status_code=201)
        except TournamentError as err:
            return _refusal(err)

    async def one(self, request: Request) -> Response:
        hub = request.app.state.hub
        account = await self._person(request)
        try:
            found = await asyncio.to_thread(
                view, hub.store.engine, _tid(request), None if account is None else account.id
            )
        except TournamentError as err:
            return _refusal(err)
        if found is None:
            return _refusal(TournamentError(404, "no_tournament", "no such tournament"))
        return JSONResponse(found)

    async def deals(self, request: Request) -> Response:
        """Every deal of every table with the revealed seed, for ``atout verify`` (once it is over)."""
        hub = request.app.state.hub
        try:
            found = await asyncio.to_thread(published_deals, hub.store.engine, _tid(request))
        except TournamentError as err:
            return _refusal(err)
        return JSONResponse(found)

    async def register(self, request: Request) -> Response:
        hub = request.app.state.hub
        try:
            tid = _tid(request)
            account = await self._registered(request)
            full = await asyncio.to_thread(register, hub.store.engine, tid, account.id, hub.clock.now())
        except TournamentError as err:
            return _refusal(err)
        if full and not await hub.tournaments.start(tid):  # the store refused: the tournament clock starts it (due)
            hub.tournaments.wake.set()
        return JSONResponse(await asyncio.to_thread(view, hub.store.engine, tid, account.id))

    async def unregister(self, request: Request) -> Response:
        hub = request.app.state.hub
        try:
            tid = _tid(request)
            account = await self._registered(request)
            await asyncio.to_thread(unregister, hub.store.engine, tid, account.id)
        except TournamentError as err:
            return _refusal(err)
        return JSONResponse(await asyncio.to_thread(view, hub.store.engine, tid, account.id))


def _tid(request: Request) -> str:
    """The path's tournament id; what cannot be one (``STORED_ID``) is no tournament's."""
    tid: str = request.path_params["tid"]
    if not STORED_ID.match(tid):
        raise TournamentError(404, "no_tournament", "no such tournament")
    return tid


def _player_id(engine: sa.Engine, name: str) -> str | None:
    with engine.connect() as conn:
        return conn.execute(sa.select(players.c.id).where(players.c.name_key == name_key(name))).scalar()


def _refusal(err: TournamentError) -> Response:
    return JSONResponse({"error": {"code": err.code, "message": err.message}}, status_code=err.status)
