"""The HTTP side of robot accounts: a registered person makes one (its token shown once), lists theirs,
and revokes a token (the robot's sockets close at once, on every process); and the robots' ladder."""

from __future__ import annotations

import asyncio
import json
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..features.accounts import AccountError, Accounts
from ..features.limits import Budget
from ..features.robot_accounts import RobotAccounts
from ..protocol import SessionEnd
from .requests import Asked, asked, error_answer, limited, refusal, spend


def shipped_ladder() -> dict[str, Any] | None:
    """The latest robots' ladder (``atout arena --ladder``), as the package ships it (``atout/web/ladder.json``)."""
    try:
        text = (resources.files("atout.web") / "ladder.json").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return None
    ladder: dict[str, Any] = json.loads(text)
    return ladder


class RobotRoutes:
    """``/api/robots`` (a person's robot accounts) and ``/api/ladder``."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.robots = RobotAccounts(accounts.store, accounts.clock)

    def routes(self) -> list[Route]:
        return [
            Route("/api/robots", self.robots_route, methods=["GET", "POST"]),
            Route("/api/robots/revoke", self.revoke, methods=["POST"]),
            Route("/api/ladder", self.ladder, methods=["GET"]),
        ]

    async def robots_route(self, request: Request) -> Response:
        """GET: the robot accounts one owns. POST {name}: a new one, with its token (shown this once)."""
        post = request.method == "POST"
        if not isinstance(
            got := await asked(request, self.accounts, "log in to have robot accounts", read=post), Asked
        ):
            return got
        account = got.account
        if post:
            if refused := await spend(request, Budget.ROBOT_ACCOUNT, person=account.id):
                return limited(refused)
            try:
                robot, token = await asyncio.to_thread(self.robots.create, account, got.data.get("name"))
            except AccountError as err:
                return refusal(409 if err.code in ("name_taken", "too_many_robots") else 400, err)
            return JSONResponse(
                {"name": robot.name, "robot_of": account.name, "token": token},
                status_code=201,
                headers={"Cache-Control": "no-store"},
            )
        return JSONResponse({"robots": await asyncio.to_thread(self.robots.of, account.id)})

    async def revoke(self, request: Request) -> Response:
        """POST {name}: the robot's token revoked; its sockets hear ``session_ended`` and close, and it is refused
        after (a new robot account gets a new token)."""
        if not isinstance(got := await asked(request, self.accounts, "log in to revoke a robot's token"), Asked):
            return got
        name = got.data.get("name")
        found = await asyncio.to_thread(self.robots.revoke, got.account.id, name)
        if found is None:
            return error_answer(404, "no_robot", f"you have no robot account {repr(name)[:24]} with a token in force")
        robot_id, key = found
        request.app.state.hub.sessions.close(robot_id, [key], SessionEnd.REVOKED)
        return JSONResponse({"revoked": name})

    async def ladder(self, request: Request) -> Response:
        """The robots' latest ladder: each robot's duplicate result against the yardstick, with its interval."""
        found = await asyncio.to_thread(shipped_ladder)
        if found is None:
            return error_answer(404, "no_ladder", "this server ships no robots' ladder")
        return JSONResponse(found, headers={"Cache-Control": "max-age=3600"})


__all__ = ["RobotRoutes", "shipped_ladder"]
