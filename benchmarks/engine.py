"""Engine speed: complete random legal deals per second, on one core.

Every deal goes through every phase with the full rules: a seeded deal (the
SHA-256 stream of docs/record-format.md), bidding, the call at five, the écart, the chelem
decision, poignées when offered, every card, the Excuse exchange and the
score.  Two random players are timed:

- ``actions``: uniform over ``legal_actions()`` at every step (the general API);
- ``mask``: the same, except that from the second trick on a card is drawn
  straight from ``legal_play_mask()`` (the bitmask path robots' rollouts use).

    python benchmarks/engine.py            # 5 rounds of 2000 deals per player count
    python benchmarks/engine.py --deals 500 --rounds 3 --out ''   # quick look

Results are written to benchmarks/results/engine.json (and .md).  This VM's
timings vary by ±30% from run to run, so the best and the median round are
both printed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from atout.engine import RuleSet, new_deal
from atout.engine.actions import PLAYS
from atout.engine.choices import random_action, random_card

POLICIES = ("actions", "mask")


def play_round(players: int, deals: int, offset: int, rng: random.Random, policy: str) -> tuple[float, int, int]:
    """Play ``deals`` complete random deals; (CPU seconds, actions, void deals)."""
    rules = RuleSet(players)
    actions = voids = 0
    fast = policy == "mask"
    start = time.process_time()
    for i in range(deals):
        deal = new_deal(rules, i % players, seed=f"bench/{players}/{offset + i}")
        while not deal.is_over:
            if fast and deal.tricks and deal.phase == "play":
                deal.apply(PLAYS[random_card(deal.legal_play_mask(), rng)])
            else:
                deal.apply(random_action(deal.legal_actions(), rng))
            actions += 1
        if deal.void:
            voids += 1
    return time.process_time() - start, actions, voids


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "engine.json"))
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    rng = random.Random(2026)
    results = []
    print(f"{'players':>7} {'policy':>8} {'best deals/s':>13} {'median':>8} {'actions/s':>10} {'void %':>7}")
    for players in args.players:
        for policy in POLICIES:
            play_round(players, 200, 10**6, rng, policy)  # warm the caches
        rates: dict[str, list[float]] = {p: [] for p in POLICIES}
        action_rates: dict[str, list[float]] = {p: [] for p in POLICIES}
        void_share = []
        for r in range(args.rounds):
            for policy in POLICIES:  # interleaved, so that both see the same machine
                seconds, actions, voids = play_round(players, args.deals, r * args.deals, rng, policy)
                rates[policy].append(args.deals / seconds)
                action_rates[policy].append(actions / seconds)
                void_share.append(voids / args.deals)
            print(f"  {players} players, round {r + 1}/{args.rounds}: "
                  + ", ".join(f"{p} {rates[p][-1]:,.0f}" for p in POLICIES) + " deals/s", file=sys.stderr)  # fmt: skip
        for policy in POLICIES:
            row = {
                "players": players,
                "policy": policy,
                "best_deals_per_s": round(max(rates[policy])),
                "median_deals_per_s": round(statistics.median(rates[policy])),
                "median_actions_per_s": round(statistics.median(action_rates[policy])),
                "void_share": round(statistics.mean(void_share), 4),
                "rounds": [round(x) for x in rates[policy]],
            }
            results.append(row)
            print(f"{players:>7} {policy:>8} {row['best_deals_per_s']:>13,} {row['median_deals_per_s']:>8,} "
                  f"{row['median_actions_per_s']:>10,} {100 * row['void_share']:>6.1f}%")  # fmt: skip
    if args.out:
        meta = {
            "command": "python benchmarks/engine.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "deals_per_round": args.deals,
            "rounds": args.rounds,
        }
        Path(args.out).write_text(json.dumps({"meta": meta, "results": results}, indent=2) + "\n")
        print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
