"""Robots stay legal over many deals at 3, 4 and 5 players, and a seed fixes their play."""

from __future__ import annotations

import pytest

from atout.bots import LEVELS, ExpertBot, make_bot
from atout.engine import Deal, Observation, RuleSet, new_deal


class Watching:
    """Wraps a robot: checks it only ever receives Observations and answers legally."""

    def __init__(self, bot):
        self.bot = bot
        self.decisions = 0

    def choose(self, obs, budget=None):
        assert isinstance(obs, Observation)
        assert not isinstance(obs, Deal)
        self.decisions += 1
        return self.bot.choose(obs, budget)


def play_out(players: int, levels: list[str], seed: str, dealer: int = 0, budget: float | None = 0.05,
             **rule_options):
    rules = RuleSet.make(players, **rule_options)
    deal = new_deal(rules, dealer, seed)
    bots = [Watching(make_bot(level, f"{seed}/{s}")) for s, level in enumerate(levels)]
    actions = []
    while not deal.is_over:
        seat = deal.to_act
        action = bots[seat].choose(deal.observation(seat), budget)
        deal.apply(action, seat=seat)  # raises IllegalAction if the robot broke a rule
        actions.append((seat, action))
    assert sum(deal.result.scores) == 0
    return deal, actions


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("level", ["random", "heuristic"])
def test_fast_levels_never_play_illegally(players, level):
    played = 0
    for i in range(400):
        deal, _ = play_out(players, [level] * players, f"legal/{level}/{i}", dealer=i % players)
        played += not deal.result.void
    assert played > 150


@pytest.mark.parametrize("players", [3, 4, 5])
def test_heuristic_among_random_players_stays_legal(players):
    for i in range(60):
        levels = ["random"] * players
        levels[i % players] = "heuristic"
        play_out(players, levels, f"mixed/{i}", dealer=i % players)


@pytest.mark.parametrize("level", ["expert", "expert-1", "expert-2"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_expert_never_plays_illegally(players, level):
    for i in range(6):
        levels = ["random"] * players
        levels[i % players] = level
        levels[(i + 1) % players] = "heuristic"
        play_out(players, levels, f"expert/{players}/{i}", dealer=i % players)


@pytest.mark.parametrize(
    "options",
    [
        {"chelem_announce": "with_bid"},
        {"petit_sec": "holder_may_play"},
        {"five_players": "dealer_sits_out"},
        {"first_lead": "taker", "excuse_last_trick": "trick_winner"},
    ],
)
def test_robots_legal_under_rule_options(options):
    players = 5 if "five_players" in options else 4
    for i in range(40):
        play_out(players, (["random", "heuristic"] * 3)[:players], f"opt/{i}", dealer=i % players, **options)
    for i in range(2):
        levels = ["expert"] + ["heuristic"] * (players - 1)
        play_out(players, levels, f"optx/{i}", dealer=i % players, **options)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_seed_fixes_the_play(level, monkeypatch):
    """Without a time budget (the expert's deterministic mode) a seed fixes every choice.

    The expert's safety stop is lifted: on a loaded test machine it could bind.
    """
    for module in ("atout.bots.expert", "atout.bots.expert1.expert", "atout.bots.expert2.expert"):
        monkeypatch.setattr(f"{module}.SAFETY_SECONDS", 1e9)
        monkeypatch.setattr(f"{module}.CARD_SAMPLES", {3: 4, 4: 4, 5: 4})
        monkeypatch.setattr(f"{module}.BID_SAMPLES", 4)
        monkeypatch.setattr(f"{module}.ECART_SAMPLES", 4)
    searching = level.startswith("expert")
    for players in (3, 4, 5):
        levels = [level] + ["heuristic"] * (players - 1) if searching else [level] * players
        _, first = play_out(players, levels, f"det/{players}", budget=None)
        _, second = play_out(players, levels, f"det/{players}", budget=None)
        assert first == second


def test_expert_answers_within_a_small_budget():
    import time

    bot = ExpertBot("budget", samples=200)
    deal = new_deal(RuleSet(4), 0, "budget-deal")
    worst = 0.0
    while not deal.is_over:
        seat = deal.to_act
        obs = deal.observation(seat)
        start = time.perf_counter()
        action = bot.choose(obs, 0.02) if seat == 0 else make_bot("heuristic").choose(obs)
        worst = max(worst, time.perf_counter() - start)
        deal.apply(action, seat=seat)
    # 200 worlds would take far longer: the budget cut the search (one world may overrun).
    assert worst < 0.5


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown robot level"):
        make_bot("grandmaster")


def test_expert_1_is_frozen_apart_from_the_live_expert():
    """expert-1 imports nothing from the live expert's modules, so editing them cannot change it."""
    import atout.bots.expert1 as frozen

    modules = [m for name, m in vars(frozen).items() if hasattr(m, "__file__") and name != "__builtins__"]
    assert modules, "expert1 exposes its submodules"
    for m in modules:
        assert "/bots/expert1/" in m.__file__
    from atout.bots.expert1 import expert as e1

    assert e1.rollout.__module__ == "atout.bots.expert1.rollout"
    assert e1.sample_world.__module__ == "atout.bots.expert1.sampling"
    assert e1.heuristic_card.__module__ == "atout.bots.expert1.heuristic"
    assert make_bot("expert-1", 1).name == "expert-1"


def test_expert_2_is_frozen_apart_from_the_live_expert():
    """expert-2 searches, samples and plays its rollouts with its own copies (its compiled parts
    too), and takes its rules of thumb from expert-1's frozen ones, so editing the live expert's
    modules cannot change it."""
    import sys

    import atout.bots.expert2 as frozen
    from atout.bots.expert2 import expert as e2
    from atout.bots.expert2 import fastdeal, fastplay, rollout, sampling

    for m in (e2, fastdeal, fastplay, rollout, sampling):
        assert "/bots/expert2/" in m.__file__
        for name, value in vars(m).items():
            home = getattr(value, "__module__", None) or getattr(getattr(value, "py_func", None), "__module__", None)
            if home and home.startswith("atout.bots.") and not home.startswith(("atout.bots.expert1.",
                                                                                 "atout.bots.expert2.")):
                raise AssertionError(f"{m.__name__}.{name} comes from the live {home}")
    assert e2.card_values.py_func.__module__ == "atout.bots.expert2.fastplay"
    assert sampling.fastdeal is fastdeal and rollout.fastplay is fastplay
    assert e2.heuristic_card.__module__ == "atout.bots.expert1.heuristic"
    assert frozen.Expert2Bot is e2.ExpertBot
    assert make_bot("expert-2", 1).name == "expert-2"
    assert "atout.bots.expert2.fastplay" in sys.modules
