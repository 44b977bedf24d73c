"""The analysis's losses by robot level: what the marks' thresholds are chosen from.

    nice -n 10 python benchmarks/analysis.py --deals 300 --jobs 2      # benchmarks/results/analysis.json
    python benchmarks/analysis.py --deals 8 --levels expert,random --out /tmp/a.json   # a quick look
    python benchmarks/analysis.py --summarize benchmarks/results/analysis.json   # again, with today's MARKS

The same deals (a seed per deal) are played by four robots of one level, for each level; one seat
per deal (seats in turn) is analysed (``bots.analysis``), and every decision's expected loss is
kept.  Printed and written: per level, the mean loss per decision with a 95% interval (bootstrap
over deals: the decisions of one deal are not independent), the spread of the losses (percentiles
and a histogram), the mean by kind of decision, how often each mark would be given, and the
seconds one seat's analysis took (inside the worker, on one core).  A lower level must lose more
per decision than the expert; the thresholds in ``analysis.MARKS`` are read off these spreads
(docs/analysis.md).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import random
import shlex
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from atout.arena.stats import mean_ci, percentile
from atout.bots import make_bot
from atout.bots.analysis import MARKS, WORLDS_FACTOR, analyse, mark_for
from atout.engine import RuleSet, new_deal
from atout.engine.record import to_record

RESULTS = Path(__file__).parent / "results"
LEVELS = ("expert", "club", "beginner", "random")
BUCKETS = (0.5, 2, 5, 10, 15, 20, 30, 40, 60, 80, 120)
QUANTILES = (50, 75, 90, 95, 97.5, 99, 99.5, 99.9)


def one(task: tuple[int, str, str, int, int]) -> dict[str, Any]:
    """Deal ``index`` played by robots of ``level``, and one seat of it analysed."""
    players, level, seed, index, factor = task
    dealer = index % players
    deal_seed = f"{seed}/deal/{index}"
    deal = new_deal(RuleSet(players), dealer, deal_seed)
    bots = [make_bot(level, f"{deal_seed}/{level}/{s}") for s in range(players)]
    while deal.to_act is not None:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat)
    seat = index % players
    start = time.process_time()
    analysis = analyse(to_record(deal), seats=[seat], seed=f"{seed}/analysis/{index}", factor=factor)
    seconds = time.process_time() - start
    return {
        "level": level,
        "index": index,
        "seat": seat,
        "seconds": round(seconds, 3),
        "void": deal.result.void is not None if deal.result else None,
        "decisions": [
            {
                "kind": str(d.kind),
                "loss": round(d.loss, 2),
                "low": round(d.interval[0], 2),
                "high": round(d.interval[1], 2),
            }
            for d in analysis.decisions
        ],
    }


def _ratio_ci(deals: list[dict], rng: random.Random, rounds: int = 2000) -> dict[str, Any]:
    """Mean loss per decision over ``deals`` (total loss / total decisions) and a bootstrap 95%
    interval, resampling whole deals."""
    sums = [(sum(d["loss"] for d in x["decisions"]), len(x["decisions"])) for x in deals]
    sums = [s for s in sums if s[1]]
    total = sum(s for s, _ in sums)
    count = sum(n for _, n in sums)
    if not count:
        return {"mean": None, "low": None, "high": None, "decisions": 0, "deals": 0}
    boot = []
    for _ in range(rounds):
        pick = [sums[rng.randrange(len(sums))] for _ in sums]
        n = sum(c for _, c in pick)
        boot.append(sum(s for s, _ in pick) / n if n else 0.0)
    boot.sort()
    return {
        "mean": round(total / count, 3),
        "low": round(boot[int(0.025 * rounds)], 3),
        "high": round(boot[int(0.975 * rounds) - 1], 3),
        "decisions": count,
        "deals": len(sums),
    }


def summarize(results: list[dict], levels: list[str]) -> dict[str, Any]:
    rng = random.Random(0)
    out: dict[str, Any] = {}
    for level in levels:
        deals = [r for r in results if r["level"] == level]
        decisions = [d for r in deals for d in r["decisions"]]
        losses = [d["loss"] for d in decisions]
        histogram = {}
        lower = 0.0
        for upper in (*BUCKETS, float("inf")):
            name = f"[{lower:g}, {upper:g})"
            histogram[name] = sum(1 for v in losses if lower <= v < upper)
            lower = upper
        kinds = sorted({d["kind"] for d in decisions})
        marks = {}
        for mark, least in MARKS:
            given = [d for d in decisions if mark_for(d["loss"], d["low"]) == mark]
            by_loss = sum(1 for d in decisions if mark_for(d["loss"], 1.0) == mark)
            marks[str(mark)] = {
                "at_least": least,
                "count": len(given),
                "per_deal": round(len(given) / len(deals), 3) if deals else None,
                "per_decision": round(len(given) / len(decisions), 4) if decisions else None,
                "by_loss_alone": by_loss,
            }
        seconds = [r["seconds"] for r in deals if r["decisions"]]
        out[level] = {
            "per_decision": _ratio_ci(deals, rng),
            "per_card": mean_ci([d["loss"] for d in decisions if d["kind"] == "card"]),
            "by_kind": {k: mean_ci([d["loss"] for d in decisions if d["kind"] == k]) for k in kinds},
            "quantiles": {str(q): percentile(losses, q) for q in QUANTILES},
            "max": max(losses, default=None),
            "histogram": histogram,
            "marks": marks,
            "interval_excludes_zero": sum(1 for d in decisions if d["low"] > 0),
            "seconds_per_seat": {
                "mean": round(sum(seconds) / len(seconds), 2) if seconds else None,
                "p95": percentile(seconds, 95),
                "max": max(seconds, default=None),
            },
        }
    return out


def report(summary: dict[str, Any]) -> str:
    lines = [
        "level     decisions  loss/decision [95%]        p50   p90   p95   p99  p99.9   max   s/seat (mean, p95, max)"
    ]
    for level, s in summary.items():
        pd, q, t = s["per_decision"], s["quantiles"], s["seconds_per_seat"]
        if pd["mean"] is None:
            continue
        lines.append(
            f"{level:<9} {pd['decisions']:>9}  {pd['mean']:6.2f} [{pd['low']:5.2f}, {pd['high']:5.2f}]"
            f"   {q['50']:5.1f} {q['90']:5.1f} {q['95']:5.1f} {q['99']:5.1f} {q['99.9']:6.1f} {s['max']:5.1f}"
            f"   {t['mean']}, {t['p95']}, {t['max']}"
        )
    lines.append("")
    lines.append("histogram of losses (points):")
    for level, s in summary.items():
        lines.append(f"  {level:<9} " + "  ".join(f"{k} {v}" for k, v in s["histogram"].items()))
    lines.append("")
    lines.append("marks per deal (one seat) and per decision (the loss's interval above 0; by the loss alone):")
    for level, s in summary.items():
        lines.append(
            f"  {level:<9} "
            + "  ".join(
                f"{m} {v['per_deal']} ({v['per_decision']:.2%}; {v['by_loss_alone']})" for m, v in s["marks"].items()
            )
        )
    lines.append("")
    lines.append("mean loss by kind of decision:")
    for level, s in summary.items():
        lines.append(
            f"  {level:<9} "
            + "  ".join(f"{k} {v['mean']:.2f} (n={v['n']})" for k, v in s["by_kind"].items() if v["mean"] is not None)
        )
    return "\n".join(lines)


def _deals_path(summary: Path) -> Path:
    """Where every analysed decision of a run is kept, beside its summary (``--summarize`` reads it)."""
    return summary.with_name(summary.stem + "-deals.json.gz")


def _read_deals(summary: Path) -> list[dict]:
    with gzip.open(_deals_path(summary), "rt", encoding="utf-8") as f:
        return json.load(f)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--deals", type=int, default=200, help="deals per level (default 200)")
    parser.add_argument("--levels", default=",".join(LEVELS), help=f"default {','.join(LEVELS)}")
    parser.add_argument("--seed", default="i24-analysis")
    parser.add_argument(
        "--factor",
        type=int,
        default=WORLDS_FACTOR,
        help=f"worlds: the expert's times this (default {WORLDS_FACTOR}, the analysis's own)",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=str(RESULTS / "analysis.json"))
    parser.add_argument(
        "--summarize",
        metavar="FILE",
        default=None,
        help="print and rewrite FILE's summary from the deals it holds (no run; default: run)",
    )
    args = parser.parse_args(argv)
    if args.summarize:
        data = json.loads(Path(args.summarize).read_text(encoding="utf-8"))
        levels = list(data["levels"])
        data["levels"] = summarize(_read_deals(Path(args.summarize)), levels)
        data["marks"] = {str(m): v for m, v in MARKS}
        print(report(data["levels"]))
        Path(args.summarize).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        return 0
    levels = args.levels.split(",")
    tasks = [(args.players, level, args.seed, i, args.factor) for level in levels for i in range(args.deals)]
    results: list[dict] = []
    start = time.time()
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, result in enumerate(pool.map(one, tasks, chunksize=1), 1):
            results.append(result)
            if done % 10 == 0 or done == len(tasks):
                print(f"\r{done}/{len(tasks)} deals, {time.time() - start:.0f} s", end="", file=sys.stderr)
    print(file=sys.stderr)
    summary = summarize(results, levels)
    text = report(summary)
    print(text)
    command = "python benchmarks/analysis.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    data = {
        "command": command,
        "players": args.players,
        "deals": args.deals,
        "seed": args.seed,
        "factor": args.factor,
        "marks": {str(m): v for m, v in MARKS},
        "jobs": args.jobs,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "wall_seconds": round(time.time() - start),
        "levels": summary,
    }
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    with gzip.open(_deals_path(Path(args.out)), "wt", encoding="utf-8") as f:
        json.dump(results, f, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
