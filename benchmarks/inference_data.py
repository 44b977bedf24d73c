"""Training positions for the card-location model (``atout.bots.inference``), from robot deals.

    nice -n 15 python benchmarks/inference_data.py --deals 1500 --seed infer-train --out /tmp/infer-train.npz

Four-player deals by default (``--players``; the deal and each seat's robot drawn from ``--seed``: a seat is the expert
with
probability ``--expert``, else club, or beginner one time in ``--beginner``), so the model does not
assume one kind of player.  At each card of the play, with probability ``--keep``, the position of
the seat to play is kept: the features of every unseen card not known to lie in one place, the
places it may lie in, and the place it truly lies in.  The same seed gives the same file.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator

import numpy as np

from atout.arena.duplicate import deal_seed
from atout.bots import inference, make_bot
from atout.bots.inference import PLACES_MAX, Position
from atout.engine import Deal, Observation, RuleSet, new_deal


def table(seed: str, i: int, expert: float, beginner: float, players: int = 4) -> list[str]:
    """The robot levels of deal ``i``'s seats."""
    rng = random.Random(f"{seed}/table/{i}")
    return [
        "expert" if rng.random() < expert else ("beginner" if rng.random() < beginner else "club")
        for _ in range(players)
    ]


def positions(
    deals: int, seed: str, keep: float, expert: float, beginner: float, start: int = 0, players: int = 4
) -> Iterator[tuple[int, Observation, Deal]]:
    """(deal number, the observation of the seat to play, the true deal) at the kept card decisions."""
    rules = RuleSet(players)
    for i in range(start, start + deals):
        levels = table(seed, i, expert, beginner, players)
        dseed = deal_seed(seed, i)
        deal = new_deal(rules, i % players, dseed)
        bots = [make_bot(level, f"{dseed}/seat/{s}/{level}") for s, level in enumerate(levels)]
        pick = random.Random(f"{seed}/keep/{i}")
        while not deal.is_over:
            s = deal.to_act
            obs = deal.observation(s)
            if deal.phase == "play" and obs.hand.bit_count() > 1 and pick.random() < keep:
                yield i, obs, deal
            deal.apply(bots[s].choose(obs), s)


def labels(pos: Position, deal: Deal) -> np.ndarray:
    """The index (in ``pos.places``) of the place each of ``pos.cards`` truly lies in."""
    out = np.empty(len(pos.cards), dtype=np.int64)
    pile = [i for i, b in enumerate(pos.places) if b < 0]
    for row, card in enumerate(pos.cards):
        bit = 1 << int(card)
        where = [i for i, b in enumerate(pos.places) if b >= 0 and deal.hands[b] & bit]
        out[row] = where[0] if where else pile[0]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1500)
    ap.add_argument("--seed", default="infer-train")
    ap.add_argument("--keep", type=float, default=0.3)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--expert", type=float, default=0.5)
    ap.add_argument("--beginner", type=float, default=0.3)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    xs, legals, ys, rows_pos = [], [], [], []
    rooms, tricks, roles, deal_ids = [], [], [], []
    t0 = time.monotonic()
    for n, (i, obs, deal) in enumerate(
        positions(args.deals, args.seed, args.keep, args.expert, args.beginner, players=args.players)
    ):
        pos = inference.encode(obs)
        if not len(pos.cards):
            continue
        xs.append(pos.x.astype(np.float16))
        legals.append(pos.legal)
        ys.append(labels(pos, deal))
        rows_pos.append(np.full(len(pos.cards), len(rooms)))
        rooms.append(pos.room)
        tricks.append(len(obs.tricks))
        roles.append(int(obs.seat == obs.taker))
        deal_ids.append(i)
        if n % 200 == 0:
            sys.stderr.write(f"\r  deal {i + 1}/{args.deals}, {len(rooms)} positions, {time.monotonic() - t0:5.0f}s")
    sys.stderr.write("\n")
    np.savez_compressed(
        args.out,
        x=np.concatenate(xs),
        legal=np.concatenate(legals),
        y=np.concatenate(ys),
        pos=np.concatenate(rows_pos),
        room=np.array(rooms).reshape(-1, PLACES_MAX),
        trick=np.array(tricks),
        taker=np.array(roles),
        deal=np.array(deal_ids),
        command=np.array(" ".join(sys.argv)),
    )
    print(f"{len(rooms)} positions, {sum(len(y) for y in ys)} cards, {args.deals} deals -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
