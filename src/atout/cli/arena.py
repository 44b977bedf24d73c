"""``atout arena``: duplicate deals between two robot levels."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, choices=(3, 4, 5), default=4, help="players at each table (default 4)")
    p.add_argument("--candidate", default="expert", help="robot level tested (an unknown one is refused with the list of levels; default expert)")
    p.add_argument("--baseline", default="heuristic", help="robot level it is compared with (default heuristic)")
    p.add_argument("--deals", type=int, default=100, help="duplicate deals to play (default 100)")
    p.add_argument("--seed", default="arena", help="names the deals: the same seed, the same deals (default arena)")
    p.add_argument("--budget", type=float, default=None, help="seconds per decision (robot default if unset)")
    p.add_argument("--jobs", type=int, default=1, help="processes (decision times are per process; default 1)")
    p.add_argument("--start", type=int, default=0, help="first deal number, to split a long run (default 0)")
    p.add_argument("--out", default=None, metavar="PATH",
                   help="also write every deal and the summary as JSON to PATH (default: no file)")
    p.add_argument("--quiet", action="store_true", help="no progress line on stderr (default: progress shown)")


def _writable(path: str) -> str | None:
    """Why ``path`` cannot be written, or None; checked before a long run, leaving nothing behind."""
    target = Path(path)
    existed = target.exists()
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as err:
        return err.strerror or str(err)
    if not existed:
        target.unlink()
    return None


def arena(args: argparse.Namespace) -> int:
    # the robots (and numba) load only for a run: the parser and the other commands start without them
    from ..arena.run import report, run_arena, stderr_progress, summarize, write_json
    from ..bots import LEVELS

    for level in (args.candidate, args.baseline):
        if level not in LEVELS:
            print(f"unknown robot level {level!r}; levels are {', '.join(LEVELS)}", file=sys.stderr)
            return 2
    for name, bad, rule in (("deals", args.deals < 1, "at least 1"), ("jobs", args.jobs < 1, "at least 1"),
                            ("start", args.start < 0, "0 or more"),
                            ("budget", args.budget is not None and not args.budget > 0, "more than 0 seconds")):
        if bad:
            print(f"atout arena: --{name} must be {rule}", file=sys.stderr)
            return 2
    if args.out is not None and (why := _writable(args.out)) is not None:
        print(f"atout arena: cannot write --out {args.out}: {why}", file=sys.stderr)
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
    print(report(summary, config))
    if args.out is None:
        return 0
    try:
        write_json(args.out, config, summary, records)
    except OSError as err:
        print(json.dumps({"config": config, "summary": summary, "deals": records}, indent=1))
        print(f"atout arena: could not write {args.out} ({err.strerror or err}); the JSON results are printed "
              "above instead", file=sys.stderr)
        return 1
    print(f"results written to {args.out}")
    return 0
