"""The expert's searched choices besides cards: who it may call."""

from __future__ import annotations

from atout.bots import make_bot
from atout.bots.expert import ExpertBot
from atout.engine import Call, RuleSet, new_deal


def _to_phase(players: int, seed: str, phase: str, level: str = "heuristic"):
    """A deal played by ``level`` robots up to ``phase`` (None if it never got there)."""
    deal = new_deal(RuleSet(players), 0, seed)
    bots = [make_bot(level, f"{seed}/{s}") for s in range(players)]
    while not deal.is_over and deal.phase != phase:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat=seat)
    return None if deal.is_over else deal


def test_the_call_searches_calling_oneself():
    """At five players a taker holding a callable card may call it and play alone: that is among
    the calls searched, beside every callable card it does not hold."""
    found = 0
    for i in range(200):
        deal = _to_phase(5, f"call-self/{i}", "call")
        if deal is None:
            continue
        obs = deal.observation(deal.to_act)
        callable_cards = [a.card for a in obs.legal]
        held = [c for c in callable_cards if obs.hand >> c & 1]
        if not held:
            continue
        bot = ExpertBot(f"call/{i}", samples=4)
        action = bot.choose(obs)
        searched = [a.card for a in bot.last_search.actions]
        assert all(type(a) is Call for a in bot.last_search.actions) and action.card in searched
        assert set(c for c in callable_cards if not obs.hand >> c & 1) <= set(searched)
        assert sum(obs.hand >> c & 1 for c in searched) == 1  # one of its own cards stands for playing alone
        found += 1
        if found == 3:
            break
    assert found == 3
