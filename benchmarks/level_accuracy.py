"""The robots' levels on a person's scale: the points each level's choices lose a deal against the expert (issue 50).

    nice -n 10 python benchmarks/level_accuracy.py --deals 24 --write     # the committed run (about 25 min of CPU)
    python benchmarks/level_accuracy.py --summarize benchmarks/results/level_accuracy.json  # again, no run

A profile's insights (``server/features/insights.py``) say how a person's play compares with the robots'
("your play in defence is near the club robot's"). For that, each level is measured exactly as a person is:
deals played by four (three, five) robots of the level, every seat's every decision scored by the site's own
analysis (``bots.analysis.analyse_point``, the site's seed and eight times the expert's worlds), and the costs
summed by ``bots.accuracy.accuracy``: a choice within the search's noise costs nothing. A phase's figure is the
points lost a deal over the deals where the seat decided there (the insights' rule: the bid every deal, the
écart and the play as taker the deals taken, the play as partner or in defence the deals on that side), with
its 95% interval over those deals.

Written: the JSON of every seat's accuracy (``--out``), the table printed (``benchmarks/results/level_accuracy.md``
keeps it), and with ``--write`` the figures the server reads (``src/atout/bots/level_accuracy.json``: each
level's points lost a deal by table size and phase, and how many deals each figure stands on).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from atout.arena.stats import mean_ci
from atout.bots import make_bot
from atout.bots.accuracy import PHASE_ROLES, PHASES, accuracy, record_roles
from atout.bots.analysis import WORLDS_FACTOR, analyse_point, decision_points
from atout.bots.levels_figures import FIGURES_PATH
from atout.bots.warm import warm_up
from atout.engine import RuleSet, new_deal
from atout.engine.record import to_record

RESULTS = Path(__file__).parent / "results"
SEED = "analysis"  # the site's seed: the same worlds as the site's analysis
LEVELS = ("beginner", "club", "expert")
"""The levels a table offers people (``random`` is a test's robot, ``heuristic`` the club's old name)."""


def one(task: tuple[int, str, int]) -> dict[str, Any]:
    """Deal ``index`` at ``players`` seats played by robots of ``level``; each seat's accuracy in it."""
    players, level, index = task
    warm_up()
    deal_seed = f"levels/{players}/{index}"
    deal = new_deal(RuleSet(players), index % players, deal_seed)  # the same deals for every level
    bots = [make_bot(level, f"{deal_seed}/{level}/{s}") for s in range(players)]
    while deal.to_act is not None:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat)
    record = to_record(deal)
    roles = record_roles(record)
    began = time.process_time()
    seats = []
    for seat in range(players):
        scored = []
        for point in decision_points(record, [seat]):
            decision = analyse_point(point, SEED, WORLDS_FACTOR)
            if decision is not None:
                scored.append({"phase": str(point.kind), "loss": decision.loss, "interval": list(decision.interval)})
        found = accuracy(scored, roles[seat])
        seats.append({"seat": seat, "role": roles[seat], "loss": found.total, "phases": found.phases})
    return {
        "players": players,
        "level": level,
        "index": index,
        "void": bool(deal.result and deal.result.void),
        "seconds": round(time.process_time() - began, 2),
        "seats": seats,
    }


def _figure(values: list[float]) -> dict[str, Any]:
    ci = mean_ci(values)
    low, high = (ci["low"], ci["high"]) if ci["low"] is not None else (ci["mean"], ci["mean"])
    return {"loss": round(ci["mean"], 2), "interval": [round(low, 2), round(high, 2)], "deals": len(values)}


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Each level's points lost a deal, by table size and phase, with its interval and its deals."""
    figures: dict[str, dict[str, dict[str, Any]]] = {}
    for level in sorted({r["level"] for r in results}, key=LEVELS.index):
        for players in sorted({r["players"] for r in results}):
            deals = [r for r in results if r["level"] == level and r["players"] == players]
            seats = [s for r in deals for s in r["seats"]]  # a deal nobody took counts in the bid only, as a person's
            size: dict[str, Any] = {}
            for phase in PHASES:
                roles = PHASE_ROLES[phase]
                values = [s["phases"][phase] for s in seats if roles is None or s["role"] in roles]
                if values:
                    size[phase] = _figure(values)
            every = [s["loss"] for s in seats]
            if every:
                size["all"] = _figure(every)
            size["cpu_s"] = round(sum(r["seconds"] for r in deals), 1)
            figures.setdefault(level, {})[str(players)] = size
    return figures


def report(figures: dict[str, Any]) -> str:
    lines = [
        "| level | players | every deal | bid | écart | play as taker | as partner | in defence | seat-deals | CPU s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]

    def cell(part: dict[str, Any] | None) -> str:
        if not part:
            return "—"
        low, high = part["interval"]
        return f"{part['loss']:.1f} [{low:.1f}, {high:.1f}]"

    for level, sizes in figures.items():
        for players, size in sizes.items():
            lines.append(
                f"| {level} | {players} | {cell(size.get('all'))} | "
                + " | ".join(cell(size.get(p)) for p in PHASES)
                + f" | {size.get('all', {}).get('deals', 0)} | {size['cpu_s']} |"
            )
    return "\n".join(lines)


def package_figures(figures: dict[str, Any], command: str) -> dict[str, Any]:
    """What the server reads: each level's points lost a deal by table size and phase, and the deals behind each."""
    return {
        "command": command,
        "levels": {
            level: {
                players: {p: [size[p]["loss"], size[p]["deals"]] for p in (*PHASES, "all") if p in size}
                for players, size in sizes.items()
            }
            for level, sizes in figures.items()
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6, help="deals per level and table size (default 6)")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=LEVELS)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, default=RESULTS / "level_accuracy.json")
    parser.add_argument("--write", action="store_true", help=f"write the server's figures ({FIGURES_PATH.name})")
    parser.add_argument("--summarize", type=Path, help="summarize a run's JSON again, without playing")
    args = parser.parse_args(argv)
    command = "python benchmarks/level_accuracy.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    if args.summarize:
        kept = json.loads(args.summarize.read_text())
        print(report(summarize(kept["results"])))
        return 0
    tasks = [(n, level, i) for n in args.players for level in args.levels for i in range(args.deals)]
    started = time.perf_counter()
    results = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for done, result in enumerate(pool.map(one, tasks), 1):
            results.append(result)
            print(f"\r{done}/{len(tasks)} deals analysed", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    figures = summarize(results)
    meta = {
        "command": command,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "wall_s": round(time.perf_counter() - started, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({**meta, "figures": figures, "results": results}, indent=1) + "\n")
    if args.write:
        FIGURES_PATH.write_text(json.dumps(package_figures(figures, command), indent=1, sort_keys=True) + "\n")
    print(f"{command}\n{meta['machine']}; {meta['wall_s']} s\n")
    print(report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
