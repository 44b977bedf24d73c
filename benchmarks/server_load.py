"""Load on one server process: many tables of WebSocket clients answering each turn at once.

    python benchmarks/server_load.py [--tables 10,25,50] [--seconds 20] [--client-processes 1] [--db URL]

For each table count, starts ``atout serve`` afresh (on a fresh SQLite file, or
on the PostgreSQL database --db names, emptied first), then client processes that each drive some
tables: every seat is a person's connection (no robots, so robot thinking is
not measured) that plays a legal card the moment its turn comes. Prints the
actions accepted per second (counted by the server) and the time from an
action being sent to the last seat of its table hearing of it (p50, p99, max),
and the server process's CPU use. Results: benchmarks/results/server_load.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import orjson
import websockets


def first_legal(deal: dict) -> dict:
    """A legal action at once: the first speaker takes (the smallest contract), the others pass, so every
    deal is played to its end as at a real table (had everyone passed, every deal would be void)."""
    legal = deal["legal"]
    bids = [choice for choice in legal if "bid" in choice]
    if bids:
        takes = [choice for choice in bids if choice["bid"] != "pass"]
        if not deal["bids"] and takes:
            return {"bid": takes[0]["bid"]}
        return {"bid": "pass"}
    for choice in legal:
        if "play" in choice:
            return choice
    choice = legal[0]
    if "discard_from" in choice:
        return {"discard": choice["discard_from"][: choice["count"]]}
    if "poignee_from" in choice:
        return {"poignee": choice["poignee_from"][: min(choice["sizes"].values())]}
    return choice


def apply_patch(state: dict, message: dict) -> dict:
    """The state after an event that carries what changed (the client said hello with patches)."""
    state = {**state, **message["patch"]}
    if "deal_patch" in message:
        state["deal"] = {**state["deal"], **message["deal_patch"]}
    return state


class Seat:
    def __init__(self, ws, table_run: TableRun, index: int) -> None:
        self.ws, self.run, self.index = ws, table_run, index
        self.state: dict | None = None

    def absorb(self, message: dict) -> None:
        """Keep this seat's state up to date from a ``table`` or ``event`` message."""
        if "state" in message:
            self.state = message["state"]
        elif "patch" in message:
            self.state = apply_patch(self.state, message)

    async def read_until(self, done) -> dict:
        """Read (keeping the state) until a message for which ``done`` is true: the table's set-up."""
        while True:
            message = orjson.loads(await self.ws.recv())
            self.absorb(message)
            if done(message):
                return message

    async def listen(self) -> None:
        async for text in self.ws:
            now = time.perf_counter()
            message = orjson.loads(text)
            kind = message["type"]
            if kind == "event":
                seq = message["seq"]
                if message["event"]["type"] == "action":
                    self.run.heard(seq, now)
                    if message.get("ref"):
                        self.run.acked(message["ref"], seq)
                if "state" in message:
                    self.state = message["state"]
                    await self.maybe_play()
                elif "patch" in message:
                    self.state = apply_patch(self.state, message)
                    await self.maybe_play()
            elif kind == "table":
                self.state = message["state"]
                await self.maybe_play()
            elif kind == "error":
                self.run.refused[message["code"]] = self.run.refused.get(message["code"], 0) + 1

    async def maybe_play(self) -> None:
        state = self.state
        if self.run.stop:
            return
        deal = state["deal"]
        if state["status"] == "waiting" and state["game"] and state["master"] == state["you"]:
            await self.ws.send(json.dumps({"type": "start", "table": state["id"], "seq": state["seq"]}))
        elif deal and deal["to_act"] == state["you"] and deal["legal"]:
            if self.run.pace:  # a person's time to think: from half to one and a half times the pace
                await asyncio.sleep(self.run.pace * (0.5 + self.run.random.random()))
                if self.run.stop:
                    return
            ref = self.run.sent()
            await self.ws.send(
                orjson.dumps(
                    {"type": "act", "table": state["id"], "seq": state["seq"], "ref": ref, "action": first_legal(deal)}
                ).decode()
            )


class TableRun:
    """One table's seats and the times of its actions."""

    def __init__(self, players: int, pace: float = 0.0, seed: int = 0) -> None:
        self.players = players
        self.pace = pace  # seconds a seat thinks before it acts (0: at once)
        self.random = random.Random(seed)
        self.stop = False
        self.measure = False
        self._refs = 0
        self.sent_at: dict[str, float] = {}
        self.seq_sent: dict[int, float] = {}
        self.arrivals: dict[int, list[float]] = {}
        self.latencies: list[float] = []
        self.accepted = 0  # actions of ours the server accepted while measuring
        self.refused: dict[str, int] = {}  # errors, by code (a client that plays at once should see none)

    def sent(self) -> str:
        self._refs += 1
        ref = f"a{self._refs}"
        self.sent_at[ref] = time.perf_counter()
        return ref

    def acked(self, ref: str, seq: int) -> None:
        self.seq_sent[seq] = self.sent_at.pop(ref)
        if self.measure:
            self.accepted += 1
        self._settle(seq)

    def heard(self, seq: int, at: float) -> None:
        self.arrivals.setdefault(seq, []).append(at)
        self._settle(seq)

    def _settle(self, seq: int) -> None:
        arrivals = self.arrivals.get(seq, [])
        if seq in self.seq_sent and len(arrivals) == self.players:
            if self.measure:
                self.latencies.append((max(arrivals) - self.seq_sent.pop(seq)) * 1000)
            else:
                self.seq_sent.pop(seq)
            del self.arrivals[seq]


async def connect(url: str, name: str, patches: bool, token: str | None = None):
    """A socket that said hello (offering permessage-deflate, as browsers do); its token."""
    ws = await websockets.connect(url, max_size=None)
    hello = {"type": "hello", "protocol": 1, "name": name[:20], "patches": patches}
    if token:
        hello["token"] = token
    await ws.send(json.dumps(hello))
    welcome = orjson.loads(await ws.recv())
    return ws, welcome.get("token")


async def drive_tables(
    url: str,
    tables: int,
    players: int,
    warmup: float,
    seconds: float,
    tag: str,
    patches: bool,
    routed: bool = False,
    pace: float = 0.0,
) -> list[float]:
    """``routed``: the clients connect as the browser page does behind a proxy that routes tables
    (docs/deploy.md): the master creates the table from a lobby socket at ``/ws``, then every seat,
    the master's included, opens its socket at ``/ws?table=ID``. ``pace``: each seat thinks about that
    long before it acts, as people do, instead of acting the moment its turn comes."""
    runs = []
    listeners = []
    for t in range(tables):
        run = TableRun(players, pace, t)
        seats = []
        for s in range(players if not routed else 1):
            ws, token = await connect(url, f"L{tag}t{t}s{s}", patches)
            seats.append(Seat(ws, run, s))
        master = seats[0]
        await master.ws.send(
            json.dumps(
                {
                    "type": "create",
                    "players": players,
                    "options": {"deals": 20, "turn_seconds": 0, "competitive": False},
                }
            )
        )
        await master.read_until(lambda m: m["type"] == "event" and "state" in m)
        table_id, seq = master.state["id"], master.state["seq"]
        if routed:  # the page moves to the table's own socket, and the others arrive there
            at_table = f"{url}?table={table_id}"
            await master.ws.close()
            ws, _ = await connect(at_table, f"L{tag}t{t}s0", patches, token)
            seats = [Seat(ws, run, 0)]
            await ws.send(json.dumps({"type": "join", "table": table_id}))
            await seats[0].read_until(lambda m: m["type"] == "table")
            master = seats[0]
            for s in range(1, players):
                ws, _ = await connect(at_table, f"L{tag}t{t}s{s}", patches)
                seats.append(Seat(ws, run, s))
        for seat in seats[1:]:
            await seat.ws.send(json.dumps({"type": "join", "table": table_id}))
            await seat.read_until(lambda m: m["type"] == "table")
        for i, seat in enumerate(seats[1:], start=1):
            await seat.ws.send(json.dumps({"type": "sit", "table": table_id, "seat": i, "seq": seq + i - 1}))
            await seat.read_until(
                lambda m, i=i: m["type"] == "event" and m["event"]["type"] == "sat" and m["event"]["seat"] == i
            )
        listeners += [asyncio.create_task(seat.listen()) for seat in seats]
        await asyncio.sleep(0.05)
        await master.ws.send(json.dumps({"type": "start", "table": table_id, "seq": seq + players - 1}))
        runs.append((run, seats))
    await asyncio.sleep(warmup)
    for run, _ in runs:
        run.measure = True
    await asyncio.sleep(seconds)
    for run, _ in runs:
        run.stop = True
        run.measure = False
    for _, seats in runs:
        for seat in seats:
            await seat.ws.close()
    for task in listeners:
        task.cancel()
    refused: dict[str, int] = {}
    for run, _ in runs:
        for code, n in run.refused.items():
            refused[code] = refused.get(code, 0) + n
    if refused:
        print(f"  client {tag}: refused {refused}", flush=True)
    return [x for run, _ in runs for x in run.latencies], sum(run.accepted for run, _ in runs)


def client_process(
    url: str,
    tables: int,
    players: int,
    warmup: float,
    seconds: float,
    tag: str,
    patches: bool,
    out,
    routed: bool = False,
    pace: float = 0.0,
) -> None:
    try:  # the server's loop too (uvicorn picks uvloop where it is installed)
        import uvloop

        run = uvloop.run
    except ImportError:
        run = asyncio.run
    out.put(run(drive_tables(url, tables, players, warmup, seconds, tag, patches, routed, pace)))


def health(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as answer:
        return json.loads(answer.read())


def wait_for_health(port: int, seconds: float) -> None:
    """Until the server at ``port`` answers /health (or ``seconds`` have passed)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            health(port)
            return
        except OSError:
            if time.monotonic() > deadline:
                return
            time.sleep(0.1)


def cpu_seconds(pid: int) -> float:
    """CPU time of the server: its process and its worker processes (``--workers``)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if stat.parent.name == str(pid) or fields[1] == str(pid):
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_level(port: int, pid: int, tables: int, args, round_no: int) -> dict:
    url = f"ws://127.0.0.1:{port}/ws"
    out: mp.Queue = mp.Queue()
    per = [
        tables // args.client_processes + (1 if i < tables % args.client_processes else 0)
        for i in range(args.client_processes)
    ]
    procs = [
        mp.Process(
            target=client_process,
            args=(url, n, args.players, args.warmup, args.seconds, f"{round_no}p{i}", not args.whole_states, out),
        )
        for i, n in enumerate(per)
        if n
    ]
    for p in procs:
        p.start()
    setup = max(2.0, tables * 0.02)
    time.sleep(setup + args.warmup)
    cpu_before, t0, seen_before = cpu_seconds(pid), time.perf_counter(), health(port)
    time.sleep(args.seconds)
    cpu_after, t1, seen_after = cpu_seconds(pid), time.perf_counter(), health(port)
    commits = seen_after["store_commits"] - seen_before["store_commits"]
    items = seen_after["store_items"] - seen_before["store_items"]
    answers = [out.get(timeout=120) for _ in procs]
    latencies = [x for lat, _ in answers for x in lat]
    accepted = sum(n for _, n in answers)
    for p in procs:
        p.join(30)
    rate = accepted / args.seconds  # actions the server accepted while the clients measured
    result = {
        "tables": tables,
        "processes": args.processes,
        "actions_per_s": round(rate),
        "actions_per_s_per_process": round(rate / args.processes),
        "measured": len(latencies),
        "p50_ms": round(statistics.median(latencies), 2) if latencies else None,
        "p99_ms": round(percentile(latencies, 0.99), 2) if latencies else None,
        "max_ms": round(max(latencies), 2) if latencies else None,
        "server_cpu": round((cpu_after - cpu_before) / (t1 - t0), 2),
        "server_cpu_us_per_action": round((cpu_after - cpu_before) / max(1, rate * (t1 - t0)) * 1e6),
        "writes_per_commit": round(items / max(1, commits), 2),
    }
    print(
        f"{tables:4d} tables: {result['actions_per_s']:6,} actions/s ({result['actions_per_s_per_process']:,} "
        f"a process)   p50 {result['p50_ms']} ms   "
        f"p99 {result['p99_ms']} ms   max {result['max_ms']} ms   server CPU {result['server_cpu']:.0%} "
        f"({result['server_cpu_us_per_action']} µs an action), {result['writes_per_commit']} writes a commit",
        flush=True,
    )
    return result


def empty_database(url: str) -> None:
    """Drop whatever an earlier table count left in the PostgreSQL database the benchmark was given."""
    import sqlalchemy as sa

    from atout.server.store import engine_url

    engine = sa.create_engine(engine_url(url), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text("DROP SCHEMA public CASCADE"))
        conn.execute(sa.text("CREATE SCHEMA public"))
    engine.dispose()


@contextlib.contextmanager
def running_server(args, folder: Path) -> Iterator[tuple[int, int]]:
    """``atout serve`` (and, for several processes, a Redis of its own) on an empty database: (port, pid)."""
    folder.mkdir(parents=True, exist_ok=True)
    if args.db and not getattr(args, "db_ready", False):
        empty_database(args.db)
    db = args.db or f"sqlite:///{folder / 'load.db'}"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "XDG_DATA_HOME": str(folder), "ATOUT_SECRET": "load"}
    command = [
        sys.executable,
        "-m",
        "atout.cli.main",
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--robot-pace",
        "0",
        "--deal-pause",
        "0",
        "--log-level",
        "warning",
        "--rate",
        "10000",
        "--limit-factor",
        "1000",  # a seat of a table playing flat out sends far more than a person
        # and every client comes from one address: no cap on its sockets and connections
        "--sockets-per-address",
        "100000",
        "--connections-per-address",
        "100000",
        "--max-connections",
        "100000",
    ]
    command += list(getattr(args, "extra", []))  # more of atout serve's options (benchmarks/insights_load.py)
    redis = None
    if args.processes > 1:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            redis_port = s.getsockname()[1]
        redis = subprocess.Popen(
            ["redis-server", "--port", str(redis_port), "--save", "", "--appendonly", "no", "--dir", str(folder)],
            stdout=subprocess.DEVNULL,
        )
        time.sleep(0.3)
        command += ["--workers", str(args.processes), "--redis", f"redis://127.0.0.1:{redis_port}/0"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        wait_for_health(port, 10.0)
        yield port, server.pid
    finally:
        server.terminate()
        server.wait(10)
        if redis is not None:
            redis.terminate()
            redis.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="10,25,50", help="table counts to run, comma-separated")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per table count")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--client-processes", type=int, default=1)
    parser.add_argument(
        "--whole-states", action="store_true", help="clients ask for the whole state on every event instead of patches"
    )
    parser.add_argument("--db", default=None, help="an empty database URL (default: a fresh SQLite file)")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes behind the one address (atout serve --workers; more than 1 needs "
        "an empty PostgreSQL --db; a Redis of the benchmark's own is started on a free port)",
    )
    parser.add_argument("--out", default=None, help="write the figures as JSON here")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    if args.processes > 1 and not (args.db or "").startswith("postgresql"):
        parser.error("several processes share a PostgreSQL store: give --db postgresql://… (an empty database)")
    print(
        f"server: {args.processes} process(es), store {'PostgreSQL' if args.db else 'SQLite'}; "
        f"{args.players} people per table, {args.client_processes} client process(es); "
        f"{os.cpu_count()} cores; a fresh server and database for each table count",
        flush=True,
    )
    results = []
    for i, n in enumerate(args.tables.split(",")):
        # Each table count on a server of its own: the tables of the last one, their people gone, would
        # otherwise play on with robots and take the server's time from the next.
        with running_server(args, folder / f"level{i}") as (port, pid):
            results.append(run_level(port, pid, int(n), args, i))
    if args.out:
        Path(args.out).write_text(json.dumps({"command": " ".join(sys.argv), "results": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
