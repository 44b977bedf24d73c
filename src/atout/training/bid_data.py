"""Training data for the learned bid edge (``bots.bidvalue``): a bidding seat's hand, the expert's bid
search's means, and what the expert then scores when that seat bids Garde.

    nice -n 19 python -m atout.training.bid_data --players 4 --deals 2000 --seed b25-4 --out bid-4.npz

Deal ``i`` is the arena's deal ``i`` of ``--seed`` (dealer ``i % players``).  For each seat ``s``
in turn the deal is played from its start with the expert in every seat, each robot seeded from the
deal's seed (as ``value_data`` does), the others bidding as they would; when ``s`` is to bid:

- if its hand is one the expert passes without search (``expert.PASS_MARGIN``), or Garde is no
  longer legal (someone before it bid Garde or more), ``s`` gives no row;
- else the expert's bid search is run at its own observation exactly as ``ExpertBot._bid`` runs it
  (the same candidates, ``expert.BID_SAMPLES`` worlds, no time limit, no ``TAKER_EDGE``) and its
  mean for each contract kept (NaN for a contract it did not search); then ``s`` bids Garde (forced),
  and the others bid and everybody plays on as the expert does.

The row's label is ``s``'s score at the deal's end (``y``): what bidding Garde there is worth to
the expert, its own later bids, écart, poignée and cards included (another seat may overcall, as
in the search's rollouts).  Prise is not played: it is worth about half of Garde's multiplied part,
and the bid uses the learned edge per unit of multiplier as it uses ``TAKER_EDGE``.  Garde sans and
Garde contre (the dog unseen) are not played either, for the same reason.

One process (the file is rewritten every 25 deals, so a run stopped early leaves what it played:
its first deals, the same as a shorter run's); the same command gives the same file.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from ..arena.duplicate import deal_seed
from ..bots import expert, make_bot
from ..bots.bidvalue import CONTRACTS, hand_features
from ..engine import GARDE, PASS, Bid, RuleSet, new_deal
from ..engine.kinds import Phase

NC = len(CONTRACTS)


def bid_means(bot: expert.ExpertBot, obs) -> np.ndarray | None:
    """The expert's bid search's mean for each of ``CONTRACTS`` (NaN if not searched) at ``obs``, without
    the taker's edge; None for a hand it passes without search.  The candidates are ``_bid``'s."""
    contracts = expert.bid_candidates(obs)
    if contracts is None:
        return None
    bot._evaluate(obs, [Bid(c) for c in contracts], bot.samples or expert.BID_SAMPLES, None)
    search = bot.last_search
    out = np.full(NC, np.nan)
    if search is not None:
        for c, m in zip(contracts, search.means, strict=True):
            out[CONTRACTS.index(c)] = m
    return out


def seat_row(players: int, seed: str, index: int, s: int) -> tuple[np.ndarray, np.ndarray, dict] | None:
    """(hand features, search means, label facts) of seat ``s`` bidding Garde on deal ``index``, or None."""
    rules = RuleSet(players)
    dseed = deal_seed(seed, index)
    deal = new_deal(rules, index % players, dseed)
    bots = [make_bot("expert", f"{dseed}/seat/{t}/expert") for t in range(players)]
    row = None
    before = PASS
    while not deal.is_over:
        seat = deal.to_act
        obs = deal.observation(seat)
        if deal.phase == Phase.BIDDING and seat == s and row is None:
            garde = [a for a in obs.legal if type(a) is Bid and a.contract == GARDE and not a.chelem]
            if not garde:
                return None
            means = bid_means(bots[s], obs)
            if means is None:
                return None
            before = obs.contract
            row = (hand_features(obs.hand, players, expert.bid_position(obs), before), means)
            deal.apply(garde[0], seat=seat)
            continue
        deal.apply(bots[seat].choose(obs), seat=seat)
        if row is None and deal.phase != Phase.BIDDING and deal.phase != Phase.PETIT_SEC:
            return None  # the bidding ended before s bid (a redeal, or a petit sec)
    if row is None:
        return None
    r = deal.result
    facts = {"y": r.scores[s], "taker": -1 if deal.taker is None else deal.taker, "made": bool(r.made),
             "contract": CONTRACTS.index(deal.contract) if deal.contract in CONTRACTS else 0,
             "before": CONTRACTS.index(before) if before in CONTRACTS else 0}
    return row[0], row[1], facts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", default="b25")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    rows: dict[str, list] = {k: [] for k in ("x", "means", "y", "taker", "made", "contract", "before", "seat", "deal")}
    t0 = time.monotonic()

    def save() -> None:
        arrays = {k: np.array(v) for k, v in rows.items()}
        if not rows["x"]:
            arrays["x"] = np.zeros((0, len(hand_features(0, args.players, 0, PASS))))
            arrays["means"] = np.zeros((0, NC))
        np.savez_compressed(args.out, **arrays, players=np.int8(args.players),
                            contracts=np.array(CONTRACTS, dtype=np.int8),
                            invocation=np.array(" ".join(["python -m atout.training.bid_data", *sys.argv[1:]])))

    for n, i in enumerate(range(args.start, args.start + args.deals), 1):
        for s in range(args.players):
            got = seat_row(args.players, args.seed, i, s)
            if got is None:
                continue
            x, means, facts = got
            rows["x"].append(x)
            rows["means"].append(means)
            for k, v in facts.items():
                rows[k].append(v)
            rows["seat"].append(s)
            rows["deal"].append(i)
        if n % 25 == 0 or n == args.deals:
            save()
            sys.stderr.write(f"\r  {n}/{args.deals} deals, {len(rows['y'])} rows, {time.monotonic() - t0:5.0f}s")
            sys.stderr.flush()
    sys.stderr.write("\n")
    print(f"{args.out}: {len(rows['y'])} rows of {args.deals} deals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
