"""A game between robots, printed deal by deal (the stand-in for the terminal game)."""

from __future__ import annotations

import argparse

from ..bots import make_bot
from ..engine import RuleSet, new_deal
from ..engine.cards import french_name


def robots_game(args: argparse.Namespace) -> int:
    players = args.players or 4
    rules = RuleSet(players)
    deals = args.deals or 3
    bots = [make_bot(args.level or "random", f"{args.seed}/{s}") for s in range(players)]
    totals = [0] * players
    dealer = 0
    played = 0
    n = 0
    while played < deals:
        seed = None if args.seed is None else f"{args.seed}/{n}"
        deal = new_deal(rules, dealer, seed)
        n += 1
        while not deal.is_over:
            seat = deal.to_act
            deal.apply(bots[seat].choose(deal.observation(seat)), seat=seat)
        result = deal.result
        print(f"Deal {n} (seed {deal.seed}, dealer {dealer})")
        if result.void:
            print(f"  void: {result.void}")
        else:
            print(f"  seat {result.taker} takes a {result.contract}; "
                  f"{result.points:g} points with {result.bouts} bouts (needs {result.target}): "
                  f"{'made' if result.made else 'failed'} by {result.margin}")
            for trick in deal.tricks:
                plays = "  ".join(f"{s}:{french_name(c)}" for s, c in trick.plays)
                print(f"    {plays}   → seat {trick.winner}")
            totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
            played += 1
            print("  scores: " + "  ".join(f"{s:+d}" for s in result.scores))
        dealer = (dealer + 1) % players
    print("Totals: " + "  ".join(f"seat {i}: {t:+d}" for i, t in enumerate(totals)))
    return 0
