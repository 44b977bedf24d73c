"""What the expert's defence (or taking) would gain from knowing more: the search told part of the truth.

    nice -n 19 python benchmarks/defence_information.py --players 4 --deals 300 --know taker
    nice -n 19 python benchmarks/defence_information.py --players 4 --deals 300 --set expert.MODEL_DRAW=1.0 \
        --out /tmp/info-draw.json
    python benchmarks/defence_information.py --compare /tmp/info-none.json /tmp/info-draw.json

On duplicate deals among heuristic players, one defending seat at a time is taken by the expert,
whose worlds are then given the true hands of some seats (``--know``): ``none`` (the expert as
it is), ``taker``, ``partners`` (the other seats: at five players the taker's partner too),
``called`` (five players: only who holds the called card) or ``all`` (every hand: the search then
sees the true deal and only its continuation, the rules of thumb, stands between it and perfect
play; the dog or the hidden écart is still drawn).  The figure is the expert's score minus the
heuristic's in that seat on the same deal, per defending seat-deal, so the gap between ``none``
and ``all`` is what better inference could still buy, and ``taker`` / ``partners`` say where it
lies.  Seat-games where the expert's own bid changed who takes are left out (this measures card
play only).  ``--role taker`` puts the expert in the seat that took among heuristic players
instead (``--know partners``: every other hand).  This is a diagnostic: the expert told the
truth is not a level anyone plays against.

``--set module.NAME=VALUE`` changes a constant of ``atout.bots.<module>`` first (as
``dev_variants.py``), and ``--out`` keeps each seat-deal's figure, so that ``--compare`` gives two
runs' paired difference on the seat-deals both kept (the same seeds: common random numbers).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import atout.bots.expert as expert_module
from atout.arena.duplicate import deal_seed
from atout.bots import make_bot, sampling
from atout.bots.knowledge import infer
from atout.engine import RuleSet, new_deal

_TRUTH: dict = {}


def _told(obs):
    """``knowledge.infer``, with the hands ``--know`` names added as known cards."""
    k = infer(obs)
    deal, know = _TRUTH.get("deal"), _TRUTH.get("know")
    if deal is None or know == "none":
        return k
    for seat in obs.seats:
        if seat == obs.seat:
            continue
        is_taker = seat == deal.taker
        if know == "all" or (know == "taker" and is_taker) or (know == "partners" and not is_taker):
            k.known[seat] = deal.hands[seat]
        elif know == "called" and deal.called is not None and deal.hands[seat] >> deal.called & 1:
            k.known[seat] |= 1 << deal.called
    return k


def play(rules: RuleSet, dealer: int, seed: str, expert_seat: int, know: str, role: str = "defender"):
    """One game; None if the expert's seat does not have ``role`` once the play starts."""
    deal = new_deal(rules, dealer, seed)
    bots = [make_bot("heuristic", f"{seed}/seat/{s}/heuristic") for s in range(rules.players)]
    if expert_seat >= 0:
        bots[expert_seat] = make_bot("expert", f"{seed}/seat/{expert_seat}/expert")
    _TRUTH["know"] = know
    while not deal.is_over:
        seat = deal.to_act
        defends = deal.taker not in (None, seat) and not (rules.players == 5 and deal.partner == seat)
        has_role = seat == deal.taker if role == "taker" else defends
        if seat == expert_seat and deal.phase == "play" and not has_role:
            return None
        _TRUTH["deal"] = deal
        deal.apply(bots[seat].choose(deal.observation(seat)), seat=seat)
    return deal.result


def compare(before: str, after: str) -> str:
    """``after`` minus ``before`` per seat-deal both kept, with its 95% interval."""
    a, b = (
        {(d["deal"], d["seat"]): d["diff"] for d in json.loads(Path(p).read_text())["seat_deals"]}
        for p in (before, after)
    )
    both = sorted(set(a) & set(b))
    diffs = [b[key] - a[key] for key in both]
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    return f"{after} minus {before}: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] per seat-deal (n={len(both)})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", default="info")
    ap.add_argument("--role", choices=("defender", "taker"), default="defender")
    ap.add_argument("--know", choices=("none", "taker", "partners", "called", "all"), default="none")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE")
    ap.add_argument("--out", help="a JSON file of each seat-deal's figure (for --compare)")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="two --out files: AFTER minus BEFORE")
    args = ap.parse_args()
    if args.compare:
        print(compare(*args.compare))
        return 0
    from dev_variants import _set

    for spec in args.set:
        _set(spec)
    expert_module.infer = _told
    if args.know in ("taker", "all"):
        # The taker's true hand replaces the club-taker model of its écart.
        sampling.ECART_MODEL = False
    rules = RuleSet(args.players)
    diffs: list[int] = []
    kept: list[dict] = []
    t0 = time.monotonic()
    for i in range(args.deals):
        seed, dealer = deal_seed(args.seed, i), i % args.players
        base = play(rules, dealer, seed, -1, "none")
        if base.taker is None:
            continue
        for seat in range(args.players):
            if args.role == "taker" and seat != base.taker:
                continue
            if args.role == "defender" and (seat == base.taker or (args.players == 5 and seat == base.partner)):
                continue
            result = play(rules, dealer, seed, seat, args.know, args.role)
            if result is not None:
                diffs.append(result.scores[seat] - base.scores[seat])
                kept.append({"deal": i, "seat": seat, "diff": diffs[-1]})
        sys.stderr.write(f"\r  {i + 1}/{args.deals} deals {time.monotonic() - t0:5.0f}s")
    sys.stderr.write("\n")
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    line = (
        f"{args.players} players, expert as {args.role} told {args.know}: {mean:+.1f} [{mean - half:+.1f}, "
        f"{mean + half:+.1f}] per seat-deal (n={len(diffs)}, {args.deals} deals, seed {args.seed})"
        + "".join(f" --set {spec}" for spec in args.set)
    )
    print(line)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"invocation": " ".join(sys.argv), "summary": line, "seat_deals": kept}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
