"""The robots' ladder (issue 39): rankings against a yardstick or by a round robin's fit, and the command."""

from __future__ import annotations

import json
import math

import pytest

from atout.arena.ladder import against_yardstick, pairs, round_robin, svg
from atout.arena.stats import Z95
from atout.cli.main import main


def summary(mean: float, sd: float, n: int = 100) -> dict:
    half = Z95 * sd / math.sqrt(n) if n > 1 else None
    return {
        "deals": n,
        "points_per_deal": {
            "n": n,
            "mean": mean,
            "sd": sd if n > 1 else None,
            "low": None if half is None else mean - half,
            "high": None if half is None else mean + half,
        },
    }


def test_the_yardstick_ladder_is_each_match_best_first_with_the_yardstick_at_zero():
    ranking = against_yardstick(
        "club",
        {
            ("expert", "club"): summary(25.0, 30.0),
            ("random", "club"): summary(-250.0, 200.0),
            ("beginner", "club"): summary(-8.0, 20.0),
        },
    )
    assert [r.entrant for r in ranking] == ["expert", "club", "beginner", "random"]
    assert (ranking[1].mean, ranking[1].low, ranking[1].high) == (0.0, 0.0, 0.0)
    assert ranking[0].low == pytest.approx(25.0 - Z95 * 3.0)


def test_a_round_robin_recovers_consistent_strengths_and_weighs_the_precise_matches_more():
    strength = {"a": 30.0, "b": 10.0, "c": -40.0}
    entrants = list(strength)
    matches = {(x, y): summary(strength[x] - strength[y], 20.0) for x, y in pairs(entrants, None)}
    ranking = round_robin(entrants, matches)
    assert [r.entrant for r in ranking] == ["a", "b", "c"]
    for r in ranking:  # the fit averages 0: each strength less their mean
        assert r.mean == pytest.approx(strength[r.entrant]) and r.low < r.mean < r.high
    # a noisy match that disagrees barely moves a fit held by two precise ones
    matches[("a", "c")] = summary(0.0, 2000.0)
    again = {r.entrant: r.mean for r in round_robin(entrants, matches)}
    assert again["a"] - again["c"] == pytest.approx(70.0, abs=0.1)


def test_the_picture_draws_every_entrant_and_its_interval():
    ladder = {
        "yardstick": "club",
        "ranking": [
            r.to_json()
            for r in against_yardstick(
                "club", {("expert", "club"): summary(25.0, 30.0), ("<evil>", "club"): summary(-5.0, 30.0)}
            )
        ],
    }
    picture = svg(ladder, "t")
    assert picture.startswith("<svg") and picture.count("<circle") == 3
    assert "&lt;evil&gt;" in picture and "club (yardstick)" in picture and "log." not in picture
    ladder["ranking"].append({"entrant": "random", "mean": -685.0, "low": -760.0, "high": -610.0, "deals": 50})
    assert "points per deal (log. beyond ±10)" in svg(ladder, "t")  # the levels' intervals stay apart


def test_the_ladder_command_plays_every_match_and_writes_json_table_and_picture(tmp_path, capsys):
    out = tmp_path / "ladder.json"
    assert (
        main(
            [
                "arena",
                "--ladder",
                "--players",
                "3",
                "--entrants",
                "random",
                "club",
                "--baseline",
                "heuristic",
                "--deals",
                "2",
                "--seed",
                "l",
                "--quiet",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert [m["candidate"] for m in data["matches"]] == ["random", "club"]
    assert [r["entrant"] for r in data["ranking"]][-1] == "random"
    club = next(r for r in data["ranking"] if r["entrant"] == "club")
    assert club["mean"] == 0 and club["deals"] == 2  # the same robot as the yardstick: 0 exactly
    assert data["config"]["invocation"].startswith("atout arena --ladder")
    table = (tmp_path / "ladder.md").read_text()
    assert "| `heuristic` (the yardstick) | 0 |" in table and "![the ladder](ladder.svg)" in table
    assert (tmp_path / "ladder.svg").read_text().count("<circle") == 3
    assert "# The robots' ladder" in capsys.readouterr().out

    rr = tmp_path / "rr.json"
    assert (
        main(
            [
                "arena",
                "--ladder",
                "--round-robin",
                "--players",
                "3",
                "--entrants",
                "random",
                "club",
                "beginner",
                "--deals",
                "2",
                "--seed",
                "l",
                "--quiet",
                "--out",
                str(rr),
            ]
        )
        == 0
    )
    data = json.loads(rr.read_text())
    assert data["method"] == "round robin" and len(data["matches"]) == 3
    assert sum(r["mean"] for r in data["ranking"]) == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--ladder", "--round-robin", "--entrants", "club"], "a round robin needs two --entrants or more"),
        (["--ladder", "--entrants", "club", "grandmaster"], "unknown robot level 'grandmaster'"),
        (["--ladder", "--entrants", "club", "--baseline", "expert-2"], "'expert-2' left the package"),
        (["--round-robin"], "--round-robin ranks a --ladder's entrants; add --ladder"),
        (["--ladder", "--entrants", "random", "cmd:false"], "the entrant 'cmd:false' does not start"),
    ],
)
def test_a_bad_ladder_is_refused_before_any_deal(argv, said, capsys):
    assert main(["arena", *argv, "--deals", "1"]) == 2
    assert said in capsys.readouterr().err
