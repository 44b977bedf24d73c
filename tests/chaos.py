"""Chaos at a real site (issue 48): three ``atout serve`` processes on a PostgreSQL and a Redis of the run's own,
tables of 3, 4 and 5 seats with people (black-box clients that reconnect as a page does) and robots, games
following games, while faults come at random: PostgreSQL restarted (fast, immediate) or stopped for 5–10 s, Redis
restarted, a worker killed (and started again, as its supervisor would). Then everything the site promised is
checked against what the people heard and what the store holds.

Used by ``benchmarks/chaos.py`` (thirty minutes, the committed result) and ``tests/server/test_chaos.py`` (the
suite's few minutes). Only the processes' sockets, HTTP routes and store are looked at: a black box."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import shutil
import statistics
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import websockets

from atout.server.store import Store
from atout.server.store.audit import audit_table
from pgserver import PostgresServer


class Fault(StrEnum):
    PG_FAST = "postgresql restarted (fast)"
    PG_IMMEDIATE = "postgresql restarted (immediate)"
    PG_STOP = "postgresql stopped 5-10 s"
    REDIS = "redis restarted"
    WORKER = "a worker killed"


@dataclass
class Window:
    """One fault: what, when it began and when the service was back (monotonic seconds)."""

    fault: Fault
    start: float
    end: float = 0.0
    detail: str = ""


# ------------------------------------------------------------------ the site
class Site:
    """The processes, PostgreSQL and Redis: each can be cut and brought back."""

    def __init__(
        self,
        folder: Path,
        processes: int = 3,
        robot_pace: float = 0.5,
        deal_pause: float = 2.0,
        log_level: str = "info",
    ) -> None:
        from server.test_cluster import Process, RedisServer  # the suite's own (tests/server/test_cluster.py)

        self._Process = Process
        self.folder = folder
        self.extra = ["--robot-pace", str(robot_pace), "--deal-pause", str(deal_pause)]
        self.log_level = log_level
        self.pg = PostgresServer()
        self.pg.start()
        self.pg.create_database()
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is not installed"
        self.redis = RedisServer(binary, folder)
        self.redis.start()
        self.processes = [self._process(f"P{i}", None) for i in range(processes)]
        for p in self.processes:
            p.wait_ready()
        self.logs: list[Path] = [p.log for p in self.processes]
        self.starts = processes

    def _process(self, name: str, port: int | None) -> Any:
        return self._Process(
            self.pg.url, self.redis.url, self.folder, name, *self.extra, port=port, log_level=self.log_level
        )

    def live(self) -> list[Any]:
        return [p for p in self.processes if p.proc.poll() is None]

    def kill_worker(self, rng: random.Random) -> tuple[int, Any]:
        victim = rng.randrange(len(self.processes))
        self.processes[victim].kill()
        return victim, self.processes[victim]

    def start_worker(self, index: int) -> None:
        """The killed worker started again on its port (its supervisor's restart), logging to a new file."""
        old = self.processes[index]
        self.starts += 1
        again = self._process(f"{old.name}r{self.starts}", old.port)
        self.processes[index] = again
        self.logs.append(again.log)
        again.wait_ready()

    def close(self) -> None:
        for p in self.processes:
            p.stop()
        self.redis.stop()
        self.pg.close()


async def inflict(site: Site, fault: Fault, rng: random.Random, windows: list[Window]) -> Window:
    """One fault, from its start until the service is back (in ``windows`` from its start)."""
    window = Window(fault, time.monotonic())
    windows.append(window)
    if fault == Fault.PG_FAST:
        await asyncio.to_thread(site.pg.restart, "fast")
    elif fault == Fault.PG_IMMEDIATE:
        await asyncio.to_thread(site.pg.restart, "immediate")
    elif fault == Fault.PG_STOP:
        await asyncio.to_thread(site.pg.stop, "fast")
        away = rng.uniform(5, 10)
        window.detail = f"{away:.1f} s"
        await asyncio.sleep(away)
        await asyncio.to_thread(site.pg.start)
    elif fault == Fault.REDIS:
        await asyncio.to_thread(site.redis.stop)
        await asyncio.to_thread(site.redis.start)
    else:
        victim, _ = await asyncio.to_thread(site.kill_worker, rng)
        window.detail = f"P{victim}"
        await asyncio.sleep(rng.uniform(1, 3))
        await asyncio.to_thread(site.start_worker, victim)
    window.end = time.monotonic()
    return window


# ------------------------------------------------------------------ the people
def first_legal(deal: dict[str, Any]) -> dict[str, Any]:
    """A legal action: the first speaker takes (deals are played, not all passed), the others pass."""
    legal = deal["legal"]
    bids = [c for c in legal if "bid" in c]
    if bids:
        takes = [c for c in bids if c["bid"] != "pass"]
        return {"bid": takes[0]["bid"]} if not deal["bids"] and takes else {"bid": "pass"}
    for choice in legal:
        if "play" in choice:
            return choice
    choice = legal[0]
    if "discard_from" in choice:
        return {"discard": choice["discard_from"][: choice["count"]]}
    if "poignee_from" in choice:
        return {"poignee": choice["poignee_from"][: min(choice["sizes"].values())]}
    return choice


def _patched(state: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    state = {**state, **message["patch"]}
    if "deal_patch" in message:
        state["deal"] = {**state["deal"], **message["deal_patch"]}
    return state


@dataclass
class Heard:
    """What one table's people heard: each event number's first arrival and content, and the silences."""

    first: dict[int, float] = field(default_factory=dict)
    content: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    twice: int = 0  # an event number one socket heard more than once
    arrivals: list[float] = field(default_factory=list)  # each new number's first arrival, in order


class Person:
    """A black-box person at one table: one socket to a live process, re-opened on another when it closes (as a
    page does), joining with the last number heard; plays the moment their turn comes, and as the table's master
    starts the next game."""

    def __init__(self, name: str, site: Site, heard: Heard, stats: Stats, rng: random.Random) -> None:
        self.name, self.site, self.heard, self.stats, self.rng = name, site, heard, stats, rng
        self.token: str | None = None
        self.ws: Any = None
        self.table: str | None = None
        self.state: dict[str, Any] | None = None
        self.last_seq = 0
        self.seen_here: set[int] = set()  # the numbers this socket heard
        self.stop = False
        self.finishing = False  # the run ends: as master, start no other game
        self.owed = False  # finishing, but one more game owed: the table had not moved since the last fault began
        self.acted: tuple[Any, int] | None = None  # (socket, number) of the state last acted on
        self.last_frames: list[str] = []  # a short account of the last frames heard and asks sent (a failure's)

    async def connect(self) -> None:
        """A socket to a live process that said hello and got its welcome (tried again until one answers)."""
        while True:
            live = self.site.live()
            if not live:
                await asyncio.sleep(0.2)
                continue
            process = self.rng.choice(live)
            started = time.monotonic()
            try:
                ws = await asyncio.wait_for(websockets.connect(process.url, max_size=None, open_timeout=10), 15)
                hello: dict[str, Any] = {"type": "hello", "protocol": 1, "name": self.name, "patches": True}
                if self.token:
                    hello["token"] = self.token
                await ws.send(json.dumps(hello))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if message["type"] == "welcome":
                        break
                    if message["type"] == "error":
                        raise ConnectionError(message)
            except (OSError, TimeoutError, websockets.WebSocketException, ConnectionError) as err:
                self.stats.failed_connects.append(f"{process.name}: {err!r}"[:200])
                await asyncio.sleep(0.3)
                continue
            self.stats.welcome_seconds.append(time.monotonic() - started)
            self.token = self.token or message.get("token")
            self.ws = ws
            self.seen_here = set()
            return

    async def send(self, message: dict[str, Any]) -> None:
        self.note(f"sent {message['type']}:{message.get('seq')}")
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(json.dumps(message))

    async def run(self) -> None:
        """Follow the table to the end of the run; a page that breaks is a finding, never a silent end (its table
        would wait for a person who no longer acts, and read as frozen)."""
        try:
            await self._follow()
        except Exception as err:
            self.stats.crashes.append(f"{self.name} at {self.table}: {err!r}"[:300])
            raise

    async def _follow(self) -> None:
        """Follow the table, coming back whenever the socket closes."""
        while not self.stop:
            try:
                while True:
                    try:
                        text = await asyncio.wait_for(self.ws.recv(), NO_ANSWER)
                    except TimeoutError:  # an action asked and never answered: the page gives up on it after
                        self.stats.unanswered += 1  # NO_ANSWER (net.js) and the person clicks again
                        self.acted = None
                        await self.act()
                        continue
                    message = json.loads(text)
                    self.absorb(message)
                    if self.stop:
                        return
                    if message["type"] == "error":  # refused (the store away, a table paused...): a person
                        self.acted = None  # tries again a moment later, as they would click again
                        await asyncio.sleep(0.5)
                    await self.act()
            except websockets.ConnectionClosed:
                pass
            if self.stop:
                return
            self.stats.reconnections += 1
            await self.connect()
            await self.send({"type": "join", "table": self.table, "last_seq": self.last_seq})

    def note(self, what: str) -> None:
        """A frame heard or an ask sent, with its time (the fault log's clock): a silent table's account."""
        self.last_frames = [*self.last_frames[-11:], f"{time.monotonic():.1f} {what}"]

    def absorb(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        note = message.get("event", {}).get("type") if kind == "event" else message.get("code", "")
        told = message.get("state") or message.get("patch") or {}
        self.note(f"{kind}:{message.get('seq')}:{note}{' paused' if kind == 'table' and told.get('paused') else ''}")
        if self.table is None and kind in ("event", "table"):  # the table this person just created
            self.table = message["table"]
        if kind in ("event", "table") and message.get("table") == self.table:
            if kind == "event":
                seq = message["seq"]
                if seq in self.seen_here:
                    self.heard.twice += 1
                self.seen_here.add(seq)
                event = message["event"]
                if seq not in self.heard.first:
                    self.heard.first[seq] = time.monotonic()
                    self.heard.arrivals.append(self.heard.first[seq])
                    self.heard.content[seq] = (
                        event["type"],
                        event.get("seat"),
                        json.dumps(event.get("action"), sort_keys=True),
                    )
                if event["type"] == "game_start":
                    self.owed = False
                if event["type"] == "timeout" and self.state is not None and event.get("seat") == self.state["you"]:
                    self.stats.people_timed_out += 1
            self.last_seq = max(self.last_seq, message["seq"])
            if "state" in message:
                self.state = message["state"]
            elif "patch" in message and self.state is not None:
                self.state = _patched(self.state, message)
        elif kind == "error":
            self.stats.errors[message["code"]] = self.stats.errors.get(message["code"], 0) + 1

    async def act(self) -> None:
        """What a person does on seeing the table as it now stands (once a state: a page's click, not a flood)."""
        state = self.state
        if (
            state is None
            or state.get("paused")
            or state["seq"] != self.last_seq
            or self.acted == (self.ws, state["seq"])
        ):
            return
        self.acted = (self.ws, state["seq"])
        deal = state["deal"]
        if state["status"] == "waiting" and state["game"] and state["master"] == state["you"]:
            if not self.finishing or self.owed:
                await self.send({"type": "start", "table": self.table, "seq": state["seq"]})
        elif deal and deal["to_act"] == state["you"] and deal["legal"] and state["vote"] is None:
            await self.send({"type": "act", "table": self.table, "seq": state["seq"], "action": first_legal(deal)})


NO_ANSWER = 15.0
"""Seconds a page waits for the answer to a request before giving up on it (net.js's request)."""


@dataclass
class Stats:
    welcome_seconds: list[float] = field(default_factory=list)
    failed_connects: list[str] = field(default_factory=list)
    reconnections: int = 0
    unanswered: int = 0  # actions a person asked again after NO_ANSWER without an answer, as a page does
    crashes: list[str] = field(default_factory=list)  # a person's page that broke (the harness's own failure)
    people_timed_out: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    http: dict[str, int] = field(default_factory=dict)  # status class -> count, outside faults
    http_5xx_after: list[str] = field(default_factory=list)  # 5xx after every fault had ended
    http_5xx_outside: list[str] = field(default_factory=list)  # 5xx of a page outside any fault's window


async def read_until(person: Person, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(person.ws.recv(), 60))
        person.absorb(message)
        if message["type"] == "error":
            raise AssertionError(f"{person.name}: {message}")
        if done(message):
            return message


async def open_table(
    site: Site,
    index: int,
    players: int,
    people: int,
    turn_seconds: int,
    level: str,
    stats: Stats,
    rng: random.Random,
    deals: int,
) -> tuple[str, list[Person], Heard]:
    """A table of ``players`` seats: ``people`` black-box people (the first its master), robots in the others."""
    heard = Heard()
    master = Person(f"Chaos{index}a", site, heard, stats, rng)
    await master.connect()
    await master.send(
        {
            "type": "create",
            "players": players,
            "options": {"deals": deals, "turn_seconds": turn_seconds, "competitive": False, "robot_level": level},
        }
    )
    created = await read_until(master, lambda m: m["type"] == "event" and m["event"]["type"] == "master")
    table = created["table"]
    master.table = table
    if master.state is None or master.state["seq"] != master.last_seq:
        await read_until(master, lambda m: master.state is not None and master.state["seq"] == master.last_seq)
    crowd = [master]
    for k in range(1, people):
        other = Person(f"Chaos{index}{'bcd'[k - 1]}", site, heard, stats, rng)
        other.table = table
        await other.connect()
        await other.send({"type": "join", "table": table})
        await read_until(other, lambda m: m["type"] == "table")
        await other.send({"type": "sit", "table": table, "seat": k, "seq": other.state["seq"]})
        await read_until(
            other, lambda m, k=k: m["type"] == "event" and m["event"]["type"] == "sat" and m["event"]["seat"] == k
        )
        crowd.append(other)
    for seat in range(people, players):
        await master.send({"type": "ping"})  # every frame sent before the pong is read: the last number is known
        await read_until(master, lambda m: m["type"] == "pong")
        await master.send({"type": "robot", "table": table, "seat": seat, "seq": master.last_seq})
        await read_until(
            master, lambda m, s=seat: m["type"] == "event" and m["event"]["type"] == "robot" and m["event"]["seat"] == s
        )
    await master.send({"type": "ping"})
    await read_until(master, lambda m: m["type"] == "pong")
    await master.send({"type": "start", "table": table, "seq": master.last_seq})
    await read_until(master, lambda m: m["type"] == "event" and m["event"]["type"] == "game_start")
    return table, crowd, heard


# ------------------------------------------------------------------ the run
@dataclass
class Run:
    """A chaos run's figures and what it found broken (``problems``: the target's failures, named)."""

    seconds: float
    faults: list[Window]
    tables: dict[str, int]  # table -> seats
    figures: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


async def poll_pages(site: Site, stats: Stats, windows: list[Window], after: list[float], stop: asyncio.Event) -> None:
    """Each live process's pages, once a second: a 5xx outside a fault (and its grace) is counted."""
    paths = ("/health", "/api/leaderboard", "/")
    while not stop.is_set():
        for process in site.live():
            for path in paths:
                url = f"http://127.0.0.1:{process.port}{path}"
                try:
                    status = await asyncio.to_thread(_get, url)
                except OSError:
                    continue  # the process is going away (a kill): not a page's answer
                now = time.monotonic()
                faulty = any(w.start - 1 <= now <= (w.end or now) + FAULT_GRACE for w in windows)
                key = f"{status // 100}xx" + (" during a fault" if faulty else "")
                stats.http[key] = stats.http.get(key, 0) + 1
                if status >= 500 and after and now > after[0] and path != "/health":
                    stats.http_5xx_after.append(f"{path} {status} on {process.name}")
                elif status >= 500 and not faulty and path != "/health":
                    stats.http_5xx_outside.append(f"{path} {status} on {process.name} at {now:.1f}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)


def _health(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return dict(json.loads(answer.read()))


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


FAULT_GRACE = 30.0
"""Seconds after a fault's end still counted as its own (tables resuming, leases taken over)."""


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


async def chaos(
    folder: Path,
    seconds: float,
    tables: int = 12,
    schedule: list[Fault] | None = None,
    every: tuple[float, float] = (20.0, 60.0),
    seed: int = 48,
    level: str = "heuristic",
    robot_pace: float = 0.5,
    deal_pause: float = 2.0,
    deals: int = 2,
    settle: float = 90.0,
    progress: Callable[[str], None] = print,
) -> Run:
    """Run the site with ``tables`` tables for ``seconds`` under faults (``schedule``'s kinds in turn, else at
    random), one every ``every`` seconds; then let every table finish its game and check everything."""
    rng = random.Random(seed)
    stats = Stats()
    site = await asyncio.to_thread(Site, folder, 3, robot_pace, deal_pause)
    windows: list[Window] = []
    after: list[float] = []
    stop_polling = asyncio.Event()
    try:
        opened: list[tuple[str, list[Person], Heard, int]] = []
        for i in range(tables):
            players = (3, 4, 5)[i % 3]
            people = 1 + (i % 2)
            table, crowd, heard = await open_table(
                site, i, players, people, 15 if i % 4 == 0 else 0, level, stats, rng, deals
            )
            opened.append((table, crowd, heard, players))
        progress(f"{len(opened)} tables open, {sum(len(c) for _, c, _, _ in opened)} people")
        runners = [asyncio.create_task(p.run()) for _, crowd, _, _ in opened for p in crowd]
        poller = asyncio.create_task(poll_pages(site, stats, windows, after, stop_polling))
        begun = time.monotonic()
        kinds = list(schedule) if schedule is not None else None
        while time.monotonic() - begun < seconds and (kinds is None or kinds):
            await asyncio.sleep(rng.uniform(*every))
            fault = kinds.pop(0) if kinds is not None else rng.choice(list(Fault))
            window = await inflict(site, fault, rng, windows)
            progress(
                f"{window.start - begun:6.1f} s  {fault}{' ' + window.detail if window.detail else ''}: "
                f"back in {window.end - window.start:.1f} s"
            )
        after.append(time.monotonic() + FAULT_GRACE)
        progress("faults over: every table finishes its game")
        await _finish_games(opened, settle, windows[-1].start if windows else begun)
        watchdog = {}  # what each live process's watchdog found (a killed one's counts went with it)
        for process in site.live():
            with contextlib.suppress(Exception):
                body = await asyncio.to_thread(_health, f"http://127.0.0.1:{process.port}/health")
                watchdog[process.name] = {
                    k: body.get(k) for k in ("tables_stalled_total", "tables_restarted", "room_tasks_failed")
                }
        for _, crowd, _, _ in opened:
            for p in crowd:
                p.stop = True
                with contextlib.suppress(Exception):
                    await p.ws.close()
        await asyncio.gather(*runners, return_exceptions=True)
        stop_polling.set()
        await poller
        run = Run(time.monotonic() - begun, windows, {t: n for t, _, _, n in opened})
        await asyncio.to_thread(_check, run, site, opened, stats)
        run.figures["watchdog"] = watchdog
        return run
    finally:
        stop_polling.set()
        await asyncio.to_thread(site.close)


async def _finish_games(opened: list[tuple[str, list[Person], Heard, int]], settle: float, last_fault: float) -> None:
    """Until every table's game is over (its master then stops starting new ones), or ``settle`` seconds. A master
    whose table has not moved since the last fault began (its start refused by it, the table paused) still starts
    one game: every table must be seen to move after each fault, and this one had no chance to yet."""
    for _, crowd, heard, _ in opened:
        crowd[0].finishing = True
        crowd[0].owed = not heard.arrivals or heard.arrivals[-1] < last_fault
    end = time.monotonic() + settle
    while time.monotonic() < end:
        waiting = [t for t, crowd, _, _ in opened if not _resting(crowd[0])]
        if not waiting:
            return
        await asyncio.sleep(0.5)


def _resting(master: Person) -> bool:
    state = master.state
    return (
        state is not None
        and state["status"] == "waiting"
        and not state["paused"]
        and state["seq"] == master.last_seq
        and not master.owed
    )


def _check(run: Run, site: Site, opened: list[tuple[str, list[Person], Heard, int]], stats: Stats) -> None:
    """Everything the site promised, against what the people heard and the store holds."""
    store = Store(site.pg.url)
    try:
        findings = [str(f) for table, _, _, _ in opened for f in audit_table(store, table)]
        stored = {table: {e.seq: e for e in store.events_after(table, 0)} for table, _, _, _ in opened}
        games = {table: store.games(table) for table, _, _, _ in opened}
    finally:
        store.close()
    lost, changed, twice = [], [], 0
    resumes: dict[str, list[float]] = {}
    silences: list[tuple[float, str]] = []
    slow: list[str] = []
    stillest = (0.0, "")  # the longest any table went without an event, faults or not
    for table, _, heard, _ in opened:
        twice += heard.twice
        for seq, (kind, seat, action) in heard.content.items():
            event = stored[table].get(seq)
            if event is None:
                lost.append(f"{table} seq {seq} ({kind})")
                continue
            data = event.data
            public = kind == "action" and "play" in (data.get("action") or {})  # a card; an écart is hidden
            if (kind, seat) != (data["type"], data.get("seat")) or (
                public and action != json.dumps(data.get("action"), sort_keys=True)
            ):
                changed.append(f"{table} seq {seq}: heard {kind} {seat} {action}, stored {data['type']}")
        arrivals = heard.arrivals
        starts = [w.start for w in run.faults]
        for k, w in enumerate(run.faults):
            later = [a for a in arrivals if a >= w.end]
            if not later:
                silences.append((float("inf"), f"{table} never moved after {w.fault}"))
                continue
            following = starts[k + 1] if k + 1 < len(starts) else float("inf")
            if later[0] > following:
                continue  # still still when the next fault came: its resumption is the next fault's
            took = later[0] - w.end
            resumes.setdefault(str(w.fault), []).append(took)
            if took > RESUME_PROMISE:
                slow.append(f"{table} moved {took:.1f} s after {w.fault} ended")
        for a, b in itertools.pairwise(arrivals):
            stillest = max(stillest, (b - a, table))
            if not any(w.start - 1 <= b and a <= w.end + FAULT_GRACE for w in run.faults):
                silences.append((b - a, table))
    starts = {t: sum(1 for e in ev.values() if e.kind == "game_start") for t, ev in stored.items()}
    ends = {t: sum(1 for e in ev.values() if e.kind in ("game_end", "cancel_end")) for t, ev in stored.items()}
    unfinished = [f"{t}: {starts[t] - ends[t]} game(s) without an end" for t in stored if starts[t] != ends[t]]
    logged = _logged(site)
    tracebacks = [f"{name}: {line[:300]}" for name, line in logged if "Traceback" in line or '"level":"error"' in line]
    all_resumes = [x for xs in resumes.values() for x in xs]
    longest = max(silences, default=(0.0, ""))
    run.figures = {
        "seconds": round(run.seconds, 1),
        "faults": {str(k): sum(1 for w in run.faults if w.fault == k) for k in Fault},
        "fault_log": [
            {"fault": str(w.fault), "detail": w.detail, "at": round(w.start, 1), "back_in": round(w.end - w.start, 2)}
            for w in run.faults
        ],
        "tables": len(opened),
        "people": sum(len(c) for _, c, _, _ in opened),
        "games_finished": sum(1 for t in games for g in games[t] if g.status == "finished"),
        "games_started": sum(starts.values()),
        "events_stored": sum(len(ev) for ev in stored.values()),
        "resume_seconds": {
            k: {
                "median": round(statistics.median(v), 2),
                "p99": round(percentile(v, 0.99), 2),
                "max": round(max(v), 2),
                "n": len(v),
            }
            for k, v in resumes.items()
        },
        "resume_all": {
            "median": round(statistics.median(all_resumes), 2) if all_resumes else None,
            "p99": round(percentile(all_resumes, 0.99), 2),
            "max": round(max(all_resumes, default=0), 2),
        },
        "longest_silence_outside_faults": {"seconds": round(longest[0], 2), "table": longest[1]},
        "silences_over_10s_outside_faults": sum(1 for s, _ in silences if s > 10),
        "longest_stillness_faults_included": {"seconds": round(stillest[0], 2), "table": stillest[1]},
        "resumes_beyond_promise": len(slow),
        "lost": len(lost),
        "changed": len(changed),
        "heard_twice": twice,
        "holes_or_bad_records": len(findings),
        "unfinished_games": len(unfinished),
        "http_outside_faults": stats.http,
        "http_5xx_after_faults": len(stats.http_5xx_after),
        "tracebacks": len(tracebacks),
        "people_timed_out": stats.people_timed_out,
        "reconnections": stats.reconnections,
        "asked_again_unanswered": stats.unanswered,
        "failed_connects": len(stats.failed_connects),
        "welcome_seconds_max": round(max(stats.welcome_seconds, default=0), 2),
        "errors_heard": stats.errors,
    }
    problems = run.problems
    problems += [f"a page broke: {x}" for x in stats.crashes]
    problems += [f"store: {f}" for f in findings]
    problems += [f"lost: {x}" for x in lost[:20]] + [f"changed: {x}" for x in changed[:20]]
    if twice:
        problems.append(f"{twice} events heard twice by one socket")
    problems += [f"unfinished: {x}" for x in unfinished]
    problems += [f"silent: {t}" for s, t in silences if s == float("inf")]
    for table, crowd, _heard, _ in opened:
        if any(t.startswith(table) for s, t in silences if s == float("inf")):
            state = crowd[0].state or {}
            seats = [
                (x.get("kind"), x.get("name"), x.get("present"), x.get("abandoned")) for x in state.get("seats", [])
            ]
            last = max(stored[table]) if stored[table] else 0
            problems.append(
                f"  {table}: status {state.get('status')}, seq heard {crowd[0].last_seq}, stored {last}, "
                f"paused {state.get('paused')}, seats {seats}, last stored "
                f"{[stored[table][s].kind for s in sorted(stored[table])[-5:]]}"
            )
            for person in crowd:  # what each page saw and did: was it told its turn, did it ask, was it answered
                seen = person.state or {}
                deal = seen.get("deal") or {}
                problems.append(
                    f"    {person.name}: you {seen.get('you')}, to_act {deal.get('to_act')}, legal "
                    f"{len(deal.get('legal') or [])}, state seq {seen.get('seq')}, last_seq {person.last_seq}, "
                    f"paused {seen.get('paused')}, vote {seen.get('vote')}, acted {person.acted and person.acted[1]}, "
                    f"socket {'open' if person.ws is not None and person.ws.state.name == 'OPEN' else 'closed'}, "
                    f"last frames {person.last_frames}"
                )
            problems += [f"    log {name}: {line[:300]}" for name, line in logged if table in line][-20:]
    problems += [f"slow to resume: {x}" for x in slow[:20]]
    if longest[0] > SILENCE_PROMISE:
        problems.append(f"a table silent {longest[0]:.1f} s outside a fault ({longest[1]})")
    problems += [f"5xx after the faults: {x}" for x in stats.http_5xx_after[:10]]
    problems += [f"5xx outside a fault: {x}" for x in stats.http_5xx_outside[:10]]
    problems += [f"traceback: {x}" for x in tracebacks[:10]]
    if max(stats.welcome_seconds, default=0) > 10:
        problems.append(f"a hello waited {max(stats.welcome_seconds):.1f} s for its welcome")


def _logged(site: Site) -> list[tuple[str, str]]:
    """Every line of the processes' logs, each with its file's name: read once for the tracebacks and for a silent
    table's account (paused, settled, stalled, moved)."""
    lines = []
    for path in site.logs:
        with contextlib.suppress(OSError):
            lines += [(path.name, line) for line in path.read_text(errors="replace").splitlines()]
    return lines


RESUME_PROMISE = 60.0
"""The longest a table may take to move again once a fault is over (before the next one): a lease's expiry and a
scan after a worker's death, the watchdog's grace after an outage (``room/watchdog.py``), a robot's thought."""

SILENCE_PROMISE = 20.0
"""The longest a table of instant players may go without an event outside a fault: the pause between deals, a
robot's pace and thought, a loaded machine's slack."""


__all__ = ["FAULT_GRACE", "RESUME_PROMISE", "SILENCE_PROMISE", "Fault", "Run", "Site", "chaos"]
