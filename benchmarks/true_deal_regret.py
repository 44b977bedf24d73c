"""Where the expert gives points away against the true deal: a diagnostic of its card play.

    python benchmarks/true_deal_regret.py --players 4 --deals 60 --role taker

The expert takes one seat among heuristic robots (the seat that takes in the all-heuristic game,
or a defender of it); at each of its card decisions with more than two cards in hand, every legal
card is scored by a rollout in the true deal (the rules of thumb for every later card,
``fastplay.card_values``), and the regret is the best card's score minus the chosen card's.
Printed per game, by trick and by kind of card (lead or follow, suit or trump).  The true deal's
best card is not a card anyone could know to play: the figure says where information would pay,
not a level.
"""

from __future__ import annotations

import argparse
import collections

import numpy as np

from atout.bots import fastplay, make_bot
from atout.bots.rollout import shown_voids
from atout.engine import Play, RuleSet, new_deal
from atout.engine.cards import cards_of


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--role", choices=("taker", "defender"), default="taker")
    ap.add_argument("--seed", default="regret")
    args = ap.parse_args()
    rules = RuleSet(args.players)
    by_trick: dict[int, int] = collections.defaultdict(int)
    by_kind: dict[str, int] = collections.defaultdict(int)
    games = 0
    for i in range(args.deals):
        seed = f"{args.seed}{i}"
        base = new_deal(rules, i % args.players, seed)
        robots = [make_bot("heuristic", s) for s in range(args.players)]
        while base.phase in ("bidding", "petit_sec", "call"):
            s = base.to_act
            base.apply(robots[s].choose(base.observation(s)), s)
        if base.taker is None:
            continue
        if args.role == "taker":
            seat = base.taker
        else:
            seat = next(s for s in base.seats if s not in (base.taker, base.partner))
        deal = new_deal(rules, i % args.players, seed)
        bots = [make_bot("heuristic", s) for s in range(args.players)]
        bots[seat] = make_bot("expert", f"{seed}/expert")
        games += 1
        while not deal.is_over:
            s = deal.to_act
            obs = deal.observation(s)
            action = bots[s].choose(obs)
            if s == seat and type(action) is Play and obs.hand.bit_count() > 2:
                legal = deal.legal_play_mask()
                cards = np.array(cards_of(legal), dtype=np.int64)
                if len(cards) > 1:
                    values = np.zeros(len(cards), dtype=np.int64)
                    fastplay.card_values(fastplay.pack(deal, shown_voids(deal), s), s, cards, values)
                    regret = int(values.max() - values[list(cards).index(action.card)])
                    by_trick[len(deal.tricks)] += regret
                    kind = ("lead " if not deal.trick else "follow ") + ("trump" if action.card >= 56 else "suit")
                    by_kind[kind] += regret
            deal.apply(action, s)
    total = sum(by_trick.values())
    print(
        f"expert as {args.role}, {args.players} players, {games} games: {total / games:.1f} points a game "
        "given away against the true deal"
    )
    print("  by trick: " + " ".join(f"{t + 1}:{v / games:.1f}" for t, v in sorted(by_trick.items())))
    print("  by kind: " + ", ".join(f"{k} {v / games:.1f}" for k, v in sorted(by_kind.items())))


if __name__ == "__main__":
    main()
