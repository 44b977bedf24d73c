"""Never lost: a server killed with SIGKILL mid-deal at several tables resumes every table where it stood."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time

import httpx
import pytest
import websockets

from atout.engine.record import replay
from served import Served, free_port

from .helpers import WITHIN, Client, eventually, first_legal

pytestmark = pytest.mark.slow


class ServerProcess:
    """``atout serve`` in a child process, on the test's database."""

    def __init__(self, db_url: str, tmp_path) -> None:
        self.db_url = db_url
        self.port = free_port()
        self.env = {"ATOUT_SECRET": "restart-test-secret", "XDG_DATA_HOME": str(tmp_path)}
        self.proc: Served | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def start(self) -> None:
        self.proc = Served(
            [
                "--port",
                str(self.port),
                "--db",
                self.db_url,
                "--robot-pace",
                "0",
                "--deal-pause",
                "0",
                "--log-level",
                "warning",
                "--analysis-workers",
                "0",
            ],
            self.env,
        )  # no analysis asked: no worker
        deadline = time.monotonic() + WITHIN  # bounds a hang only: a loaded machine starts a server slowly
        async with httpx.AsyncClient() as http:
            while time.monotonic() < deadline:
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(f"http://127.0.0.1:{self.port}/health")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


async def drive(client: Client, rng: random.Random, stop: asyncio.Event) -> None:
    """Play ``client``'s turns at once until the game ends, the connection dies or ``stop`` is set."""
    with contextlib.suppress(websockets.ConnectionClosed, asyncio.TimeoutError):
        while not stop.is_set():
            state = client.state
            deal = state and state["deal"]
            if state and state["game"] and state["game"]["outcome"] == "finished":
                return
            if deal and deal["to_act"] == state["you"] and deal["legal"]:
                legal = deal["legal"]
                choice = (
                    first_legal(state)
                    if rng.random() < 0.5
                    else first_legal({"deal": {"legal": rng.sample(legal, len(legal))}})
                )
                await client.send({"type": "act", "table": state["id"], "seq": client.seq, "action": choice})
            await client.recv(5.0)


async def open_tables(url: str) -> dict[str, list[Client]]:
    """Three tables (3, 4 and 5 seats), each with one or two people and robots, games of six deals."""
    tables: dict[str, list[Client]] = {}
    for players, people in ((3, 1), (4, 2), (5, 1)):
        master = await Client.connect(url, f"Master{players}")
        await master.send({"type": "create", "players": players, "options": {"deals": 6, "turn_seconds": 90}})
        table = (await master.expect("master"))["table"]
        await master.settle()
        clients = [master]
        for seat in range(1, people):
            other = await Client.connect(url, f"Guest{players}x{seat}")
            await other.send({"type": "join", "table": table})
            await other.expect("table")
            await other.request({"type": "sit", "table": table, "seat": seat})
            clients.append(other)
        await master.settle()
        for seat in range(people, players):
            await master.request({"type": "robot", "table": table, "seat": seat, "level": "random"})
        await master.request({"type": "start", "table": table})
        tables[table] = clients
    return tables


async def test_sigkill_mid_deals_loses_nothing_and_every_table_resumes(db_url: str, tmp_path) -> None:
    server = ServerProcess(db_url, tmp_path)
    await server.start()
    try:
        tables = await open_tables(server.url)
        rng = random.Random(7)
        stop = asyncio.Event()
        drivers = [asyncio.create_task(drive(c, rng, stop)) for cs in tables.values() for c in cs]
        started = {t: cs[0].seqs[t] for t, cs in tables.items()}
        far = rng.randint(5, 25)  # the kill comes once actions flow at every table, as many whatever the speed
        await eventually(
            lambda: all(max(c.seqs.get(t, 0) for c in cs) >= started[t] + far for t, cs in tables.items()),
            f"{far} actions were not made at every table",
        )
        server.kill()
        stop.set()
        await asyncio.gather(*drivers)
        heard = {(t, c.name): (c.seq, c.state) for t, cs in tables.items() for c in cs}
        assert all(seq > 10 and state["status"] == "playing" for seq, state in heard.values()), "killed mid-game"

        await server.start()
        for table, clients in tables.items():
            for i, old in enumerate(clients):
                last_seq, last_state = heard[(table, old.name)]
                back = await Client.connect(server.url, old.name, token=old.token)
                await back.send({"type": "join", "table": table, "last_seq": last_seq})
                await back.expect("table")
                state = back.state
                missed = [f["seq"] for f in back.frames if f["type"] == "event"]
                # nothing heard is lost, nothing is skipped, nothing is applied twice
                assert state["seq"] >= last_seq
                assert missed == list(range(last_seq + 1, state["seq"] + 1))
                assert state["you"] == last_state["you"]
                if not missed:  # the same cards, the same turn, the same sheet
                    for key in ("hand", "to_act", "trick", "bids", "phase", "tricks_won"):
                        assert state["deal"][key] == last_state["deal"][key], key
                    assert state["game"]["sheet"] == last_state["game"]["sheet"]
                else:  # what was stored but not yet heard follows on from what was heard
                    assert state["game"]["sheet"][: len(last_state["game"]["sheet"])] == last_state["game"]["sheet"]
                if state["clock"] is not None:  # the clock was given its time back
                    assert state["clock"]["seconds_left"] >= 85
                clients[i] = back
        stop = asyncio.Event()
        await asyncio.wait_for(asyncio.gather(*(drive(c, rng, stop) for cs in tables.values() for c in cs)), 240)
        for clients in tables.values():
            game = clients[0].state["game"]
            assert game["outcome"] == "finished" and sum(game["totals"]) == 0
            # every deal's record, as revealed, replays to the sheet's scores
            ends = [f["event"] for c in clients for f in c.frames if f.get("event", {}).get("type") == "deal_end"]
            for end in ends:
                assert list(replay(end["record"]).deal.result.scores) == end["line"]["scores"]
    finally:
        server.stop()
