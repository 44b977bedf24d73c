"""The store away, for real: PostgreSQL cut off (a TCP proxy between the server and it is cut, then
restored; or cut just as a write committed), SQLite's disk full (a tmpfs of its own, filled, then freed).

Every table pauses once and resumes once, saying the right cause; nothing accepted is lost and nothing
refused is stored; the lobby's requests are answered ``unavailable`` and the pages' routes 503 with
``Retry-After``; ``/health`` says the store is down; the log holds one line at the outage's start and one
at its end, and no traceback."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from atout.server.store import Store

from .helpers import WITHIN, Client, Server, eventually, first_legal, running_server
from .test_tables import game_over, table_with_robots


class Proxy:
    """A TCP proxy to PostgreSQL that a test can cut (every connection dropped, new ones refused), or arm
    to cut as PostgreSQL's next answer to an insert comes back (that answer lost: the write committed
    there, and the server never hears so), or as the server sends a write holding ``drop_on`` (that write
    lost on its way: never committed, and the server does not know it)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.server: asyncio.AbstractServer | None = None
        self.pipes: set[asyncio.StreamWriter] = set()
        self.armed = False
        self.drop_on: bytes | None = None
        self.cut_done = asyncio.Event()

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

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, answers: bool) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    if not answers and self.drop_on is not None and self.drop_on in data:
                        self.drop_on = None  # the write never reaches PostgreSQL, and every connection goes
                        await self.cut()
                        self.cut_done.set()
                        return
                    if answers and self.armed and b"INSERT 0 " in data:  # PostgreSQL's answer to a write: lost,
                        # and every connection with it (its CommandComplete: the write is over, committed)
                        self.armed = False
                        await self.cut()
                        self.cut_done.set()
                        return
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(Exception):
                dst.close()

        await asyncio.gather(pump(reader, up_writer, False), pump(up_reader, writer, True))

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for pipe in list(self.pipes):
            with contextlib.suppress(Exception):
                pipe.transport.abort()
        self.pipes.clear()

    async def restore(self) -> None:
        await self.start()


def through(proxy: Proxy, pg_url: str) -> str:
    base, _, name = pg_url.rpartition("/")
    return f"{base.rsplit('@', 1)[0]}@127.0.0.1:{proxy.port}/{name}"


def pg_port(pg_url: str) -> int:
    host_port = pg_url.rpartition("/")[0].rsplit("@", 1)[-1]
    return int(host_port.rsplit(":", 1)[1]) if ":" in host_port else 5432


def http_base(ws_url: str) -> str:
    return ws_url.replace("ws://", "http://").removesuffix("/ws")


def pauses(client: Client, table: str) -> tuple[int, int]:
    """How many times ``client`` was told the table paused, and resumed (a change of ``paused``)."""
    paused, resumed, was = 0, 0, None
    for f in client.frames:
        if f.get("table") == table and "state" in f:
            now = f["state"]["paused"]
            if now and not was:
                paused += 1
            if was and not now:
                resumed += 1
            was = now
    return paused, resumed


def outage_lines(caplog: pytest.LogCaptureFixture) -> tuple[list[dict], list[str]]:
    """The store's outage lines of the log, and every line that carries a traceback or is an error."""
    lines = [
        json.loads(r.getMessage())
        for r in caplog.records
        if r.getMessage().startswith("{") and '"store_' in r.getMessage()
    ]
    bad = [r.getMessage()[:200] for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    return [x for x in lines if x["event"] in ("store_down", "store_up")], bad


async def until_resumed(client: Client, table: str) -> None:
    while pauses(client, table)[1] == 0:
        await client.recv(WITHIN)


@contextlib.asynccontextmanager
async def proxied_server(pg_url: str) -> AsyncIterator[tuple[Proxy, Server]]:
    """A server on PostgreSQL through a ``Proxy`` the test cuts, arms and restores; cut for good afterwards."""
    proxy = Proxy(pg_port(pg_url))
    await proxy.start()
    async with running_server(through(proxy, pg_url)) as server:
        yield proxy, server
    await proxy.cut()


async def at_ann_s_turn(ann: Client, players: int = 4) -> str:
    """A table of Ann's and robots (one deal, no clock), its game started, as Ann's turn comes: its id."""
    table = await table_with_robots(ann, players, deals=1, turn_seconds=0)
    await ann.request({"type": "start", "table": table})
    await ann_to_act(ann)
    return table


async def ann_to_act(ann: Client) -> None:
    while not (ann.state["deal"] and ann.state["deal"]["to_act"] == 0 and ann.state["deal"]["legal"]):
        await ann.recv()


async def play_to_the_end(ann: Client, table: str) -> None:
    while not game_over(ann):
        state = ann.state
        deal = state["deal"]
        if deal and deal["to_act"] == 0 and deal["legal"]:
            answer = await ann.request({"type": "act", "table": table, "action": first_legal(state)})
            assert answer["type"] == "event", answer
        else:
            await ann.recv()


async def test_postgresql_away_pauses_the_table_once_answers_unavailable_and_503_and_logs_it_once(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with (
        proxied_server(pg_url) as (proxy, server),
        httpx.AsyncClient(base_url=http_base(server.url), timeout=WITHIN) as http,
    ):
        ann = await Client.connect(server.url, "Ann")
        bob = await Client.connect(server.url, "Bob")
        table = await at_ann_s_turn(ann)
        for _ in range(2):  # a few actions of Ann's, stored
            await ann_to_act(ann)
            answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
            assert answer["type"] == "event", answer
        await ann_to_act(ann)

        await proxy.cut()
        answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        assert answer["type"] == "error" and answer["code"] in ("unavailable", "unknown"), answer
        paused = next(f for f in reversed(ann.frames) if f["type"] == "table")  # told before the refusal
        assert paused["state"]["paused"].startswith("the store is unavailable")
        seq = paused["seq"]
        assert server.hub.rooms[table].table.seq == seq  # the refused action is not part of the table
        answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        assert answer["type"] == "error" and answer["code"] == "paused", answer

        await bob.send({"type": "create", "players": 4, "options": {}, "ref": "c"})
        assert (await bob.expect("error"))["code"] == "unavailable"
        await bob.send({"type": "join", "table": table})  # from memory: a spectator watches the paused table
        assert (await bob.expect("table"))["state"]["paused"]
        board = await http.get("/api/leaderboard")
        assert board.status_code == 503 and board.headers["Retry-After"] == "5", board.text
        assert board.json()["error"]["code"] == "unavailable"
        health = await http.get("/health")
        assert health.status_code == 503 and health.json()["store"] == "down", health.text
        assert health.json()["store_cause"] == "unreachable"
        await eventually(lambda: server.hub.services.watch.failed >= 2, "the store was not probed twice")
        assert server.hub.rooms[table].table.seq == seq  # no robot, no clock acted meanwhile

        await proxy.restore()
        await until_resumed(ann, table)  # the settling of an action of unknown outcome may come first
        assert ann.seq == seq
        health = await http.get("/health")
        assert health.status_code == 200 and health.json()["store_outages"] == 1, health.text
        metrics = (await http.get("/metrics")).text
        assert "atout_store_up 1.0" in metrics and "atout_store_outages_total 1.0" in metrics
        await play_to_the_end(ann, table)
        stored = [e.seq for e in await asyncio.to_thread(server.hub.store.events_after, table, 0, 100_000)]
        assert stored == list(range(1, ann.seq + 1))
        assert pauses(ann, table) == (1, 1) and pauses(bob, table)[0] <= 1
    lines, bad = outage_lines(caplog)
    assert [x["event"] for x in lines] == ["store_down", "store_up"] and lines[1]["seconds"] > 0, lines
    assert bad == []


async def test_a_write_cut_off_as_it_commits_is_answered_unknown_then_settled_as_stored(pg_url: str) -> None:
    async with proxied_server(pg_url) as (proxy, server):
        ann = await Client.connect(server.url, "Ann")
        table = await at_ann_s_turn(ann)
        before = ann.seq

        proxy.armed = True  # PostgreSQL's answer to the next write is lost: it committed, nobody heard
        answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        assert proxy.cut_done.is_set()
        assert answer["type"] == "error" and answer["code"] == "unknown", answer
        direct = Store(pg_url)  # not through the proxy
        try:  # the action reached the database before the cut
            written = [e.seq for e in await asyncio.to_thread(direct.events_after, table, before, 10)]
            assert written and written[0] == before + 1, written
        finally:
            direct.close()

        await proxy.restore()
        settled = await ann.recv(WITHIN)
        while settled.get("ref") != answer["ref"]:  # the answer: it counts
            settled = await ann.recv(WITHIN)
        assert settled["seq"] == before + 1 and settled["event"]["type"] == "action"
        await until_resumed(ann, table)
        assert server.hub.rooms[table].table.seq >= before + 1
        await play_to_the_end(ann, table)
        stored = await asyncio.to_thread(server.hub.store.events_after, table, 0, 100_000)
        assert [e.seq for e in stored] == list(range(1, ann.seq + 1))
        assert pauses(ann, table) == (1, 1)


@contextlib.contextmanager
def small_disk(path: Path, size: str = "2m"):
    """A tmpfs of ``size`` at ``path`` (root only: skipped elsewhere)."""
    path.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"no tmpfs of our own to fill: {done.stderr.decode().strip()[:100]}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(disk: Path) -> Path:
    """Every free byte of ``disk`` taken by one file (removing it frees them)."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\1" * 4096)
    finally:
        os.close(fd)
    return filler


async def test_sqlite_s_disk_full_pauses_the_table_once_and_it_resumes_once_when_space_comes_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with small_disk(tmp_path / "disk") as disk:
        async with (
            running_server(f"sqlite:///{disk / 'atout.db'}") as server,
            httpx.AsyncClient(base_url=http_base(server.url), timeout=WITHIN) as http,
        ):
            ann = await Client.connect(server.url, "Ann")
            bob = await Client.connect(server.url, "Bob")
            table = await table_with_robots(ann, 4, deals=1, turn_seconds=0)
            await bob.send({"type": "join", "table": table})
            await bob.expect("table")
            await ann.request({"type": "start", "table": table})
            filler = fill(disk)
            while not ann.state["paused"]:  # the next write that needs room fails (a robot's, or Ann's)
                deal = ann.state["deal"]
                if deal and deal["to_act"] == 0 and deal["legal"]:
                    answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
                    assert answer["type"] == "event" or answer["code"] == "unavailable", answer
                else:
                    await ann.recv()
            seq = server.hub.rooms[table].table.seq
            assert ann.state["paused"].startswith("the disk is full"), ann.state["paused"]
            health = await http.get("/health")
            assert health.status_code == 503 and health.json()["store_cause"] == "disk_full", health.text
            registered = await http.post(
                "/api/register",
                json={"name": "Carol", "password": "long enough pw"},
                headers={"Origin": http_base(server.url)},
            )
            assert registered.status_code == 503 and "Retry-After" in registered.headers, registered.text
            await bob.send({"type": "create", "players": 3, "options": {}})
            assert (await bob.expect("error"))["code"] == "unavailable"
            # reads still answer: the old server resumed on each, and paused again at the next write
            await eventually(lambda: server.hub.services.watch.failed >= 3, "the store was not probed thrice")
            assert pauses(ann, table) == (1, 0) and pauses(bob, table) == (1, 0)
            assert server.hub.rooms[table].table.seq == seq

            filler.unlink()
            await until_resumed(ann, table)
            await play_to_the_end(ann, table)
            stored = await asyncio.to_thread(server.hub.store.events_after, table, 0, 100_000)
            assert [e.seq for e in stored] == list(range(1, ann.seq + 1))
            assert pauses(ann, table) == (1, 1)
            await bob.settle()
            assert pauses(bob, table) == (1, 1)
    lines, bad = outage_lines(caplog)
    assert [(x["event"], x["cause"]) for x in lines] == [("store_down", "disk_full"), ("store_up", "disk_full")]
    assert bad == []


async def test_postgresql_s_connections_ended_mid_game_as_a_restart_does_lose_nothing(pg_url: str) -> None:
    """``pg_terminate_backend`` of every connection of the server (what a restart of PostgreSQL does to
    them): the table pauses at most once and resumes once, the action is either stored or refused."""
    async with running_server(pg_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await at_ann_s_turn(ann)
        name = pg_url.rpartition("/")[2]
        admin = Store(pg_url.rpartition("/")[0] + "/postgres")
        try:
            with admin.engine.connect() as conn:
                ended = conn.execute(
                    sa.text(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                        "WHERE datname = :name AND pid <> pg_backend_pid()"
                    ),
                    {"name": name},
                ).scalar_one()
        finally:
            admin.close()
        assert ended >= 1  # the writer's connection at least
        answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        if answer["type"] == "error":
            assert answer["code"] in ("unavailable", "unknown"), answer
            await until_resumed(ann, table)
        await play_to_the_end(ann, table)
        stored = [e.seq for e in await asyncio.to_thread(server.hub.store.events_after, table, 0, 100_000)]
        assert stored == list(range(1, ann.seq + 1))
        assert pauses(ann, table) in ((0, 0), (1, 1))
        assert server.hub.store.health.up


async def test_a_new_game_lost_as_it_commits_is_refused_once_the_store_is_back_and_its_master_starts_it_again(
    pg_url: str,
) -> None:
    """A game over, its master starts the next as PostgreSQL goes away (the chaos run's case): the start's
    write never reached the database, and the server could not know. The table pauses; once the store is
    back it resumes as stored, its master hears the start was not stored, still master of a table with its
    last game's sheet, and starts the next game."""
    async with proxied_server(pg_url) as (proxy, server):
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, deals=1, turn_seconds=0)
        await ann.request({"type": "start", "table": table})
        await play_to_the_end(ann, table)
        await ann.settle()
        over = ann.state
        assert over["status"] == "waiting" and over["game"]["over"] and over["master"] == ann.state["you"]

        proxy.drop_on = b"game_start"
        answer = await ann.request({"type": "start", "table": table})
        assert proxy.cut_done.is_set()
        assert answer["type"] == "error" and answer["code"] == "unknown", answer
        await proxy.restore()
        settled = await ann.recv(WITHIN)
        while settled.get("ref") != answer["ref"]:  # the answer owed: it does not count
            settled = await ann.recv(WITHIN)
        assert settled["type"] == "error" and settled["code"] == "unavailable", settled
        await until_resumed(ann, table)
        back = ann.state
        assert back["seq"] == over["seq"] and back["status"] == "waiting" and back["paused"] is None
        assert back["master"] == back["you"] and back["game"] == over["game"], back

        answer = await ann.request({"type": "start", "table": table})
        assert answer["type"] == "event" and answer["event"]["type"] == "game_start", answer
        assert answer["seq"] == over["seq"] + 1  # the lost start took no number
        stored = [e.seq for e in await asyncio.to_thread(server.hub.store.events_after, table, 0, 100_000)]
        assert stored == list(range(1, len(stored) + 1)) and stored[-1] >= answer["seq"]  # its robots play on


async def test_the_first_write_after_an_outage_met_by_a_read_is_taken(pg_url: str) -> None:
    """PostgreSQL away and back while no table wrote: a page's read met the outage, the probe its end. The store
    writer's kept connection died with it; the next action is stored on a new one, not refused on the dead one
    (it was: ``unknown``, the table paused again, the person told later that it did not count)."""
    async with (
        proxied_server(pg_url) as (proxy, server),
        httpx.AsyncClient(base_url=http_base(server.url), timeout=WITHIN) as http,
    ):
        ann = await Client.connect(server.url, "Ann")
        table = await at_ann_s_turn(ann)
        await proxy.cut()
        assert (await http.get("/api/leaderboard")).status_code == 503  # a read meets the outage
        await proxy.restore()
        await eventually(lambda: server.hub.store.health.up, "the probe did not find the store back")
        answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        assert answer["type"] == "event", answer
        assert pauses(ann, table) == (0, 0)
        assert server.hub.store.health.outages == 1
