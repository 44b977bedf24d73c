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


def play_out(players: int, levels: list[str], seed: str, dealer: int = 0, budget: float | None = 0.05, **rule_options):
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


@pytest.mark.parametrize("players", [3, 4, 5])
def test_expert_never_plays_illegally(players):
    level = "expert"
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
    module = "atout.bots.expert"
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


def test_a_retired_level_plays_its_successor_and_says_whose_yardstick_it_is(caplog, monkeypatch):
    """expert-1 and expert-2 left the package (issue 39): a stored table or game naming one gets the expert
    (said once in the log, with the yardstick that is the level itself), the arena refuses it."""
    import logging

    from atout.arena.duplicate import seat_robot
    from atout.bots import RETIRED_LEVELS, YARDSTICK_COMMIT, current_level, level_shown

    assert set(RETIRED_LEVELS) == {"expert-1", "expert-2"} and not set(RETIRED_LEVELS) & set(LEVELS)
    monkeypatch.setattr("atout.bots._said", set())  # said once a process: another test may have said it
    with caplog.at_level(logging.INFO, logger="atout.bots"):
        assert type(make_bot("expert-2", 1)) is ExpertBot
        assert type(make_bot("expert-2", 2)) is ExpertBot
    assert f"commit:{YARDSTICK_COMMIT}:expert-2" in caplog.text and len(caplog.records) == 1
    assert current_level("expert-1") == "expert" and current_level("club") == "club"
    assert level_shown("expert-2") == "expert"
    with pytest.raises(ValueError, match=f"its yardstick is commit:{YARDSTICK_COMMIT}:expert-1"):
        seat_robot("expert-1", "x", 0)
