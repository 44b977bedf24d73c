"""Robot strength: duplicate-deal arena runs, written to benchmarks/results/.

    nice -n 10 python benchmarks/strength.py --jobs 2   # the full set (about an hour on 2 idle cores)
    python benchmarks/strength.py --only 4-heuristic-random --deals-scale 0.1   # a quick look
    python benchmarks/strength.py --compare before.json after.json   # two versions on the same deals

Each run is ``atout arena`` with the arguments listed in RUNS; its JSON goes to
benchmarks/results/strength-<name>.json and a table of all runs found there to
benchmarks/results/strength-table.md (the command that made it at its top).
Development runs (``dev_variants.py``, ``--compare`` pairs) are written to a scratch path; those
the documents cite are kept in benchmarks/archive/.
Decision times are measured inside each worker process, around the robot's
``choose`` only, per kind of decision; use ``--jobs 1`` on a quiet machine
for the one-core figures.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

from atout.arena.run import report, run_arena, stderr_progress, summarize, write_json
from atout.arena.stats import paired
from atout.bots import RETIRED_LEVELS
from atout.cli.arena import entrant_error

RESULTS = Path(__file__).parent / "results"

# name: (players, candidate, baseline, deals, seed).  Fresh seeds ``i25-*`` for issue 25's robot,
# fixed before its runs; the expert-1 runs are issue 12's (``i15-*``, the expert of then).  The yardsticks
# expert-2 and expert-1 are the levels of the last commit that had them (issue 39: ``arena.yardsticks``).
EXPERT_2 = RETIRED_LEVELS["expert-2"].yardstick
EXPERT_1 = RETIRED_LEVELS["expert-1"].yardstick
RUNS = {
    "4-club-beginner": (4, "club", "beginner", 1000, "i15-4cb"),
    "4-expert-heuristic": (4, "expert", "heuristic", 1000, "i25-4eh"),
    "5-expert-heuristic": (5, "expert", "heuristic", 1000, "i25-5eh"),
    "3-expert-heuristic": (3, "expert", "heuristic", 1000, "i25-3eh"),
    "4-expert-expert2": (4, "expert", EXPERT_2, 1000, "i25-4e2"),
    "5-expert-expert2": (5, "expert", EXPERT_2, 1000, "i25-5e2"),
    "3-expert-expert2": (3, "expert", EXPERT_2, 1000, "i25-3e2"),
    "4-expert-expert1": (4, "expert", EXPERT_1, 400, "i15-4ee"),
    "3-expert-expert1": (3, "expert", EXPERT_1, 400, "i15-3ee"),
    "5-expert-expert1": (5, "expert", EXPERT_1, 400, "i15-5ee"),
    "4-heuristic-random": (4, "heuristic", "random", 1000, "bench-4hr"),
}
"""Most important first: the levels people are offered (club against beginner, expert against
club), then issue 25's yardstick ``expert-2``, then ``expert-1`` (issue 12's, its runs made by the
expert of then: the seeds and code are in each run's command), both run as commit yardsticks (built once
into the user's cache, one process a seat; their JSON's config names the commit).  Earlier seeds (``i12-*`` to
``i17-*``, ``bench-*``) and their runs are in git history.  Against ``expert-1`` every seat but one
searches with expert-1's Python rollouts, about twenty times a run against the heuristic, hence
fewer deals there."""
KINDS = ("bid", "call", "ecart", "chelem", "poignee", "petit_sec", "card")


def command(name: str, jobs: int, deals: int, seed: str | None = None, seeding: str = "common") -> str:
    """The ``atout arena`` command of run ``name``; a run without ``seeding`` in its JSON was made before
    issue 39, with what is now ``--seeding level``."""
    players, cand, base, _, run_seed = RUNS[name]
    seed = seed or run_seed
    how = "" if seeding == "common" else f" --seeding {seeding}"
    return (
        f"atout arena --players {players} --candidate {cand} --baseline {base} --deals {deals} "
        f"--seed {seed}{how} --jobs {jobs} --out benchmarks/results/strength-{name}.json"
    )


def _ci(ci: dict | None) -> str:
    if not ci or ci["mean"] is None:
        return "n/a"
    if ci["low"] is None:
        return f"{ci['mean']:+.1f} (n={ci['n']})"
    return f"{ci['mean']:+.1f} [{ci['low']:+.1f}, {ci['high']:+.1f}] (n={ci['n']})"


def _ms(v: float | None) -> str:
    return "n/a" if v is None else f"{v * 1000:.0f}" if v >= 0.01 else f"{v * 1000:.1f}"


def table(invocation: str) -> str:
    """Markdown of every run found in RESULTS: points, role splits, contracts, times per kind."""
    found = []
    for name in RUNS:
        path = RESULTS / f"strength-{name}.json"
        if path.exists():
            found.append((name, json.loads(path.read_text())))
    out = [
        "# Robot strength: duplicate-deal arena runs",
        "",
        "Last written by (each run's own command is under Commands below):",
        "",
        "```sh",
        invocation,
        "```",
        "",
        "Each run below is the same as its `atout arena` command. Points are the candidate's score minus",
        "the baseline's in the same seat on the same deal; per deal, the mean over the seats; 95% CI over",
        "deals. Role splits are per seat-deal, by the candidate's role in its own game.",
        "",
        "## Points",
        "",
        "| run | deals | points/deal [95% CI] | as taker | as defender | as partner | taker success (cand / base) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, data in found:
        s = data["summary"]
        ts = s["taker_success"]
        succ = " / ".join("n/a" if ts[k] is None else f"{ts[k]:.0%}" for k in ("candidate", "baseline"))
        out.append(_points_row(name, s, succ))
    out += _pooled(found)
    out += [
        "",
        "## Contracts: share of takes and success rate (candidate / baseline)",
        "",
        "| run | prise | garde | garde sans | garde contre |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, data in found:
        table_ = data["summary"].get("contracts")
        if not table_:
            continue
        cells = []
        for c in ("prise", "garde", "garde_sans", "garde_contre"):
            parts = []
            for who in ("candidate", "baseline"):
                row = table_[who].get(c)
                parts.append("-" if not row else f"{row['takes']} ({row['success']:.0%})")
            cells.append(" / ".join(parts))
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    out += [
        "",
        "## Candidate decision times per kind (ms: median / p99 / max, count)",
        "",
        "| run | jobs | " + " | ".join(KINDS) + " |",
        "| --- | --- | " + " | ".join("---" for _ in KINDS) + " |",
    ]
    for name, data in found:
        kinds = data["summary"].get("decision_by_kind", {})
        cells = []
        for k in KINDS:
            t = kinds.get(k)
            cells.append("-" if not t else f"{_ms(t['median'])} / {_ms(t['p99'])} / {_ms(t['max'])} ({t['count']})")
        out.append(f"| {name} | {data['config']['jobs']} | " + " | ".join(cells) + " |")
    out += ["", "## Commands", ""]
    for name, data in found:
        c = data["config"]
        made_by = f", made by `{c['invocation']}`" if c.get("invocation") else ""
        code = f" (code {c['commit']}{made_by})" if c.get("commit") else ""
        out.append(f"- `{command(name, c['jobs'], c['deals'], c['seed'], c.get('seeding', 'level'))}`{code}")
    return "\n".join(out) + "\n"


def _pooled(found: list[tuple[str, dict]]) -> list[str]:
    """Rows for matches run more than once on different seeds: every deal of those runs together."""
    groups: dict[tuple, list[tuple[str, dict]]] = {}
    for name, data in found:
        c = data["config"]
        groups.setdefault((c["players"], c["candidate"], c["baseline"]), []).append((name, data))
    out = []
    for runs in groups.values():
        if len(runs) < 2:
            continue
        names = " + ".join(name for name, _ in runs)
        out.append(_points_row(f"pooled: {names}", summarize([d for _, data in runs for d in data["deals"]])))
    return out


def _points_row(label: str, s: dict, success: str = "") -> str:
    """One row of the points table from a run's summary."""
    role = s["by_role"]
    return (
        f"| {label} | {s['deals']} | **{_ci(s['points_per_deal'])}** | {_ci(role.get('taker'))} "
        f"| {_ci(role.get('defender'))} | {_ci(role.get('partner'))} | {success} |"
    )


def _load(path: str) -> dict:
    """A run's JSON, or a dev run kept gzipped without its decision times (``*.json.gz``)."""
    if path.endswith(".gz"):
        return json.loads(gzip.decompress(Path(path).read_bytes()))
    return json.loads(Path(path).read_text())


def compare(before: str, after: str) -> str:
    """The paired difference of two runs on the same deals (``atout.arena.stats.paired``), as text."""
    a, b = (_load(p) for p in (before, after))
    p = paired(a["deals"], b["deals"])
    lines = [f"{after} minus {before}, {p['deals']} deals in common", f"  per deal: {_ci(p['per_deal'])}"]
    for role, ci in p["roles"].items():
        lines.append(f"  {role} in both: {_ci(ci)}")
    return "\n".join(lines)


def decision_times(
    players: int, deals: int, seed: str, level: str = "expert", others: str = "heuristic"
) -> dict[str, dict]:
    """The time of each decision of ``level`` in one seat among ``others``, per kind, in this process:
    wall-clock and CPU time (``time.process_time``, which a shared machine's other load does not
    inflate); seats rotate with the deal number."""
    import time

    from atout.arena.duplicate import deal_seed, decision_kind
    from atout.arena.stats import median, percentile
    from atout.bots import make_bot
    from atout.engine import RuleSet, new_deal

    rules = RuleSet(players)
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for i in range(deals):
        dseed = deal_seed(seed, i)
        deal = new_deal(rules, i % players, dseed)
        me = i % players
        bots = [make_bot(level if s == me else others, f"{dseed}/seat/{s}") for s in range(players)]
        while not deal.is_over:
            seat = deal.to_act
            obs = deal.observation(seat)
            w0, c0 = time.perf_counter(), time.process_time()
            action = bots[seat].choose(obs)
            w1, c1 = time.perf_counter(), time.process_time()
            if seat == me:
                kind = decision_kind(obs)
                wall.setdefault(kind, []).append(w1 - w0)
                cpu.setdefault(kind, []).append(c1 - c0)
            deal.apply(action, seat=seat)
    out = {}
    for kind in KINDS:
        if kind in cpu:
            out[kind] = {
                "count": len(cpu[kind]),
                "cpu": {"median": median(cpu[kind]), "p99": percentile(cpu[kind], 99), "max": max(cpu[kind])},
                "wall": {"median": median(wall[kind]), "p99": percentile(wall[kind], 99), "max": max(wall[kind])},
            }
    return out


def _commit() -> str | None:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=None, help=f"runs among {', '.join(RUNS)}")
    ap.add_argument("--deals-scale", type=float, default=1.0)
    ap.add_argument(
        "--seeding",
        choices=("common", "level"),
        default="common",
        help="the robots' seeds (atout arena --seeding): level reproduces the runs made before issue 39",
    )
    ap.add_argument("--table-only", action="store_true", help="rewrite strength-table.md from the JSON files")
    ap.add_argument(
        "--compare",
        nargs=2,
        metavar=("BEFORE", "AFTER"),
        help="two arena JSON files on the same seed: AFTER minus BEFORE, paired by deal and seat",
    )
    ap.add_argument(
        "--times",
        nargs=2,
        type=int,
        metavar=("PLAYERS", "DEALS"),
        help="time the expert's decisions per kind (CPU and wall clock) in one process, one "
        "expert among heuristic robots; writes strength-times-<players>.json",
    )
    args = ap.parse_args()
    if args.times:
        players, deals = args.times
        seed = f"i12b-times-{players}"
        times = decision_times(players, deals, seed)
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        data = {
            "players": players,
            "deals": deals,
            "seed": seed,
            "commit": _commit(),
            "load_after": load,
            "python": sys.version.split()[0],
            "kinds": times,
        }
        (RESULTS / f"strength-times-{players}.json").write_text(json.dumps(data, indent=1) + "\n")
        for kind, t in times.items():
            print(
                f"{players}p {kind}: {t['count']} decisions; CPU median / p99 / max "
                f"{_ms(t['cpu']['median'])} / {_ms(t['cpu']['p99'])} / {_ms(t['cpu']['max'])} ms; wall "
                f"{_ms(t['wall']['median'])} / {_ms(t['wall']['p99'])} / {_ms(t['wall']['max'])} ms"
            )
        return 0
    if args.compare:
        print(compare(*args.compare))
        return 0
    unknown = [n for n in args.only or [] if n not in RUNS]
    if unknown:
        ap.error(f"unknown run(s) {', '.join(unknown)}; runs are {', '.join(RUNS)}")
    invocation = "python benchmarks/strength.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    if args.table_only:
        (RESULTS / "strength-table.md").write_text(table(invocation))
        return 0
    RESULTS.mkdir(parents=True, exist_ok=True)
    for name in args.only or RUNS:  # a yardstick is built now, before any run (its workers then find it)
        for entrant in RUNS[name][1:3]:
            if (why := entrant_error(entrant)) is not None:
                ap.error(f"run {name}: {why}")
    for name in args.only or RUNS:
        players, cand, base, deals, seed = RUNS[name]
        deals = max(1, int(deals * args.deals_scale))
        print(f"== {name}: {command(name, args.jobs, deals, seeding=args.seeding)}", flush=True)
        records = run_arena(
            players, cand, base, deals, seed, jobs=args.jobs, progress=stderr_progress, seeding=args.seeding
        )
        config = {
            "players": players,
            "candidate": cand,
            "baseline": base,
            "deals": deals,
            "start": 0,
            "seed": seed,
            "seeding": args.seeding,
            "budget": None,
            "jobs": args.jobs,
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "machine": platform.machine(),
            "commit": _commit(),
            "invocation": invocation,
        }
        summary = summarize(records)
        write_json(str(RESULTS / f"strength-{name}.json"), config, summary, records)
        print(report(summary, config), flush=True)
        (RESULTS / "strength-table.md").write_text(table(invocation))
    return 0


if __name__ == "__main__":
    sys.exit(main())
