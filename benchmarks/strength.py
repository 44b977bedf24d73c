"""Robot strength: duplicate-deal arena runs, written to benchmarks/results/.

    python benchmarks/strength.py --jobs 2            # the full set (about 40 minutes on 2 cores)
    python benchmarks/strength.py --only 4-heuristic-random --deals-scale 0.1   # a quick look

Each run is ``atout arena`` with the arguments listed in RUNS; its JSON goes to
benchmarks/results/strength-<name>.json and a table of all runs found there to
benchmarks/results/strength.md.  Decision times are measured inside each
worker process (one process per core), around the robot's ``choose`` only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path

from atout.arena.run import report, run_arena, stderr_progress, summarize, write_json

RESULTS = Path(__file__).parent / "results"

# name: (players, candidate, baseline, deals, seed)
RUNS = {
    "4-heuristic-random": (4, "heuristic", "random", 1000, "bench-4hr"),
    "4-expert-heuristic": (4, "expert", "heuristic", 1000, "bench-4eh"),
    "3-expert-heuristic": (3, "expert", "heuristic", 300, "bench-3eh"),
    "5-expert-heuristic": (5, "expert", "heuristic", 300, "bench-5eh"),
}


def command(name: str, jobs: int, deals: int) -> str:
    players, cand, base, _, seed = RUNS[name]
    return (f"atout arena --players {players} --candidate {cand} --baseline {base} --deals {deals} "
            f"--seed {seed} --jobs {jobs} --out benchmarks/results/strength-{name}.json")


def table() -> str:
    lines = [
        "| run | deals | points/deal [95% CI] | as taker | as defender | taker success (cand / base) "
        "| decision median / max | command |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name in RUNS:
        path = RESULTS / f"strength-{name}.json"
        if not path.exists():
            continue
        data = json.loads(path.read_text())
        s, c = data["summary"], data["config"]
        p = s["points_per_deal"]
        role = s["by_role"]
        ts = s["taker_success"]
        d = s["decision_seconds"]

        def f(ci):
            return "n/a" if not ci or ci["mean"] is None else f"{ci['mean']:+.1f} (n={ci['n']})"

        succ = " / ".join("n/a" if ts[k] is None else f"{ts[k]:.0%}" for k in ("candidate", "baseline"))
        lines.append(
            f"| {name} | {s['deals']} | {p['mean']:+.1f} [{p['low']:+.1f}, {p['high']:+.1f}] "
            f"| {f(role.get('taker'))} | {f(role.get('defender'))} | {succ} "
            f"| {d['median'] * 1000:.1f} ms / {d['max'] * 1000:.0f} ms "
            f"| `{command(name, c['jobs'], c['deals'])}` |"
        )
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=None, help=f"runs among {', '.join(RUNS)}")
    ap.add_argument("--deals-scale", type=float, default=1.0)
    args = ap.parse_args()
    RESULTS.mkdir(parents=True, exist_ok=True)
    for name in args.only or RUNS:
        players, cand, base, deals, seed = RUNS[name]
        deals = max(1, int(deals * args.deals_scale))
        print(f"== {name}: {command(name, args.jobs, deals)}", flush=True)
        records = run_arena(players, cand, base, deals, seed, jobs=args.jobs, progress=stderr_progress)
        config = {"players": players, "candidate": cand, "baseline": base, "deals": deals, "start": 0,
                  "seed": seed, "budget": None, "jobs": args.jobs, "cpus": os.cpu_count(),
                  "python": sys.version.split()[0], "machine": platform.machine()}
        summary = summarize(records)
        write_json(str(RESULTS / f"strength-{name}.json"), config, summary, records)
        print(report(summary, config), flush=True)
        (RESULTS / "strength-table.md").write_text(table() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
