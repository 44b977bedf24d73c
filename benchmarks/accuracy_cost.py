"""What a deal's accuracy costs: CPU seconds per seat, by phase, and what a cheaper estimate saves (issue 50).

    nice -n 10 python benchmarks/accuracy_cost.py                    # the short run: 16 deals, 2 processes
    nice -n 10 python benchmarks/accuracy_cost.py --deals 60 --out benchmarks/results/accuracy_cost-60.json
    python benchmarks/accuracy_cost.py --summarize benchmarks/results/accuracy_cost.json   # again, no run

A seat's accuracy (``bots.accuracy``) needs every decision of the seat analysed (``bots.analysis``, eight times
the expert's worlds, as the site does). Deals are played by four robots of one level (club by default: the
level nearest a person's play); every seat of each deal is analysed decision by decision, and each
decision's CPU time (``time.process_time``, inside the process: the machine's load slows the wall clock,
hardly the CPU seconds) is kept with its phase (``accuracy.PHASES``: the bid, the écart, the play as taker,
as partner, as defender).

A forced decision (one legal choice, or all alike) is found without a search (``analyse_point`` gives None
at once) and costs nothing. The cheaper estimate tried for the rest, per decision:

- ``screen``: the same decision searched over the expert's own worlds (``--screen`` times them: one
  eighth of the analysis's by default) first; when the choice taken is the screen's best, it is deemed
  obvious, costs 0 and the full search is skipped; otherwise the full search runs as before (the screen's
  seconds are then spent on top).
- ``screen-sure``: as ``screen``, but skipped only when the screen is sure the choice taken beats the next
  best (the paired 95% interval of its lead above 0: the hint's ``gain`` reason).
- ``screen-bid``: ``screen`` for the auction's decisions only (the costliest to search), the rest in full.
- ``screen-noise``: as ``screen``, but also skipped when the screen cannot tell the choice's loss from noise
  (its interval holds 0).

Each is measured on the same decisions: the CPU per seat it would take, and the accuracy it would give
against the full one (the points per seat it gets wrong, the decisions whose cost it misses). Written: the
JSON (``--out``) with every decision beside it (``*-decisions.json.gz``; ``--summarize`` reads it), and
printed: the table that ``benchmarks/results/accuracy_cost.md`` keeps.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import shlex
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from atout.arena.stats import mean_ci, percentile
from atout.bots import make_bot
from atout.bots.accuracy import PHASES, accuracy, phase_of, record_roles
from atout.bots.analysis import WORLDS_FACTOR, analyse_point, decision_points
from atout.bots.warm import warm_up
from atout.engine import RuleSet, new_deal
from atout.engine.record import to_record

RESULTS = Path(__file__).parent / "results"
SEED = "analysis"  # the site's seed: the same worlds as the site's analysis
RULES = ("full", "screen-sure", "screen-bid", "screen", "screen-noise")
SITE_DEALS_AN_HOUR = 10_000


def _scored(decision: Any) -> dict[str, Any] | None:
    """A decision's loss and interval, and whether the search was sure the choice taken beats the next best
    (its first reason a ``gain``: only when the taken choice is the best)."""
    if decision is None:
        return None
    return {
        "loss": round(decision.loss, 2),
        "interval": [round(decision.interval[0], 2), round(decision.interval[1], 2)],
        "sure": decision.loss <= 0 and bool(decision.reasons) and str(decision.reasons[0].kind) == "gain",
    }


def one(task: tuple[int, str, str, int, int, int]) -> dict[str, Any]:
    """Deal ``index`` played by robots of ``level``; each seat's every decision analysed in full and screened."""
    players, level, seed, index, factor, screen = task
    dealer = index % players
    deal_seed = f"{seed}/deal/{index}"
    deal = new_deal(RuleSet(players), dealer, deal_seed)
    bots = [make_bot(level, f"{deal_seed}/{level}/{s}") for s in range(players)]
    while deal.to_act is not None:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat)
    record = to_record(deal)
    roles = record_roles(record)
    seats = []
    for seat in range(players):
        began = time.process_time()
        decisions = []
        points = decision_points(record, [seat])
        while True:
            start = time.process_time()
            point = next(points, None)
            replayed = time.process_time() - start  # finding the decision: the record replayed to it
            if point is None:
                break
            start = time.process_time()
            full = analyse_point(point, SEED, factor)
            full_s = time.process_time() - start
            entry: dict[str, Any] = {
                "kind": str(point.kind),
                "phase": phase_of(str(point.kind), roles[seat]),
                "replay_s": round(replayed, 5),
                "full_s": round(full_s, 4),
                "full": _scored(full),
            }
            if full is not None:
                start = time.process_time()
                cheap = analyse_point(point, SEED, screen)
                entry["screen_s"] = round(time.process_time() - start, 4)
                entry["screen"] = _scored(cheap)
            decisions.append(entry)
        seats.append(
            {
                "seat": seat,
                "role": roles[seat],
                "seconds": round(time.process_time() - began, 3),
                "decisions": decisions,
            }
        )
    return {"index": index, "level": level, "void": deal.result.void if deal.result else None, "seats": seats}


# ------------------------------------------------------------------------------------------ the summary
def _skipped(rule: str, d: dict[str, Any]) -> bool:
    """Whether ``rule`` skips the full search of a decision that had a choice (it then costs 0)."""
    screen = d.get("screen")
    if rule == "full" or screen is None:  # a screen that found no world replaying the seat's view: search in full
        return False
    if rule == "screen-sure":
        return bool(screen.get("sure"))
    if rule == "screen-bid" and d["phase"] != "bid":
        return False
    if screen["loss"] <= 0:
        return True
    return rule == "screen-noise" and screen["interval"][0] <= 0


def _seat_under(rule: str, seat: dict[str, Any]) -> tuple[float, dict[str, float], Any, int]:
    """One seat's CPU seconds under ``rule``, by phase, its accuracy under it, and the full searches skipped."""
    by_phase = dict.fromkeys(PHASES, 0.0)
    scored = []
    skipped = 0
    for d in seat["decisions"]:
        cost = d["replay_s"]
        if d["full"] is None:
            cost += d["full_s"]  # the check that finds a forced decision: the same under every rule
        elif rule == "full" or (rule == "screen-bid" and d["phase"] != "bid"):  # searched in full, no screen
            cost += d["full_s"]
            scored.append({"phase": d["kind"], "loss": d["full"]["loss"], "interval": d["full"]["interval"]})
        else:
            cost += d["screen_s"]
            if _skipped(rule, d):
                skipped += 1
                scored.append({"phase": d["kind"], "loss": 0.0, "interval": [0.0, 0.0]})
            else:
                cost += d["full_s"]
                scored.append({"phase": d["kind"], "loss": d["full"]["loss"], "interval": d["full"]["interval"]})
        by_phase[d["phase"]] += cost
    return sum(by_phase.values()), by_phase, accuracy(scored, seat["role"]), skipped


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    seats = [s for r in results for s in r["seats"]]
    decisions = [d for s in seats for d in s["decisions"]]
    players = len(results[0]["seats"]) if results else 0
    out: dict[str, Any] = {
        "deals": len(results),
        "seats": len(seats),
        "decisions": len(decisions),
        "forced": sum(1 for d in decisions if d["full"] is None),
        "measured_seconds_per_seat": mean_ci([s["seconds"] for s in seats]),
        "phases": {},
        "rules": {},
    }
    for phase in PHASES:
        mine = [d for d in decisions if d["phase"] == phase]
        chosen = [d for d in mine if d["full"] is not None]
        out["phases"][phase] = {
            "decisions": len(mine),
            "forced": len(mine) - len(chosen),
            "full_s_per_decision": round(sum(d["full_s"] for d in chosen) / len(chosen), 4) if chosen else None,
            "screen_s_per_decision": round(sum(d["screen_s"] for d in chosen) / len(chosen), 4) if chosen else None,
            "obvious": sum(1 for d in chosen if _skipped("screen", d)),
        }
    full_acc = {id(s): _seat_under("full", s)[2] for s in seats}
    for rule in RULES:
        totals, errors, missed, skipped_all = [], [], 0, 0
        phases = dict.fromkeys(PHASES, 0.0)
        for s in seats:
            total, by_phase, acc, skipped = _seat_under(rule, s)
            totals.append(total)
            skipped_all += skipped
            for p in PHASES:
                phases[p] += by_phase[p]
            errors.append(abs(full_acc[id(s)].total - acc.total))
            missed += full_acc[id(s)].costly - acc.costly
        mean = sum(totals) / len(totals) if totals else 0.0
        out["rules"][rule] = {
            "seconds_per_seat": mean_ci(totals),
            "p95_seconds_per_seat": percentile(totals, 95),
            "max_seconds_per_seat": round(max(totals, default=0.0), 3),
            "by_phase_per_seat": {p: round(v / len(seats), 3) for p, v in phases.items()} if seats else {},
            "full_searches_skipped": skipped_all,
            "accuracy_error_per_seat": mean_ci(errors),
            "accuracy_error_max": round(max(errors, default=0.0), 1),
            "costly_decisions_missed": missed,
            "costly_decisions": sum(a.costly for a in full_acc.values()),
            "mean_accuracy_per_seat": round(sum(a.total for a in full_acc.values()) / len(seats), 2) if seats else None,
            "cores_for_site_every_seat": round(SITE_DEALS_AN_HOUR * players * mean / 3600, 1),
            "cores_for_site_one_seat": round(SITE_DEALS_AN_HOUR * mean / 3600, 1),
        }
    return out


def report(summary: dict[str, Any], players: int) -> str:
    s = summary
    lines = [
        f"{s['deals']} deals, {s['seats']} seats, {s['decisions']} decisions ({s['forced']} forced: no search)",
        "",
        "phase       decisions  forced  full s/decision  screen s/decision  obvious (taken = screen's best)",
    ]
    for phase, p in s["phases"].items():
        full = "-" if p["full_s_per_decision"] is None else f"{p['full_s_per_decision']:.3f}"
        screen = "-" if p["screen_s_per_decision"] is None else f"{p['screen_s_per_decision']:.3f}"
        chosen = p["decisions"] - p["forced"]
        lines.append(
            f"{phase:<10} {p['decisions']:>10} {p['forced']:>7} {full:>16} {screen:>18}  {p['obvious']} of {chosen}"
        )
    lines += [
        "",
        "CPU seconds per seat (all its decisions), by phase, and the accuracy each rule gives against the full one:",
    ]
    lines.append(
        "rule          s/seat [95%]           p95    max   "
        + "  ".join(f"{p:>7}" for p in PHASES)
        + "   error/seat [95%]        max  missed  cores@10k/h (every seat, one seat)"
    )
    for rule, r in s["rules"].items():
        t, e = r["seconds_per_seat"], r["accuracy_error_per_seat"]
        lines.append(
            f"{rule:<12} {t['mean']:6.3f} [{t['low']:.3f}, {t['high']:.3f}]"
            + f"  {r['p95_seconds_per_seat']:5.2f} {r['max_seconds_per_seat']:6.2f}   "
            + "  ".join(f"{r['by_phase_per_seat'][p]:7.3f}" for p in PHASES)
            + f"   {e['mean']:5.2f} [{e['low']:.2f}, {e['high']:.2f}]  {r['accuracy_error_max']:6.1f}"
            + f"  {r['costly_decisions_missed']:>3}/{r['costly_decisions']}"
            + f"   {r['cores_for_site_every_seat']}, {r['cores_for_site_one_seat']}"
        )
    full = s["rules"]["full"]
    lines += [
        "",
        f"mean accuracy per seat (full): -{full['mean_accuracy_per_seat']} points; cores for a site of "
        f"{SITE_DEALS_AN_HOUR:,} deals an hour at {players} players: deals x seats analysed x s/seat / 3600 s",
    ]
    return "\n".join(lines)


def _decisions_path(out: Path) -> Path:
    return out.with_name(out.stem + "-decisions.json.gz")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument(
        "--deals", type=int, default=16, help="deals, every seat of each analysed (default 16: a few minutes)"
    )
    parser.add_argument("--level", default="club", help="the robots who play the deals (default club)")
    parser.add_argument("--seed", default="i50-accuracy")
    parser.add_argument(
        "--factor",
        type=int,
        default=WORLDS_FACTOR,
        help=f"the full search's worlds, times the expert's (default {WORLDS_FACTOR})",
    )
    parser.add_argument("--screen", type=int, default=1, help="the screen's worlds, times the expert's (default 1)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=str(RESULTS / "accuracy_cost.json"))
    parser.add_argument(
        "--summarize", metavar="FILE", default=None, help="print and rewrite FILE's summary from its decisions (no run)"
    )
    args = parser.parse_args(argv)
    if args.summarize:
        data = json.loads(Path(args.summarize).read_text(encoding="utf-8"))
        with gzip.open(_decisions_path(Path(args.summarize)), "rt", encoding="utf-8") as f:
            results = json.load(f)
        data["summary"] = summarize(results)
        print(data["command"])
        print(report(data["summary"], data["players"]))
        Path(args.summarize).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        return 0
    tasks = [(args.players, args.level, args.seed, i, args.factor, args.screen) for i in range(args.deals)]
    results: list[dict[str, Any]] = []
    start = time.time()
    with ProcessPoolExecutor(args.jobs, initializer=warm_up) as pool:  # numba's code loaded before any timing
        for done, result in enumerate(pool.map(one, tasks, chunksize=1), 1):
            results.append(result)
            print(f"\r{done}/{len(tasks)} deals, {time.time() - start:.0f} s", end="", file=sys.stderr)
    print(file=sys.stderr)
    summary = summarize(results)
    command = "python benchmarks/accuracy_cost.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    print(command)
    print(report(summary, args.players))
    print(f"wall {time.time() - start:.0f} s, {args.jobs} processes")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    data = {
        "command": command,
        "players": args.players,
        "level": args.level,
        "deals": args.deals,
        "seed": args.seed,
        "factor": args.factor,
        "screen": args.screen,
        "jobs": args.jobs,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "load_at_end": load},
        "wall_seconds": round(time.time() - start),
        "summary": summary,
    }
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    with gzip.open(_decisions_path(Path(args.out)), "wt", encoding="utf-8") as f:
        json.dump(results, f, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
