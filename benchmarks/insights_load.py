"""Tables playing while the background's accuracies have a full queue (issue 50, item 3): do the tables slow down?

    python benchmarks/insights_load.py [--tables 10] [--seconds 15] [--games 40] [--rounds 1] [--out FILE]

Before each run, a fresh SQLite store is filled with ``--games`` finished games of two deals that a registered
person played with robots (``--games`` × 2 seats to analyse: far more than a run makes, so the background's
queue stays full). Then, for each mode, ``atout serve`` starts on it and ``benchmarks/server_load.py``'s clients
play ``--tables`` tables flat out (every seat a person's connection playing a legal card the moment its turn
comes), measured for ``--seconds``:

- ``off``: ``--insights-budget 0``, nothing is made in the background;
- ``full``: ``--insights-budget 100000``, the background makes accuracies all the time (a budget never reached,
  a core flat out: the worst case), in its niced worker process;
- ``paced``: ``--insights-budget 900`` (atout serve's default): the same, paced to a quarter of a core.

Prints per mode the actions a second, the time from an action sent to the last seat of its table hearing of it
(p50, p99, max), the server process's CPU and the background worker's, and the accuracies made while measured.
``--rounds N`` alternates the modes N times (the machine's other load moves between runs). Results:
benchmarks/results/insights_load.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import server_load

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the tests' stored games: a table of the server's own, played and stored


def fill(db_path: Path, games: int) -> int:
    """``games`` finished games of Ann (registered) with robots at 4, two deals each: the seats to analyse."""
    from argon2 import PasswordHasher

    from atout.server.features.accounts import Accounts
    from atout.server.features.bookkeeping import book
    from atout.server.store import Store
    from web.stored import play_and_store

    url = f"sqlite:///{db_path}"
    store = Store(url, book=book)
    try:
        store.migrate()
        ann = Accounts(store, PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)).register(
            "Ann", "a long enough secret"
        )
    finally:
        store.close()
    for n in range(games):
        play_and_store(url, [(ann.id, "Ann")], deals=2, seed=n, at=time.time() - 3600 + n)
    return 2 * games


def made(db_path: Path) -> int:
    with sqlite3.connect(db_path) as conn:
        return conn.execute("select count(*) from accuracy").fetchone()[0]


def own_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of the server process itself, and of its children (the background's worker)."""
    tick = os.sysconf("SC_CLK_TCK")
    own = children = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used = (int(fields[11]) + int(fields[12])) / tick
        if stat.parent.name == str(pid):
            own += used
        elif fields[1] == str(pid):
            children += used
    return own, children


def run(mode: str, args: argparse.Namespace, folder: Path, round_no: int) -> dict:
    folder.mkdir(parents=True)
    seats = fill(folder / "load.db", args.games)
    args.extra = (
        ["--insights-budget", "0"]
        if mode == "off"
        else ["--insights-budget", "100000" if mode == "full" else "900", "--analysis-worlds", str(args.worlds)]
    ) + ["--analysis-workers", "0"]
    with server_load.running_server(args, folder) as (port, pid):
        if mode != "off":  # measured once the background works: its worker started, the first seats made
            deadline = time.monotonic() + 120
            while made(folder / "load.db") < 1 and time.monotonic() < deadline:
                time.sleep(0.2)
        before = made(folder / "load.db")
        cpu0, t0 = own_cpu(pid), time.perf_counter()
        result = server_load.run_level(port, pid, args.tables, args, round_no)
        cpu1, t1 = own_cpu(pid), time.perf_counter()
        after = made(folder / "load.db")
    result.update(
        mode=mode,
        seats=seats,
        made_while_playing=after - before,
        queue_left=seats - after,
        server_process_cpu=round((cpu1[0] - cpu0[0]) / (t1 - t0), 2),
        background_cpu=round((cpu1[1] - cpu0[1]) / (t1 - t0), 2),
    )
    print(
        f"  {mode:4s}: accuracies made while playing {result['made_while_playing']} (left in the queue "
        f"{result['queue_left']}), server process CPU {result['server_process_cpu']:.0%}, background worker "
        f"{result['background_cpu']:.0%}",
        flush=True,
    )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds per mode")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--games", type=int, default=40, help="finished games (two deals each) waiting for accuracy")
    parser.add_argument("--worlds", type=int, default=8, help="the analysis's worlds factor (atout serve's default 8)")
    parser.add_argument("--rounds", type=int, default=1, help="times the two modes alternate")
    parser.add_argument("--out", default=None, help="write the figures as JSON here")
    args = parser.parse_args()
    # what server_load's functions read
    args.players, args.client_processes, args.whole_states, args.db, args.processes = 4, 1, False, None, 1
    folder = Path(tempfile.mkdtemp())
    print(f"{args.tables} tables of 4 people, {args.seconds:.0f} s measured a mode, {os.cpu_count()} cores", flush=True)
    results = []
    for r in range(args.rounds):
        for mode in ("off", "full", "paced"):
            print(f"round {r + 1}, background {mode}:", flush=True)
            results.append(run(mode, args, folder / f"{r}-{mode}", r))
    for mode in ("off", "full", "paced"):
        p99 = [x["p99_ms"] for x in results if x["mode"] == mode]
        print(f"{mode}: p99 {', '.join(f'{v} ms' for v in p99)}")
    if args.out:
        Path(args.out).write_text(json.dumps({"command": " ".join(sys.argv), "results": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
