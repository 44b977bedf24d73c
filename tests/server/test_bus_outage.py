"""Redis away under several server processes (issue 40): when it comes back, in whatever order the
processes reconnect, or after a restart so quick that no process saw its bus drop, every process resyncs
(re-announces what it holds and asks the others to do the same): a person on another process than their
table's gets what they missed, presence and guest names are true again, every lobby lists every open
table, and nobody connected is put in automatic mode for a silence that was the site's.

Each test starts its own Redis (``test_cluster.redis``), empty at each start as in production (nothing
on disk), and cuts it for real."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets

from .helpers import Client, first_legal, site_page
from .test_cluster import Process, RedisServer, befriend, ready
from .test_cluster import redis as redis  # the fixture, used here by name

GIVE_UP = 60.0
"""How long a check waits before failing: a bound on a hang, not a target. The issue's target (everyone up to
date 5 s after Redis is back) is a speed, measured where a busy machine cannot fail it: the seconds each check
took are printed here, and ``benchmarks/chaos.py`` measures every table's resumption after each Redis restart."""


@pytest.fixture
def trio(pg_url: str, redis: RedisServer, tmp_path: Path) -> Iterator[list[Process]]:
    with ready([Process(pg_url, redis.url, tmp_path, name) for name in ("A", "B", "C")]) as processes:
        yield processes


async def within(check, what: str, since: float) -> float:
    """Wait until ``check()`` (awaited) is true; the seconds since ``since`` it took (failed at GIVE_UP)."""
    while not await check():
        took = time.monotonic() - since
        assert took < GIVE_UP, f"{what}: not after {took:.1f} s"
        await asyncio.sleep(0.05)
    return time.monotonic() - since


class Scene:
    """The site's people: Ann (registered, on A) runs a table with Bob (a guest on B) and a robot; Carl
    (registered, on C) is Ann's friend, online at no table; Gus is a guest online on C."""

    def __init__(self, a: Process, b: Process, c: Process) -> None:
        self.a, self.b, self.c = a, b, c
        self.outage = 0  # where the outage began in Ann's frames

    async def setup(self) -> None:
        self.cookies = {}
        for name, process in (("Ann", self.a), ("Carl", self.c)):
            async with site_page(f"http://127.0.0.1:{process.port}") as http:
                made = await http.post("/api/register", json={"name": name, "password": "a good password"})
                assert made.status_code == 201, made.text
                self.cookies[name] = made.cookies["atout_session"]
        await befriend((self.a, "Ann", self.cookies["Ann"]), (self.c, "Carl", self.cookies["Carl"]))
        self.carl = await Client.connect(self.c.url, "x", cookie=self.cookies["Carl"])
        self.gus = await Client.connect(self.c.url, "Gus")
        self.ann = ann = await Client.connect(self.a.url, "x", cookie=self.cookies["Ann"])
        await ann.send({"type": "create", "players": 3, "options": {"deals": 3, "turn_seconds": 0}})
        self.table = table = (await ann.expect("master"))["table"]
        await ann.settle()
        self.bob = bob = await Client.connect(self.b.url, "Bob", patches=True)
        await bob.send({"type": "join", "table": table})
        await bob.expect("table")
        assert (await bob.request({"type": "sit", "table": table, "seat": 1}))["type"] == "event"
        await ann.settle()
        answer = await ann.request({"type": "robot", "table": table, "seat": 2, "level": "random"})
        assert answer["type"] == "event", answer
        await bob.settle()
        assert (await ann.request({"type": "start", "table": table}))["type"] == "event"
        await self.until_turn(ann, 0, also=bob)
        self.dora = dora = await Client.connect(self.a.url, "Dora")  # to open a table later, and close one
        await dora.send({"type": "create", "players": 4, "options": {"deals": 1}})
        self.third = (await dora.expect("master"))["table"]
        await dora.settle()
        self.watchers = [await Client.connect(p.url, f"Watcher{p.name}") for p in (self.a, self.b, self.c)]

    async def until_turn(self, client: Client, seat: int, also: Client | None = None) -> None:
        """Read on (the other person answering their turns) until the table waits for ``seat``."""
        while True:
            deal = client.state and client.state.get("deal")
            if (
                deal
                and deal["to_act"] == seat
                and client.state["seq"] == client.seqs[self.table]
                and (seat != client.state["you"] or deal["legal"])
            ):
                return
            other = also
            if (
                other is not None
                and other.state
                and other.state.get("deal")
                and other.state["deal"]["to_act"] == other.state["you"]
                and other.state["deal"]["legal"]
                and other.state["seq"] == other.seqs.get(self.table)
            ):
                answer = await other.request({"type": "act", "table": self.table, "action": first_legal(other.state)})
                assert answer["type"] == "event", answer
                continue
            with contextlib.suppress(TimeoutError):
                await client.recv(0.5)
            if other is not None:
                with contextlib.suppress(TimeoutError):
                    while True:
                        await other.recv(0.01)

    async def play_while_away(self) -> int:
        """Redis away: Ann plays on A until the table waits for Bob, whose process hears none of it; a
        table closes on A and another opens. The last event number made."""
        ann = self.ann
        while True:
            deal = ann.state["deal"]
            if deal and deal["to_act"] == 1 and ann.state["seq"] == ann.seqs[self.table]:
                break
            if deal and deal["to_act"] == 0 and deal["legal"] and ann.state["seq"] == ann.seqs[self.table]:
                answer = await ann.request({"type": "act", "table": self.table, "action": first_legal(ann.state)})
                assert answer["type"] == "event", answer
            else:
                await ann.recv()
        dora = self.dora
        answer = await dora.request({"type": "leave", "table": self.third})  # nobody left: it closes
        assert answer["type"] == "event", answer
        await dora.send({"type": "create", "players": 4, "options": {"deals": 1}})
        self.second = (await dora.expect("master"))["table"]
        return ann.seqs[self.table]

    async def checked(self, made: int, since: float) -> dict[str, float]:
        """Everything true again after ``since``: the seconds each took (every check is
        made, and the test fails naming each that did not hold)."""
        bob, table = self.bob, self.table
        figures: dict[str, float] = {}
        failed: list[str] = []

        async def check(name: str, done, what: str) -> None:
            try:
                figures[name] = await within(done, what, since)
            except AssertionError as err:
                failed.append(str(err).splitlines()[0])

        async def bob_up_to_date() -> bool:
            with contextlib.suppress(TimeoutError):
                while True:
                    await bob.recv(0.01)
            return bob.seqs.get(table, 0) >= made and bob.state["seq"] >= made

        async def bob_plays_on() -> None:
            await check("bob", bob_up_to_date, "Bob (on B) never heard the events made on A meanwhile")
            if "bob" in figures:
                assert bob.state["deal"]["to_act"] == 1 and bob.state["you"] == 1
                answer = await bob.request({"type": "act", "table": table, "action": first_legal(bob.state)})
                assert answer["type"] == "event", answer  # and he plays on

        async def carl_online() -> bool:
            async with site_page(
                f"http://127.0.0.1:{self.a.port}", cookies={"atout_session": self.cookies["Ann"]}
            ) as http:
                return (await http.get("/api/friends")).json()["presence"]["Carl"]["status"] == "online"

        async def gus_unique() -> None:  # a newcomer on B, at once, asks for the name of a guest online on C
            async with websockets.connect(self.b.url) as ws:
                await ws.send('{"type": "hello", "protocol": 1, "name": "gus"}')
                answer = json.loads(await ws.recv())
            if answer.get("code") != "name_taken":
                failed.append(f"a newcomer on B took the name of Gus, online on C: {answer['type']}")

        async def lobby(process: Process, watcher: Client) -> None:
            async def listed() -> bool:
                await watcher.send({"type": "lobby"})
                lobby = await watcher.expect("lobby")
                listed = {line["id"] for line in lobby["tables"]}
                return {table, self.second} <= listed and self.third not in listed

            await check(f"lobby {process.name}", listed, f"{process.name}'s lobby lacked a table, or listed one closed")

        await asyncio.gather(
            bob_plays_on(),
            check("presence", carl_online, "Carl (connected on C) was offline for Ann (on A)"),
            gus_unique(),
            *(lobby(p, w) for p, w in zip((self.a, self.b, self.c), self.watchers, strict=True)),
        )
        await self.ann.settle()
        seats = [f["state"]["seats"][1] for f in self.ann.frames[self.outage :] if "state" in f]
        gone = [
            seat
            for seat in seats
            if not (seat["kind"] == "person" and seat["present"] and not seat["automatic"] and seat["connected"])
        ]
        if gone:
            failed.append(f"Bob's seat, as Ann saw it: {gone[0]}, of {len(seats)} states {len(gone)} so")

        async def asked_again() -> bool:  # Ann's page (registered) is told to ask where her friends are
            with contextlib.suppress(TimeoutError):
                while True:
                    await self.ann.recv(0.05)
            return any(f["type"] == "presence" for f in self.ann.frames[self.outage :])

        await check("presence notice", asked_again, "Ann's page was never told to ask again where her friends are")
        assert not failed, "\n".join(failed)
        return figures


def resynced(health: dict) -> bool:
    """Whether a process's bus is back and it has said again what it holds (and so rejoined its
    people's tables, heard or not)."""
    return health["bus"] == "up" and health.get("resyncs", 1) >= 1


@pytest.mark.parametrize("first", ["table", "follower"])
async def test_after_redis_returns_everyone_is_up_to_date_whichever_process_reconnects_first(
    trio: list[Process], redis: RedisServer, first: str
) -> None:
    """Redis stopped while Ann plays on A; it comes back empty, and either A (the table's process)
    reconnects first, or B and C (Bob's, Carl's and Gus's) do: the others are held still meanwhile."""
    a, b, c = trio
    scene = Scene(a, b, c)
    await scene.setup()
    scene.outage = len(scene.ann.frames)
    redis.stop()
    while any(p.health()["bus"] != "down" for p in trio):
        await asyncio.sleep(0.05)
    made = await scene.play_while_away()
    later = [b, c] if first == "table" else [a]
    for p in later:
        p.proc.send_signal(signal.SIGSTOP)
    try:
        redis.start()
        while not all(resynced(p.health()) for p in trio if p not in later):
            await asyncio.sleep(0.05)
        if first == "table":  # frames for Bob, sent to B while it is not back: B is not gone for all that
            await scene.ann.send({"type": "chat", "table": scene.table, "text": "still there?"})
            await scene.ann.settle()
    finally:
        for p in later:
            p.proc.send_signal(signal.SIGCONT)
    since = time.monotonic()
    figures = await scene.checked(made, since)
    print(f"{first} first: " + ", ".join(f"{k} {v:.2f} s" for k, v in figures.items()))


async def test_a_restart_so_quick_no_process_saw_it_is_resynced_too(trio: list[Process], redis: RedisServer) -> None:
    """Redis killed and started again at once (empty): whether or not a process's bus saw it go, each
    finds it out (its epoch key is gone) and resyncs."""
    a, b, c = trio
    scene = Scene(a, b, c)
    await scene.setup()
    scene.outage = len(scene.ann.frames)
    redis.stop()
    redis.start()
    since = time.monotonic()
    made = await scene.play_while_away()  # just after it: what the processes tell each other may be lost
    figures = await scene.checked(made, since)
    print("quick restart: " + ", ".join(f"{k} {v:.2f} s" for k, v in figures.items()))
