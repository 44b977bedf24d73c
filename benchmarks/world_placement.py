"""How well the expert's worlds place the others' cards: the share put in the right seat.

    python benchmarks/world_placement.py --players 4 --deals 40 --role taker [--pool 300 --surprise 0.1]

Among heuristic robots, at each card decision of the seat with ``--role``, the card decision's
worlds (``sampling.weighted_states``, 54 of them) are compared with the true deal: the weighted
share of the other seats' remaining cards that a world puts in the right seat, by stretch of
tricks.  ``--pool`` and ``--surprise`` set ``sampling.POOL`` and ``sampling.PLAY_SURPRISE``
(a large pool with a small weight a surprise comes near the worlds where the others played every
card as the rules of thumb would).
"""

from __future__ import annotations

import argparse
import collections
import random

from atout.bots import fastplay, make_bot, sampling
from atout.bots.knowledge import infer
from atout.engine import RuleSet, new_deal


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--role", choices=("taker", "defender"), default="taker")
    ap.add_argument("--pool", type=int, default=0)
    ap.add_argument("--surprise", type=float, default=sampling.PLAY_SURPRISE)
    args = ap.parse_args()
    sampling.POOL = args.pool
    sampling.PLAY_SURPRISE = args.surprise
    shares: dict[int, list[float]] = collections.defaultdict(list)
    for i in range(args.deals):
        deal = new_deal(RuleSet(args.players), i % args.players, f"place{i}")
        bots = [make_bot("heuristic", s) for s in range(args.players)]
        while not deal.is_over:
            s = deal.to_act
            obs = deal.observation(s)
            mine = deal.taker is not None and (
                s == deal.taker if args.role == "taker" else s not in (deal.taker, deal.partner)
            )
            if deal.phase == "play" and mine and len(deal.legal_actions()) > 1 and obs.hand.bit_count() > 3:
                worlds = sampling.weighted_states(obs, random.Random(i), 54, infer(obs))
                total = right = 0.0
                for state, weight in worlds:
                    hit = held = 0
                    for seat in deal.seats:
                        if seat != s:
                            guess = int(state[fastplay.HAND_HI + seat]) << 56 | int(state[fastplay.HAND_LO + seat])
                            hit += (deal.hands[seat] & guess).bit_count()
                            held += deal.hands[seat].bit_count()
                    right += weight * hit / held
                    total += weight
                shares[len(deal.tricks) // 4].append(right / total)
            deal.apply(bots[s].choose(obs), s)
    print(
        f"{args.role}, {args.players} players, pool {args.pool}, surprise {args.surprise}: cards in the right "
        "seat, tricks "
        + ", ".join(f"{4 * k + 1}-{4 * k + 4}: {100 * sum(v) / len(v):.0f}%" for k, v in sorted(shares.items()))
    )


if __name__ == "__main__":
    main()
