"""Duplicate pairing: the same deal for baseline and candidate, seats rotated, and a short run per table size."""

from __future__ import annotations

import json

import pytest

from atout.arena.duplicate import play_duplicate, play_game
from atout.arena.run import run_arena, summarize
from atout.cli.main import main
from atout.engine import RuleSet


@pytest.mark.parametrize("players", [3, 4, 5])
def test_candidate_equal_to_baseline_scores_zero(players):
    """The heuristic against itself: same deal, same seeds, so every difference is 0."""
    for index in range(4):
        rec = play_duplicate(players, "heuristic", "heuristic", "same", index)
        assert [s["seat"] for s in rec["seats"]] == list(range(players))
        assert all(s["diff"] == 0 for s in rec["seats"])
        assert all(s["baseline"] == rec["baseline_scores"][s["seat"]] for s in rec["seats"])


def test_each_seat_gets_the_candidate_on_the_same_cards():
    rec = play_duplicate(4, "random", "heuristic", "pair", 3)
    base = play_game(RuleSet(4), rec["dealer"], rec["seed"], ["heuristic"] * 4)
    assert base.scores == rec["baseline_scores"]
    for s in rec["seats"]:
        levels = ["heuristic"] * 4
        levels[s["seat"]] = "random"
        game = play_game(RuleSet(4), rec["dealer"], rec["seed"], levels)
        assert game.scores[s["seat"]] == s["candidate"]
        assert s["diff"] == s["candidate"] - s["baseline"]


def test_dealer_rotates_and_deals_differ():
    recs = run_arena(4, "random", "heuristic", 5, "rot")
    assert [r["dealer"] for r in recs] == [0, 1, 2, 3, 0]
    assert len({r["seed"] for r in recs}) == 5


def test_jobs_give_the_same_records():
    one = run_arena(3, "heuristic", "random", 4, "jobs", jobs=1)
    two = run_arena(3, "heuristic", "random", 4, "jobs", jobs=2)
    strip = lambda recs: [[(s["seat"], s["diff"]) for s in r["seats"]] for r in recs]  # noqa: E731
    assert strip(one) == strip(two)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_short_arena_run_per_table_size(players, tmp_path, capsys):
    out = tmp_path / "arena.json"
    code = main(
        [
            "arena",
            "--players",
            str(players),
            "--candidate",
            "expert",
            "--baseline",
            "heuristic",
            "--deals",
            "2",
            "--seed",
            "ci",
            "--budget",
            "0.01",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    data = json.loads(out.read_text())
    assert data["config"]["players"] == players
    assert data["summary"]["deals"] == 2
    assert len(data["deals"]) == 2 and all(len(d["seats"]) == players for d in data["deals"])
    printed = capsys.readouterr()
    assert "points per deal" in printed.out
    assert "deals" in printed.err  # progress


def test_heuristic_beats_random_clearly():
    s = summarize(run_arena(4, "heuristic", "random", 12, "strength"))
    assert s["points_per_deal"]["low"] > 0


def test_decision_kinds_are_recorded_with_times():
    from atout.arena.duplicate import DECISION_KINDS

    rec = play_duplicate(4, "heuristic", "random", "kinds", 1)
    for s in rec["seats"]:
        assert len(s["kinds"]) == len(s["times"]) > 0
        assert set(s["kinds"]) <= set(DECISION_KINDS)
        assert s["kinds"][0] == "bid"
    played = [s for s in rec["seats"] if s["role"] != "void"]
    assert all(s["kinds"].count("card") == 18 for s in played)
    s = summarize([rec])
    assert "bid" in s["decision_by_kind"] and s["decision_by_kind"]["bid"]["p99"] is not None
