"""Slow and greedy clients at the edge, over real sockets: a request that trickles in is cut off after the
request timeout; one address gets only so many connections, WebSockets and new guests, while another
address is still served (``server/http/edge.py``, ``app.py``, ``limits.py``)."""

from __future__ import annotations

import asyncio
import dataclasses
import json

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from atout.server.http.edge import AtoutHTTPProtocol

from .helpers import Client, eventually, quick_config, running_server

UPPER_BOUND = 30.0
"""How long a test waits for the server to close a connection before calling it a hang (an upper bound)."""


@pytest.fixture
def db(tmp_path) -> str:
    """An SQLite store: the edge is the same on any (these tests run once, not once per store)."""
    return f"sqlite:///{tmp_path / 'atout.db'}"


class Quick(AtoutHTTPProtocol):
    """The server's protocol with a short deadline and a small cap, for the tests."""

    request_timeout = 0.5
    per_address = 3


async def _open(port: int, source: str = "127.0.0.1") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def _closed(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sent until it closed the connection (fails if it stays open)."""
    data = b""
    try:
        while chunk := await asyncio.wait_for(reader.read(65536), UPPER_BOUND):
            data += chunk
    except ConnectionResetError:  # closed, and the trickle's next byte drew a reset before this read
        pass
    return data


async def _trickle(writer: asyncio.StreamWriter, head: bytes) -> None:
    """A slowloris: the head a byte at a time, one every tenth of a second, until the socket is closed."""
    try:
        for byte in head:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(0.1)
    except (ConnectionError, OSError):
        pass


async def test_a_request_that_trickles_in_is_cut_off_and_a_quick_one_is_served(db: str) -> None:
    async with running_server(db, http=Quick) as server:
        head = f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Padding: {'x' * 200}\r\n\r\n".encode()
        reader, writer = await _open(server.port)
        trickle = asyncio.create_task(_trickle(writer, head))
        assert await _closed(reader) == b""  # closed without an answer, long before the head could end
        assert not trickle.done()  # it was still sending
        trickle.cancel()
        writer.close()

        silent, silent_writer = await _open(server.port)  # a connection that never says a word
        assert await _closed(silent) == b""
        silent_writer.close()

        quick, quick_writer = await _open(server.port)  # a whole request, then a second one trickling in
        quick_writer.write(head)
        answer = (await asyncio.wait_for(quick.readuntil(b"\r\n\r\n"), UPPER_BOUND)).decode()
        assert answer.startswith("HTTP/1.1 200"), answer
        length = int(
            next(line.split(":")[1] for line in answer.split("\r\n") if line.lower().startswith("content-length"))
        )
        await asyncio.wait_for(quick.readexactly(length), UPPER_BOUND)
        again = asyncio.create_task(_trickle(quick_writer, head))
        assert await _closed(quick) == b""
        again.cancel()
        quick_writer.close()


async def test_a_websocket_outlives_the_request_timeout(db: str) -> None:
    """Once upgraded, a socket is the WebSocket's: the request's deadline no longer applies."""
    async with running_server(db, http=Quick) as server:
        guest = await Client.connect(server.url, "Lasting")
        await asyncio.sleep(2 * Quick.request_timeout)  # past the deadline the handshake's request had
        await guest.send({"type": "ping"})
        assert (await guest.expect("pong"))["type"] == "pong"
        await guest.close()


async def test_one_address_holds_only_so_many_connections(db: str) -> None:
    async with running_server(db, http=Quick) as server:
        held = [await _open(server.port) for _ in range(Quick.per_address)]
        reader, writer = await _open(server.port)
        refused = (await _closed(reader)).decode()
        assert refused.startswith("HTTP/1.1 503") and "too_many_connections" in refused, refused
        assert "at most 3 connections at once from one address" in refused
        writer.close()
        other, other_writer = await _open(server.port, source="127.0.0.2")  # another address is served
        other_writer.write(f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        assert (await asyncio.wait_for(other.readline(), UPPER_BOUND)).startswith(b"HTTP/1.1 200")
        other_writer.close()
        for _, w in held:
            w.close()


async def test_the_server_holds_only_so_many_connections_in_all(db: str) -> None:
    async with running_server(db, http=AtoutHTTPProtocol, limit_concurrency=2) as server:
        held = [await _open(server.port, source=f"127.0.0.{i + 2}") for i in range(2)]
        reader, writer = await _open(server.port, source="127.0.0.9")
        refused = (await _closed(reader)).decode()
        assert refused.startswith("HTTP/1.1 503") and "server_full" in refused, refused
        writer.close()
        for _, w in held:
            w.close()


async def test_one_address_opens_only_so_many_websockets(db: str) -> None:
    config = dataclasses.replace(quick_config(), sockets_per_address=3)
    async with running_server(db, config) as server:
        crowd = [await Client.connect(server.url, f"Crowd{i}", address="203.0.113.7") for i in range(3)]
        async with websockets.connect(server.url, additional_headers={"X-Forwarded-For": "203.0.113.7"}) as extra:
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(extra.recv(), UPPER_BOUND)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        assert closed.value.rcvd.reason == "at most 3 connections at once from one address"
        elsewhere = await Client.connect(server.url, "Elsewhere", address="198.51.100.8")  # another address: welcome
        await crowd[0].close()
        await eventually(
            lambda: sum(1 for c in server.hub.connections if c.address == "203.0.113.7") < 3,
            "the server hears of the closed socket",
        )
        again = await Client.connect(server.url, "Again", address="203.0.113.7")
        for client in (*crowd[1:], elsewhere, again):
            await client.close()


async def test_one_address_makes_only_so_many_new_guests(db: str) -> None:
    """60 new guest identities an hour from one address (``limit_factor`` shrinks it to 3 here); a guest who
    comes back with its token makes none, and another address is not held back."""
    config = dataclasses.replace(quick_config(), limit_factor=0.05)
    async with running_server(db, config) as server:
        made = [await Client.connect(server.url, f"New{i}", address="203.0.113.9") for i in range(3)]
        async with websockets.connect(server.url, additional_headers={"X-Forwarded-For": "203.0.113.9"}) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "New3"}))
            refused = json.loads(await asyncio.wait_for(ws.recv(), UPPER_BOUND))
        assert (refused["type"], refused["code"], refused["budget"], refused["scope"]) == (
            "error",
            "rate_limited",
            "guest",
            "address",
        ), refused
        assert "new guests in an hour from one address" in refused["message"]
        await made[0].close()
        back = await Client.connect(server.url, "New0", token=made[0].token, address="203.0.113.9")
        assert back.id == made[0].id
        other = await Client.connect(server.url, "Other", address="198.51.100.9")
        for client in (*made[1:], back, other):
            await client.close()
