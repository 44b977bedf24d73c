"""A follower that stops reading (a frozen tab, a dead link) never holds a table up: its frames wait in
its own outbox, it is cut off past the outbox's bound, and once its socket goes the server forgets it."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
from websockets.client import ClientProtocol
from websockets.protocol import State
from websockets.uri import parse_uri

import atout.server.site.connection as connection_module

from .helpers import SQLITE_ONLY, Client, eventually, running_server
from .test_tables import play_until, table_with_robots


class Mute:
    """A WebSocket client, built by hand on a socket with a tiny receive buffer, that reads only when told."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.protocol = ClientProtocol(parse_uri(url), max_size=None)

    async def open(self) -> None:
        host, port = self.url.split("//")[1].split("/")[0].split(":")
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: the window stays small
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
        self.reader, self.writer = await asyncio.open_connection(sock=sock)
        request = self.protocol.connect()
        request.headers["X-Forwarded-For"] = "10.0.0.99"
        self.protocol.send_request(request)
        self._flush()
        while self.protocol.state is not State.OPEN:
            self.protocol.receive_data(await asyncio.wait_for(self.reader.read(65536), 5))
        self.protocol.events_received()

    def _flush(self) -> None:
        self.writer.write(b"".join(self.protocol.data_to_send()))

    def send(self, message: dict) -> None:
        self.protocol.send_text(json.dumps(message).encode())
        self._flush()

    async def read_until(self, kind: str) -> dict:
        while True:
            for frame in self.protocol.events_received():
                message = json.loads(frame.data)
                if message.get("type") == kind:
                    return message
            self.protocol.receive_data(await asyncio.wait_for(self.reader.read(65536), 5))


@SQLITE_ONLY
async def test_a_follower_that_stops_reading_is_cut_off_and_the_table_goes_on(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connection_module, "OUTBOX_LIMIT", 20)
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, level="random", deals=20)
        zed = Mute(server.url)
        await zed.open()
        zed.send({"type": "hello", "protocol": 1, "name": "Zed"})
        await zed.read_until("welcome")
        zed.send({"type": "join", "table": table})
        await zed.read_until("table")  # following the table as a spectator; from here on Zed reads nothing
        follower = next(c for c in server.hub.connections if c.player and c.player.name == "Zed")
        await ann.request({"type": "start", "table": table})
        start = server.hub.rooms[table].table.seq
        # Ann plays on; the robots answer at once: the spectator's frames pile up behind its full socket
        await play_until(ann, lambda _: follower.closed, limit=20_000)
        assert follower.closed  # cut off past the bound, the outbox no longer grows
        assert follower.outbox.qsize() <= 20 + 2
        moved = server.hub.rooms[table].table.seq - start
        assert moved > 40, moved
        # and the table never waited for it: Ann's next turns are answered as before
        before = server.hub.rooms[table].table.seq
        loop = asyncio.get_running_loop()
        began = loop.time()
        await play_until(ann, lambda _: server.hub.rooms[table].table.seq >= before + 20)
        assert loop.time() - began < 10
        # the socket goes: the send left waiting is ended, and the server forgets the connection
        zed.writer.transport.abort()
        await eventually(
            lambda: follower not in server.hub.connections, "the server kept the closed connection", every=0.01
        )
        assert follower not in server.hub.connections
        assert follower not in server.hub.rooms[table].followers
        await ann.close()
