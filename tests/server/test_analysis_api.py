"""The analysis of one's own play over HTTP: asked, polled with its progress, the same as ``atout analyse``,
kept in the store across a restart; only one's own seat of a finished deal; the limits answer by name."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import multiprocessing
import os
import signal
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from atout.bots import make_bot
from atout.bots.accuracy import record_roles, seat_accuracy
from atout.bots.analysis import analyse, decision_points
from atout.engine import RuleSet, new_deal
from atout.engine.kinds import DecisionKind
from atout.engine.record import to_record
from atout.server.clock import FakeClock
from atout.server.features.analysis_worker import analyse_nth, count_points, state, warm
from atout.server.features.limits import Budget
from atout.server.store.db import accuracy, analyses
from served import TLS, Served, free_port

from .helpers import SQLITE_ONLY, Client, eventually, quick_config, running_server, wait_until, when_next_deal
from .test_tables import game_over, play_until, table_with_robots


def _http(server) -> httpx.AsyncClient:
    # the timeout bounds a hang only
    return httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}", timeout=120.0, verify=TLS)


def _auth(client: Client) -> dict[str, str]:
    return {"Authorization": f"Bearer {client.token}"}


async def _done(
    http: httpx.AsyncClient,
    client: Client,
    game: str,
    deal: int,
    table: str | None = None,
    seen: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Poll until the analysis is made; every answer on the way is kept in ``seen``."""
    answers: list[dict[str, Any]] = [] if seen is None else seen
    params = {"game": game, "deal": str(deal), **({"table": table} if table else {})}

    async def made() -> bool:
        answer = await http.get("/api/analysis", params=params, headers=_auth(client))
        assert answer.status_code in (200, 202), answer.text
        answers.append(answer.json())
        return answer.status_code == 200

    await eventually(made, "the analysis was never made", every=0.1)
    return answers[-1]


async def test_a_player_analyses_their_seat_and_gets_what_atout_analyse_gives(db_url: str) -> None:
    config = dataclasses.replace(quick_config(), analysis_per_hour=2, analysis_worlds=1)
    async with running_server(db_url, config) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, deals=2)
        await ann.request({"type": "start", "table": table})
        await play_until(ann, game_over)
        game = ann.state["game"]["id"]
        stored = server.hub.store.game(game)
        records = stored.data["records"]
        async with _http(server) as http:
            asked = await http.post("/api/analysis", json={"game": game, "deal": 0}, headers=_auth(ann))
            assert asked.status_code == 202 and asked.json()["status"] in ("queued", "running"), asked.text
            seen: list[dict[str, Any]] = []
            answer = await _done(http, ann, game, 0, seen=seen)
            expected = analyse(records[0], [0], "analysis", factor=1).to_json()
            # with it, the seat's accuracy: what its choices cost against the expert's, by phase (bots/accuracy.py)
            mine = seat_accuracy(expected, 0, record_roles(records[0])[0]).to_json()
            assert answer == {
                "status": "done",
                "game": game,
                "deal": 0,
                "seat": 0,
                "analysis": expected,
                "accuracy": mine,
            }
            with server.hub.store.engine.connect() as conn:
                kept_rows = conn.execute(sa.select(accuracy).where(accuracy.c.game_id == game)).all()
            assert [(r.deal, r.seat, r.player_id, r.loss) for r in kept_rows] == [(0, 0, ann.id, mine["loss"])]
            progress = [a["done"] for a in seen if a["status"] == "running" and "done" in a]
            assert progress == sorted(progress)
            assert all(
                a["total"] == expected["totals"][0]["decisions"] + expected["totals"][0]["forced"]
                for a in seen
                if "total" in a
            )
            # Asked again: the store answers, and the budget is not spent.
            again = await http.post("/api/analysis", json={"game": game, "deal": 0}, headers=_auth(ann))
            assert again.status_code == 200 and again.json()["analysis"] == expected
            assert again.json()["accuracy"] == mine
            # Someone who did not play in that game, or a seat that is not yours, or nobody: refused by name.
            bob = await Client.connect(server.url, "Bob")
            other = await http.post("/api/analysis", json={"game": game, "deal": 0}, headers=_auth(bob))
            assert (other.status_code, other.json()["error"]["code"]) == (403, "not_your_seat")
            robot_seat = await http.post("/api/analysis", json={"game": game, "deal": 0, "seat": 2}, headers=_auth(ann))
            assert (robot_seat.status_code, robot_seat.json()["error"]["code"]) == (403, "not_your_seat")
            nobody = await http.post("/api/analysis", json={"game": game, "deal": 0})
            assert (nobody.status_code, nobody.json()["error"]["code"]) == (401, "not_logged_in")
            forged = await http.post(
                "/api/analysis", json={"game": game, "deal": 0}, headers={"Authorization": "Bearer g123.abc"}
            )
            assert forged.status_code == 401
            beyond = await http.post("/api/analysis", json={"game": game, "deal": len(records)}, headers=_auth(ann))
            assert (beyond.status_code, beyond.json()["error"]["code"]) == (404, "no_deal")
            unknown = await http.post("/api/analysis", json={"game": "nope", "deal": 0}, headers=_auth(ann))
            assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "no_game")
            bad = await http.post("/api/analysis", json={"game": game, "deal": "0"}, headers=_auth(ann))
            assert (bad.status_code, bad.json()["error"]["code"]) == (400, "malformed")
            # A second deal spends the hour's second analysis; a third is over the budget.
            second = await http.post("/api/analysis", json={"game": game, "deal": 1}, headers=_auth(ann))
            assert second.status_code == 202, second.text
            await _done(http, ann, game, 1)
            if len(records) > 2:
                third = await http.post("/api/analysis", json={"game": game, "deal": 2}, headers=_auth(ann))
                assert (third.status_code, third.json()["error"]["code"]) == (429, "rate_limited")
    # A restart: the store still has it, and no worker process is started to answer.
    async with running_server(db_url, config) as server, _http(server) as http:
        kept = await http.get("/api/analysis", params={"game": game, "deal": "0"}, headers=_auth(ann))
        assert kept.status_code == 200 and kept.json()["analysis"] == expected and kept.json()["accuracy"] == mine
        assert server.app.state.analysis.executor is None


@SQLITE_ONLY
async def test_the_worker_is_warmed_with_the_server_and_an_analysis_compiles_nothing(db_url: str) -> None:
    """What made the site's first analysis take 42 s to 2 minutes (a fresh worker compiling the robots' card play
    at the first request; benchmarks/results/analysis_web.md): the worker starts and warms up with the server,
    before anyone asks, and the analysis then runs in that worker without loading or compiling anything."""
    config = dataclasses.replace(quick_config(), analysis_worlds=1, analysis_warm=True)
    async with running_server(db_url, config) as server, _http(server) as http:
        pool = server.app.state.analysis
        assert pool.executor is not None and pool.warming is not None  # started with the server, nobody asked
        [warmed] = await pool.warming
        assert warmed["warmed"] is not None and warmed["warmed"] == warmed["compiled"] > 0
        assert warmed["pid"] in {p.pid for p in multiprocessing.active_children()}
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, deals=1)
        await ann.request({"type": "start", "table": table})
        await play_until(ann, game_over)
        game = ann.state["game"]["id"]
        asked = await http.post("/api/analysis", json={"game": game, "deal": 0}, headers=_auth(ann))
        assert asked.status_code == 202, asked.text
        answer = await _done(http, ann, game, 0)
        assert answer["analysis"]["totals"][0]["decisions"] + answer["analysis"]["totals"][0]["forced"] > 0
        after = await pool.probe()
        assert (after["pid"], after["compiled"]) == (warmed["pid"], warmed["compiled"])


def _taken(players: int) -> tuple[dict, int]:
    """A deal robots played to its end with a taker who made an écart (bids, an écart and cards to analyse)."""
    for n in range(200):
        deal = new_deal(RuleSet(players), n % players, f"warm-test {players} {n}")
        bots = [make_bot("heuristic", f"warm-test {n} {s}") for s in range(players)]
        while deal.to_act is not None:
            seat = deal.to_act
            deal.apply(bots[seat].choose(deal.observation(seat)), seat)
        record = to_record(deal)
        if deal.taker is not None and any(p.kind is DecisionKind.ECART for p in decision_points(record, [deal.taker])):
            return record, deal.taker
    raise AssertionError(f"no deal of {players} players with an écart in 200")


def test_a_warmed_worker_analyses_every_kind_of_decision_without_compiling() -> None:
    """The warm-up covers all the analysis needs: in a fresh worker (as the site spawns them), the taker's and a
    defender's decisions at 3, 4 and 5 players load or compile nothing more (else a person waits for it)."""
    records = [_taken(players) for players in (3, 4, 5)]
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=warm) as pool:
        warmed = pool.submit(state).result()
        for record, taker in records:
            for seat in (taker, (taker + 1) % record["players"]):
                for n in range(pool.submit(count_points, record, seat).result()):
                    pool.submit(analyse_nth, record, seat, "analysis", n, 1).result()
        after = pool.submit(state).result()
    assert warmed["warmed"] == warmed["compiled"] > 0
    assert (after["pid"], after["compiled"]) == (warmed["pid"], warmed["compiled"])


def _state(pid: int) -> str | None:
    """A process's state letter from Linux's /proc (``Z``: ended, not yet reaped); None when it is gone."""
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    return None


def _workers_of(pid: int) -> list[int]:
    """The analysis worker processes ``pid`` spawned (multiprocessing's spawn_main, not its resource tracker)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and b"spawn_main" in (stat.parent / "cmdline").read_bytes():
                found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes in Linux's /proc")
@pytest.mark.parametrize("when", ["warmed", "starting"])
def test_a_killed_server_leaves_no_analysis_worker_behind(tmp_path: Path, when: str) -> None:
    """Every ``atout serve`` now starts a worker: one its server's SIGKILL or crash left waiting for tasks
    for ever (150 MB each) would pile up; the worker ends once its server is gone, killed once the worker
    is warmed, or as soon as the worker exists (mostly while it still imports, before it could look at
    its parent)."""
    log = tmp_path / "serve.log"
    server = Served(
        ["--port", str(free_port()), "--db", f"sqlite:///{tmp_path / 'site.db'}", "--log-level", "info"],
        {"ATOUT_SECRET": "analysis-test-secret", "XDG_DATA_HOME": str(tmp_path)},
        log,
    )
    try:
        if when == "warmed":
            wait_until(
                lambda: log.exists() and "analysis workers ready" in log.read_text(),
                "the analysis worker did not start with the server",
            )
        else:
            wait_until(
                lambda: bool(_workers_of(server.pid)), "the analysis worker did not start with the server", every=0.005
            )
        workers = _workers_of(server.pid)
        assert len(workers) == 1, workers
        server.kill()
        server.wait(10)
        wait_until(lambda: _state(workers[0]) in (None, "Z"), "the analysis worker outlived its killed server")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes in Linux's /proc")
@pytest.mark.parametrize("stop", ["ctrl-c while its worker starts", "sigterm once warmed"])
def test_a_stopped_server_ends_its_worker_without_a_word_of_alarm(tmp_path: Path, stop: str) -> None:
    """``atout serve`` in a terminal stopped by Ctrl-C (a SIGINT to its whole process group, the worker's start
    included) or by a service manager's SIGTERM: it ends, its worker with it, and says nothing alarming. The worker
    heard Ctrl-C too and printed a KeyboardInterrupt's traceback, the server then logged that its workers "did not
    start" at error level, and after a SIGTERM multiprocessing reported 5 leaked semaphores. A real interpreter, not
    a fork of the tests' fork server: multiprocessing's resource tracker, which warns of the leak, is then its own."""
    log = tmp_path / "serve.log"
    argv = [sys.executable, "-m", "atout.cli.main", "serve", "--port", str(free_port()), "--insights-budget", "0"]
    with log.open("w") as out:
        server = subprocess.Popen(
            [*argv, "--db", f"sqlite:///{tmp_path / 'site.db'}"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "ATOUT_SECRET": "stop-test-secret", "XDG_DATA_HOME": str(tmp_path)},
            start_new_session=True,  # its own process group, as a terminal's foreground job
        )
    try:
        if stop.startswith("ctrl-c"):
            wait_until(lambda: bool(_workers_of(server.pid)), "the analysis worker never started", every=0.005)
            workers = _workers_of(server.pid)
            os.killpg(server.pid, signal.SIGINT)
        else:
            wait_until(lambda: "analysis workers ready" in log.read_text(), "the analysis worker was never warmed")
            workers = _workers_of(server.pid)
            server.terminate()
        server.wait(60)  # bounds a hang only
        wait_until(lambda: all(_state(w) in (None, "Z") for w in workers), "the analysis worker outlived its server")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
    said = log.read_text()
    assert workers and not any(alarm in said for alarm in ("Traceback", "did not start", "leaked", '"error"')), said


def _deals_ended(n: int):
    return lambda c: sum(1 for f in c.frames if f.get("event", {}).get("type") == "deal_end") >= n


@SQLITE_ONLY
async def test_a_finished_deal_of_a_running_game_only_and_one_analysis_at_a_time(db_url: str) -> None:
    """Between two deals (the fake clock holds the next one back) the deal just finished may be analysed at
    its table, the one to come may not; then one analysis at a time per person."""
    clock = FakeClock()
    config = dataclasses.replace(quick_config(deal_pause=5.0), analysis_worlds=1)
    async with running_server(db_url, config, clock) as server, _http(server) as http:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, deals=3)
        await ann.request({"type": "start", "table": table})
        await play_until(ann, _deals_ended(1))
        game = ann.state["game"]["id"]
        assert server.hub.store.game(game) is None  # the game runs on
        no_table = await http.post("/api/analysis", json={"game": game, "deal": 0}, headers=_auth(ann))
        assert (no_table.status_code, no_table.json()["error"]["code"]) == (404, "no_game")
        ahead = await http.post("/api/analysis", json={"game": game, "deal": 1, "table": table}, headers=_auth(ann))
        assert (ahead.status_code, ahead.json()["error"]["code"]) == (404, "no_deal")
        asked = await http.post("/api/analysis", json={"game": game, "deal": 0, "table": table}, headers=_auth(ann))
        assert asked.status_code == 202, asked.text
        answer = await _done(http, ann, game, 0, table)
        record = server.hub.rooms[table].table.records[0]
        assert answer["analysis"] == analyse(record, [0], "analysis", factor=1).to_json()
        ended = 1
        await ann.settle()
        while not game_over(ann):  # (a void deal is dealt again: more deals may end than the game counts)
            clock.advance(when_next_deal(server.hub.rooms[table].table) - clock.now())
            ended += 1
            await play_until(ann, _deals_ended(ended))
            await ann.settle()
        assert server.hub.store.game(game) is not None
        pool = server.app.state.analysis
        analyse_now, gate = pool._analyse, asyncio.Event()

        async def held(
            loop: asyncio.AbstractEventLoop, job: Any
        ) -> None:  # the first still running when the second comes
            await gate.wait()
            await analyse_now(loop, job)

        pool._analyse = held
        first = await http.post("/api/analysis", json={"game": game, "deal": 1}, headers=_auth(ann))
        assert first.status_code == 202, first.text
        second = await http.post("/api/analysis", json={"game": game, "deal": 2}, headers=_auth(ann))
        assert (second.status_code, second.json()["error"]["code"]) == (429, "analysis_running")
        assert second.headers["retry-after"] == "60"
        gate.set()
        await _done(http, ann, game, 1)
        second = await http.post("/api/analysis", json={"game": game, "deal": 2}, headers=_auth(ann))
        assert second.status_code == 202, second.text
        await _done(http, ann, game, 2)


@SQLITE_ONLY
async def test_a_full_queue_is_busy_and_a_server_without_workers_says_so(db_url: str) -> None:
    for changes, code in (({"analysis_queue": 0}, "busy"), ({"analysis_workers": 0}, "analysis_off")):
        config = dataclasses.replace(quick_config(), **changes)
        async with running_server(db_url, config) as server, _http(server) as http:
            ann = await Client.connect(server.url, "Ann")
            table = await table_with_robots(ann, 3, deals=1)
            await ann.request({"type": "start", "table": table})
            await play_until(ann, game_over)
            game = ann.state["game"]["id"]
            refused = await http.post("/api/analysis", json={"game": game, "deal": 0}, headers=_auth(ann))
            assert (refused.status_code, refused.json()["error"]["code"]) == (503, code)
            assert refused.headers["retry-after"] == "60"
            assert server.app.state.analysis.executor is None
            poll = await http.get("/api/analysis", params={"game": game, "deal": "0"}, headers=_auth(ann))
            assert (poll.status_code, poll.json()["status"]) == (200, "not_requested")


@SQLITE_ONLY
async def test_a_worker_that_dies_fails_its_analysis_and_the_next_one_gets_new_workers(db_url: str) -> None:
    config = dataclasses.replace(quick_config(), analysis_worlds=1)  # the plumbing here; the search in tests/bots
    async with running_server(db_url, config) as server, _http(server) as http:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, deals=2)
        await ann.request({"type": "start", "table": table})
        await play_until(ann, game_over)
        game = ann.state["game"]["id"]
        asked = await http.post("/api/analysis", json={"game": game, "deal": 0}, headers=_auth(ann))
        assert asked.status_code == 202, asked.text
        await _done(http, ann, game, 0)
        workers = multiprocessing.active_children()
        assert workers  # the pool's processes, spawned by this process's server
        for process in workers:
            process.kill()
            process.join()
        asked = await http.post("/api/analysis", json={"game": game, "deal": 1}, headers=_auth(ann))
        assert asked.status_code == 202, asked.text
        params = {"game": game, "deal": "1"}

        async def failed() -> bool:
            answer = await http.get("/api/analysis", params=params, headers=_auth(ann))
            assert answer.status_code in (202, 500), answer.text
            return answer.status_code == 500 and answer.json()["error"]["code"] == "internal"

        await eventually(failed, "the analysis on dead workers never failed", every=0.1)
        again = await http.post("/api/analysis", json={"game": game, "deal": 1}, headers=_auth(ann))
        assert again.status_code == 202, again.text
        answer = await _done(http, ann, game, 1)
        record = server.hub.store.game(game).data["records"][1]
        assert answer["analysis"] == analyse(record, [0], "analysis", factor=1).to_json()


async def test_the_sites_analysis_budget_refuses_by_name_and_changes_nothing(db_url: str) -> None:
    """POST /api/analysis spends the person's budget ``analysis`` (limits.py, shared with every process): once
    it is spent, the request is refused with 429 ``rate_limited`` naming the budget, and nothing is queued,
    started or stored."""
    config = dataclasses.replace(quick_config(), analysis_per_hour=1)
    async with running_server(db_url, config) as server, _http(server) as http:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, deals=1)
        await ann.request({"type": "start", "table": table})
        await play_until(ann, game_over)
        game = ann.state["game"]["id"]
        hub = server.hub
        assert await hub.limits.spend(Budget.ANALYSIS, person=ann.id) is None  # the hour's one, spent elsewhere
        refused = await http.post("/api/analysis", json={"game": game, "deal": 0}, headers=_auth(ann))
        error = refused.json()["error"]
        assert refused.status_code == 429 and refused.headers["Retry-After"] == str(error["retry_after"])
        assert (error["code"], error["budget"], error["scope"]) == ("rate_limited", "analysis", "person")
        assert error["message"].startswith("at most 1 analysis requests in an hour for one person: try again in")
        pool = server.app.state.analysis
        assert pool.jobs == {} and not pool.waiting and pool.executor is None  # nothing queued, no worker started
        polled = await http.get("/api/analysis", params={"game": game, "deal": "0"}, headers=_auth(ann))
        assert (polled.status_code, polled.json()["status"]) == (200, "not_requested")
        with hub.store.engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(analyses)).scalar_one() == 0
