"""Instructions per accepted action in the server process, counted by valgrind (callgrind): a figure
that machine load and CPU frequency do not move, unlike timings, for telling small speed changes apart.

    python benchmarks/server_icount.py --tables 4 --seconds 20

Starts ``atout serve`` under ``valgrind --tool=callgrind`` with counting off, drives tables with the
clients of ``server_load.py``, counts only between the warm-up and the end, and prints instructions
per action (and per frame sent). About 50 times slower than the real server: few tables suffice.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from server_load import drive_tables, health, wait_for_health


def control(*args: str) -> str:
    return subprocess.run(["callgrind_control", *args], capture_output=True, text=True, check=True).stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds before counting starts")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds counted")
    parser.add_argument("--whole-states", action="store_true")
    args = parser.parse_args()
    folder = Path(os.environ.get("ICOUNT_DIR") or tempfile.mkdtemp())
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = folder / "callgrind.out"
    env = {**os.environ, "XDG_DATA_HOME": str(folder), "ATOUT_SECRET": "load"}
    server = subprocess.Popen(
        [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-m",
            "atout.cli.main",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{folder / 'l.db'}",
            "--robot-pace",
            "0",
            "--deal-pause",
            "0",
            "--log-level",
            "warning",
            "--rate",
            "10000",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_health(port, 300.0)  # a server under valgrind starts about 50 times slower
        marks: dict[str, int] = {}

        def counting() -> None:
            time.sleep(args.warmup)
            marks["before"] = health(port)["actions"]
            control("-i", "on", str(server.pid))
            time.sleep(args.seconds)
            control("-i", "off", str(server.pid))
            marks["after"] = health(port)["actions"]
            control("-d", str(server.pid))

        counter = threading.Thread(target=counting)
        counter.start()
        asyncio.run(
            drive_tables(
                f"ws://127.0.0.1:{port}/ws",
                args.tables,
                args.players,
                0.5,
                args.warmup + args.seconds + 3,
                "i",
                not args.whole_states,
            )
        )
        counter.join()
        time.sleep(1)
        total = 0
        for dump in folder.glob("callgrind.out*"):
            for line in dump.read_text(errors="replace").splitlines():
                if line.startswith("totals:"):
                    total += int(line.split()[1])
        actions = marks["after"] - marks["before"]
        print(f"{actions} actions counted, {total:,} instructions: {total / max(1, actions):,.0f} an action")
    finally:
        server.terminate()
        server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
