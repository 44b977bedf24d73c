"""Running an arena: deals over processes, progress on stderr, the summary and its JSON."""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from .duplicate import play_duplicate
from .engines import EngineSettings, close_engines
from .stats import contract_table, decision_times_by_kind, mean_ci, median, rate


def summarize(records: list[dict]) -> dict:
    """Points per deal with a 95% CI (per deal: the mean over the candidate's seats),
    split by the candidate's role, taker success rates, and decision times."""
    per_deal = [sum(s["diff"] for s in r["seats"]) / len(r["seats"]) for r in records]
    by_role: dict[str, list[int]] = {}
    taker_made = taker_total = base_made = base_total = 0
    times: list[float] = []
    for r in records:
        for s in r["seats"]:
            by_role.setdefault(s["role"], []).append(s["diff"])
            if s["role"] == "taker":
                taker_total += 1
                taker_made += bool(s["made"])
            if s["baseline_role"] == "taker":
                base_total += 1
                base_made += bool(s["baseline_made"])
            times.extend(s["times"])
    return {
        "deals": len(records),
        "points_per_deal": mean_ci(per_deal),
        "by_role": {role: mean_ci(v) for role, v in sorted(by_role.items())},
        "taker_success": {
            "candidate": rate(taker_made, taker_total),
            "candidate_takes": taker_total,
            "baseline": rate(base_made, base_total),
            "baseline_takes": base_total,
        },
        "decision_seconds": {
            "count": len(times),
            "median": median(times),
            "max": max(times) if times else None,
            "mean": sum(times) / len(times) if times else None,
        },
        "decision_by_kind": decision_times_by_kind(records),
        "contracts": contract_table(records),
        "faults": fault_table(records),
    }


def fault_table(records: list[dict]) -> dict[str, dict[str, int]]:
    """Engine failures per entrant ("candidate", "baseline") and kind, with the playings they touched."""
    out: dict[str, dict[str, int]] = {}
    for r in records:
        touched: set[tuple[str, object]] = set()
        for f in r.get("faults", ()):
            row = out.setdefault(f["engine"], {"playings": 0})
            row[f["kind"]] = row.get(f["kind"], 0) + 1
            if (f["engine"], f["game"]) not in touched:
                touched.add((f["engine"], f["game"]))
                row["playings"] += 1
    return out


def _fmt(ci: dict) -> str:
    if ci["mean"] is None:
        return "n/a"
    if ci["low"] is None:
        return f"{ci['mean']:+.1f}"
    return f"{ci['mean']:+.1f}  [95% CI {ci['low']:+.1f} .. {ci['high']:+.1f}]  (n={ci['n']})"


ROLE_WORDS = {
    "taker": "as taker",
    "partner": "as the taker's partner",
    "defender": "as defender",
    # The candidate's seat in a deal that was void with it seated (all passed, or a petit sec):
    # it scores 0 there, so this is minus what the baseline scored in that seat on the same cards.
    "void": "where the deal was void (all passed: 0, against the baseline's score there)",
}
"""The summary's roles in words: "as void" alone said nothing to a reader."""


def report(summary: dict, config: dict) -> str:
    """The human-readable summary printed at the end of a run."""
    lines = [
        f"{config['candidate']} vs {config['baseline']}, {config['players']} players, "
        f"{summary['deals']} duplicate deal{'' if summary['deals'] == 1 else 's'}, seed {config['seed']}"
        + (f", {config['seeding']} seeding" if config.get("seeding") else ""),
        f"points per deal: {_fmt(summary['points_per_deal'])}",
    ]
    for role, ci in summary["by_role"].items():
        lines.append(f"  {ROLE_WORDS.get(role, 'as ' + role)}: {_fmt(ci)}")
    ts = summary["taker_success"]
    if ts["candidate"] is not None:
        lines.append(f"taker success: candidate {ts['candidate']:.1%} of {ts['candidate_takes']}"
                     + (f", baseline {ts['baseline']:.1%} of {ts['baseline_takes']}"
                        if ts["baseline"] is not None else ""))  # fmt: skip
    d = summary["decision_seconds"]
    if d["count"]:
        lines.append(f"candidate decisions: {d['count']}, median {d['median'] * 1000:.2f} ms, "
                     f"max {d['max'] * 1000:.1f} ms")  # fmt: skip
    for kind, k in summary.get("decision_by_kind", {}).items():
        lines.append(f"  {kind}: {k['count']}, median {k['median'] * 1000:.1f} ms, "
                     f"p99 {k['p99'] * 1000:.1f} ms, max {k['max'] * 1000:.1f} ms")  # fmt: skip
    for who, row in summary.get("faults", {}).items():
        kinds = ", ".join(f"{n} {kind}" for kind, n in row.items() if kind != "playings")
        lines.append(
            f"{who} engine faults: {kinds}, in {row['playings']} playing"
            f"{'' if row['playings'] == 1 else 's'} finished by the heuristic for its seat"
        )
    if config.get("engine_logs"):
        lines.append(f"engines' stderr: {config['engine_logs']}")
    return "\n".join(lines)


def run_arena(
    players: int,
    candidate: str,
    baseline: str,
    deals: int,
    seed: str,
    budget: float | None = None,
    jobs: int = 1,
    progress: Callable[[int, int, float], None] | None = None,
    start: int = 0,
    engines: EngineSettings | None = None,
    seeding: str = "common",
) -> list[dict]:
    """Play deals ``start .. start + deals - 1`` (robots seeded by ``seeding``: ``duplicate.SEEDINGS``);
    records come back in deal order.  Engines (``cmd:COMMAND`` entrants) are said quit at the end."""
    task = partial(play_duplicate, players, candidate, baseline, seed, budget=budget, engines=engines, seeding=seeding)
    indices = range(start, start + deals)
    records: list[dict] = []
    t0 = time.monotonic()
    if jobs > 1:
        # ProcessPoolExecutor, not Pool: a worker that dies (killed, out of memory) raises BrokenProcessPool
        # here instead of leaving the run waiting forever for its deal
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            for rec in pool.map(task, indices):
                records.append(rec)
                if progress:
                    progress(len(records), deals, time.monotonic() - t0)
    else:
        try:
            for i in indices:
                records.append(task(i))
                if progress:
                    progress(len(records), deals, time.monotonic() - t0)
        finally:
            close_engines()
    return records


_last_progress = [0.0]


def stderr_progress(done: int, total: int, elapsed: float) -> None:
    """One line rewritten in place, at most every half second (and at the end)."""
    if done < total and elapsed - _last_progress[0] < 0.5 and done > 1:
        return
    _last_progress[0] = elapsed
    eta = elapsed / done * (total - done) if done else 0
    end = "\n" if done == total else ""
    sys.stderr.write(f"\r  {done}/{total} deals  {elapsed:6.0f}s elapsed  ~{eta:5.0f}s left{end}")
    sys.stderr.flush()


def write_json(path: str, config: dict, summary: dict, records: list[dict]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"config": config, "summary": summary, "deals": records}, f, indent=1)
        f.write("\n")
