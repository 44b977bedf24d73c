"""Which pages may act in a person's name: the site's own and those ``atout serve --origin`` names.

A browser sends a session cookie with every request to the site, whichever page made it (SameSite=Lax
lets a page of a sibling site open a WebSocket or post with it). The ``Origin`` a browser adds to a
WebSocket handshake and to a POST tells whose page it is: anything else than the site's own is refused,
and so is a request that carries the cookie without an ``Origin`` (no browser sends one like that).
Scripts and other clients that hold no cookie and send no ``Origin`` go on as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""What changes state; GET and HEAD only read, and a foreign page cannot read the answers (no CORS)."""
DEFAULT_PORTS = {"http": 80, "https": 443}
HOST = re.compile(r"^[a-z0-9.-]+$|^[0-9a-f:.]+$")
"""A host name or an IP address (IPv6 without its brackets): nothing that could end a header's value."""
WEB_SCHEME = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
"""A WebSocket's scheme as the page that opened it has it: wss:// from an https:// page."""


def normal_origin(url: str) -> str | None:
    """``scheme://host[:port]`` in one spelling (lower case, no default port), or None when ``url`` is
    no origin (``null``, another scheme, a path, a user name, a bad port)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    hostname = parts.hostname or ""
    if (
        parts.scheme not in DEFAULT_PORTS
        or not HOST.match(hostname)
        or parts.username is not None
        or parts.password is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        return None
    host = f"[{hostname}]" if ":" in hostname else hostname
    if port is not None and port != DEFAULT_PORTS[parts.scheme]:
        host += f":{port}"
    return f"{parts.scheme}://{host}"


def _error(status: int, code: str, message: str) -> JSONResponse:
    """The site's error answer, as the API's routes give it (docs/protocol.md, "Errors")."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _first(value: str | None) -> str:
    """The first of a proxy header's comma-separated values (the one the client's proxy set)."""
    return (value or "").split(",")[0].strip()


def site_scheme(scope: Scope, trusted_proxy: bool) -> str:
    """``https`` or ``http``: how the person reached the site. Behind a trusted proxy that ends TLS, its
    ``X-Forwarded-Proto``; otherwise the connection's own (anyone can send the header)."""
    if trusted_proxy:
        forwarded = _first(Headers(scope=scope).get("x-forwarded-proto")).lower()
        if forwarded in DEFAULT_PORTS:
            return forwarded
    return WEB_SCHEME.get(scope.get("scheme", "http"), "http")


def forwarded_host(headers: Headers) -> str:
    """The ``Host`` the client sent the proxy, as the proxy passes it on (``X-Forwarded-Host``), or ``""``."""
    return _first(headers.get("x-forwarded-host"))


def site_origin(scope: Scope, trusted_proxy: bool) -> str | None:
    """The site's own origin as the request names it: its scheme and ``Host`` (behind a trusted proxy,
    ``X-Forwarded-Proto`` and ``X-Forwarded-Host``). Only a host the site answers to gets this far
    (hosts.py refuses the others first)."""
    headers = Headers(scope=scope)
    host = forwarded_host(headers) if trusted_proxy else ""
    host = host or headers.get("host", "")
    return normal_origin(f"{site_scheme(scope, trusted_proxy)}://{host}") if host else None


class OriginGuard:
    """ASGI middleware: a WebSocket handshake or an unsafe HTTP request from a foreign page is refused
    before it reaches a route (HTTP 403; a WebSocket is closed before it is accepted, which is a 403 too)."""

    def __init__(
        self,
        app: ASGIApp,
        origins: Iterable[str] = (),
        trusted_proxy: bool = False,
        cookies: Iterable[str] = ("atout_session",),
    ) -> None:
        self.app = app
        self.origins = frozenset(filter(None, map(normal_origin, origins)))
        self.trusted_proxy = trusted_proxy
        self.cookies = tuple(cookies)  # the session cookie's names (requests.py: one over https, one over http)

    def refusal(self, scope: Scope) -> str | None:
        """Why this request may not act for anyone, or None when it may."""
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is None:
            sent = cookie_parser(headers.get("cookie", ""))
            if any(name in sent for name in self.cookies):
                return "a request with a session cookie comes from a page, with its Origin: none was sent"
            return None  # a script, not a browser: it holds no one's cookie
        normal = normal_origin(origin)
        if normal is not None and (normal in self.origins or normal == site_origin(scope, self.trusted_proxy)):
            return None
        return f"the origin {origin[:100]!r} is not this site's"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checked = scope["type"] == "websocket" or (scope["type"] == "http" and scope["method"] in UNSAFE_METHODS)
        reason = self.refusal(scope) if checked else None
        if reason is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": ""})  # before accept: HTTP 403
        else:
            await _error(403, "foreign_origin", reason)(scope, receive, send)


__all__ = ["OriginGuard", "forwarded_host", "normal_origin", "site_origin", "site_scheme"]
