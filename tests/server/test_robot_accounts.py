"""Robot accounts (issue 39, item 5): a person makes one and gets its token once; the robot plays through the
same protocol as people, at practice tables only, marked as a robot; a revoked token closes its socket."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
import websockets

from atout.server.features.accounts import AccountError, Accounts
from atout.server.features.robot_accounts import MAX_ROBOTS, RobotAccounts
from atout.server.http.robots import shipped_ladder
from atout.server.store.db import game_players, players

from .helpers import LIGHT_ARGON2, Client, running_server, site_page
from .test_cluster import Process, RedisServer, ready, redis  # noqa: F401 -- the redis fixture
from .test_sessions import ended, still_open

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "robot_account.py"


def test_the_package_ships_the_latest_ladder() -> None:
    """The page's ladder (``/api/ladder``) is benchmarks/results/ladder.json's: copy it again after a new ladder."""
    latest = json.loads((ROOT / "benchmarks" / "results" / "ladder.json").read_text())
    shipped = shipped_ladder()
    assert shipped is not None
    assert (shipped["config"], shipped["yardstick"], shipped["ranking"]) == (
        latest["config"],
        latest["yardstick"],
        latest["ranking"],
    )


def test_a_robot_account_is_owned_its_token_kept_hashed_revocable(store) -> None:
    accounts = Accounts(store, LIGHT_ARGON2)
    owner = accounts.register("Ann", "a good password")
    robots = RobotAccounts(store)
    robot, token = robots.create(owner, "Botty")
    assert robot.id.startswith("b") and robot.robot_of == "Ann" and token.startswith("atr_")
    with store.engine.connect() as conn:
        kept = conn.execute(sa.select(players.c.token_hash, players.c.robot_of).where(players.c.id == robot.id)).one()
    assert kept == (hashlib.sha256(token.encode()).hexdigest(), owner.id)  # never the token itself
    assert robots.by_token(token) == robot
    assert robots.of(owner.id) == [
        {"name": "Botty", "created_at": pytest.approx(robot_created(store, robot.id)), "active": True}
    ]
    with pytest.raises(AccountError) as taken:
        robots.create(owner, "ann")  # a robot's name is a name like any: unique whatever its case
    assert taken.value.code == "name_taken"
    with pytest.raises(AccountError):
        accounts.login("Botty", "")  # nobody logs in as a robot
    assert robots.revoke("p-somebody-else", "Botty") is None
    assert robots.revoke(owner.id, "botty") == (robot.id, hashlib.sha256(token.encode()).hexdigest())
    assert robots.by_token(token) is None and robots.live([kept.token_hash]) == set()
    assert robots.of(owner.id)[0]["active"] is False
    for n in range(MAX_ROBOTS - 1):
        robots.create(owner, f"Bot{n}")
    with pytest.raises(AccountError) as many:
        robots.create(owner, "OneTooMany")
    assert many.value.code == "too_many_robots"


def robot_created(store, robot_id: str) -> float:
    with store.engine.connect() as conn:
        return conn.execute(sa.select(players.c.created_at).where(players.c.id == robot_id)).scalar_one()


async def make_robot(page, name: str = "Botty") -> str:
    made = await page.post("/api/robots", json={"name": name})
    assert made.status_code == 201, made.text
    assert made.json()["robot_of"] == "Ann"
    return made.json()["token"]


async def test_a_robot_account_plays_a_whole_game_with_the_example_client(tmp_path: Path) -> None:
    async with running_server(f"sqlite:///{tmp_path / 'atout.db'}") as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as page:
            assert (
                await page.post("/api/register", json={"name": "Ann", "password": "first secret"})
            ).status_code == 201
            token = await make_robot(page)
            assert (await page.get("/api/robots")).json()["robots"][0]["name"] == "Botty"
            ladder = (await page.get("/api/ladder")).json()
            assert ladder["ranking"][0]["entrant"] and ladder["yardstick"] == "club"
        env = {**os.environ, "ATOUT_TOKEN": token}
        robot = await asyncio.create_subprocess_exec(
            sys.executable,
            str(EXAMPLE),
            server.url,
            "--games",
            "1",
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(robot.communicate(), 120)
        assert robot.returncode == 0, err.decode()
        assert "playing as Botty robot account of Ann" in out.decode() and "game over" in out.decode()
        with server.hub.store.engine.connect() as conn:
            line = conn.execute(sa.select(game_players).where(game_players.c.name == "Botty")).one()
        assert line.competitive is False  # a practice game: unranked
        async with site_page(base) as page:
            profile = (await page.get("/api/players/Botty")).json()
        assert profile["robot_of"] == "Ann" and profile["stats"]["all"]["games"] == 1
        async with site_page(base) as page:
            assert (await page.post("/api/login", json={"name": "Ann", "password": "first secret"})).status_code == 200
            befriend = await page.post("/api/friends", json={"action": "request", "name": "Botty"})
            assert befriend.status_code == 404  # a program is nobody's friend


async def test_a_robot_account_never_plays_ranked_and_is_marked(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as page:
            assert (
                await page.post("/api/register", json={"name": "Ann", "password": "first secret"})
            ).status_code == 201
            token = await make_robot(page)
            ann = await Client.connect(server.url, "Ann", cookie=page.cookies["atout_session"])
        robot = await Client.connect(server.url, "ignored", token=token)  # the token in the hello
        assert robot.frames[-1]["you"] == {"id": robot.id, "name": "Botty", "registered": False, "robot_of": "Ann"}
        await robot.send({"type": "create", "players": 4})
        assert (await robot.expect("error"))["code"] == "robot_unranked"
        await ann.send({"type": "create", "players": 4})  # ranked by default
        ranked = (await ann.expect("created"))["table"]
        await ann.settle()
        await robot.send({"type": "join", "table": ranked})
        await robot.expect("table")
        refused = await robot.request({"type": "sit", "table": ranked, "seat": 1})
        assert refused["type"] == "error" and refused["code"] == "robot_unranked"
        await ann.request({"type": "options", "table": ranked, "options": {"competitive": False}})
        await robot.settle()
        sat = await robot.request({"type": "sit", "table": ranked, "seat": 1})
        assert sat["type"] == "event", sat
        await ann.settle()
        assert ann.state["seats"][1]["robot_account"] is True and ann.state["seats"][0]["robot_account"] is False
        assert [r.summary()["robot_accounts"] for r in server.hub.rooms.values()] == [[1]]
        refused = await ann.request({"type": "options", "table": ranked, "options": {"competitive": True}})
        assert refused["type"] == "error" and refused["code"] == "robot_unranked"
        await ann.close()
        await robot.close()


async def test_a_revoked_token_closes_the_robots_socket_and_is_refused_after(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as page:
            assert (
                await page.post("/api/register", json={"name": "Ann", "password": "first secret"})
            ).status_code == 201
            token = await make_robot(page)
            bearer = {"Authorization": f"Bearer {token}"}
            async with websockets.connect(server.url, additional_headers=bearer) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 1}))
                assert json.loads(await ws.recv())["you"]["robot_of"] == "Ann"
                assert (await page.post("/api/robots/revoke", json={"name": "Nobody"})).status_code == 404
                assert (await page.post("/api/robots/revoke", json={"name": "Botty"})).json() == {"revoked": "Botty"}
                assert json.loads(await asyncio.wait_for(ws.recv(), 10)) == {
                    "type": "session_ended",
                    "why": "token_revoked",
                }
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 10)
            with pytest.raises(websockets.InvalidStatus):
                async with websockets.connect(server.url, additional_headers=bearer):
                    pass
            async with websockets.connect(server.url) as ws:
                await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
                assert json.loads(await ws.recv())["code"] == "bad_token"
            assert (await page.get("/api/robots")).json()["robots"][0]["active"] is False
        async with site_page(base) as stranger:
            assert (await stranger.post("/api/robots", json={"name": "Sneaky"})).status_code == 401


async def test_the_minutely_check_keeps_a_robots_socket_while_its_token_is_in_force(tmp_path: Path) -> None:
    """The sweep that closes sockets of sessions found over counts a robot's token as its session: in force,
    the socket stays; revoked with no notice (a bus outage), it closes at the next sweep."""
    async with running_server(f"sqlite:///{tmp_path / 'atout.db'}") as server:
        async with site_page(f"http://127.0.0.1:{server.port}") as page:
            assert (
                await page.post("/api/register", json={"name": "Ann", "password": "first secret"})
            ).status_code == 201
            token = await make_robot(page)
        robot = await Client.connect(server.url, "x", token=token)
        server.clock.advance(server.hub.sessions.SWEEP_SECONDS)
        await server.hub.sessions.check()  # the sweep's own work, awaited here
        assert await still_open(robot)
        with server.hub.store.engine.begin() as conn:
            conn.execute(players.update().where(players.c.name == "Botty").values(token_hash=None))
        server.clock.advance(server.hub.sessions.SWEEP_SECONDS)
        await server.hub.sessions.check()  # awaited here too: a loaded machine's own sweep may come late
        assert await ended(robot) == "ended"


async def test_a_token_revoked_on_one_process_closes_the_robots_socket_on_another(
    pg_url: str,
    redis: RedisServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    with ready([Process(pg_url, redis.url, tmp_path, name) for name in ("A", "B")]) as (a, b):
        async with site_page(f"http://127.0.0.1:{a.port}") as page:
            assert (
                await page.post("/api/register", json={"name": "Ann", "password": "first secret"})
            ).status_code == 201
            token = await make_robot(page)
            robot = await Client.connect(b.url, "x", token=token)
            assert (await page.post("/api/robots/revoke", json={"name": "Botty"})).status_code == 200
            assert await ended(robot) == "token_revoked"  # on B, at once
