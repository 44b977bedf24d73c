"""What every route shares: reading a request's body, the client's address, the session cookie, an error's
answer, spending a rate budget, and a logged-in person's request read whole (``asked``). The routes of each
feature (``accounts.py``, ``daily.py``...) use these."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from ..features.accounts import SESSION_DAYS, Account, AccountError, Accounts, name_key
from ..features.daily_marks import BROWSER_COOKIE, BROWSER_MARK
from ..features.limits import Budget, Refusal
from ..site.hub import Hub
from .origins import site_scheme

COOKIE = "atout_session"
"""The session cookie's name over plain http (this machine, a friend on the network)."""
SECURE_COOKIE = "__Host-atout_session"
"""Its name over https: a browser takes a ``__Host-`` cookie only Secure, for ``/``, from the site itself
(no Domain), so neither a sibling subdomain nor a page over plain http can set or shadow it."""
COOKIES = (SECURE_COOKIE, COOKIE)
"""Both names, as a session is read: the ``__Host-`` one first; the plain one still read over https for the
sessions set before the prefix (they end at logout or expiry, or when ``/api/me`` renames them)."""
MAX_BODY = 4096


def error_answer(status: int, code: str, message: str, **extra: object) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}}, status_code=status)


def refusal(status: int, err: AccountError) -> JSONResponse:
    """An account's refusal, its extra fields too (a weak password's ``reason``)."""
    return error_answer(status, err.code, err.message, **err.extra)


def limited(refused: Refusal) -> JSONResponse:
    """429 ``rate_limited``: which budget, whose, and the wait (also as ``Retry-After``)."""
    return JSONResponse(
        {"error": {"code": "rate_limited", "message": refused.message, **refused.fields()}},
        status_code=429,
        headers={"Retry-After": str(refused.seconds)},
    )


async def spend(request: Request, budget: Budget, person: str | None = None) -> Refusal | None:
    """Spend one of ``budget`` for this address and, given, this person (limits.py)."""
    return await hub_of(request).limits.spend(budget, person=person, address=address(request))


async def spend_guess(request: Request, name: object) -> Refusal | None:
    """Spend one password attempt on the name tried (whatever its case or accents: one budget, from every
    address together) and from this address."""
    key = name_key(name) if isinstance(name, str) else "?"
    return await spend(request, Budget.LOGIN, person=key[:40])


@dataclass(frozen=True)
class Asked:
    """A logged-in person's request, read: their account, their session's token, the body."""

    account: Account
    token: str | None
    data: dict[str, Any]


async def asked(
    request: Request, accounts: Accounts, logged_out: str, read: bool = True, guess: bool = False
) -> Asked | Response:
    """The session's account (else 401 ``not_logged_in``, ``logged_out`` saying what to log in for), the
    body when ``read`` (else 400), and for a request that tries the account's password (``guess``) one
    attempt of its login budget (else 429: a stolen cookie guesses no faster than a login). A Response is
    the refusal to send."""
    token = session_token(request)
    account = await asyncio.to_thread(accounts.session, token)
    if account is None:
        return error_answer(401, "not_logged_in", logged_out)
    try:
        data = await body(request) if read else {}
    except AccountError as err:
        return refusal(400, err)
    if guess and (refused := await spend_guess(request, account.name)):
        return limited(refused)
    return Asked(account, token, data)


async def body(request: Request) -> dict[str, Any]:
    length = request.headers.get("content-length")
    if length is not None and length.isascii() and length.isdigit() and int(length) > MAX_BODY:
        raise AccountError("too_large", f"a request body is at most {MAX_BODY} bytes")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise AccountError("too_large", f"a request body is at most {MAX_BODY} bytes")
    try:
        data = orjson.loads(raw or b"{}")  # strict JSON: no NaN, integers within 64 bits, nesting under 1,024
    except (ValueError, RecursionError):  # orjson.JSONDecodeError is a ValueError
        raise AccountError("malformed", "the body is not JSON") from None
    if not isinstance(data, dict):
        raise AccountError("malformed", "the body is a JSON object")
    return data


def hub_of(request: Request) -> Hub:
    """The site's hub, typed (Starlette's ``app.state`` holds anything)."""
    hub: Hub = request.app.state.hub
    return hub


def address(request: Request) -> str:
    """The client's address, as the WebSocket takes it (behind --behind-proxy, X-Forwarded-For): else
    behind a proxy every registration and login came from the proxy, one limit for the whole site."""
    return client_address(request, request.app.state.hub.config.trusted_proxy) or "?"


def served_over_https(request: Request) -> bool:
    """Whether the person reached the site over https, a TLS-ending proxy included (--behind-proxy)."""
    return site_scheme(request.scope, request.app.state.hub.config.trusted_proxy) == "https"


def session_token(connection: HTTPConnection) -> str | None:
    """The session cookie's value, under either of its names (``COOKIES``)."""
    for name in COOKIES:
        token = connection.cookies.get(name)
        if token:
            return token
    return None


def without_session(response: Response, request: Request) -> Response:
    """Both names deleted (over https, a session of before the prefix may still be under the plain one)."""
    https = served_over_https(request)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=https)
    if https:
        response.delete_cookie(SECURE_COOKIE, path="/", httponly=True, samesite="lax", secure=True)
    return response


def with_session(response: Response, request: Request, token: str) -> Response:
    """The session cookie: out of scripts' reach, not sent by other sites' requests but a link's, and over
    https never sent in clear, under the ``__Host-`` name (the plain one, if the browser holds it, deleted)."""
    https = served_over_https(request)
    response.set_cookie(
        SECURE_COOKIE if https else COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=https,
        path="/",
    )
    if https and COOKIE in request.cookies:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=True)
    return response


def with_browser_mark(response: Response, request: Request) -> Response:
    """The browser's mark (``daily_marks``: one ranked daily play a browser), given once and kept a year:
    a random value, out of scripts' reach, tied to no account."""
    if not BROWSER_MARK.match(request.cookies.get(BROWSER_COOKIE, "")):
        response.set_cookie(
            BROWSER_COOKIE,
            secrets.token_urlsafe(18),
            max_age=365 * 86400,
            httponly=True,
            samesite="lax",
            secure=served_over_https(request),
            path="/",
        )
    return response


def client_address(connection: WebSocket | Request, trusted_proxy: bool) -> str | None:
    """The client's IP address: the socket's peer, or behind a trusted proxy the first X-Forwarded-For
    entry (never honoured otherwise: anyone can send the header)."""
    if trusted_proxy:
        forwarded = connection.headers.get("x-forwarded-for", "").split(",")[0].strip()
        if forwarded:
            return forwarded[:64]
    return connection.client.host if connection.client else None
