"""Training data for the position value (``bots.value``): positions between two tricks, seen from
each seat, with the deal's result.

    nice -n 10 python -m atout.training.value_data --players 4 --deals 1500 --seed v25-4 \\
        --out value-4.npz

Deal ``i`` is the arena's deal ``i`` of ``--seed`` (dealer ``i % players``), played by ``--level``
in every seat (``expert`` by default: the value should predict what the expert's own continuation
scores, not the rules of thumb's), each robot seeded from the deal's seed.  After each trick but
the last, the deal is packed (``fastplay.pack``) and each seat's ``value.features`` written with
the deal's result for the taker's side (``u``: the seat's score over its share, ``value.role_factor``),
the deal's index and the seat (the last feature is 0 when ``--level`` is not an expert, so deals of
cheaper levels can be learnt from beside the expert's).  Deals nobody took are skipped.  One process (the file is
rewritten every 50 deals, so a run stopped early leaves what it played); the same command gives
the same file.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from ..arena.duplicate import deal_seed
from ..bots import make_bot
from ..bots.fastplay import pack
from ..bots.rollout import shown_voids
from ..bots.value import NV, features, role_factor
from ..engine import RuleSet, new_deal


def deal_positions(players: int, seed: str, index: int, level: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features, u, seat) of every seat at every trick's end but the last of deal ``index``."""
    rules = RuleSet(players)
    dseed = deal_seed(seed, index)
    deal = new_deal(rules, index % players, dseed)
    bots = [make_bot(level, f"{dseed}/seat/{s}/{level}") for s in range(players)]
    states = []
    done = 0
    while not deal.is_over:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat=seat)
        if not deal.is_over and deal.tricks and len(deal.tricks) > done and not deal.trick:
            done = len(deal.tricks)
            states.append(pack(deal, shown_voids(deal)))
    if deal.taker is None or not states:
        return np.zeros((0, NV), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int8)
    scores = deal.result.scores
    xs, us, seats = [], [], []
    x = np.zeros(NV)
    for st in states:
        for me in deal.seats:
            f = role_factor(st, me)
            if f == 0:
                continue
            features(st, me, x)
            if not level.startswith("expert"):
                x[NV - 1] = 0.0  # the continuation is not the expert's
            xs.append(x.astype(np.float32))
            us.append(scores[me] / f)
            seats.append(me)
    return np.array(xs), np.array(us, dtype=np.float32), np.array(seats, dtype=np.int8)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", default="v25")
    ap.add_argument("--level", default="expert")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    xs, us, seats, deals = [], [], [], []
    t0 = time.monotonic()

    def save() -> None:
        np.savez_compressed(
            args.out, x=np.concatenate(xs) if xs else np.zeros((0, NV), np.float32),
            u=np.concatenate(us) if us else np.zeros(0, np.float32),
            seat=np.concatenate(seats) if seats else np.zeros(0, np.int8),
            deal=np.concatenate(deals) if deals else np.zeros(0, np.int32),
            players=np.int8(args.players), level=np.array(args.level),
            invocation=np.array(" ".join(["python -m atout.training.value_data", *sys.argv[1:]])))

    for n, i in enumerate(range(args.start, args.start + args.deals), 1):
        x, u, s = deal_positions(args.players, args.seed, i, args.level)
        xs.append(x)
        us.append(u)
        seats.append(s)
        deals.append(np.full(len(u), i, dtype=np.int32))
        if n % 50 == 0 or n == args.deals:
            save()
            sys.stderr.write(f"\r  {n}/{args.deals} deals, {sum(len(a) for a in us)} positions, "
                             f"{time.monotonic() - t0:5.0f}s")
            sys.stderr.flush()
    sys.stderr.write("\n")
    print(f"{args.out}: {sum(len(a) for a in us)} positions of {len({int(d[0]) for d in deals if len(d)})} deals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
