"""How often the analysis marks the hint's own choice (issue 46, item 5).

    nice -n 10 python benchmarks/hint_agreement.py --positions 300     # benchmarks/results/hint_agreement.md
    nice -n 10 python benchmarks/hint_agreement.py --positions 150 --kinds ecart --pool 1 \
        --out benchmarks/results/hint_agreement_ecart.md                # écarts only (few among 300 drawn)

Positions come from robots' games: deals played by four club robots (a seed per deal, 4 players), every
decision with a real choice of every seat (the record's places, as the analysis finds them:
``analysis.decision_points``), 300 of them drawn by a seeded generator (first cards with a poignée
to show are left out: the old hint answered them with a card, which the analysis scores as two decisions).
For each, three hints are scored by the site's analysis (seed ``analysis``, 8 times the expert's worlds):

- *before*: the terminal's hint as it was (``ExpertBot("…/hint/N").choose``: the expert's own worlds,
  its own generator, its own candidates);
- *after*: ``bots.hint`` (the analysis's search of the same decision, same seed);
- *after, another seed*: the same hint scored by an analysis of another seed (``analysis-b``): what is
  left when the worlds differ, the analysis's own noise.

Printed and written: the share of hints marked (any mark, and each mark) and the mean loss, with the
command, the machine and the seconds taken.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from atout.arena.stats import mean_ci
from atout.bots import make_bot
from atout.bots.analysis import Point, analyse_point, decision_points
from atout.bots.expert import ExpertBot
from atout.bots.hint import hint
from atout.bots.warm import warm_up
from atout.engine import Play, Poignee, RuleSet, new_deal
from atout.engine.kinds import DecisionKind
from atout.engine.record import to_record

RESULTS = Path(__file__).parent / "results"


def positions(count: int, seed: str, kinds: set[str] | None = None, pool: float = 4) -> list[Point]:
    """``count`` decisions with a choice (of ``kinds``: default any), drawn from ``pool`` times as many found
    in club robots' deals."""
    found: list[Point] = []
    deal_index = 0
    while len(found) < pool * count:
        deal = new_deal(RuleSet(4), deal_index % 4, f"{seed}/deal/{deal_index}")
        bots = [make_bot("club", f"{seed}/{deal_index}/{s}") for s in range(4)]
        while deal.to_act is not None:
            s = deal.to_act
            deal.apply(bots[s].choose(deal.observation(s)), s)
        offered = {p.index for p in decision_points(to_record(deal)) if p.kind is DecisionKind.POIGNEE}
        found += [
            p
            for p in decision_points(to_record(deal))
            if p.kind is not DecisionKind.POIGNEE
            and p.index not in offered
            and (p.kind is DecisionKind.ECART or len(p.observation.legal) > 1)  # an écart is one choice of many
            and (kinds is None or str(p.kind) in kinds)
        ]
        deal_index += 1
    return random.Random(seed).sample(found, count)


def scored(point: Point, action: Any, seed: str) -> tuple[float, str | None]:
    decision = analyse_point(Point(point.seat, point.index, point.kind, point.observation, action), seed)
    if decision is None:
        return 0.0, None
    return decision.loss, None if decision.mark is None else str(decision.mark)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", default="hint-agreement")
    parser.add_argument(
        "--kinds", default=None, help="decision kinds to draw from, comma-separated (bid, ecart, card…)"
    )
    parser.add_argument("--pool", type=float, default=4, help="draw from this many times the positions found")
    parser.add_argument("--out", default=str(RESULTS / "hint_agreement.md"))
    args = parser.parse_args()
    warm_up()
    started = time.perf_counter()
    points = positions(args.positions, args.seed, set(args.kinds.split(",")) if args.kinds else None, args.pool)
    print(f"{len(points)} positions drawn ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    rows: dict[str, list[tuple[float, str | None]]] = {"before": [], "after": [], "after, another seed": []}
    kinds: dict[str, int] = {}
    for n, point in enumerate(points):
        kinds[str(point.kind)] = kinds.get(str(point.kind), 0) + 1
        old = ExpertBot(f"{args.seed}/hint/{n}").choose(point.observation)
        if type(old) is Poignee or (point.kind is DecisionKind.CARD and type(old) is not Play):
            continue
        rows["before"].append(scored(point, old, "analysis"))
        new = hint(point.observation, point.index, seconds=None)
        rows["after"].append(scored(point, new.action, "analysis"))
        rows["after, another seed"].append(scored(point, new.action, "analysis-b"))
        if (n + 1) % 25 == 0:
            print(f"{n + 1}/{len(points)}", file=sys.stderr)
    seconds = time.perf_counter() - started
    lines = [
        "# The analysis marks the hint's own choice: how often (issue 46, item 5)",
        "",
        f"Command: `{' '.join(['python', *map(shlex.quote, sys.argv)])}` "
        f"({len(points)} positions of club robots' deals at 4 players, {sorted(kinds.items())}; "
        f"{seconds:.0f} s on {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}).",
        "",
        "| hint scored by the "
        "site's analysis | positions | marked | inaccuracy | mistake | blunder | mean loss [95%] |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, got in rows.items():
        n = len(got)
        marks = [m for _, m in got if m is not None]
        ci = mean_ci([loss for loss, _ in got])
        lines.append(
            f"| {name} | {n} | {len(marks)} ({100 * len(marks) / n:.1f}%) | "
            + " | ".join(str(marks.count(m)) for m in ("inaccuracy", "mistake", "blunder"))
            + f" | {ci['mean']:.2f} [{ci['low']:.2f}, {ci['high']:.2f}] |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
