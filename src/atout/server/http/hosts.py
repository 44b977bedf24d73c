"""Which host names the site answers to: ``atout serve --host-name``, and this machine's own names.

A page at ``http://evil.example:8000/`` whose name the attacker later points at the server's address (DNS
rebinding) talks to the server with ``Host: evil.example:8000`` and ``Origin: http://evil.example:8000``,
which agree: the origin check (origins.py) would take it for the site's own page. Refusing every host the
site does not know, before any route, closes that door; the origin check then compares the ``Origin``
with a name that is the site's. An IP address is always answered: no one can point it elsewhere, and a
page at ``http://192.168.1.20:8000/`` is this server's own (a friend on the network types that).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from .origins import forwarded_host
from .requests import error_answer

LOCAL_HOSTS = ("localhost", "*.localhost")
"""This machine's names: always allowed (a browser resolves them here itself, so no page can rebind them)."""
ANY = "*"


def host_name(authority: str) -> str:
    """``Host``'s name without its port, in lower case: ``[::1]:8000`` → ``::1``, ``Tarot.org.`` → ``tarot.org``."""
    authority = authority.strip().lower()
    if authority.startswith("["):
        return authority[1:].partition("]")[0]
    if authority.count(":") == 1:
        authority = authority.partition(":")[0]
    return authority.rstrip(".")


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def allows(patterns: Iterable[str], name: str) -> bool:
    """Whether ``name`` is an IP address or one of ``patterns``: a name, ``*.example.org`` (its
    subdomains), or ``*`` (any)."""
    if is_address(name):
        return True
    for pattern in patterns:
        if pattern == ANY or name == pattern or (pattern.startswith("*.") and name.endswith(pattern[1:])):
            return True
    return False


class HostGuard:
    """ASGI middleware: a request or a WebSocket handshake naming a host the site does not answer to is
    refused with 400 ``unknown_host`` (a WebSocket's too: the handshake's answer). Behind a trusted proxy
    the name is ``X-Forwarded-Host``'s, as for the site's origin."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = LOCAL_HOSTS, trusted_proxy: bool = False) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in (*hosts, *LOCAL_HOSTS))
        self.any = ANY in self.hosts
        self.trusted_proxy = trusted_proxy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.any or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        authority = (forwarded_host(headers) if self.trusted_proxy else "") or headers.get("host", "")
        name = host_name(authority)
        if name and allows(self.hosts, name):
            await self.app(scope, receive, send)
            return
        answer = error_answer(400, "unknown_host", f"this site does not answer to the host {authority[:100]!r}")
        await answer(scope, receive, send)


__all__ = ["ANY", "LOCAL_HOSTS", "HostGuard", "allows", "host_name"]
