"""Chaos for thirty minutes (issue 48): three ``atout serve`` processes on a PostgreSQL and a Redis of the run's
own, a dozen tables or more of 3, 4 and 5 seats with people (black-box clients that reconnect as a page does) and
robots, games following games, while faults come at random every 20–60 s: PostgreSQL restarted (fast, immediate)
or stopped for 5–10 s, Redis restarted, a worker killed (and started again, as its supervisor would).

    python benchmarks/chaos.py [--minutes 30] [--tables 12] [--level expert] [--seed 48] \\
        [--out benchmarks/results/chaos.json]

Prints each fault as it comes, then the figures: faults by kind, games finished, how long every table took to
move again after each fault (median, p99, max), the longest silence of any table outside a fault, events lost,
changed or heard twice against the store, holes and records that do not replay (``store/audit.py``), 5xx after
the faults, server tracebacks, the longest wait for a welcome; and every broken promise by name. The target:
none. Needs PostgreSQL's server programs (initdb, pg_ctl: Debian's postgresql) and redis-server; runs as root or
as any user (PostgreSQL itself as ``postgres`` under root). The harness is ``tests/chaos.py``, whose short
version runs in the test suite (``tests/server/test_chaos.py``)."""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from chaos import chaos  # tests/chaos.py: the harness the suite uses too


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--level", default="expert", help="the robots' level (default expert)")
    parser.add_argument("--robot-pace", type=float, default=0.8, help="seconds (atout serve's default 0.8)")
    parser.add_argument("--deal-pause", type=float, default=5.0, help="seconds (atout serve's default 5)")
    parser.add_argument("--deals", type=int, default=3, help="deals a game")
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument(
        "--settle",
        type=float,
        default=420.0,
        help="seconds every table has, once the faults are over, to finish the game it is playing",
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="atout-chaos-") as folder:
        run = asyncio.run(
            chaos(
                Path(folder),
                args.minutes * 60,
                tables=args.tables,
                seed=args.seed,
                level=args.level,
                robot_pace=args.robot_pace,
                deal_pause=args.deal_pause,
                deals=args.deals,
                settle=args.settle,
                progress=lambda line: print(line, flush=True),
            )
        )
    figures = {
        **run.figures,
        "problems": run.problems,
        "command": "python " + " ".join(sys.argv),
        "machine": f"{platform.node()} {platform.machine()}",
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
    }
    print(json.dumps(figures, indent=2))
    print("target met: nothing broken" if not run.problems else f"target NOT met: {len(run.problems)} problems")
    if args.out is not None:
        args.out.write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if not run.problems else 1


if __name__ == "__main__":
    sys.exit(main())
