"""How long the site's "Analyse my play" takes on an idle ``atout serve`` with its default analysis settings
(--analysis-workers 1, --analysis-worlds 8), against ``atout analyse`` on the same deal in the terminal.

    python benchmarks/analysis_web.py --games 3 --out benchmarks/results/analysis_web.md

A real ``atout serve`` in a child process of its own (a new interpreter, as a person starts it), on a fresh
SQLite file; a person plays a one-deal game against robots over the WebSocket (passing, then the first legal
card); once it is over the person asks ``POST /api/analysis`` for deal 0 and polls ``GET /api/analysis``
every 50 ms, as the page does every second. Noted: from the server's start to its first answer, from the ask
to each change of the answer (queued, running, each decision done) and to the analysis, for each game in
turn (the first analysis of a server and the next ones), and ``atout analyse --seat S`` on the same record
(a new interpreter too). A timing, so a benchmark and not a test: tests/server/test_analysis_api.py checks
that the pool is warmed before the first job and that no job compiles.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the tests' own modules, as pytest finds them

from tests.server.helpers import Client, first_legal  # noqa: E402
from tests.server.test_tables import game_over, play_until, table_with_robots  # noqa: E402


def free_port() -> int:
    """A port the kernel gives (the tests' own blocks are shared with every test run on the machine)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def taking(state: dict[str, Any]) -> dict[str, Any]:
    """The person takes at the lowest contract offered (a taker's deal has the most decisions: a bid, an écart
    and every card), else as the tests play: the first legal action."""
    bids = [c["bid"] for c in state["deal"]["legal"] if "bid" in c and c["bid"] != "pass"]
    return {"bid": bids[0]} if bids and bids[0] in ("prise", "petite", "garde") else first_legal(state)


ATOUT = [sys.executable, "-c", "import sys; from atout.cli.main import main; sys.exit(main())"]


def start_server(tmp: Path, port: int, extra: list[str], env: dict[str, str]) -> tuple[subprocess.Popen, float]:
    """``atout serve`` with its default analysis settings: the process and when it started."""
    log = open(tmp / "serve.log", "ab")  # noqa: SIM115 - kept open for the child's life
    start = time.monotonic()
    proc = subprocess.Popen(
        [
            *ATOUT,
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{tmp / 'site.db'}",
            "--robot-pace",
            "0",
            "--deal-pause",
            "0",
            "--log-level",
            "info",
            *extra,
        ],
        env={**os.environ, "ATOUT_SECRET": "benchmark", "XDG_DATA_HOME": str(tmp), **env},
        stdout=log,
        stderr=log,
    )
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code == 200:
                return proc, start
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit(f"atout serve ended: {(tmp / 'serve.log').read_text()[-2000:]}")
        time.sleep(0.05)


async def one_game(
    port: int, name: str, started: float, ask_after: float
) -> tuple[str, dict[str, Any], int, dict[str, Any]]:
    """A one-deal game against robots, then its analysis asked and polled: the game, its record, the seat
    and the timeline of the analysis (seconds from the ask)."""
    person = await Client.connect(f"ws://127.0.0.1:{port}/ws", name)
    table = await table_with_robots(person, 4, level="club", deals=1)
    await person.request({"type": "start", "table": table})
    await play_until(person, game_over, choose=taking)
    game = person.state["game"]["id"]
    seat = person.state["you"]
    await person.close()
    headers = {"Authorization": f"Bearer {person.token}"}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=600) as http:
        record = await _record(http, game)
        await asyncio.sleep(max(0.0, started + ask_after - time.monotonic()))  # a person's deal lasts minutes
        start = time.monotonic()
        asked = start - started
        answer = await http.post("/api/analysis", json={"game": game, "deal": 0}, headers=headers)
        timeline: list[tuple[float, str]] = []
        last = None
        while True:
            data = answer.json()
            assert answer.status_code in (200, 202), answer.text
            seen = (data["status"], data.get("done"), data.get("total"))
            if seen != last:
                timeline.append(
                    (round(time.monotonic() - start, 2), seen[0] + ("" if seen[2] is None else f" {seen[1]}/{seen[2]}"))
                )
                last = seen
            if data["status"] == "done":
                break
            await asyncio.sleep(0.05)
            answer = await http.get("/api/analysis", params={"game": game, "deal": "0"}, headers=headers)
    return game, record, seat, {"seconds": timeline[-1][0], "timeline": timeline, "asked": round(asked, 1)}


async def _record(http: httpx.AsyncClient, game: str) -> dict[str, Any]:
    """The game's only deal's record, as the site publishes it (its review)."""
    for number in (0, 1):
        answer = await http.get(f"/api/games/{game}/deals/{number}")
        if answer.status_code == 200:
            return answer.json()["record"]
    raise AssertionError(f"no deal of game {game} is published: {answer.text}")


def terminal(record: dict[str, Any], seat: int, tmp: Path, env: dict[str, str]) -> float:
    """``atout analyse FILE --seat S`` in a new interpreter: its wall-clock seconds."""
    path = tmp / "record.json"
    path.write_text(json.dumps(record))
    start = time.monotonic()
    subprocess.run(
        [*ATOUT, "analyse", str(path), "--seat", str(seat)], check=True, capture_output=True, env={**os.environ, **env}
    )
    return time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games played and analysed on one server (default 3)")
    parser.add_argument("--out", type=Path, help="write the results as Markdown here")
    parser.add_argument("--serve-args", default="", help="more options for atout serve (quoted)")
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="numba's on-disk cache empty (NUMBA_CACHE_DIR a new folder), as on a fresh install",
    )
    parser.add_argument(
        "--ask-after",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="ask no sooner than this after the server's start (default 0: as soon as the game ends)",
    )
    parser.add_argument("--label", default="", help="what the run measures, for the table's title")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        env = {"NUMBA_CACHE_DIR": str(tmp / "numba")} if args.no_cache else {}
        port = free_port()
        proc, started = start_server(tmp, port, shlex.split(args.serve_args), env)
        try:
            runs = []
            for i in range(args.games):
                _, record, seat, run = asyncio.run(one_game(port, f"Bench{i}", started, args.ask_after))
                run["terminal"] = round(terminal(record, seat, tmp, env), 2) if record else None
                runs.append(run)
                print(
                    f"game {i + 1}: asked {run['asked']} s after the start, web {run['seconds']:.2f} s, "
                    f"terminal {run['terminal']} s; timeline {run['timeline']}",
                    flush=True,
                )
        except BaseException:
            print((tmp / "serve.log").read_text()[-3000:], file=sys.stderr)
            raise
        finally:
            proc.terminate()
            proc.wait(10)
        ready = [line for line in (tmp / "serve.log").read_text().splitlines() if "analysis workers ready" in line]
    command = " ".join(
        [
            "python benchmarks/analysis_web.py",
            f"--games {args.games}",
            *([f"--serve-args {shlex.quote(args.serve_args)}"] if args.serve_args else []),
            *(["--no-cache"] if args.no_cache else []),
            *([f"--ask-after {args.ask_after:g}"] if args.ask_after else []),
        ]
    )
    lines = [
        f"## {args.label or command}",
        "",
        f"    {command}",
        "",
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}; numba's cache "
        + ("empty (a fresh install)" if args.no_cache else "in place")
        + "; the server's log: "
        + (
            ", ".join(json.loads(line).get("message", line) for line in ready)
            if ready
            else 'no "analysis workers ready" line (a worker started at the first request)'
        )
        + ".",
        "",
        "| game | asked (s after the server's start) | web: ask to analysis (s) | terminal `atout analyse --seat` (s) "
        "| decisions | web timeline (s from the ask: status done/total) |",
        "|---|---|---|---|---|---|",
    ]
    for i, run in enumerate(runs, 1):
        timeline = ", ".join(f"{t} {what}" for t, what in run["timeline"])
        decisions = next((what.split("/")[-1] for _, what in reversed(run["timeline"]) if "/" in what), "?")
        lines.append(f"| {i} | {run['asked']} | {run['seconds']:.2f} | {run['terminal']} | {decisions} | {timeline} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with args.out.open("a") as out:
            out.write("\n" + text)


if __name__ == "__main__":
    main()
