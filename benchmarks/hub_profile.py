"""The hub alone, in one process: its CPU per action without sockets, uvicorn or client processes,
for profiling (a real SQLite store and writer thread; each connection's socket is a coroutine that
keeps the frame).

    python benchmarks/hub_profile.py --tables 20 --actions 20000 [--profile out.prof]
    python benchmarks/hub_profile.py --tables 8 --actions 2000 --icount

Prints the actions, the wall and CPU time, and µs of CPU an action (the client's share included:
parsing the frames, keeping the state, choosing a card, about a fifth of the total). ``--icount``
runs it under valgrind (callgrind) and prints instructions an action instead: slow, but the same
from run to run whatever else the machine does, so it tells apart changes of a few per cent.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from server_load import apply_patch, first_legal

from atout.server.site.config import Config
from atout.server.site.hub import Hub
from atout.server.store import Store
from atout.server.table import Timing


class Client:
    """One seat's connection: the frames it was sent, its state, its answer when its turn comes."""

    def __init__(self, hub: Hub, name: str, heard: asyncio.Event) -> None:
        self.hub, self.name = hub, name
        self.heard = heard  # set when a frame arrives for any seat of the table
        self.frames: list[str] = []
        self.state: dict | None = None
        self.conn = hub.connect(self._send, self._close)
        self.pump = asyncio.ensure_future(self.conn.pump())  # as the application does for each WebSocket

    async def _send(self, text: str) -> None:
        self.frames.append(text)
        self.heard.set()

    async def _close(self) -> None:
        pass

    async def say(self, message: dict) -> None:
        await self.hub.receive(self.conn, orjson.dumps(message).decode())
        await asyncio.sleep(0)  # the pump's turn (a queued frame leaves on the next loop turn)

    def read(self) -> list[dict]:
        out = []
        for text in self.frames:
            message = orjson.loads(text)
            if "state" in message:
                self.state = message["state"]
            elif "patch" in message:
                self.state = apply_patch(self.state, message)
            out.append(message)
        self.frames.clear()
        return out

    def answer(self) -> dict | None:
        state = self.state
        deal = state["deal"] if state else None
        if state is None:
            return None
        if state["status"] == "waiting" and state["game"] and state["master"] == state["you"]:
            return {"type": "start", "table": state["id"], "seq": state["seq"]}
        if deal and deal["to_act"] == state["you"] and deal["legal"]:
            return {"type": "act", "table": state["id"], "seq": state["seq"], "action": first_legal(deal)}
        return None


async def run(tables: int, actions: int, players: int) -> tuple[int, float, float]:
    folder = Path(tempfile.mkdtemp())
    store = Store(f"sqlite:///{folder / 'hub.db'}")
    store.migrate()
    hub = Hub(store, Config(secret=b"x" * 32, rate=1e9, burst=1e9, timing=Timing(deal_pause=0, robot_pace=0)))
    await hub.start()
    seats: list[list[Client]] = []
    for t in range(tables):
        heard = asyncio.Event()
        clients = [Client(hub, f"hub{t}s{s}", heard) for s in range(players)]
        for c in clients:
            await c.say({"type": "hello", "protocol": 1, "name": c.name, "patches": True})
            c.read()
        await clients[0].say(
            {"type": "create", "players": players, "options": {"deals": 20, "turn_seconds": 0, "competitive": False}}
        )
        clients[0].read()
        table_id, seq = clients[0].state["id"], clients[0].state["seq"]
        for i, c in enumerate(clients[1:], start=1):
            await c.say({"type": "join", "table": table_id})
            await c.say({"type": "sit", "table": table_id, "seat": i, "seq": seq + i - 1})
        for c in clients:
            c.read()
        await clients[0].say({"type": "start", "table": table_id, "seq": clients[0].state["seq"]})
        seats.append(clients)

    async def drive(clients: list[Client]) -> None:
        while hub.actions < actions:
            for c in clients:
                c.read()
            moved = False
            for c in clients:
                message = c.answer()
                if message is not None:
                    await c.say(message)
                    moved = True
                    break
            if not moved:  # wait for the table's next frame (not a spin: its cost would be counted)
                await clients[0].heard.wait()
                clients[0].heard.clear()

    if os.environ.get("HUB_PROFILE_COUNTING"):  # under callgrind: count the measured part only
        subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], capture_output=True, check=True)
    start_actions = hub.actions
    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(drive(clients) for clients in seats))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    done = hub.actions - start_actions
    if os.environ.get("HUB_PROFILE_COUNTING"):
        subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], capture_output=True, check=True)
    await hub.stop()
    store.close()
    return done, wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--profile", default=None, help="write a cProfile file here")
    parser.add_argument("--icount", action="store_true", help="instructions an action, under valgrind")
    args = parser.parse_args()
    if args.icount:
        return icount(args)
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    try:  # the server's loop (uvicorn picks uvloop where it is installed)
        import uvloop

        runner = uvloop.run
    except ImportError:
        runner = asyncio.run
    if os.environ.get("HUB_PROFILE_GC") == "server":
        from atout.cli.serve import _tune_gc

        _tune_gc()
    done, wall, cpu = runner(run(args.tables, args.actions, args.players))
    if profiler:
        profiler.disable()
        profiler.dump_stats(args.profile)
    print(
        f"{done} actions in {wall:.2f} s ({done / wall:,.0f}/s), CPU {cpu:.2f} s: {cpu / done * 1e6:,.0f} µs an action"
    )
    return 0


def icount(args) -> int:
    out = Path(tempfile.mkdtemp()) / "callgrind.out"
    answer = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--tables",
            str(args.tables),
            "--actions",
            str(args.actions),
            "--players",
            str(args.players),
        ],
        env={**os.environ, "HUB_PROFILE_COUNTING": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    done = int(answer.stdout.split()[0])
    total = sum(int(line.split()[1]) for line in out.read_text().splitlines() if line.startswith("totals:"))
    print(f"{done} actions, {total:,} instructions: {total / done:,.0f} an action")
    return 0


if __name__ == "__main__":
    sys.exit(main())
