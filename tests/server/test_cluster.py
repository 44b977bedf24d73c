"""Several server processes on one PostgreSQL and one Redis (each test starts its own Redis): tables
reached from any process, and an owner killed mid-game whose tables another process takes over.

Redis comes from Debian's ``redis-server``; where it is missing these tests skip saying so (and fail
under CI, whose machine has it)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
import websockets

from atout.server.store import engine_url
from served import Served, free_port

from .helpers import WITHIN, Client, eventually, first_legal, site_page, wait_until
from .test_tables import scrape


class RedisServer:
    """A Redis of the test's own, on a free port, that the test may stop and start again."""

    def __init__(self, binary: str, folder: Path) -> None:
        self.binary, self.folder = binary, folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

        def listening() -> bool:
            assert self.proc.poll() is None, "redis-server stopped"
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 1):
                return True
            return False

        wait_until(listening, "redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis of this test's own (so a test may stop it without touching anyone's)."""
    binary = shutil.which("redis-server")
    if binary is None:
        message = "redis-server not installed (Debian's redis-server): the several-process tests did not run"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    server = RedisServer(binary, tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Process:
    """One ``atout serve`` process of the site (without Redis: a site of its own, on an SQLite file), with no
    analysis worker: none of these tests asks for an analysis, and each worker is a process spawned and warmed
    with its server (about 0.8 s of CPU a start; test_analysis_api.py tests the workers of a served site)."""

    def __init__(
        self,
        db: str | None,
        redis: str | None,
        data: Path,
        name: str,
        *extra: str,
        port: int | None = None,
        log_level: str = "warning",
    ) -> None:
        self.port = port or free_port()
        self.name = name
        self.log = data / f"{name}.log"
        self.proc = Served(
            [
                "--port",
                str(self.port),
                "--db",
                db or f"sqlite:///{data / (name + '.db')}",
                *(["--redis", redis] if redis else []),
                "--robot-pace",
                "0",
                "--deal-pause",
                "0.2",
                "--log-level",
                log_level,
                "--analysis-workers",
                "0",
                *extra,
            ],
            {"ATOUT_SECRET": "cluster-test", "XDG_DATA_HOME": str(data)},
            self.log,
            printed=False,
        )  # the log holds JSON lines alone

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def health(self) -> dict:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=5) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as err:  # 503 when degraded: still a body
            return json.loads(err.read())

    def wait_ready(self) -> None:
        """Until its /health says ok (it listens, its store and bus answer); a process that stopped fails
        at once. The deadline only bounds a hang: a loaded machine may take many seconds to start one."""
        end = time.monotonic() + WITHIN
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"{self.name} stopped: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(OSError):
                if self.health()["status"] == "ok":
                    return
            if time.monotonic() > end:
                raise AssertionError(f"{self.name} did not start within {WITHIN:.0f} s: {self.log.read_text()[-2000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def ready(processes: list[Process]) -> Iterator[list[Process]]:
    """Processes started together, each waited for, then all stopped: whichever the list holds by then
    (a test may put a restarted process in its place)."""
    try:
        for p in processes:
            p.wait_ready()
        yield processes
    finally:
        for p in processes:
            p.stop()


@pytest.fixture
def site(pg_url: str, redis: RedisServer, tmp_path: Path) -> Iterator[list[Process]]:
    with ready([Process(pg_url, redis.url, tmp_path, name) for name in ("A", "B", "C")]) as processes:
        yield processes


def game_over(client: Client) -> bool:
    return any(f.get("event", {}).get("type") == "game_end" for f in client.frames)


class Person:
    """A person at a table, on one process, who comes back on another when that one dies."""

    def __init__(self, client: Client, table: str, others: list[Process]) -> None:
        self.client, self.table, self.others = client, table, others
        self.accepted: list[int] = []  # the seq of every action of ours the server accepted

    async def play(self, until) -> None:
        """Answer our turns until ``until(self)``; a lost connection: back on another process."""
        loop = asyncio.get_running_loop()
        end = loop.time() + 240
        while not until(self) and loop.time() < end:
            try:
                state = self.client.state
                deal = state and state.get("deal")
                if (
                    deal
                    and deal["to_act"] == state["you"]
                    and deal["legal"]
                    and state["vote"] is None
                    and state["seq"] == self.client.seqs.get(self.table)
                ):
                    answer = await self.client.request(
                        {"type": "act", "table": self.table, "action": first_legal(state)}
                    )
                    if answer["type"] == "error":
                        assert answer["code"] in ("stale", "unavailable", "not_your_turn"), answer
                        if answer["code"] == "unavailable":
                            await asyncio.sleep(0.3)
                    else:
                        self.accepted.append(answer["seq"])
                else:
                    await self.client.recv(1.0)
            except TimeoutError:
                continue
            except websockets.ConnectionClosed:
                await self.come_back()
        assert until(self), f"{self.client.name} did not finish in time"

    async def come_back(self) -> None:
        """Reconnect (the same guest, by its token) to a living process and join with the last seq seen."""
        old = self.client
        end = time.monotonic() + WITHIN
        while time.monotonic() < end:
            for process in self.others:
                if process.proc.poll() is not None:
                    continue
                with contextlib.suppress(OSError, websockets.InvalidHandshake, TimeoutError, AssertionError):
                    again = await Client.connect(process.url, old.name, token=old.token, patches=old.patches)
                    again.frames = old.frames + again.frames
                    again.seqs = dict(old.seqs)
                    again.state = old.state
                    await again.send({"type": "join", "table": self.table, "last_seq": old.seqs.get(self.table, 0)})
                    reply = await again.expect("table")
                    if reply["type"] == "table":
                        self.client = again
                        return
            await asyncio.sleep(0.5)
        raise AssertionError(f"{old.name} could not come back")


def stored_events(db: str, table: str) -> list[tuple[int, str, dict]]:
    engine = sa.create_engine(engine_url(db))
    with engine.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT seq, kind, data FROM table_events WHERE table_id = :t ORDER BY seq"), {"t": table}
        ).all()
    engine.dispose()
    return [(r.seq, r.kind, r.data if isinstance(r.data, dict) else json.loads(r.data)) for r in rows]


async def test_tables_are_reached_from_any_process_and_survive_their_owner(site: list[Process], pg_url: str) -> None:
    a, b, c = site
    tables, people = [], []
    for i in range(3):  # three tables run by B; a person on B and a person on A at each, robots besides
        host = await Client.connect(b.url, f"Host{i}", patches=i % 2 == 0)
        await host.send({"type": "create", "players": 4, "options": {"deals": 3, "turn_seconds": 0}})
        table = (await host.expect("master"))["table"]
        await host.settle()
        guest = await Client.connect(a.url, f"Guest{i}", patches=i % 2 == 1)
        await guest.send({"type": "join", "table": table})
        await guest.expect("table")
        answer = await guest.request({"type": "sit", "table": table, "seat": 1})
        assert answer["type"] == "event" and answer["event"]["type"] == "sat", answer
        await host.settle()
        for seat in (2, 3):
            answer = await host.request({"type": "robot", "table": table, "seat": seat, "level": "heuristic"})
            assert answer["type"] == "event", answer
        await guest.settle()
        answer = await host.request({"type": "start", "table": table})
        assert answer["type"] == "event" and answer["event"]["type"] == "game_start", answer
        tables.append(table)
        people += [Person(host, table, [c, a]), Person(guest, table, [a, c])]
    assert set(b.health()["table_ids"]) == set(tables)
    # the lobby of every process lists them
    watcher = await Client.connect(c.url, "Watcher")
    await watcher.send({"type": "lobby"})
    lobby = await watcher.expect("lobby")
    assert set(tables) <= {t["id"] for t in lobby["tables"]}

    # everyone plays into the first deal; then B dies with its tables busy
    def far_enough(p: Person) -> bool:
        return len(p.accepted) >= 4 or game_over(p.client)

    await asyncio.gather(*(p.play(far_enough) for p in people))
    killed_at = time.monotonic()
    b.kill()

    async def taken_over() -> float:
        while True:
            owned = await asyncio.gather(*(asyncio.to_thread(p.health) for p in (a, c)))
            if set(tables) <= {t for h in owned for t in h["table_ids"]}:
                return time.monotonic() - killed_at
            await asyncio.sleep(0.2)

    took, *_ = await asyncio.gather(taken_over(), *(p.play(lambda p: game_over(p.client)) for p in people))
    print(f"the three tables were running again on other processes {took:.1f} s after the kill")
    assert took < 15, f"the takeover took {took:.1f} s"

    owners = {t: p.name for p in (a, c) for t in p.health()["table_ids"] if t in tables}
    assert set(owners) == set(tables), f"not every table was taken over: {owners}"
    assert sum(p.health()["takeovers"] for p in (a, c)) >= len(tables)
    metrics = [scrape(p.port) for p in (a, c)]
    assert sum(m["atout_takeovers_total"] for m in metrics) >= len(tables)
    assert all(m["atout_bus_up"] == 1 for m in metrics)
    for table in tables:
        events = stored_events(pg_url, table)
        seqs = [seq for seq, _, _ in events]
        assert seqs == list(range(1, len(seqs) + 1)), "stored events have a gap"
        assert any(kind == "game_end" for _, kind, _ in events)
        actions = {seq for seq, kind, _ in events if kind == "action"}
        for person in people:
            if person.table == table:
                accepted = person.accepted
                assert len(accepted) == len(set(accepted)), "an action was applied twice"
                assert set(accepted) <= actions, "an accepted action is not in the store"
    ends = [f["event"] for p in people for f in p.client.frames if f.get("event", {}).get("type") == "game_end"]
    assert all(sum(e["totals"]) == 0 for e in ends)


async def test_a_redis_restart_mid_game_pauses_the_crossing_and_the_game_goes_on(
    site: list[Process], redis: RedisServer
) -> None:
    a, b, _ = site
    ann = await Client.connect(a.url, "Ann")
    await ann.send({"type": "create", "players": 4, "options": {"deals": 2, "turn_seconds": 0}})
    table = (await ann.expect("master"))["table"]
    await ann.settle()
    bob = await Client.connect(b.url, "Bob", patches=True)  # on another process than the table's
    await bob.send({"type": "join", "table": table})
    await bob.expect("table")
    assert (await bob.request({"type": "sit", "table": table, "seat": 1}))["type"] == "event"
    await ann.settle()
    for seat in (2, 3):
        assert (await ann.request({"type": "robot", "table": table, "seat": seat, "level": "heuristic"}))[
            "type"
        ] == "event"
    await bob.settle()
    assert (await ann.request({"type": "start", "table": table}))["type"] == "event"
    people = [Person(ann, table, [a]), Person(bob, table, [b])]
    await asyncio.gather(*(p.play(lambda p: len(p.accepted) >= 3 or game_over(p.client)) for p in people))

    redis.stop()
    await eventually(lambda: b.health()["status"] == "degraded", "B never said its bus was down")
    health = b.health()
    assert health["status"] == "degraded" and health["bus"] == "down" and health["bus_outages"] == 1, health
    assert health["store"] == "up"  # the degraded part is named: the bus, not the store
    await asyncio.sleep(1.0)  # the outage lasts a moment (the test waits for nothing here)
    redis.start()
    await eventually(lambda: b.health()["status"] == "ok", "B never said its bus was back")
    assert b.health()["bus"] == "up"
    await asyncio.gather(*(p.play(lambda p: game_over(p.client)) for p in people))
    totals = [
        next(f["event"]["totals"] for f in p.client.frames if f.get("event", {}).get("type") == "game_end")
        for p in people
    ]
    assert totals[0] == totals[1] and sum(totals[0]) == 0
    await ann.settle()
    await bob.settle()
    # Bob's state, rebuilt from patches across the outage, is the table's
    assert bob.state["seq"] == ann.state["seq"] and bob.state["game"] == ann.state["game"]
    assert bob.state["seats"] == ann.state["seats"]


async def test_the_lobby_and_invitations_are_live_across_processes(site: list[Process]) -> None:
    a, b, c = site
    watcher = await Client.connect(c.url, "Watcher")
    await watcher.send({"type": "lobby"})
    await watcher.expect("lobby")
    invited = await Client.connect(b.url, "Invited")
    ann = await Client.connect(a.url, "Ann")
    await ann.send({"type": "create", "players": 3, "options": {"deals": 1}})
    table = (await ann.expect("master"))["table"]
    line = await watcher.expect("lobby_table")  # a table created on A appears in C's lobby at once
    assert line["table"]["id"] == table
    await ann.settle()
    answer = await ann.request({"type": "robot", "table": table, "seat": 1, "level": "random"})
    assert answer["type"] == "event"
    while (line := await watcher.expect("lobby_table"))["table"]["robots"] != 1:
        assert line["table"]["id"] == table
    answer = await ann.request({"type": "invite", "table": table, "name": "Invited"})
    assert answer["type"] == "event", answer
    invitation = await invited.expect("invitation")  # a guest on B, invited by a master on A
    assert invitation["table"] == table and invitation["from"] == "Ann"
    # the invited guest sits, through its own process
    await invited.send({"type": "join", "table": table})
    await invited.expect("table")
    answer = await invited.request({"type": "sit", "table": table, "seat": 2})
    assert answer["type"] == "event" and answer["event"]["type"] == "sat", answer
    while (line := await watcher.expect("lobby_table"))["table"]["free"] != 0:  # the lines in between
        assert line["table"]["id"] == table


async def test_a_person_who_closes_on_another_process_is_seen_gone_by_the_table(site: list[Process]) -> None:
    a, b, _ = site
    ann = await Client.connect(a.url, "Ann")
    await ann.send({"type": "create", "players": 3, "options": {"deals": 1}})
    table = (await ann.expect("master"))["table"]
    await ann.settle()
    bob = await Client.connect(b.url, "Bob")
    await bob.send({"type": "join", "table": table})
    await bob.expect("table")
    assert (await bob.request({"type": "sit", "table": table, "seat": 1}))["type"] == "event"
    await ann.settle()
    assert ann.state["seats"][1]["connected"] is True
    await bob.close()
    end = time.monotonic() + WITHIN
    while ann.state["seats"][1]["connected"] is not False:  # the table's process hears that Bob's connection,
        await ann.recv(max(0.01, end - time.monotonic()))  # on B, closed, and tells Ann


async def befriend(one: tuple[Process, str, str], other: tuple[Process, str, str]) -> None:
    """Two registered people become friends, each through the API of the process they use."""
    for (process, _, cookie), (_, friend, _) in ((one, other), (other, one)):
        async with site_page(f"http://127.0.0.1:{process.port}", cookies={"atout_session": cookie}) as http:
            answer = await http.post("/api/friends", json={"action": "request", "name": friend})
            assert answer.status_code == 200, answer.text
    async with site_page(f"http://127.0.0.1:{one[0].port}", cookies={"atout_session": one[2]}) as http:
        assert other[1] in (await http.get("/api/friends")).json()["friends"]


async def test_private_tables_and_friendships_are_seen_alike_from_every_process(site: list[Process]) -> None:
    """A private table run on A is listed on B and C to whom it admits (the master's friends, the
    invited), to nobody else; a friendship made through C's API is known at once on A (who lets the new
    friend sit) and on C (whose lobby shows the table)."""
    a, b, c = site
    people: dict[str, tuple[Process, str, str]] = {}
    for name, process in (("Ann", a), ("Bob", b), ("Carl", b), ("Dan", c), ("Eve", c)):
        async with site_page(f"http://127.0.0.1:{process.port}") as http:
            made = await http.post("/api/register", json={"name": name, "password": "a good password"})
            assert made.status_code == 201, made.text
            people[name] = (process, name, made.cookies["atout_session"])
    await befriend(people["Ann"], people["Bob"])
    clients = {name: await Client.connect(p.url, name, cookie=cookie) for name, (p, _, cookie) in people.items()}
    for name in ("Bob", "Carl", "Dan", "Eve"):
        await clients[name].send({"type": "lobby"})
        await clients[name].expect("lobby")
    ann = clients["Ann"]
    await ann.send({"type": "create", "players": 4, "options": {"deals": 1, "private": True}})
    table = (await ann.expect("master"))["table"]

    def listed(client: Client) -> bool:
        return any(f.get("type") == "lobby_table" and f["table"]["id"] == table for f in client.frames)

    line = await clients["Bob"].expect("lobby_table")  # Ann's friend, on B
    assert line["table"]["id"] == table and line["table"]["private"] is True
    await ann.settle()
    for name in ("Carl", "Dan", "Eve"):
        await clients[name].settle()
        assert not listed(clients[name]), f"{name} saw a private table that does not admit them"
    answer = await ann.request({"type": "invite", "table": table, "name": "eve"})
    assert answer["type"] == "event", answer
    line = await clients["Eve"].expect("lobby_table")  # invited: the table shows in her lobby on C
    assert line["table"]["id"] == table
    await befriend(people["Dan"], people["Ann"])  # made through C's API: A and B hear of it over the bus
    line = await clients["Dan"].expect("lobby_table")
    assert line["table"]["id"] == table
    dan = clients["Dan"]
    await dan.send({"type": "join", "table": table})
    await dan.expect("table")
    answer = await dan.request({"type": "sit", "table": table, "seat": 1})  # A lets its master's new friend sit
    assert answer["type"] == "event" and answer["event"]["type"] == "sat", answer
    carl = clients["Carl"]
    await carl.send({"type": "join", "table": table})
    refused = await carl.expect("error")
    assert refused["code"] == "private"
    await carl.settle()
    assert not listed(carl)


async def test_names_quick_play_and_friends_presence_are_one_site_across_processes(site: list[Process]) -> None:
    """A guest's name held on A is refused on B; quick play on B seats a person at the quick table A runs
    (a robot's seat, taken at the next deal, the claim made where the table is); a friend registered on B
    sees, through C's API, that Ann on A is playing there."""
    a, b, c = site
    nina = await Client.connect(a.url, "Nina")
    async with websockets.connect(b.url) as ws:
        await ws.send('{"type": "hello", "protocol": 1, "name": "NÏNA"}')
        assert json.loads(await ws.recv())["code"] == "name_taken"
    await nina.close()

    cookies = {}
    for name, process in (("Ann", a), ("Bob", b)):
        async with site_page(f"http://127.0.0.1:{process.port}") as http:
            made = await http.post("/api/register", json={"name": name, "password": "a good password"})
            assert made.status_code == 201, made.text
            cookies[name] = made.cookies["atout_session"]
    await befriend((a, "Ann", cookies["Ann"]), (b, "Bob", cookies["Bob"]))
    ann = await Client.connect(a.url, "x", cookie=cookies["Ann"])
    answer = await ann.request({"type": "quick", "players": 3})
    assert answer["type"] == "event" and answer["event"]["quick"], answer
    table = answer["table"]
    assert table in a.health()["table_ids"]

    bob = await Client.connect(b.url, "x", cookie=cookies["Bob"])
    await bob.send({"type": "lobby"})
    lobby = await bob.expect("lobby")
    while not any(x["id"] == table and x["status"] == "playing" for x in lobby["tables"]):
        lobby = {"tables": [(await bob.expect("lobby_table"))["table"]]}
    answer = await bob.request({"type": "quick", "players": 3})  # on B, for a table A runs
    assert (
        answer["type"] == "event" and answer["table"] == table and answer["event"]["type"] in ("claimed", "replaced")
    ), answer
    seat = answer["event"]["seat"]

    async with site_page(f"http://127.0.0.1:{c.port}", cookies={"atout_session": cookies["Bob"]}) as http:

        async def ann_seen() -> bool:
            return (await http.get("/api/friends")).json()["presence"]["Ann"] == {"status": "playing", "table": table}

        await eventually(ann_seen, "Bob never saw Ann playing, from C")
    async with site_page(f"http://127.0.0.1:{c.port}", cookies={"atout_session": cookies["Ann"]}) as http:
        seen = (await http.get("/api/friends")).json()["presence"]["Bob"]
        assert seen["status"] in ("playing", "table") and seen["table"] == table  # his seat to come

    def bob_seated(_: Person) -> bool:
        return bob.state is not None and bob.state["you"] == seat

    async def follow_bob() -> None:
        while not bob_seated(None):  # type: ignore[arg-type]
            await bob.recv(WITHIN)

    await asyncio.gather(Person(ann, table, [a]).play(bob_seated), follow_bob())
    assert bob.state["seats"][seat]["kind"] == "person" and bob.state["seats"][seat]["name"] == "Bob"


async def test_an_invitation_to_a_guest_whose_process_died_says_nobody_is_there(site: list[Process]) -> None:
    """A guest online on C is invited from A; C dies (its guests could not say they left): an invitation
    to that name now says nobody of that name is online, instead of being sent to nobody."""
    a, _, c = site
    gus = await Client.connect(c.url, "Gus")
    ann = await Client.connect(a.url, "Ann")
    await ann.send({"type": "create", "players": 3, "options": {"deals": 1}})
    table = (await ann.expect("master"))["table"]
    await ann.settle()
    answer = await ann.request({"type": "invite", "table": table, "name": "gus"})
    assert answer["type"] == "event", answer
    assert (await gus.expect("invitation"))["table"] == table
    c.kill()
    answers = []

    async def refused() -> bool:
        answers.append(await ann.request({"type": "invite", "table": table, "name": "Gus"}))
        return answers[-1]["type"] == "error"

    await eventually(refused, "the invitation was still sent to Gus", every=0.1)
    answer = answers[-1]
    assert answer["type"] == "error" and answer["code"] == "no_player", answer
    assert "Gus" in answer["message"]


async def test_a_process_started_later_lists_the_tables_already_open(
    site: list[Process], pg_url: str, redis: RedisServer, tmp_path: Path
) -> None:
    """A process added to the site (or restarted) after tables were opened elsewhere shows them in its
    lobby at once, not only once each of them changes."""
    a, _, _ = site
    ann = await Client.connect(a.url, "Ann")
    await ann.send({"type": "create", "players": 3, "options": {"deals": 1}})
    table = (await ann.expect("master"))["table"]
    await ann.settle()
    late = Process(pg_url, redis.url, tmp_path, "D")
    try:
        late.wait_ready()
        watcher = await Client.connect(late.url, "Watcher")
        lobbies = []

        async def listed() -> bool:
            await watcher.send({"type": "lobby"})
            lobbies.append(lobby := await watcher.expect("lobby"))
            return any(line["id"] == table for line in lobby["tables"])

        await eventually(listed, "the late process never listed the table", every=0.1)
        lobby = lobbies[-1]
        assert [line["seats"][0] for line in lobby["tables"] if line["id"] == table] == ["Ann"]
    finally:
        late.stop()


async def test_a_follower_on_another_process_misses_no_event_when_the_bus_drops(
    site: list[Process], redis: RedisServer
) -> None:
    """Events the table's process made while the bus was down come to a spectator on another process
    once it is back, each numbered, before a ``table`` message: never a whole state in their place (the
    same rejoin as after a takeover). B is held still while the bus comes back so that A listens first:
    B's rejoin is then heard, whatever order their reconnections would have taken."""
    a, b, _ = site
    ann = await Client.connect(a.url, "Ann")
    await ann.send({"type": "create", "players": 3, "options": {"deals": 3, "turn_seconds": 0}})
    table = (await ann.expect("master"))["table"]
    await ann.settle()
    for seat in (1, 2):
        assert (await ann.request({"type": "robot", "table": table, "seat": seat, "level": "random"}))[
            "type"
        ] == "event"
    bob = await Client.connect(b.url, "Bob", patches=True)  # a spectator, on another process than the table's
    await bob.send({"type": "join", "table": table})
    await bob.expect("table")
    assert (await ann.request({"type": "start", "table": table}))["type"] == "event"

    async def ann_to_act() -> None:  # the robots play until Ann's turn: then the table waits for her
        while not (ann.state["deal"] and ann.state["deal"]["to_act"] == 0 and ann.state["deal"]["legal"]):
            await ann.recv()

    await ann_to_act()
    while bob.seqs[table] < ann.seqs[table]:
        await bob.recv()
    heard_before = bob.seqs[table]

    redis.stop()
    while b.health()["bus"] != "down" or a.health()["bus"] != "down":
        await asyncio.sleep(0.05)
    for _ in range(2):  # Ann plays on A, the robots answer: Bob's process hears none of it
        answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        assert answer["type"] == "event", answer
        await ann_to_act()
    made = ann.seqs[table]
    assert made > heard_before
    b.proc.send_signal(signal.SIGSTOP)
    try:
        redis.start()
        while a.health()["bus"] != "up":
            await asyncio.sleep(0.05)
    finally:
        b.proc.send_signal(signal.SIGCONT)
    while bob.seqs[table] < made or bob.frames[-1]["type"] != "table":
        await bob.recv()
    after = bob.frames[[i for i, f in enumerate(bob.frames) if f.get("seq") == heard_before][-1] + 1 :]
    numbered = [f for f in after if f["type"] in ("event", "table")]
    assert [f["seq"] for f in numbered if f["type"] == "event"] == list(range(heard_before + 1, made + 1)), [
        (f["type"], f["seq"]) for f in numbered
    ]
    assert numbered[-1]["type"] == "table" and numbered[-1]["seq"] == made
    assert bob.state["deal"]["trick"] == ann.state["deal"]["trick"] and bob.state["seq"] == ann.state["seq"]


async def test_with_redis_every_log_line_names_the_process_as_the_site_does(
    pg_url: str, redis: RedisServer, tmp_path: Path
) -> None:
    # here, not at the top: test_logs imports Process from this module
    from .test_logs import log_lines, played_a_little, within

    started = time.time()
    process = Process(pg_url, redis.url, tmp_path, "A", "--analysis-workers", "1", log_level="info")  # its lines too
    try:
        process.wait_ready()
        name = process.health()["process"]
        await played_a_little(process)
    finally:
        process.stop()
    lines = log_lines(process)
    assert {line["process"] for line in lines} == {name}
    assert within(lines, started, time.time())
    assert "created" in {line.get("event") for line in lines}
