"""Dev runs: the expert with module constants changed, on duplicate deals, in one process.

    nice -n 19 python benchmarks/dev_variants.py --players 5 --baseline heuristic --deals 100 \\
        --seed dev5 --focus taker --set expert.TAKER_EDGE[5]=0 --out /tmp/dev5-edge0.json
    python benchmarks/strength.py --compare /tmp/dev5-v0.json /tmp/dev5-edge0.json

Like ``atout arena`` (same deals, same robot seeds and ``--seeding``, same JSON records), with two savings for
paired comparisons of variants: the all-baseline game of each deal is cached on disk (it does not
depend on the candidate), and ``--focus`` plays on only the seat-games that matter to the change
being measured, decided once the bidding (and the call) is over:

- ``taker``: seat-games where the candidate or the baseline in that seat took;
- ``defender``: seat-games where the candidate defends (at five players: neither takes nor is
  called).

A seat-game left out counts 0 (role ``skipped``) in both runs, so per deal the figure is the
contribution of the seat-games kept; paired differences (``--compare``) stay exact when the change
cannot alter the seat-games left out (for example a change of the defenders' card play with
``--focus defender``).  ``--set module.NAME=VALUE`` or ``module.NAME[KEY]=VALUE`` changes a
constant of ``atout.bots.<module>`` before the run (the expert's).  Every seat plays in this process, so the
baseline is a level of the package: a commit yardstick (``commit:HASH:LEVEL``, its own processes) is
``atout arena``'s, which cannot set the candidate's constants.

``--select`` keeps, of the ``--deals`` deals, only those a rare decision can matter in (the figures
are then per selected deal): ``strong:S``, a hand with the dog of club count ``S`` or more;
``poignee``, a hand with the dog holding a poignée (and a club count of 40 or more).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import sys
import time
from pathlib import Path

from atout.arena.duplicate import SEEDINGS, Game, deal_seed, decision_kind, seat_robot
from atout.arena.run import summarize, write_json
from atout.bots.tactics import hand_strength
from atout.engine import RuleSet, new_deal
from atout.engine.cards import EXCUSE_BIT, TRUMPS

CACHE = Path("/tmp/atout-dev-baseline")


def _set(spec: str) -> None:
    target, value = spec.split("=", 1)
    mod_name, attr = target.split(".", 1)
    mod = importlib.import_module(f"atout.bots.{mod_name}")
    val = ast.literal_eval(value)
    if "[" in attr:
        name, key = attr[:-1].split("[")
        getattr(mod, name)[ast.literal_eval(key)] = val
    else:
        if not hasattr(mod, attr):
            raise SystemExit(f"atout.bots.{mod_name} has no {attr}")
        setattr(mod, attr, val)


def play(
    rules: RuleSet,
    dealer: int,
    seed: str,
    levels: list[str],
    watch: int | None = None,
    keep=None,
    seeding: str = "common",
) -> Game | None:
    """``duplicate.play_game``, stopping after the bidding when ``keep(deal)`` says the game does not matter."""
    deal = new_deal(rules, dealer, seed)
    bots = [seat_robot(level, seed, s, seeding) for s, level in enumerate(levels)]
    times: list[float] = []
    kinds: list[str] = []
    checked = keep is None
    while not deal.is_over:
        if not checked and deal.phase not in ("petit_sec", "bidding", "call"):
            checked = True
            if not keep(deal):
                return None
        seat = deal.to_act
        obs = deal.observation(seat)
        t0 = time.perf_counter()
        action = bots[seat].choose(obs)
        if seat == watch:
            times.append(time.perf_counter() - t0)
            kinds.append(decision_kind(obs))
        deal.apply(action, seat=seat)
    r = deal.result
    return Game(list(r.scores), r.taker, r.partner, r.contract, r.made, r.void, times, kinds)


def baseline_game(
    rules: RuleSet, dealer: int, seed: str, baseline: str, cache: Path | None = CACHE, seeding: str = "common"
) -> Game:
    """The all-baseline game of a deal, from ``cache`` when it was played before (None: no cache); the
    level seeding's games keep their names from before issue 39, the common seeding's are apart."""
    if cache is None:
        return play(rules, dealer, seed, [baseline] * rules.players, seeding=seeding)
    cache.mkdir(exist_ok=True)
    kind = "" if seeding == "level" else f"{seeding}-"
    path = cache / (f"{rules.players}-{baseline}-{kind}" + seed.replace("/", "_") + ".json")
    if path.exists():
        return Game(**json.loads(path.read_text()))
    g = play(rules, dealer, seed, [baseline] * rules.players, seeding=seeding)
    path.write_text(json.dumps({k: getattr(g, k) for k in Game.__slots__}))
    return g


POIGNEE_TRUMPS = {3: 13, 4: 10, 5: 8}


def selected(players: int, seed: str, index: int, select: str | None) -> bool:
    """Whether deal ``index`` is one ``select`` keeps (see the module docstring)."""
    if select is None:
        return True
    deal = new_deal(RuleSet(players), index % players, deal_seed(seed, index))
    hands = [deal.hands[s] | deal.initial_dog for s in deal.seats]
    if select == "poignee":
        return any(
            (h & (TRUMPS | EXCUSE_BIT)).bit_count() >= POIGNEE_TRUMPS[players]
            and hand_strength(h & ~deal.initial_dog, players) >= 40
            for h in hands
        )
    kind, _, floor = select.partition(":")
    if kind != "strong" or not floor:
        raise SystemExit(f"--select is strong:S or poignee, not {select!r}")
    return max(hand_strength(h, players) for h in hands) >= float(floor)


def duplicate(
    players: int,
    baseline: str,
    seed: str,
    index: int,
    focus: str | None,
    candidate: str = "expert",
    cache: Path | None = CACHE,
    seeding: str = "common",
) -> dict:
    """``duplicate.play_duplicate``'s record of deal ``index``, the seat-games ``focus`` leaves out counted 0."""
    rules = RuleSet(players)
    dealer = index % players
    dseed = deal_seed(seed, index)
    base = baseline_game(rules, dealer, dseed, baseline, cache, seeding)
    seats = []
    for seat in range(players):
        levels = [baseline] * players
        levels[seat] = candidate
        keep = None
        if focus == "taker":

            def keep(deal, seat=seat):
                return deal.taker == seat or base.taker == seat
        elif focus == "defender":

            def keep(deal, seat=seat):
                if deal.taker is None or deal.taker == seat:
                    return False
                return not (players == 5 and deal.hands[seat] >> deal.called & 1)

        game = play(rules, dealer, dseed, levels, seat, keep, seeding)
        if game is None:
            seats.append(
                {
                    "seat": seat,
                    "candidate": 0,
                    "baseline": 0,
                    "diff": 0,
                    "role": "skipped",
                    "baseline_role": base.role(seat),
                    "made": None,
                    "baseline_made": base.made,
                    "contract": None,
                    "times": [],
                    "kinds": [],
                }
            )
            continue
        seats.append(
            {
                "seat": seat,
                "candidate": game.scores[seat],
                "baseline": base.scores[seat],
                "diff": game.scores[seat] - base.scores[seat],
                "role": game.role(seat),
                "baseline_role": base.role(seat),
                "made": game.made,
                "baseline_made": base.made,
                "contract": game.contract,
                "times": [round(t, 6) for t in game.times],
                "kinds": game.kinds,
            }
        )
    return {
        "index": index,
        "seed": dseed,
        "dealer": dealer,
        "baseline_scores": base.scores,
        "baseline_contract": base.contract,
        "seats": seats,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--baseline", default="heuristic")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", default="dev")
    ap.add_argument("--focus", choices=("taker", "defender"))
    ap.add_argument(
        "--seeding",
        choices=SEEDINGS,
        default="common",
        help="the robots' seeds, as atout arena's (level: as before issue 39, for earlier runs)",
    )
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE")
    ap.add_argument("--select", metavar="strong:S|poignee", help="only the deals a rare decision can matter in")
    ap.add_argument(
        "--candidate",
        default="expert",
        help="the level in the candidate's seat; 'policy' is the learned card policy alone (research/card_policy)",
    )
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    for spec in args.set:
        _set(spec)
    if args.candidate == "policy":
        # research/ is outside the package: found from the repository's root.
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from atout.bots import LEVELS
        from research.card_policy.policy import PolicyBot

        LEVELS["policy"] = PolicyBot
    records = []
    t0 = time.monotonic()
    indices = [
        i for i in range(args.start, args.start + args.deals) if selected(args.players, args.seed, i, args.select)
    ]
    for i in indices:
        records.append(
            duplicate(args.players, args.baseline, args.seed, i, args.focus, args.candidate, seeding=args.seeding)
        )
        done = len(records)
        sys.stderr.write(f"\r  {done}/{len(indices)} deals {time.monotonic() - t0:6.0f}s")
        sys.stderr.flush()
    sys.stderr.write("\n")
    config = {
        "players": args.players,
        "candidate": args.candidate,
        "baseline": args.baseline,
        "deals": args.deals,
        "start": args.start,
        "seed": args.seed,
        "seeding": args.seeding,
        "budget": None,
        "jobs": 1,
        "focus": args.focus,
        "select": args.select,
        "set": args.set,
        "invocation": " ".join(sys.argv),
    }
    summary = summarize(records)
    write_json(args.out, config, summary, records)
    s = summary["points_per_deal"]
    print(
        f"{args.out}: {s['mean']:+.2f} [{s['low']:+.2f}, {s['high']:+.2f}] per deal over {len(records)}; "
        + ", ".join(f"{r} {v['mean']:+.1f} (n={v['n']})" for r, v in summary["by_role"].items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
