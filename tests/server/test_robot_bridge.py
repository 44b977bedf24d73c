"""``atout robot`` (issue 39): any engine-protocol program plays whole games at a site's table as a robot
account.  The seat's observation it makes from what the site sends is the one the arena gives that seat, at
every decision of a deal played on the server; ``node examples/simple_engine.js`` plays a whole game there
through the bridge, a subprocess, as a person would run it."""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from websockets.sync.client import connect

from atout.cli.robot import Bridge, add_arguments
from atout.cli.robot_seat import SeatEngine
from atout.engine import Action, Observation, Phase, Play
from atout.engine.record import parse_action, start_deal
from atout.protocol.messages import decide
from atout.server.store.db import game_players

from .helpers import Client, running_server, site_page
from .test_robot_accounts import make_robot

ROOT = Path(__file__).resolve().parents[2]
SIMPLE_ENGINE = ROOT / "examples" / "simple_engine.js"
FAULTY = ROOT / "tests" / "protocol" / "faulty_engine.py"


async def robot_token(base: str) -> str:
    async with site_page(base) as page:
        assert (await page.post("/api/register", json={"name": "Ann", "password": "first secret"})).status_code == 201
        return await make_robot(page)


class WatchedBridge(Bridge):
    """The bridge, keeping each observation it made (with its deal's commitment) and each deal's record."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.seen: list[tuple[str, Any]] = []
        self.records: dict[str, dict[str, Any]] = {}

    def act(self, obs: Any, seq: int) -> None:
        assert self.deal_key is not None
        self.seen.append((self.deal_key, obs))
        super().act(obs, seq)

    def told(self, event: dict[str, Any]) -> None:
        if event["type"] == "deal_end":
            self.records[event["commitment"]] = event["record"]
        super().told(event)


def arguments(url: str, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args([url, *extra])


@pytest.mark.parametrize("players", [3, 5])
async def test_the_seat_s_observation_from_the_site_is_the_arena_s(tmp_path: Path, players: int) -> None:
    """At every decision of the robot account's seat, on deals played on the server, the observation made
    from the TableView and the deal's events equals the engine's ``deal.observation(seat)`` (what the arena
    asks an engine with), and so does the decision request sent from it."""
    async with running_server(f"sqlite:///{tmp_path / 'atout.db'}") as server:
        token = await robot_token(f"http://127.0.0.1:{server.port}")
        args = arguments(server.url, "--engine", "random", "--players", str(players), "--deals", "2", "--games", "2")
        seat = SeatEngine("random", 30.0, None, None, say=lambda line: None)

        def play() -> tuple[int, WatchedBridge]:
            with connect(server.url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
                bridge = WatchedBridge(ws, args, seat)
                return bridge.run(), bridge

        code, bridge = await asyncio.wait_for(asyncio.to_thread(play), 120)
    assert code == 0 and bridge.played == 2  # its table's master: a game, then the next
    assert not seat.faults
    compared = 0
    for commitment, record in bridge.records.items():
        mine = [obs for key, obs in bridge.seen if key == commitment]
        deal = start_deal(record)
        asked = []
        for i, entry in enumerate(record["actions"]):
            s, action = parse_action(entry, i, deal.players)
            if s == 0:  # the robot account's seat: it made the table
                asked.append(deal.observation(0))
            deal.apply(action, seat=s)
        assert mine == asked, f"deal {commitment[:8]}: the site's observations differ from the arena's"
        for obs, arena in zip(mine, asked, strict=True):
            assert decide(1, obs, None) == decide(1, arena, None)
        compared += len(mine)
    assert compared >= 3 * 4


async def test_a_javascript_engine_plays_a_whole_game_at_a_site_table(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is missing: the JavaScript engine (examples/simple_engine.js) cannot run here")
    async with running_server(f"sqlite:///{tmp_path / 'atout.db'}") as server:
        token = await robot_token(f"http://127.0.0.1:{server.port}")
        log = tmp_path / "engine.log"
        bridge = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "atout.cli.main",
            "robot",
            server.url,
            "--engine",
            f"cmd:{node} {SIMPLE_ENGINE}",
            "--deals",
            "2",
            "--engine-log",
            str(log),
            env={**os.environ, "ATOUT_TOKEN": token},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(bridge.communicate(), 120)
        said = out.decode()
        assert bridge.returncode == 0, said + err.decode()
        assert "playing as Botty, robot account of Ann" in said
        assert "engine 'simple (JavaScript)' ready at seat 0" in said
        assert "game over" in said and "engine fault" not in said, said
        with server.hub.store.engine.connect() as conn:
            line = conn.execute(sa.select(game_players).where(game_players.c.name == "Botty")).one()
        assert line.competitive is False


class RefusedSeat(SeatEngine):
    """An engine whose first answer is one the site refuses (a card in the bidding, never asked of the
    engine's own host checks): the site's ``illegal`` must bring the heuristic in, as an engine's would."""

    def choose(self, obs: Observation) -> Action:
        if not self.faults and obs.phase is Phase.BIDDING:
            return Play(next(c for c in range(78) if not obs.hand >> c & 1))
        return super().choose(obs)


@pytest.mark.parametrize(("mode", "kind"), [("illegal", "illegal"), ("sleep", "timeout"), ("site", "illegal")])
async def test_an_engine_that_fails_leaves_its_seat_to_the_heuristic_for_the_deal(
    tmp_path: Path, mode: str, kind: str
) -> None:
    """As in the arena: the failed decision and the rest of the deal are the heuristic's, the failure is
    said, and the game goes on to its end; after a timeout the process is started again at the next deal."""
    async with running_server(f"sqlite:///{tmp_path / 'atout.db'}") as server:
        token = await robot_token(f"http://127.0.0.1:{server.port}")
        args = arguments(server.url, "--engine", "cmd:x", "--deals", "2", "--timeout", "1")
        said: list[str] = []
        engine = "random" if mode == "site" else f"cmd:{sys.executable} {FAULTY} {mode}"
        seat = (RefusedSeat if mode == "site" else SeatEngine)(engine, 1.0, None, tmp_path / "engine.log", said.append)

        def play() -> int:
            with connect(server.url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
                return Bridge(ws, args, seat).run()

        try:
            code = await asyncio.wait_for(asyncio.to_thread(play), 120)
        finally:
            seat.close()
    assert code == 0
    assert [(f["deal"], f["kind"]) for f in seat.faults] == [(0, kind)], said
    assert any(line.startswith(f"engine fault in deal 0: {kind}") and "the heuristic plays" in line for line in said), (
        said
    )
    if mode == "sleep":  # ended at its timeout, started again for the next deal
        assert sum("ready at seat 0" in line for line in said) == 2, said


@pytest.mark.parametrize("how", ["--wait", "--table"])
async def test_the_bridge_joins_a_person_s_table_invited_or_named_and_plays_it(tmp_path: Path, how: str) -> None:
    """Invited (``--wait``) or given the table (``--table ID``), the robot account sits at the free seat; when
    the person leaves it is the table's master, seats the site's robots and plays the game to its end."""
    async with running_server(f"sqlite:///{tmp_path / 'atout.db'}") as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as page:
            assert (
                await page.post("/api/register", json={"name": "Ann", "password": "first secret"})
            ).status_code == 201
            token = await make_robot(page)
            ann = await Client.connect(server.url, "Ann", cookie=page.cookies["atout_session"])
        await ann.send({"type": "create", "players": 3, "options": {"competitive": False, "deals": 1}})
        table = (await ann.expect("created"))["table"]
        await ann.settle()
        assert (await ann.request({"type": "robot", "table": table, "seat": 2, "level": "club"}))["type"] == "event"
        extra = ["--wait"] if how == "--wait" else ["--table", table]
        args = arguments(server.url, "--engine", "random", *extra)
        seat = SeatEngine("random", 30.0, None, None, say=lambda line: None)

        def play() -> int:
            with connect(server.url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
                return Bridge(ws, args, seat).run()

        bridge = asyncio.ensure_future(asyncio.to_thread(play))
        if how == "--wait":  # invited once it is on line: an invitation reaches the sockets open then
            while not any(c.player is not None and c.player.name == "Botty" for c in server.hub.connections):
                await ann.settle()  # a round trip to the server: the bridge's hello may be in by then
            assert (await ann.request({"type": "invite", "table": table, "name": "Botty"}))["type"] == "event"
        await ann.expect("sat", name="Botty", timeout=60)
        await ann.settle()
        assert ann.state["seats"][1]["robot_account"] is True
        assert (await ann.request({"type": "leave", "table": table}))["type"] == "event"
        await ann.close()
        assert await asyncio.wait_for(bridge, 120) == 0
        with server.hub.store.engine.connect() as conn:
            line = conn.execute(sa.select(game_players).where(game_players.c.name == "Botty")).one()
        assert line.competitive is False
