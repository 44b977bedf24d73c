"""PostgreSQL briefly unreachable (a TCP proxy between the server and it is cut, then restored): the
table pauses, says why, accepts nothing, and resumes by itself from the store; nothing is lost."""

from __future__ import annotations

import asyncio
import contextlib

from .helpers import WITHIN, Client, first_legal, running_server
from .test_tables import game_over, table_with_robots


class Proxy:
    """A TCP proxy to PostgreSQL that a test can cut (every connection dropped, new ones refused)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.server: asyncio.AbstractServer | None = None
        self.pipes: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self.pipes |= {writer, up_writer}

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(Exception):
                dst.close()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for pipe in list(self.pipes):
            with contextlib.suppress(Exception):
                pipe.transport.abort()
        self.pipes.clear()

    async def restore(self) -> None:
        await self.start()


async def test_a_table_pauses_while_postgresql_is_unreachable_and_resumes(pg_url: str) -> None:
    base, _, name = pg_url.rpartition("/")
    host_port = base.rsplit("@", 1)[-1]
    pg_port = int(host_port.rsplit(":", 1)[1]) if ":" in host_port else 5432
    proxy = Proxy(pg_port)
    await proxy.start()
    url = f"{base.rsplit('@', 1)[0]}@127.0.0.1:{proxy.port}/{name}"
    async with running_server(url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, deals=2, turn_seconds=0)
        await ann.request({"type": "start", "table": table})
        for _ in range(3):  # a few actions of Ann's, stored
            while not (ann.state["deal"] and ann.state["deal"]["to_act"] == 0 and ann.state["deal"]["legal"]):
                await ann.recv()
            answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
            assert answer["type"] == "event", answer
        while not (ann.state["deal"]["to_act"] == 0 and ann.state["deal"]["legal"]):
            await ann.recv()

        await proxy.cut()
        answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        assert answer["type"] == "error" and answer["code"] == "unavailable", answer
        paused = next(f for f in reversed(ann.frames) if f["type"] == "table")  # told before the refusal
        assert paused["state"]["paused"] and "store" in paused["state"]["paused"]
        seq = paused["seq"]
        assert server.hub.rooms[table].table.seq == seq  # the refused action is not part of the table
        answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        assert answer["type"] == "error" and answer["code"] == "paused", answer
        await asyncio.sleep(1.0)  # a window to act in, not a wait for something to happen
        assert server.hub.rooms[table].table.seq == seq  # no robot, no clock acted meanwhile

        await proxy.restore()
        back = await ann.expect("table", timeout=WITHIN)
        assert back["state"]["paused"] is None and back["seq"] == seq
        while not game_over(ann):
            state = ann.state
            deal = state["deal"]
            if deal and deal["to_act"] == 0 and deal["legal"]:
                answer = await ann.request({"type": "act", "table": table, "action": first_legal(state)})
                assert answer["type"] == "event", answer
            else:
                await ann.recv()
        stored = [e.seq for e in await asyncio.to_thread(server.hub.store.events_after, table, 0, 100_000)]
        assert stored == list(range(1, ann.seq + 1))
    await proxy.cut()
