"""Training data for the card policy: the expert's searched cards, with every candidate's features.

    nice -n 10 python -m research.card_policy.generate --players 4 --deals 3000 --seed p25-4 \\
        --jobs 2 --out data-4.npz

Deal ``i`` is the arena's deal ``i`` of ``--seed`` (dealer ``i % players``); the expert sits in seat
``i % players`` among heuristic players (the company its rollouts and the arena give it), or in
every seat with ``--all-expert``.  For each card it searches (more than one candidate class), the
file holds the candidates' features (``policy.card_features``, seen from the seat), the search's
mean score for each, and the seat's role.  The same command gives the same file: every robot is
seeded from the deal's seed and the search runs its fixed number of worlds.
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool

import numpy as np

from atout.arena.duplicate import deal_seed
from atout.bots import expert as expert_mod
from atout.bots import make_bot
from atout.engine import Play, RuleSet, new_deal

from .policy import NF, candidate_features

_stash: list = []


def _stashing(draw):
    def wrapped(*args, **kwargs):
        worlds = draw(*args, **kwargs)
        _stash[:] = [worlds[0][0].copy()] if worlds else []
        return worlds

    return wrapped


def deal_records(players: int, seed: str, index: int, candidate: str, all_expert: bool) -> list[tuple]:
    """(features, means, role, players) for each card the expert searched in deal ``index``."""
    rules = RuleSet(players)
    dseed = deal_seed(seed, index)
    deal = new_deal(rules, index % players, dseed)
    searcher = index % players
    levels = ["heuristic"] * players
    if all_expert:
        levels = [candidate] * players
    else:
        levels[searcher] = candidate
    bots = [make_bot(level, f"{dseed}/seat/{s}/{level}") for s, level in enumerate(levels)]
    out = []
    while not deal.is_over:
        seat = deal.to_act
        obs = deal.observation(seat)
        _stash.clear()
        action = bots[seat].choose(obs)
        search = getattr(bots[seat], "last_search", None)
        if (
            search is not None
            and _stash
            and len(search.actions) > 1
            and all(type(a) is Play for a in search.actions)
            and type(action) is Play
        ):
            cards = np.array([a.card for a in search.actions], dtype=np.int64)
            x = np.zeros((len(cards), NF))
            candidate_features(_stash[0], cards, x)
            role = 0 if seat == deal.taker else (1 if seat == deal.partner else 2)
            out.append((x.astype(np.float32), np.array(search.means, dtype=np.float32), role, players))
        deal.apply(action, seat=seat)
    return out


def _chunk(args: tuple) -> list[tuple]:
    players, seed, lo, hi, candidate, all_expert = args
    expert_mod.weighted_states = _stashing(expert_mod.weighted_states)
    recs = []
    for i in range(lo, hi):
        recs.extend(deal_records(players, seed, i, candidate, all_expert))
    return recs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", default="p25")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--candidate", default="expert")
    ap.add_argument("--all-expert", action="store_true")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    step = 20
    chunks = [
        (args.players, args.seed, lo, min(lo + step, args.start + args.deals), args.candidate, args.all_expert)
        for lo in range(args.start, args.start + args.deals, step)
    ]
    recs: list[tuple] = []
    t0 = time.monotonic()
    with Pool(args.jobs) as pool:
        for n, part in enumerate(pool.imap(_chunk, chunks), 1):
            recs.extend(part)
            sys.stderr.write(f"\r  {n * step}/{args.deals} deals, {len(recs)} cards, {time.monotonic() - t0:5.0f}s")
            sys.stderr.flush()
    sys.stderr.write("\n")
    sizes = np.array([len(r[1]) for r in recs], dtype=np.int64)
    np.savez_compressed(
        args.out,
        x=np.concatenate([r[0] for r in recs]),
        means=np.concatenate([r[1] for r in recs]),
        offsets=np.concatenate([[0], np.cumsum(sizes)]),
        role=np.array([r[2] for r in recs], dtype=np.int8),
        players=np.array([r[3] for r in recs], dtype=np.int8),
        invocation=np.array(" ".join(["python -m research.card_policy.generate", *sys.argv[1:]])),
    )
    print(f"{args.out}: {len(recs)} searched cards, {int(sizes.sum())} candidates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
