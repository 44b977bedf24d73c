"""What an outage of the store looks like from outside (issue 40): tables in play, the store cut off for a
while, then back; counts what the people, the pages and the operator saw.

    PYTHONPATH=src python benchmarks/outage.py postgresql 10   # PostgreSQL cut off (a proxy) for 10 s
    PYTHONPATH=src python benchmarks/outage.py sqlite 30       # SQLite's disk (a tmpfs: root) full for 30 s

Prints, per table, how often a spectator was told the table paused and resumed; the answers of
``/api/leaderboard`` and ``/health`` during the outage; the log's lines during it (all, tracebacks, the
store's own); how long after the store came back the tables resumed; and whether every stored table's
events run 1..n with nothing missing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

import httpx
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.helpers import Client, first_legal, running_server
from tests.server.test_outage import Proxy, fill, http_base, pauses, pg_port, small_disk, through

TABLES = 3


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[tuple[float, logging.LogRecord]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append((time.monotonic(), record))


async def play(client: Client, table: str, stop: asyncio.Event) -> None:
    while not stop.is_set():
        state = client.state
        deal = state and state["deal"]
        if state and not state["paused"] and deal and deal["to_act"] == 0 and deal["legal"]:
            await client.send({"type": "act", "table": table, "seq": client.seq, "action": first_legal(state)})
        with contextlib.suppress(asyncio.TimeoutError):
            await client.recv(1.0)


async def watch(client: Client, stop: asyncio.Event) -> None:
    while not stop.is_set():
        with contextlib.suppress(asyncio.TimeoutError):
            await client.recv(0.5)


async def run(kind: str, seconds: float) -> None:
    lines = Lines()
    logging.getLogger().addHandler(lines)
    logging.getLogger().setLevel(logging.INFO)
    with contextlib.ExitStack() as stack:
        if kind == "postgresql":
            admin = sa.create_engine(
                "postgresql+psycopg://postgres@127.0.0.1:5432/postgres", isolation_level="AUTOCOMMIT"
            )
            name = f"atout_outage_{secrets.token_hex(4)}"
            with admin.connect() as conn:
                conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
            pg_url = f"postgresql://postgres@127.0.0.1:5432/{name}"
            proxy = Proxy(pg_port(pg_url))
            await proxy.start()
            url = through(proxy, pg_url)
        else:
            disk = stack.enter_context(small_disk(Path(tempfile.mkdtemp()) / "disk", "64m"))
            url = f"sqlite:///{disk / 'atout.db'}"
        async with running_server(url) as server, httpx.AsyncClient(base_url=http_base(server.url)) as http:
            stop = asyncio.Event()
            tasks, watchers = [], []
            for i in range(TABLES):
                person = await Client.connect(server.url, f"Person{i}")
                await person.send({"type": "create", "players": 4, "options": {"deals": 20, "turn_seconds": 0}})
                table = (await person.expect("master"))["table"]
                await person.settle()
                for seat in (1, 2, 3):
                    await person.request({"type": "robot", "table": table, "seat": seat, "level": "random"})
                spectator = await Client.connect(server.url, f"Watcher{i}")
                await spectator.send({"type": "join", "table": table})
                await spectator.expect("table")
                await person.request({"type": "start", "table": table})
                tasks.append(asyncio.create_task(play(person, table, stop)))
                tasks.append(asyncio.create_task(watch(spectator, stop)))
                watchers.append((spectator, table))
            await asyncio.sleep(2.0)
            start = time.monotonic()
            if kind == "postgresql":
                await proxy.cut()
            else:
                filler = fill(disk)
            await asyncio.sleep(seconds / 2)
            board = await http.get("/api/leaderboard")
            health = await http.get("/health")
            await asyncio.sleep(seconds / 2)
            back_at = time.monotonic()
            if kind == "postgresql":
                await proxy.restore()
            else:
                filler.unlink()
            while not all(pauses(c, t)[1] >= 1 or pauses(c, t)[0] == 0 for c, t in watchers):
                await asyncio.sleep(0.01)
                if time.monotonic() - back_at > 60:
                    break
            resumed_after = time.monotonic() - back_at
            await asyncio.sleep(3.0)
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            during = [r for t, r in lines.records if start <= t <= back_at + resumed_after]
            table_lines = [r for r in during if '"table":' in r.getMessage()]
            print(f"{kind}, store away {seconds:.0f} s, {TABLES} tables of a person and three robots, a spectator each")
            for c, t in watchers:
                print(f"  table {t}: told paused {pauses(c, t)[0]} times, resumed {pauses(c, t)[1]} times")
            print(
                f"  /api/leaderboard during: {board.status_code} Retry-After={board.headers.get('retry-after')} "
                f"{board.text[:90]}"
            )
            print(f"  /health during: {health.status_code} {health.text[:120]}")
            print(
                f"  log lines from the cut to every table resumed: {len(during)} (tables' events: "
                f"{len(table_lines)}); tracebacks: {sum(1 for r in during if r.exc_info)}; errors: "
                f"{sum(1 for r in during if r.levelno >= logging.ERROR)}"
            )
            for r in during:
                if '"store_' in r.getMessage() or r.levelno >= logging.WARNING:
                    print("   ", r.getMessage()[:160])
            print(f"  every table resumed {resumed_after:.2f} s after the store came back")
            store = server.hub.store
            for _, t in watchers:
                seqs = [e.seq for e in await asyncio.to_thread(store.events_after, t, 0, 100_000)]
                assert seqs == list(range(1, len(seqs) + 1)), f"table {t}: events missing"
            print("  stored events: every table's run 1..n, nothing missing")
        if kind == "postgresql":
            await proxy.cut()
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    os.environ.setdefault("PYTEST_XDIST_WORKER", "gw99")
    asyncio.run(run(sys.argv[1], float(sys.argv[2])))
