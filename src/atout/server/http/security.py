"""Headers that tell a browser what the site's pages may do: run only the site's own scripts and styles,
talk only to the site, never be framed by another (clickjacking), never guess a file's type, say little
to other sites about where a person came from; and over https, stay on https."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .origins import site_origin, site_scheme

HSTS_SECONDS = 365 * 86400


def content_policy(scope: Scope, trusted_proxy: bool, scripts: str = "") -> str:
    """The Content-Security-Policy: everything from the site itself, nothing inline (no script, no style
    attribute) but the inline scripts whose hashes ``scripts`` names (the page's import map), the
    WebSocket to the site's own address, the favicon as a data: URL, no frame around it."""
    connect = "'self'"
    origin = site_origin(scope, trusted_proxy)
    if origin is not None:  # 'self' covers ws: and wss: in CSP 3; browsers that predate it need it named
        connect += " " + origin.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
    script = "'self'" + (f" {scripts}" if scripts else "")
    return (
        f"default-src 'none'; script-src {script}; style-src 'self'; img-src 'self' data:; "
        f"connect-src {connect}; manifest-src 'self'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    )


def security_headers(scope: Scope, trusted_proxy: bool) -> dict[str, str]:
    """Every header this module adds to the response to the request ``scope``."""
    headers = {
        "Content-Security-Policy": content_policy(scope, trusted_proxy),
        "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",  # other sites learn nothing of which page or table linked to them
        "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    }
    if trustworthy(scope, trusted_proxy):  # elsewhere a browser ignores it, and says so as an error on each page
        headers["Cross-Origin-Opener-Policy"] = "same-origin"
    if site_scheme(scope, trusted_proxy) == "https":
        headers["Strict-Transport-Security"] = f"max-age={HSTS_SECONDS}"
    return headers


SUBRESOURCES = frozenset({"text/javascript", "text/css"})
"""A script or a style sheet: run or applied by the page that asks for it, under the page's own policy. Opened
by itself a browser shows it as text and runs nothing: it needs no policy of what may run, be framed or be
asked for, only its type kept (nosniff) and nothing at all allowed (a policy of 'none', a frame of none). Some
26 files a first visit: the page's whole policy on each was 9 KB of a phone's 100 KB."""
SUBRESOURCE_POLICY = "default-src 'none'; frame-ancestors 'none'"


def _subresource(headers: dict[str, str]) -> dict[str, str]:
    kept = {"X-Content-Type-Options", "Strict-Transport-Security"}
    return {"Content-Security-Policy": SUBRESOURCE_POLICY, **{k: v for k, v in headers.items() if k in kept}}


def trustworthy(scope: Scope, trusted_proxy: bool) -> bool:
    """Whether browsers count the site's origin as secure: https, or this machine (a friend on the network
    who opens http://192.168.1.20:8000/ is on plain http elsewhere)."""
    if site_scheme(scope, trusted_proxy) == "https":
        return True
    origin = site_origin(scope, trusted_proxy) or ""
    host = urlsplit(origin).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class SecurityHeaders:
    """ASGI middleware: the headers on every HTTP response, pages, API and errors alike, and on a script or a
    style sheet the few that mean something there (``SUBRESOURCES``); a route that sets one keeps its own."""

    def __init__(self, app: ASGIApp, trusted_proxy: bool = False) -> None:
        self.app = app
        self.trusted_proxy = trusted_proxy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope, self.trusted_proxy)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                kind = headers.get("content-type", "").split(";")[0].strip()
                for name, value in (_subresource(extra) if kind in SUBRESOURCES else extra).items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


__all__ = ["SecurityHeaders", "content_policy", "security_headers"]
