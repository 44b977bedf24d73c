"""The HTTP side of accounts: register, log in, log out, who am I (sessions in HttpOnly cookies)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..features import daily, insights, ledger, profiles, standings, tournament_results
from ..features.accounts import NAME, AccountError, Accounts, normal_name, session_key
from ..features.limits import Budget
from ..protocol import SessionEnd
from ..store.db import STORED_ID
from .requests import (
    SECURE_COOKIE,
    Asked,
    address,
    asked,
    body,
    error_answer,
    limited,
    refusal,
    served_over_https,
    session_token,
    spend,
    spend_guess,
    with_session,
    without_session,
)

MAX_PAGE = 100_000
"""The leaderboard's last page: 2,000,000 rows, far beyond any site's players (and within every
database's integer range, which a page number of 2**62 was not)."""
LEADERBOARD_QUERY = ("players", "period", "page")
_PAGE = re.compile(r"^[0-9]{1,7}$")  # ASCII digits only: int() takes "٣" and " 3 " too


def leaderboard_query(query: Mapping[str, str]) -> tuple[int, str, int]:
    """The leaderboard's parameters, each checked; ValueError names the first that is wrong."""
    unknown = sorted(set(query) - set(LEADERBOARD_QUERY))
    if unknown:
        raise ValueError(f"no parameter {unknown[0][:20]!r}: the leaderboard takes {', '.join(LEADERBOARD_QUERY)}")
    players = query.get("players", "4")
    if players not in ("3", "4", "5"):
        raise ValueError(f"players: 3, 4 or 5, not {players[:20]!r}")
    period = query.get("period", "week")
    if period not in standings.PERIODS:
        raise ValueError(f"period: one of {', '.join(standings.PERIODS)}, not {period[:20]!r}")
    page = query.get("page", "1")
    if not _PAGE.match(page) or not 1 <= int(page) <= MAX_PAGE:
        raise ValueError(f"page: a whole number from 1 to {MAX_PAGE:,}, not {page[:20]!r}")
    return int(players), period, int(page)


class AccountRoutes:
    """The routes, sharing one Accounts and the guessing limits."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts

    def routes(self) -> list[Route]:
        return [
            Route("/api/register", self.register, methods=["POST"]),
            Route("/api/login", self.login, methods=["POST"]),
            Route("/api/logout", self.logout, methods=["POST"]),
            Route("/api/me", self.me, methods=["GET"]),
            Route("/api/sessions", self.sessions, methods=["GET"]),
            Route("/api/sessions/end", self.end_session, methods=["POST"]),
            Route("/api/password", self.password, methods=["POST"]),
            Route("/api/account/delete", self.delete_account, methods=["POST"]),
            Route("/api/claim", self.claim, methods=["POST"]),
            Route("/api/friends", self.friends, methods=["GET", "POST"]),
            Route("/api/players/{name}", self.player, methods=["GET"]),
            Route("/api/players/{name}/insights", self.insights, methods=["GET"]),
            Route("/api/insights", self.insights_shown, methods=["POST"]),
            Route("/api/games/{game_id}", self.game, methods=["GET"]),
            Route("/api/games/{game_id}/deals/{number}", self.deal, methods=["GET"]),
            Route("/api/leaderboard", self.leaderboard, methods=["GET"]),
        ]

    async def leaderboard(self, request: Request) -> Response:
        """?players=3|4|5&period=week|month|all&page=N: a page of the standings, best first."""
        try:
            players, period, page = leaderboard_query(request.query_params)
        except ValueError as err:
            return error_answer(400, "bad_query", str(err))
        board = await asyncio.to_thread(
            standings.leaderboard, self.accounts.store.engine, players, period, request.app.state.hub.clock.now(), page
        )
        return JSONResponse(board)

    async def player(self, request: Request) -> Response:
        """A player's profile: statistics by player count and recent games (anyone may look)."""
        name = request.path_params["name"]
        found = None
        if NAME.match(normal_name(name)):  # anything else names nobody: no need to ask the store
            found = await asyncio.to_thread(
                profiles.profile, self.accounts.store, self.accounts, name, request.app.state.hub.clock.now()
            )  # a daily deal's: after its day
        if found is None:
            return error_answer(404, "no_player", f"no registered player is called {name[:40]!r}")
        return JSONResponse(found)

    async def insights(self, request: Request) -> Response:
        """A person's insights (features/insights.py): for themselves, and for anyone once they show them."""
        name = request.path_params["name"]
        account = None
        if NAME.match(normal_name(name)):
            account = await asyncio.to_thread(self.accounts.find, name)
        if account is None:
            return error_answer(404, "no_player", f"no registered player is called {name[:40]!r}")
        engine = self.accounts.store.engine
        viewer = await asyncio.to_thread(self.accounts.session, session_token(request))
        own = viewer is not None and viewer.id == account.id
        public = await asyncio.to_thread(insights.is_public, engine, account.id)
        if not own and not public:
            return error_answer(
                403, "insights_private", f"{account.name}'s insights are private: only {account.name} sees them"
            )
        now = request.app.state.hub.clock.now()
        found = await asyncio.to_thread(insights.insights, engine, account.id, now)
        return JSONResponse({"name": account.name, "own": own, "public": public, **found})

    async def insights_shown(self, request: Request) -> Response:
        """POST {public: true|false}: one's insights shown on one's public profile, or kept to oneself."""
        if not isinstance(got := await asked(request, self.accounts, "log in to show your insights"), Asked):
            return got
        public = got.data.get("public")
        if not isinstance(public, bool):
            return error_answer(400, "malformed", "public: true to show your insights to everyone, false to keep them")
        await asyncio.to_thread(insights.set_public, self.accounts.store.engine, got.account.id, public)
        return JSONResponse({"public": public})

    async def game(self, request: Request) -> Response:
        """A finished, cancelled or deserted game with every deal record, to replay."""
        game_id = request.path_params["game_id"]
        found = None
        if STORED_ID.match(game_id):  # a game's id is letters, digits, _ or -: anything else is no game's
            found = await asyncio.to_thread(profiles.game, self.accounts.store, game_id)
        if found is None:
            return error_answer(404, "no_game", f"no stored game {game_id[:40]!r}")
        if refused := await self._daily_locked(request, game_id):
            return refused
        return JSONResponse(found)

    async def _daily_locked(self, request: Request, game_id: str) -> Response | None:
        """A daily deal's game before its day is over: only for those who have played that day (daily.py)."""
        account = await asyncio.to_thread(self.accounts.session, session_token(request))
        day = await asyncio.to_thread(
            daily.locked_game, self.accounts.store.engine, game_id, request.app.state.hub.clock.now()
        )
        if day is None:
            if await asyncio.to_thread(
                tournament_results.locked_game,
                self.accounts.store.engine,
                game_id,
                None if account is None else account.id,
            ):
                return error_answer(
                    403,
                    "tournament_round",
                    "this game is a tournament's: its cards are shown to the "
                    "other tables' players once every table of its round is over",
                )
            return None
        return error_answer(
            403,
            "daily_not_over",
            f"this game is a play of the daily deal of {day}: its cards are shown "
            "to nobody, its player included, before the day is over (UTC)",
        )

    async def deal(self, request: Request) -> Response:
        """One deal of a stored game, told whole for its review, with its record and commitment."""
        game_id, number = request.path_params["game_id"], request.path_params["number"]
        found = None
        if STORED_ID.match(game_id) and _PAGE.match(number):
            found = await asyncio.to_thread(profiles.deal, self.accounts.store, game_id, int(number))
        if found is None:
            return error_answer(
                404,
                "no_deal",
                f"no deal {number[:20]!r} in a stored game {game_id[:40]!r}: a game is "
                "stored once it is over; a deal of a game going on is reviewed at its table",
            )
        if refused := await self._daily_locked(request, game_id):
            return refused
        return JSONResponse(found)

    async def register(self, request: Request) -> Response:
        try:
            data = await body(request)
            if refused := await spend(request, Budget.REGISTRATION):
                return limited(refused)
            await self._check_no_guest_holds(request, data)
            account = await asyncio.to_thread(
                self.accounts.register, data.get("name"), data.get("password"), data.get("avatar")
            )
            _, token = await asyncio.to_thread(
                self.accounts.login, data["name"], data["password"], address(request), request.headers.get("user-agent")
            )
        except AccountError as err:
            return refusal(409 if err.code == "name_taken" else 400, err)
        await self._hand_over(request, data, account, new=True)
        response = JSONResponse({"id": account.id, "name": account.name, "avatar": account.avatar}, status_code=201)
        return with_session(response, request, token)

    async def _hand_over(self, request: Request, data: dict[str, Any], account: Any, new: bool) -> AccountError | None:
        """The guest whose token is ``guest`` in the body (the browser registering or logging in) keeps
        their seats: they pass to the account (docs/security.md, "A guest who registers"). The reason it
        may not, for a login (nothing is handed over then)."""
        hub = request.app.state.hub
        token = data.get("guest")
        guest = hub.identity.player_from_token(token) if isinstance(token, str) and len(token) <= 200 else None
        if guest is None or not guest.startswith("g"):
            return None
        refused = hub.handover.refused(guest, account.id, account.name, new)
        if refused is not None:
            return AccountError(refused.code, refused.message)
        await hub.handover.hand_over(guest, account.id, account.name)
        return None

    async def _check_no_guest_holds(self, request: Request, data: dict[str, Any]) -> None:
        """A name a guest plays under now is not to be registered by somebody else (the chat and the
        invitations would name two people alike); the guest themselves may, their token in ``guest``."""
        name = data.get("name")
        if not isinstance(name, str) or not NAME.match(normal_name(name)):
            return  # register refuses it, saying why
        hub = request.app.state.hub
        token = data.get("guest")
        own = hub.identity.player_from_token(token) if isinstance(token, str) and len(token) <= 200 else None
        if await hub.identity.guests_online(name) - {own}:
            raise AccountError(
                "name_taken", f"a guest is playing under the name {normal_name(name)!r} now: choose another"
            )

    async def login(self, request: Request) -> Response:
        try:
            data = await body(request)
        except AccountError as err:
            return refusal(400, err)
        if refused := await spend_guess(request, data.get("name")):
            return limited(refused)
        try:
            account, token = await asyncio.to_thread(
                self.accounts.login,
                data.get("name"),
                data.get("password"),
                address(request),
                request.headers.get("user-agent"),
            )
        except AccountError as err:
            return refusal(401, err)
        if handover_refused := await self._hand_over(request, data, account, new=False):
            await asyncio.to_thread(self.accounts.logout, token)  # the session just opened: nothing changed
            return refusal(409, handover_refused)
        response = JSONResponse({"id": account.id, "name": account.name, "avatar": account.avatar})
        return with_session(response, request, token)

    async def logout(self, request: Request) -> Response:
        """This session ends; with ``{"everywhere": true}``, every session of the account, this one too.
        The sockets those sessions opened are closed, on every process."""
        try:
            everywhere = (await body(request)).get("everywhere") is True
        except AccountError as err:
            return refusal(400, err)
        token = session_token(request)
        account = await asyncio.to_thread(self.accounts.session, token)
        if everywhere and account is None:
            return error_answer(401, "not_logged_in", "log in to log out everywhere")
        hub = request.app.state.hub
        if account is not None and everywhere:
            ended = await asyncio.to_thread(self.accounts.end_sessions, account.id)
            hub.sessions.close(account.id, ended, SessionEnd.EVERYWHERE)
        else:
            key = await asyncio.to_thread(self.accounts.logout, token)
            if account is not None and key is not None:
                hub.sessions.close(account.id, [key], SessionEnd.LOGOUT)
        return without_session(Response(status_code=204), request)

    async def end_session(self, request: Request) -> Response:
        """POST {id}: end one of one's sessions, as ``GET /api/sessions`` lists them; this one too (a logout)."""
        if not isinstance(got := await asked(request, self.accounts, "log in to end a session"), Asked):
            return got
        account, token, session_id = got.account, got.token, got.data.get("id")
        key = await asyncio.to_thread(self.accounts.end_session, account.id, session_id)
        if key is None:
            return error_answer(
                404, "no_session", f"you have no session {repr(session_id)[:24]} (GET /api/sessions lists yours)"
            )
        current = token is not None and key == session_key(token)
        request.app.state.hub.sessions.close(account.id, [key], SessionEnd.LOGOUT if current else SessionEnd.ENDED)
        response = JSONResponse({"ended": key[:16], "current": current})
        return without_session(response, request) if current else response

    async def delete_account(self, request: Request) -> Response:
        """POST {password}: the account deleted (``features/erasure.py``); every session ends, every socket closes,
        its seats are left; the name is free again."""
        if not isinstance(
            got := await asked(request, self.accounts, "log in to delete your account", guess=True), Asked
        ):
            return got
        account = got.account
        try:
            erased = await asyncio.to_thread(self.accounts.delete, account, got.data.get("password"))
        except AccountError as err:
            return refusal(401, err)
        hub = request.app.state.hub
        hub.sessions.close(account.id, erased.sessions, SessionEnd.DELETED)
        hub.identity.forget_friends(account.id, *erased.friends)
        return without_session(JSONResponse({"deleted": True, "name": account.name}), request)

    async def me(self, request: Request) -> Response:
        token = session_token(request)
        account = await asyncio.to_thread(self.accounts.session, token)
        if account is None:
            if request.query_params.get("optional") == "1":  # a page asking whether: a guest is no error
                return JSONResponse(None)
            return error_answer(401, "not_logged_in", "not logged in")
        chips = await asyncio.to_thread(self._standing, account.id)
        answer = JSONResponse({"id": account.id, "name": account.name, "avatar": account.avatar, **chips})
        if token and served_over_https(request) and SECURE_COOKIE not in request.cookies:
            with_session(answer, request, token)  # a session of before the __Host- name: renamed, the old deleted
        return answer

    async def sessions(self, request: Request) -> Response:
        """The account's sessions in force: when each began and was last used, where it logged in from."""
        if not isinstance(got := await asked(request, self.accounts, "log in to see your sessions", read=False), Asked):
            return got
        return JSONResponse({"sessions": await asyncio.to_thread(self.accounts.sessions_of, got.account.id, got.token)})

    async def password(self, request: Request) -> Response:
        """POST {old, new}: a new password, the old one given; every other session ends."""
        if not isinstance(
            got := await asked(request, self.accounts, "log in to change your password", guess=True), Asked
        ):
            return got
        account = got.account
        try:
            ended = await asyncio.to_thread(
                self.accounts.change_password, account, got.token, got.data.get("old"), got.data.get("new")
            )
        except AccountError as err:
            return refusal(401 if err.code == "wrong" else 400, err)
        request.app.state.hub.sessions.close(account.id, ended, SessionEnd.PASSWORD)
        return JSONResponse({"changed": True, "sessions_ended": len(ended)})

    def _standing(self, player_id: str) -> dict[str, Any]:
        with self.accounts.store.engine.connect() as conn:
            return ledger.standing(conn, player_id)

    async def claim(self, request: Request) -> Response:
        """The daily chips: 200 for an account below 200, once per UTC day (a ledger row)."""
        if not isinstance(got := await asked(request, self.accounts, "log in to claim chips", read=False), Asked):
            return got
        try:
            chips = await asyncio.to_thread(
                ledger.claim, self.accounts.store.engine, got.account.id, request.app.state.hub.clock.now()
            )
        except ledger.LedgerError as err:
            return error_answer(409, err.code, err.message)
        return JSONResponse({"claimed": ledger.CLAIM_CHIPS, "chips": chips})

    async def friends(self, request: Request) -> Response:
        """GET: your friends and requests. POST {action: request|accept|refuse|remove, name}."""
        post = request.method == "POST"
        if not isinstance(got := await asked(request, self.accounts, "log in to have friends", read=post), Asked):
            return got
        account, hub = got.account, request.app.state.hub
        friends = hub.friends
        if post:
            try:
                action, name = got.data.get("action"), got.data.get("name")
                if action == "request":
                    if refused := await spend(request, Budget.FRIEND_REQUEST, person=account.id):
                        return limited(refused)
                    other, status = await asyncio.to_thread(friends.request, account, name)
                    hub.identity.tell_player(other.id, {"type": "friend", "event": status, "name": account.name})
                elif action in ("accept", "refuse"):
                    other = await asyncio.to_thread(friends.answer, account, name, action == "accept")
                    hub.identity.tell_player(
                        other.id,
                        {
                            "type": "friend",
                            "event": "accepted" if action == "accept" else "refused",
                            "name": account.name,
                        },
                    )
                elif action == "remove":
                    other = await asyncio.to_thread(friends.remove, account, name)
                else:
                    raise AccountError("malformed", "action is request, accept, refuse or remove")
            except AccountError as err:
                return refusal(404 if err.code == "no_player" else 400, err)
            hub.identity.forget_friends(account.id, other.id)
        found = await asyncio.to_thread(friends.of, account.id)
        named = await asyncio.to_thread(friends.named, account.id)
        where = await hub.identity.presence(account.id, set(named))
        return JSONResponse({**found, "presence": {named[pid]: seen for pid, seen in where.items()}})


__all__ = ["MAX_PAGE", "AccountRoutes", "leaderboard_query"]
