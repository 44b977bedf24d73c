"""``atout play --robots-only``: a game between robots, told deal by deal in words, in the game's language."""

from __future__ import annotations

import argparse

from ..bots import make_bot
from ..engine import RuleSet, new_deal


def seat_label(seat: int) -> str:
    """Robots-only seats are all robots: named by their seat, as in deal records."""
    from ..tui.words import _

    return _("Seat {n}", n=seat)


def robots_game(args: argparse.Namespace) -> int:
    """Play ``--deals`` counted deals at ``--level`` (the documented default) and print each result."""
    from ..tui.game import default_level
    from ..tui.text import level_word, result_text
    from ..tui.widgets import signed
    from ..tui.words import _, n_
    from .play import speak

    if not speak(args, "atout play"):
        return 2
    players = args.players or 4
    rules = RuleSet(players)
    deals = args.deals or 3
    level = args.level or default_level()
    bots = [make_bot(level, f"{args.seed}/{s}") for s in range(players)]
    totals = [0] * players
    dealer = 0
    played = 0
    n = 0
    print(
        _("{players} robots at level {level}", players=players, level=level_word(level))
        + ", "
        + n_("{n} counted deal", "{n} counted deals", deals)
        + (", " + _("seed {seed}", seed=args.seed) if args.seed is not None else "")
    )
    while played < deals:
        seed = None if args.seed is None else f"{args.seed}/{n}"
        deal = new_deal(rules, dealer, seed)
        n += 1
        while (seat := deal.to_act) is not None:  # None once the deal is over
            deal.apply(bots[seat].choose(deal.observation(seat)), seat=seat)
        result = deal.result
        assert result is not None
        if result.void:
            head = _("Deal {n}: {dealer} deals (seed {seed})", n=n, dealer=seat_label(dealer), seed=deal.seed)
        else:
            head = _(
                "Deal {n}, counted deal {k} of {total}: {dealer} deals (seed {seed})",
                n=n,
                k=played + 1,
                total=deals,
                dealer=seat_label(dealer),
                seed=deal.seed,
            )
        print("\n" + head)
        for line in result_text(players, result, name=seat_label).plain.splitlines():
            print("  " + line.rstrip())
        if not result.void:
            totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
            played += 1
        dealer = (dealer + 1) % players
    print("\n" + _("Totals:") + " " + "  ".join(f"{seat_label(i)} {signed(t)}" for i, t in enumerate(totals)))
    return 0
