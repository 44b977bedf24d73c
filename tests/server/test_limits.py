"""Budgets (``limits.py``): the bucket arithmetic, docs/server.md's table against the code, and over real
sockets a person's budget shared by every socket, an address's by every identity behind it, and both by
two server processes over Redis. Every refusal on an injected clock: nothing here waits for time to pass."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from atout.server.features.limits import RULES, Buckets, Budget, Limits, Rule, Scope
from atout.server.site.bus import RedisBus
from atout.server.site.local import LocalSite

from .helpers import SQLITE_ONLY, Client, running_server, site_page
from .test_cluster import RedisServer, redis  # noqa: F401 -- the redis fixture

DOC = Path(__file__).resolve().parents[2] / "docs" / "server.md"
HOUR = 3600.0


# ---------------------------------------------------------------- the arithmetic
def test_a_bucket_gives_its_count_at_once_then_one_every_interval() -> None:
    buckets = Buckets()
    items = [("k", 4, 10.0)]
    assert [buckets.take_now(items, 100.0) for _ in range(5)] == [None] * 4 + [(0, 2.5)]
    refused = buckets.take_now(items, 102.4)
    assert refused is not None and refused[0] == 0 and refused[1] == pytest.approx(0.1)
    assert buckets.take_now(items, 102.5) is None
    assert buckets.take_now(items, 1000.0) is None and buckets.take_now([("other", 1, 5.0)], 1000.0) is None


def test_a_refused_request_spends_from_no_bucket() -> None:
    buckets = Buckets()
    roomy, tight = ("roomy", 2, 10.0), ("tight", 1, 10.0)
    assert buckets.take_now([roomy, tight], 0.0) is None
    assert buckets.take_now([roomy, tight], 0.0) == (1, 10.0)  # the tight one is empty...
    assert buckets.take_now([roomy], 0.0) is None  # ...and the roomy one kept what the refusal did not spend
    assert buckets.take_now([roomy], 0.0) == (0, 5.0)


def test_the_buckets_keep_the_live_ones_only_and_prune_seldom() -> None:
    """A server running for weeks: the keys of addresses and people who came by once leave memory once
    their bucket is full again, the live ones are kept (their spends still count), and a flood of live keys
    costs a pruning pass now and then, not one every request."""
    buckets = Buckets()
    cap = Buckets.PRUNE_AT
    for i in range(5 * cap):  # a long night: each key spends once, its bucket full again a minute later
        assert buckets.take_now([(f"once{i}", 5, 60.0)], float(i)) is None
    assert len(buckets._tat) <= cap + 1
    assert buckets.take_now([("busy", 1, 10**9)], 5.0 * cap) is None
    for i in range(3 * cap):  # a flood of keys all live at once
        buckets.take_now([(f"flood{i}", 1, 10**9)], 5.0 * cap)
    assert len(buckets._tat) >= 3 * cap  # none pruned while live...
    assert buckets._prune_at >= 2 * cap  # ...and the next pass waits for them to double
    assert buckets.take_now([("busy", 1, 10**9)], 5.0 * cap) is not None  # the busy key still counted


async def test_each_scope_counts_its_own_and_analysis_has_its_budget() -> None:
    """The analysis budget (POST /api/analysis spends it per person and address): 5 a minute on a
    connection, 30 an hour for a person, 100 an hour from an address."""
    now = [1000.0]
    limits = Limits(lambda: now[0], LocalSite().take)
    answers = [
        await limits.spend(Budget.ANALYSIS, connection=f"c{i}", person="p1", address="192.0.2.1")
        for i in range(7)
        for _ in range(5)
    ]  # seven sockets of one person, five each
    assert answers[:30] == [None] * 30
    refused = answers[30]
    assert refused is not None and refused.rule == Rule(Budget.ANALYSIS, Scope.PERSON, 30, HOUR)
    assert refused.seconds == 120 and refused.fields() == {"budget": "analysis", "scope": "person", "retry_after": 120}
    assert refused.message == "at most 30 analysis requests in an hour for one person: try again in 120 s"
    sixth = [
        await limits.spend(Budget.ANALYSIS, connection="c9", person="p2", address="198.51.100.1") for _ in range(6)
    ][-1]
    assert sixth is not None and sixth.rule.scope == Scope.CONNECTION and sixth.seconds == 12
    # other people behind the first address: 100 an hour from it, whoever asks
    more = [
        await limits.spend(Budget.ANALYSIS, connection=f"x{i}", person=f"q{i}", address="192.0.2.1") for i in range(100)
    ]
    assert more[:70] == [None] * 70 and more[70] is not None and more[70].rule.scope == Scope.ADDRESS
    now[0] += 120.0  # one more for p1 (an hour / 30), on any socket
    assert await limits.spend(Budget.ANALYSIS, connection="c0", person="p1") is None
    assert await limits.spend(Budget.ANALYSIS, connection="c1", person="p1") is not None


def _span(seconds: float) -> str:
    return {60.0: "a minute", 600.0: "10 minutes", 900.0: "15 minutes", HOUR: "an hour", 86400.0: "a day"}.get(
        seconds, f"{seconds:g} s"
    )


def test_docs_server_md_lists_every_rule_the_code_has() -> None:
    section = DOC.read_text().split("## Limits", 1)[1].split("\n## ", 1)[0]
    rows = {
        m.group(1): [c.strip() for c in m.group(2).split("|")]
        for m in re.finditer(r"^\| `(\w+)` \| [^|]+ \|(.+)\|$", section, re.MULTILINE)
    }
    assert set(rows) == {str(b) for b in Budget}, sorted(rows)
    for budget in Budget:
        expected = [
            "; ".join(f"{r.count:,} in {_span(r.seconds)}" for r in RULES if r.budget == budget and r.scope == scope)
            or "—"
            for scope in Scope
        ]
        assert rows[str(budget)] == expected, budget


# ---------------------------------------------------------------- over real sockets
async def _account(base: str, name: str) -> str:
    async with site_page(base) as http:
        made = await http.post("/api/register", json={"name": name, "password": "a long password"})
        assert made.status_code == 201, made.text
        return made.cookies["atout_session"]


async def _chat(client: Client, table: str, text: str) -> dict:
    await client.send({"type": "chat", "table": table, "text": text, "ref": text})
    while True:
        answer = await client.recv()
        if answer.get("ref") == text:
            return answer


@SQLITE_ONLY
async def test_a_person_has_one_chat_budget_however_many_sockets(db_url: str) -> None:
    """Three sockets of one account, five lines each (each socket's own limit): eight in ten seconds for
    the person, not fifteen; the refusals say whose budget and how long to wait."""
    async with running_server(db_url) as server:
        cookie = await _account(f"http://127.0.0.1:{server.port}", "Chatty")
        sockets = [await Client.connect(server.url, "x", cookie=cookie) for _ in range(3)]
        await sockets[0].send({"type": "create", "players": 3})
        table = (await sockets[0].expect("master"))["table"]
        for s in sockets:
            await s.send({"type": "join", "table": table})
            await s.expect("table")
        answers = [await _chat(s, table, f"line {i}.{k}") for i, s in enumerate(sockets) for k in range(5)]
        assert [a["type"] for a in answers] == ["event"] * 8 + ["error"] * 7, answers
        refused = answers[8]
        assert (refused["code"], refused["budget"], refused["scope"], refused["retry_after"]) == (
            "rate_limited",
            "chat",
            "person",
            2,
        ), refused
        assert "8 chat lines in 10 seconds for one person" in refused["message"]
        assert len(server.hub.rooms[table].table.chat) == 8
        server.clock.advance(1.25)  # ten seconds / eight: one line more, on any of the sockets
        assert (await _chat(sockets[2], table, "after"))["type"] == "event"
        assert (await _chat(sockets[1], table, "again"))["type"] == "error"


@SQLITE_ONLY
async def test_guests_behind_one_address_share_its_budget(db_url: str) -> None:
    """A guest takes a new identity with each socket: the address's budget (20 lines in 10 s) still holds."""
    async with running_server(db_url) as server:
        host = await Client.connect(server.url, "Host")
        await host.send({"type": "create", "players": 3})
        table = (await host.expect("master"))["table"]
        guests = [await Client.connect(server.url, f"Spam{i}", address="203.0.113.5") for i in range(5)]
        assert len({g.id for g in guests}) == 5
        for g in guests:
            await g.send({"type": "join", "table": table})
            await g.expect("table")
        answers = [await _chat(g, table, f"g{i}.{k}") for i, g in enumerate(guests) for k in range(5)]
        assert [a["type"] for a in answers] == ["event"] * 20 + ["error"] * 5
        assert {(a["budget"], a["scope"]) for a in answers[20:]} == {("chat", "address")}
        assert (await _chat(host, table, "the host is elsewhere"))["type"] == "event"


async def _create(client: Client) -> dict:
    await client.send({"type": "create", "players": 3, "ref": "new"})
    while True:
        answer = await client.recv()
        if answer.get("ref") == "new":
            return answer


@SQLITE_ONLY
async def test_new_tables_and_invitations_per_socket_and_per_person(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        cookie = await _account(base, "Maker")
        await _account(base, "Friend")
        first, second, third = [await Client.connect(server.url, "x", cookie=cookie) for _ in range(3)]
        made = [await _create(first) for _ in range(6)]
        assert [m["type"] for m in made] == ["event"] * 5 + ["error"]
        assert (made[5]["budget"], made[5]["scope"], made[5]["retry_after"]) == ("table", "connection", 12)
        made = [await _create(second) for _ in range(5)] + [await _create(third)]
        assert [m["type"] for m in made] == ["event"] * 5 + ["error"]
        assert (made[5]["budget"], made[5]["scope"], made[5]["retry_after"]) == ("table", "person", 60)
        server.clock.advance(60)
        assert (await _create(third))["type"] == "event"
        table = made[0]["table"]  # the second socket's: it follows it, and the third joins it
        await third.send({"type": "join", "table": table})
        await third.expect("table")
        invited = []
        for client in (second, second, third):
            for _ in range(6):
                await client.send({"type": "invite", "table": table, "name": "Friend", "ref": "inv"})
                invited.append(await _answer(client, "inv"))
        kinds = [(a["type"], a.get("scope")) for a in invited]
        assert kinds == [("event", None)] * 6 + [("event", None)] * 4 + [("error", "connection")] * 2 + [
            ("event", None)
        ] * 5 + [("error", "person")], kinds


async def _answer(client: Client, ref: str) -> dict:
    while True:
        answer = await client.recv()
        if answer.get("ref") == ref:
            return answer


@SQLITE_ONLY
async def test_friend_requests_per_person_over_http(db_url: str) -> None:
    """Ten a minute: the eleventh is 429 with Retry-After, whoever it names (a name nobody has costs the
    same lookup); six seconds later one more."""
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        cookie = await _account(base, "Asker")
        async with site_page(base, cookies={"atout_session": cookie}) as http:
            answers = [
                await http.post("/api/friends", json={"action": "request", "name": f"Ghost{i}"}) for i in range(11)
            ]
            assert [a.status_code for a in answers] == [404] * 10 + [429]
            error = answers[10].json()["error"]
            assert (error["code"], error["budget"], error["scope"], error["retry_after"]) == (
                "rate_limited",
                "friend_request",
                "person",
                6,
            )
            assert answers[10].headers["Retry-After"] == "6"
            assert (await http.post("/api/friends", json={"action": "remove", "name": "Ghost1"})).status_code == 404
            server.clock.advance(6)
            assert (await http.post("/api/friends", json={"action": "request", "name": "Ghost12"})).status_code == 404


@SQLITE_ONLY
async def test_a_name_takes_at_most_100_password_guesses_an_hour_from_every_address_together(db_url: str) -> None:
    """OWASP ASVS 2.2.1: a guesser with a fresh address for every try (a botnet), trying again the moment each
    refusal says, gets at most 100 tries at one account in an hour; the 101st is refused from an address
    never seen, and the refusal names the wait. (Five a minute alone let 305 through.)"""
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        await _account(base, "Target")
        async with site_page(base) as http:
            start, tries, refusals = server.clock.now(), 0, []
            while server.clock.now() < start + HOUR:
                fresh = {"X-Forwarded-For": f"10.{len(refusals) % 256}.{tries // 256}.{tries % 256}"}
                answer = await http.post(
                    "/api/login", json={"name": "target", "password": f"guess {tries}"}, headers=fresh
                )
                if answer.status_code == 429:
                    error = answer.json()["error"]
                    assert answer.headers["Retry-After"] == str(error["retry_after"])
                    refusals.append(error)
                    server.clock.advance(error["retry_after"])
                else:
                    assert answer.status_code == 401, answer.text
                    tries += 1
            assert 95 <= tries <= 100, tries
            last = refusals[-1]
            assert (last["budget"], last["scope"]) == ("login", "person") and last["retry_after"] >= 1, last
            assert re.fullmatch(
                r"at most \d+ password attempts in [\w ]+ for one person: try again in \d+ s", last["message"]
            ), last


async def test_two_processes_count_one_names_password_guesses_together(redis: RedisServer) -> None:  # noqa: F811
    """The login budget of a name lives in Redis: guesses on two processes of a site count as one."""
    now = [1_700_000_000.0]
    buses = [RedisBus(redis.url, "guesses"), RedisBus(redis.url, "guesses")]
    sites = [Limits(lambda: now[0], bus.take) for bus in buses]
    try:
        taken = 0
        for i in range(400):
            refused = await sites[i % 2].spend(Budget.LOGIN, person="target", address=f"198.51.100.{i % 250}")
            if refused is None:
                taken += 1
            else:
                assert refused.rule.scope == Scope.PERSON
            now[0] += 9.0  # 400 tries an hour, each process alternately
        assert 95 <= taken <= 100, taken
    finally:
        for bus in buses:
            await bus.stop()


# ---------------------------------------------------------------- a site of two processes
async def test_two_processes_share_a_persons_budget_through_redis(pg_url: str, redis: RedisServer) -> None:  # noqa: F811
    """One person's sockets on two processes of one site: ten new tables in ten minutes in all, not ten on
    each; the buckets are Redis's, so a third process would count the same."""
    async with (
        running_server(pg_url, redis_url=redis.url) as a,
        running_server(pg_url, redis_url=redis.url, clock=a.clock) as b,
    ):
        cookie = await _account(f"http://127.0.0.1:{a.port}", "Everywhere")
        on_a = await Client.connect(a.url, "x", cookie=cookie)
        on_b = [await Client.connect(b.url, "x", cookie=cookie) for _ in range(2)]
        made = [await _create(on_a) for _ in range(5)] + [await _create(on_b[0]) for _ in range(5)]
        assert [m["type"] for m in made] == ["event"] * 10, made
        assert {len(a.hub.rooms), len(b.hub.rooms)} == {5}
        refused = await _create(on_b[1])
        assert (refused["type"], refused["budget"], refused["scope"]) == ("error", "table", "person"), refused
        a.clock.advance(60)  # the clock both processes read
        assert (await _create(on_a))["type"] == "event"
        assert (await _create(on_b[1]))["type"] == "error"


async def test_the_redis_script_counts_as_the_buckets_do(redis: RedisServer) -> None:  # noqa: F811
    """The same spends at the same moments, in Redis and in memory: the same answers."""
    bus = RedisBus(redis.url, "limits-test")
    buckets = Buckets()
    rng = random.Random(26)
    rules = [("a", 3, 10.0), ("b", 5, 60.0), ("c", 1, 2.5)]
    now = 1_700_000_000.0
    try:
        for _ in range(300):
            now += rng.choice([0.0, 0.0, 0.4, 1.3, 7.0])
            items = rng.sample(rules, rng.randint(1, 3))
            there, here = await bus.take(items, now), buckets.take_now(items, now)
            assert (there is None) == (here is None), (items, there, here)
            if there is not None and here is not None:
                assert there[0] == here[0] and there[1] == pytest.approx(here[1], abs=1e-6)
    finally:
        await bus.stop()
