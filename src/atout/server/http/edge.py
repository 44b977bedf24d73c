"""The HTTP protocol ``atout serve`` runs under uvicorn: uvicorn's own (h11), with two guards uvicorn lacks.

A request (its head, and its body if any) must arrive whole within ``request_timeout`` seconds of the
connection being made, or of its first byte on a kept-alive connection: uvicorn waits for it for ever
(its keep-alive timer is only armed after a response, and any byte disarms it), so a client sending a
byte every few seconds held a connection, and its memory, as long as it liked (slowloris). And one peer address may hold
at most
``per_address`` connections at once: more are answered 503 and closed as they come. Behind a proxy every
connection comes from the proxy, so ``atout serve --behind-proxy`` lifts that cap (the proxy keeps it:
``limit_conn``, docs/deploy.md). Beyond uvicorn's ``limit_concurrency`` in all, uvicorn answers 503 to
requests but lets WebSockets in and connections stay: here the connection is refused as it comes.

Settings are class attributes: uvicorn makes one protocol object per connection from the class it is
given, in each worker process, and ``atout serve``'s app factory sets them there (``configure``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT = 10.0
"""Seconds a request may take to arrive: a phone on a slow link sends its kilobyte or two (the site takes
no body over 4 KB) in well under one."""
PER_ADDRESS = 256
"""Connections one address may hold at once: 30 people behind one router (a club), each browser with its
WebSocket and up to six HTTP connections for a page's files, stay under it."""

_PENDING = (h11.IDLE, h11.SEND_BODY)
"""The client's states in which its request is not whole yet."""


def _error(status: str, code: str, message: str) -> bytes:
    """A whole HTTP/1.1 response with the site's JSON error, closing the connection: what a connection
    refused before any request is read gets."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    return (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
        "connection: close\r\nretry-after: 10\r\n\r\n"
    ).encode() + body


def peer_of(protocol: object) -> str | None:
    """The peer address of one of uvicorn's connections (an HTTP or a WebSocket protocol object)."""
    client = getattr(protocol, "client", None)
    return client[0] if client else None


class AtoutHTTPProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each request and a cap on one address's connections."""

    request_timeout: float = REQUEST_TIMEOUT
    per_address: int | None = PER_ADDRESS  # None: no cap (behind a proxy)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadline: asyncio.TimerHandle | None = None

    @classmethod
    def configure(cls, request_timeout: float, per_address: int | None) -> None:
        """This process's settings (``atout serve``: ``--request-timeout``, ``--connections-per-address``)."""
        cls.request_timeout = request_timeout
        cls.per_address = per_address

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.limit_concurrency is not None and len(self.connections) > self.limit_concurrency:
            self.logger.warning("refused a connection: %d held already", len(self.connections) - 1)
            transport.write(
                _error(
                    "503 Service Unavailable",
                    "server_full",
                    f"the server holds {self.limit_concurrency} connections: try again soon",
                )
            )
            transport.close()
            return
        if self.per_address is not None and self.client is not None:
            peer = self.client[0]
            held = sum(1 for c in self.connections if peer_of(c) == peer)
            if held > self.per_address:
                self.logger.warning("refused a connection from %s: %d held already", peer, held - 1)
                transport.write(
                    _error(
                        "503 Service Unavailable",
                        "too_many_connections",
                        f"at most {self.per_address} connections at once from one address",
                    )
                )
                transport.close()
                return
        self._arm()

    def _arm(self) -> None:
        if self.deadline is None:
            self.deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state in _PENDING:
            self._arm()  # a kept-alive connection's next request: its deadline runs from its first byte
        super().data_received(data)
        if self.conn.their_state not in _PENDING or self.transport.get_protocol() is not self:
            self._disarm()  # the request is whole (or the connection became a WebSocket's)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        """The request did not come in time: the connection is closed without a word (the client is not
        reading one, or is not a browser)."""
        self.deadline = None
        if self.conn.their_state in _PENDING and not self.transport.is_closing():
            self.transport.close()


__all__ = ["PER_ADDRESS", "REQUEST_TIMEOUT", "AtoutHTTPProtocol"]
