"""A long night on one server process: hundreds of tables opened, played and left (issue 40).

    python benchmarks/long_night.py [--minutes 60] [--tables 12] [--robot-pace 0.05]
        [--idle-release 60] [--db URL] [--out benchmarks/results/long_night]

Starts ``atout serve`` (a fresh SQLite file unless --db), then keeps ``--tables`` tables going at once,
each a guest's: the guest opens it, fills it with robots, plays a game of one to three deals (its own
turns at once, the robots at ``--robot-pace``) and leaves, so the table closes; a few leave before the
start, a few mid-game (the game deserted), and most of the guests come back as a new connection for
their next table while the others reuse theirs. A watcher's page (patches on) joins every table opened
and never closes, as a spectator who follows a whole night would: its connection must hold nothing of
the tables once they have closed. Every ``--every`` seconds the server process's resident memory (RSS),
open file descriptors, ``/health`` (tables in memory, tables released, actions) and the event loop's
latency as a client sees it (a ``ping``'s round trip on an idle connection, the median of five) are
sampled; the samples go to OUT.json and are drawn against the actions accepted in OUT.svg. The target:
RSS at the end within 10% of RSS at a quarter of the run (memory levels off instead of growing with
the tables ever opened). Results: benchmarks/results/long_night.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from html import escape
from pathlib import Path

import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import (  # the same hello, legal-action chooser, start-up wait
    connect,
    first_legal,
    wait_for_health,
)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def health(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=30) as answer:
        return json.loads(answer.read())


class Page:
    """One WebSocket as a guest's page holds it: the latest state of each table it follows."""

    def __init__(self, ws, token: str | None, events: bool) -> None:
        self.ws = ws
        self.token = token
        self.events = events  # events go to the inbox too (a page that plays; the watcher only looks)
        self.states: dict[str, dict] = {}
        self.inbox: asyncio.Queue[dict] = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls, url: str, name: str, token: str | None = None, patches: bool = False, events: bool = True
    ) -> Page:
        ws, given = await connect(url, name, patches, token)
        return cls(ws, given, events)

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.ws:
                message = orjson.loads(text)
                table = message.get("table")
                if isinstance(table, str):
                    if "state" in message:
                        self.states[table] = message["state"]
                    elif "patch" in message and table in self.states:
                        state = {**self.states[table], **message["patch"]}
                        if "deal_patch" in message:
                            state["deal"] = {**state["deal"], **message["deal_patch"]}
                        self.states[table] = state
                kind = message["type"]
                if (kind == "event" and self.events) or kind not in (
                    "event",
                    "table",
                    "lobby_table",
                    "lobby_remove",
                    "lobby",
                ):
                    self.inbox.put_nowait(message)

    async def send(self, message: dict) -> None:
        await self.ws.send(orjson.dumps(message).decode())

    async def until(self, done, timeout: float = 120.0) -> dict:
        end = time.monotonic() + timeout
        while True:
            message = await asyncio.wait_for(self.inbox.get(), max(0.01, end - time.monotonic()))
            if done(message):
                return message

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


class Refused(Exception):
    """A request the server refused (other than a stale one)."""


class Night:
    """The tables, the counts and the watcher."""

    def __init__(self, url: str, args) -> None:
        self.url = url
        self.args = args
        self.rng = random.Random(args.seed)
        self.stop = False
        self.opened = 0
        self.closed = 0
        self.errors: dict[str, int] = {}
        self.watcher: Page | None = None

    async def guest(self, slot: int) -> None:
        """One place at the night's tables: guest after guest, table after table."""
        page: Page | None = None
        n = 0
        while not self.stop:
            n += 1
            if page is None or self.rng.random() < 0.7:  # most come back as a new page
                if page is not None:
                    await page.close()
                page = await Page.open(self.url, f"N{slot}x{n}")
            try:
                await self.table(page)
            except (TimeoutError, websockets.ConnectionClosed, KeyError, Refused) as err:
                self.errors[type(err).__name__] = self.errors.get(type(err).__name__, 0) + 1
                with contextlib.suppress(Exception):
                    await page.close()
                page = None
        if page is not None:
            await page.close()

    async def request(self, page: Page, message: dict, table: str | None = None) -> dict:
        """A request answered: its first event (a stale one, crossed by a robot's move, sent again; another
        refusal raises, counted)."""
        while True:
            ref = f"r{self.rng.random()}"
            if table is not None:
                message = {**message, "table": table, "seq": page.states[table]["seq"]}
            await page.send({**message, "ref": ref})
            answer = await page.until(lambda m, ref=ref: m.get("ref") == ref)
            if answer["type"] != "error":
                return answer
            self.errors[answer["code"]] = self.errors.get(answer["code"], 0) + 1
            if answer["code"] != "stale":
                raise Refused(answer["code"])
            await asyncio.sleep(0.005)

    async def table(self, page: Page) -> None:
        rng = self.rng
        players = rng.choice((3, 4, 4, 5))
        options = {"deals": rng.choice((1, 2, 3)), "turn_seconds": 0, "competitive": rng.random() < 0.5}
        while not page.inbox.empty():  # what the last table said after its page stopped listening
            page.inbox.get_nowait()
        made = await self.request(page, {"type": "create", "players": players, "options": options})
        table = made["table"]
        if "state" not in made:  # the create's last event carries the state
            await page.until(lambda m: m.get("table") == table and "state" in m)
        self.opened += 1
        if self.watcher is not None:
            await self.watcher.send({"type": "join", "table": table})
        for seat in range(1, players):
            await self.request(page, {"type": "robot", "seat": seat, "level": "random"}, table)
        if rng.random() < 0.05:  # changed their mind before the start
            await self.leave(page, table)
            return
        await self.request(page, {"type": "start"}, table)
        walk_out = rng.random() < 0.1  # leaves mid-game: the game is deserted
        acted = 0
        while not self.stop:
            state = page.states[table]
            if state["status"] == "waiting" and state["game"] and state["game"]["outcome"]:
                break
            deal = state["deal"]
            if walk_out and acted >= 5:
                break
            if deal and deal["to_act"] == state["you"] and deal["legal"] and state["vote"] is None:
                await page.send({"type": "act", "table": table, "seq": state["seq"], "action": first_legal(deal)})
                acted += 1
            await page.until(lambda m: m.get("table") == table or m["type"] == "error", timeout=120)
        await self.leave(page, table)

    async def leave(self, page: Page, table: str) -> None:
        await self.request(page, {"type": "leave"}, table)
        self.closed += 1


async def ping_ms(page: Page) -> float:
    times = []
    for _ in range(5):
        started = time.perf_counter()
        await page.send({"type": "ping"})
        await page.until(lambda m: m["type"] == "pong", timeout=60)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def night(port: int, pid: int, args) -> dict:
    url = f"ws://127.0.0.1:{port}/ws"
    run = Night(url, args)
    run.watcher = await Page.open(url, "Watcher", patches=True, events=False)
    pinger = await Page.open(url, "Pinger")
    guests = [asyncio.create_task(run.guest(i)) for i in range(args.tables)]
    samples = []
    started = time.monotonic()
    end = started + args.minutes * 60
    while True:
        h = await asyncio.to_thread(health, port)
        sample = {
            "t": round(time.monotonic() - started, 1),
            "rss_mb": round(rss_mb(pid), 1),
            "fds": fds(pid),
            "ping_ms": round(await ping_ms(pinger), 2),
            "actions": h["actions"],
            "tables": h["tables"],
            "released": h.get("released"),
            "connections": h["connections"],
            "opened": run.opened,
            "left": run.closed,
        }
        samples.append(sample)
        print(json.dumps(sample), flush=True)
        if time.monotonic() >= end:
            break
        await asyncio.sleep(min(args.every, max(0.0, end - time.monotonic())))
    run.stop = True
    await asyncio.wait(guests, timeout=60)
    for task in guests:
        task.cancel()
    await run.watcher.close()
    await pinger.close()
    return {"samples": samples, "opened": run.opened, "left": run.closed, "errors": run.errors}


def svg(samples: list[dict], title: str, note: str) -> str:
    """RSS, file descriptors and the ping's round trip against the actions accepted: three panels, by hand."""
    panels = [
        ("rss_mb", "RSS (MB)", "#2b6cb0"),
        ("fds", "open file descriptors", "#2f855a"),
        ("ping_ms", "ping round trip (ms, median of 5)", "#c05621"),
        ("tables", "tables in memory", "#6b46c1"),
    ]
    left, width, height, gap, top = 70, 640, 130, 46, 52
    total = top + len(panels) * (height + gap) + 20
    xs = [s["actions"] for s in samples]
    x0, x1 = min(xs), max(xs) or 1

    def x(v: float) -> float:
        return left + (v - x0) / ((x1 - x0) or 1) * width

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 30}" height="{total}" '
        'font-family="sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="10" y="20" font-size="15" font-weight="bold">{escape(title)}</text>',
        f'<text x="10" y="38" fill="#444">{escape(note)}</text>',
    ]
    for k, (key, label, colour) in enumerate(panels):
        y0 = top + k * (height + gap)
        values = [s[key] for s in samples]
        lo, hi = 0.0, max(values) * 1.1 or 1.0

        def y(v: float, y0: float = y0, hi: float = hi, lo: float = lo) -> float:
            return y0 + height - (v - lo) / (hi - lo) * height

        parts.append(f'<text x="{left}" y="{y0 - 6}" font-weight="bold">{escape(label)}</text>')
        parts.append(f'<line x1="{left}" y1="{y0 + height}" x2="{left + width}" y2="{y0 + height}" stroke="#444"/>')
        parts.append(f'<line x1="{left}" y1="{y0}" x2="{left}" y2="{y0 + height}" stroke="#444"/>')
        for tick in (lo, (lo + hi) / 2, hi):
            parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" fill="#444">{tick:.0f}</text>')
        points = " ".join(f"{x(s['actions']):.1f},{y(s[key]):.1f}" for s in samples)
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.6"/>')
    axis = top + len(panels) * (height + gap) - gap + 16
    for v in (x0, (x0 + x1) / 2, x1):
        parts.append(f'<text x="{x(v):.1f}" y="{axis}" text-anchor="middle" fill="#444">{v / 1000:.0f}k</text>')
    parts.append(f'<text x="{left + width}" y="{axis + 16}" text-anchor="end" fill="#444">game actions accepted</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0, help="how long the night lasts (default 60)")
    parser.add_argument("--tables", type=int, default=12, help="tables going at once (default 12)")
    parser.add_argument(
        "--robot-pace",
        type=float,
        default=0.05,
        help="atout serve --robot-pace (default 0.05: about 230 actions a second, below what a shared "
        "2-core machine gives, so the night's load, and the tables it holds, do not follow the "
        "machine's other work; 0.02 runs as fast as the CPU allows)",
    )
    parser.add_argument("--deal-pause", type=float, default=0.1, help="atout serve --deal-pause (default 0.1)")
    parser.add_argument(
        "--idle-release",
        type=float,
        default=60.0,
        help="atout serve --idle-release (default 60; 0: tables are never released)",
    )
    parser.add_argument("--every", type=float, default=20.0, help="seconds between samples (default 20)")
    parser.add_argument("--db", default=None, help="the store (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--out", default="benchmarks/results/long_night", help="OUT.json and OUT.svg")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="atout-night-"))
    db = args.db or f"sqlite:///{folder / 'atout.db'}"
    port = free_port()
    command = [
        shutil.which("atout") or "atout",
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--robot-pace",
        str(args.robot_pace),
        "--deal-pause",
        str(args.deal_pause),
        "--idle-release",
        str(args.idle_release),
        "--analysis-workers",
        "0",
        "--rate",
        "1000",
        "--limit-factor",
        "1000",
        "--log-level",
        "warning",
    ]
    env = {**os.environ, "XDG_DATA_HOME": str(folder), "ATOUT_SECRET": "long-night"}
    log = (folder / "server.log").open("w")
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log)
    try:
        wait_for_health(port, 120)
        result = asyncio.run(night(port, server.pid, args))
    finally:
        server.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(20)
        if server.poll() is None:
            server.kill()
        log.close()
    samples = result["samples"]
    quarter = min(samples, key=lambda s: abs(s["t"] - samples[-1]["t"] / 4))
    growth = samples[-1]["rss_mb"] / quarter["rss_mb"] - 1
    result.update(
        {
            "command": (f"nice -n {os.nice(0)} " if os.nice(0) else "") + "python " + " ".join(sys.argv),
            "settings": {
                k: getattr(args, k)
                for k in ("minutes", "tables", "robot_pace", "deal_pause", "idle_release", "every", "seed")
            },
            "rss_quarter_mb": quarter["rss_mb"],
            "rss_end_mb": samples[-1]["rss_mb"],
            "rss_growth": round(growth, 4),
            "target_met": abs(growth) <= 0.10,
        }
    )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n")
    note = (
        f"{args.minutes:g} min, {args.tables} tables at once, {result['opened']} opened and left; "
        f"idle release {args.idle_release:g} s; RSS {quarter['rss_mb']:.0f} MB at a quarter, "
        f"{samples[-1]['rss_mb']:.0f} MB at the end ({growth:+.1%})"
    )
    out.with_suffix(".svg").write_text(svg(samples, "A long night on one server process", note))
    print(note)
    print(f"errors: {result['errors']}; target (within 10%): {'met' if result['target_met'] else 'missed'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
