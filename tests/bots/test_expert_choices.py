"""The expert's searched choices besides cards: who it may call, when it shows a poignée."""

from __future__ import annotations

from atout.bots import expert as expert_module
from atout.bots import make_bot
from atout.bots.expert import NO_POIGNEE, ExpertBot
from atout.engine import Call, Poignee, PoigneeFrom, RuleSet, new_deal


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


def _taker_poignee(players: int):
    """The taker's observation when it may show a poignée, from the first deal that offers one."""
    for i in range(400):
        deal = _to_phase(players, f"poignee/{players}/{i}", "play")
        if deal is None:
            continue
        while not deal.is_over and not deal.tricks:
            seat = deal.to_act
            obs = deal.observation(seat)
            offer = next((a for a in obs.legal if type(a) is PoigneeFrom), None)
            if offer is not None and seat == deal.taker:
                return obs, offer
            deal.apply(make_bot("heuristic").choose(obs), seat=seat)
    raise AssertionError("no taker's poignée in 400 deals")


def _hiding_wins_by(margin: float):
    """A stand-in search that scores keeping the poignée hidden ``margin`` above showing it."""

    def evaluate(self, obs, actions, samples, seconds, bonus=None):
        means = [0.0 if a is NO_POIGNEE else -margin for a in actions]
        for i, b in enumerate(bonus or []):
            means[i] += b
        return actions[max(range(len(actions)), key=lambda i: (means[i], -i))]

    return evaluate


def test_a_taker_shows_its_poignee_unless_the_search_says_it_loses_clearly(monkeypatch):
    """The rollouts' taker makes fewer contracts than the expert does, so at four players showing
    gets ``POIGNEE_EDGE`` points: a taker whose search leans a little to hiding shows all the same."""
    obs, _ = _taker_poignee(4)
    edge = expert_module.POIGNEE_EDGE[4]
    assert edge > 0
    monkeypatch.setattr(ExpertBot, "_card", lambda self, obs, budget: NO_POIGNEE)  # hidden: no card needed
    monkeypatch.setattr(ExpertBot, "_evaluate", _hiding_wins_by(edge / 2))
    assert type(ExpertBot("p").choose(obs)) is Poignee
    monkeypatch.setattr(ExpertBot, "_evaluate", _hiding_wins_by(edge * 2))
    assert ExpertBot("p").choose(obs) is NO_POIGNEE
    monkeypatch.setitem(expert_module.POIGNEE_EDGE, 4, 0.0)
    monkeypatch.setattr(ExpertBot, "_evaluate", _hiding_wins_by(edge / 2))
    assert ExpertBot("p").choose(obs) is NO_POIGNEE
