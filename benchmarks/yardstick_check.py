"""Does a yardstick play card for card as the level played in process?  Every decision of a few deals is
asked of both, from the same observation and the same seed (the arena's common seeding), and the deal
goes on with the in-process robot's action; any difference is printed and counted, with both decisions'
times (the expert stops a search at 0.7 s: on a loaded machine the two may search different numbers of
worlds, and part for that reason alone).

    python benchmarks/yardstick_check.py --level expert-2 --yardstick commit:ad2d964a9212:expert-2 \\
        --players 4 --deals 10 --seed crn-demo --lift-safety-stop

``--lift-safety-stop`` lifts the expert's stop on time on both sides (every ``atout.bots`` module's
``SAFETY_SECONDS``, as tests/bots do): the search is then a function of the observation and the seed
alone, and the check holds on a loaded machine too.

Issue 39 ran it before deleting the frozen copies (``bots/expert1``, ``bots/expert2``), with the commit
that still had them: benchmarks/results/strength.md gives the figures.  Exit 1 if any decision differs.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time

from atout.arena import yardsticks
from atout.arena.duplicate import deal_seed, seat_robot
from atout.arena.engines import command_of, engine_seed
from atout.engine import RuleSet, new_deal
from atout.protocol.host import EngineBot

LIFT = """
import sys, atout.bots
for name, module in list(sys.modules.items()):
    if name.startswith("atout.bots") and hasattr(module, "SAFETY_SECONDS"):
        module.SAFETY_SECONDS = 1e9
"""
"""Run in the engine's process before it serves, and in this one: no search stops on time."""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--level", required=True, help="the level played in process")
    p.add_argument("--yardstick", required=True, help="commit:HASH:LEVEL (or cmd:COMMAND)")
    p.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--seed", default="crn-demo")
    p.add_argument("--start", type=int, default=0, help="first deal number")
    p.add_argument("--lift-safety-stop", action="store_true", help="no stop on time on either side (see above)")
    args = p.parse_args()
    rules = RuleSet(args.players)
    command = command_of(args.yardstick)
    assert command is not None, "--yardstick is commit:HASH:LEVEL or cmd:COMMAND"
    if args.lift_safety_stop:
        assert yardsticks.is_yardstick(args.yardstick), "--lift-safety-stop reaches a commit: yardstick only"
        rev, level = yardsticks.parse(args.yardstick)
        tree = yardsticks.build(rev)
        run = LIFT + "from atout.cli.main import main; sys.exit(main())"
        command = shlex.join(
            ["env", f"PYTHONPATH={tree / 'src'}", sys.executable, "-c", run, "engine", "--level", level]
        )
        exec(LIFT)
    engines = [EngineBot(command, rules, s, name=f"seat {s}") for s in range(args.players)]
    decisions = differ = 0
    t0 = time.monotonic()
    try:
        for index in range(args.start, args.start + args.deals):
            seed = deal_seed(args.seed, index)
            dealer = index % args.players
            deal = new_deal(rules, dealer, seed)
            bots = [seat_robot(args.level, seed, s) for s in range(args.players)]
            for s, engine in enumerate(engines):
                engine.new_deal(index, dealer, engine_seed(seed, s))
            while (seat := deal.to_act) is not None:
                obs = deal.observation(seat)
                t1 = time.perf_counter()
                mine = bots[seat].choose(obs)
                t2 = time.perf_counter()
                theirs = engines[seat].choose(obs)
                t3 = time.perf_counter()
                decisions += 1
                if mine != theirs:  # the times say whether a safety stop on time may have bound
                    differ += 1
                    print(
                        f"deal {index}, seat {seat}, decision {decisions}: {args.level} {mine} "
                        f"({t2 - t1:.2f} s), {args.yardstick} {theirs} ({t3 - t2:.2f} s)"
                    )
                deal.apply(mine, seat=seat)
            print(f"deal {index}: scores {list(deal.result.scores) if deal.result else None}", flush=True)
    finally:
        for engine in engines:
            engine.close()
    print(f"{decisions} decisions over {args.deals} deals, {differ} differ ({time.monotonic() - t0:.0f} s)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
