"""``atout arena``: duplicate deals between two robot levels."""

from __future__ import annotations

import argparse
import sys

from ..arena.run import report, run_arena, stderr_progress, summarize, write_json
from ..bots import LEVELS


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    p.add_argument("--candidate", default="expert", help=f"robot level tested ({', '.join(LEVELS)})")
    p.add_argument("--baseline", default="heuristic", help="robot level it is compared with")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", default="arena")
    p.add_argument("--budget", type=float, default=None, help="seconds per decision (robot default if unset)")
    p.add_argument("--jobs", type=int, default=1, help="processes (decision times are per process)")
    p.add_argument("--start", type=int, default=0, help="first deal number (to split a long run)")
    p.add_argument("--out", default="arena.json", help="JSON results file")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def arena(args: argparse.Namespace) -> int:
    for level in (args.candidate, args.baseline):
        if level not in LEVELS:
            print(f"unknown robot level {level!r}; levels are {', '.join(LEVELS)}", file=sys.stderr)
            return 2
    if args.deals < 1:
        print("--deals must be at least 1", file=sys.stderr)
        return 2
    config = {
        "players": args.players,
        "candidate": args.candidate,
        "baseline": args.baseline,
        "deals": args.deals,
        "start": args.start,
        "seed": args.seed,
        "budget": args.budget,
        "jobs": args.jobs,
    }
    records = run_arena(
        args.players, args.candidate, args.baseline, args.deals, args.seed,
        budget=args.budget, jobs=args.jobs, start=args.start,
        progress=None if args.quiet else stderr_progress,
    )  # fmt: skip
    summary = summarize(records)
    write_json(args.out, config, summary, records)
    print(report(summary, config))
    print(f"results written to {args.out}")
    return 0
