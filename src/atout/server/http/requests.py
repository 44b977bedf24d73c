"""What every route shares: reading a request's body, the client's address, the session cookie, an error's
answer, spending a rate budget. The routes of each feature (``accounts.py``, ``daily.py``...) use these."""

from __future__ import annotations

import secrets
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from ..features.accounts import SESSION_DAYS, AccountError
from ..features.daily_marks import BROWSER_COOKIE, BROWSER_MARK
from ..features.limits import Budget, Refusal
from .origins import site_scheme

COOKIE = "atout_session"
MAX_BODY = 4096


def error_answer(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def limited(refused: Refusal) -> JSONResponse:
    """429 ``rate_limited``: which budget, whose, and the wait (also as ``Retry-After``)."""
    return JSONResponse({"error": {"code": "rate_limited", "message": refused.message, **refused.fields()}},
                        status_code=429, headers={"Retry-After": str(refused.seconds)})


async def spend(request: Request, budget: Budget, person: str | None = None) -> Refusal | None:
    """Spend one of ``budget`` for this address and, given, this person (limits.py)."""
    return await request.app.state.hub.limits.spend(budget, person=person, address=address(request))


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


def address(request: Request) -> str:
    """The client's address, as the WebSocket takes it (behind --behind-proxy, X-Forwarded-For): else
    behind a proxy every registration and login came from the proxy, one limit for the whole site."""
    return client_address(request, request.app.state.hub.config.trusted_proxy) or "?"


def served_over_https(request: Request) -> bool:
    """Whether the person reached the site over https, a TLS-ending proxy included (--behind-proxy)."""
    return site_scheme(request.scope, request.app.state.hub.config.trusted_proxy) == "https"


def without_session(response: Response, request: Request) -> Response:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=served_over_https(request))
    return response


def with_session(response: Response, request: Request, token: str) -> Response:
    """The session cookie: out of scripts' reach, not sent by other sites' requests but a link's, and over
    https never sent in clear."""
    response.set_cookie(COOKIE, token, max_age=SESSION_DAYS * 86400, httponly=True, samesite="lax",
                        secure=served_over_https(request), path="/")
    return response


def with_browser_mark(response: Response, request: Request) -> Response:
    """The browser's mark (``daily_marks``: one ranked daily play a browser), given once and kept a year:
    a random value, out of scripts' reach, tied to no account."""
    if not BROWSER_MARK.match(request.cookies.get(BROWSER_COOKIE, "")):
        response.set_cookie(BROWSER_COOKIE, secrets.token_urlsafe(18), max_age=365 * 86400, httponly=True,
                            samesite="lax", secure=served_over_https(request), path="/")
    return response


def client_address(connection: WebSocket | Request, trusted_proxy: bool) -> str | None:
    """The client's IP address: the socket's peer, or behind a trusted proxy the first X-Forwarded-For
    entry (never honoured otherwise: anyone can send the header)."""
    if trusted_proxy:
        forwarded = connection.headers.get("x-forwarded-for", "").split(",")[0].strip()
        if forwarded:
            return forwarded[:64]
    return connection.client.host if connection.client else None
