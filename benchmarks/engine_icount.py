"""Deals for instruction counting under valgrind (deterministic, unlike timings).

    for n in 0 100; do valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/engine_icount.py $n actions 2>&1 | grep Collected; done

(the difference of the two totals, divided by 100, is the instructions per
deal; policies: ``actions``, ``mask``, ``deal`` for dealing alone).
"""

import random
import sys

from atout.engine import RuleSet, new_deal
from atout.engine.actions import PLAYS
from atout.engine.choices import random_action, random_card

rng = random.Random(3)
rules = RuleSet(4)
count, policy = int(sys.argv[1]), sys.argv[2]
for i in range(count):
    deal = new_deal(rules, i % 4, seed=f"s{i}")
    if policy == "deal":
        continue
    while not deal.is_over:
        if policy == "mask" and deal.phase == "play" and deal.tricks:
            deal.apply(PLAYS[random_card(deal.legal_play_mask(), rng)])
        else:
            deal.apply(random_action(deal.legal_actions(), rng))
