"""Common random numbers (issue 39): a robot against an identical copy of itself measures 0 exactly,
whatever the copy is called and whether it plays in process or through the engine protocol."""

from __future__ import annotations

import json
import shlex
import sys

import pytest

from atout.arena.duplicate import play_duplicate, seat_robot
from atout.arena.engines import close_engines
from atout.bots import LEVELS, ExpertBot
from atout.bots.streams import decision_seed
from atout.cli.main import main
from atout.engine import RuleSet, new_deal

LIGHT = {"SAFETY_SECONDS": 1e9, "CARD_SAMPLES": {3: 12, 4: 12, 5: 12}, "BID_SAMPLES": 8, "ECART_SAMPLES": 8}
"""The expert as these tests run it. It stops a search on time (0.7 s) whatever its seed: on a loaded machine the
two copies would search different numbers of worlds and part; lifted (as tests/bots do), a seed fixes every
choice. And it searches fewer worlds than it plays with (12 a card rather than 108): whether two copies agree
does not hang on how many worlds each searches, and the full count cost this file three quarters of its CPU."""

LIFT = "import atout.bots.expert as e; " + "".join(f"e.{name} = {value!r}; " for name, value in LIGHT.items())
"""``LIGHT`` in an engine's own process (``atout engine`` started by the arena)."""


@pytest.fixture(autouse=True)
def light_expert(monkeypatch):
    for name, value in LIGHT.items():
        monkeypatch.setattr(f"atout.bots.expert.{name}", value)


@pytest.fixture
def expert_copy(monkeypatch):
    """The expert under another level's name: the same code, so the same choices from the same seed."""
    monkeypatch.setitem(LEVELS, "expert-copy", ExpertBot)
    return "expert-copy"


def _diffs(rec: dict) -> list[int]:
    return [s["diff"] for s in rec["seats"]]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_robot_against_itself_measures_zero_on_every_deal(players, expert_copy):
    """The expert against its copy under another name (the same code, another level's name: the stronger case
    of the expert against itself, which played the same cards again at twice the cost), the heuristic against
    itself, and the club robot against the heuristic it plays as."""
    for index in range(2):
        for candidate, baseline in (("heuristic", "heuristic"), ("expert", expert_copy), ("club", "heuristic")):
            rec = play_duplicate(players, candidate, baseline, "crn", index)
            assert _diffs(rec) == [0] * players, (candidate, baseline, index)


def test_the_level_seeding_is_kept_and_parts_the_copies(expert_copy):
    """``--seeding level`` (the arena before issue 39) seeds by the level's name: the copy draws other
    worlds and its games part (this deal is one where they do), so earlier figures can be reproduced."""
    assert any(_diffs(play_duplicate(4, "expert", expert_copy, "crn-t", 1, seeding="level")))
    assert _diffs(play_duplicate(4, "expert", expert_copy, "crn-t", 1)) == [0, 0, 0, 0]
    with pytest.raises(ValueError, match="unknown seeding"):
        seat_robot("expert", "x", 0, "lucky")


def test_each_decision_of_a_seat_has_its_own_stream():
    """A seat's decisions in one deal never share a seed (each phase once, each card at its hand size)."""
    from atout.bots import make_bot

    deal = new_deal(RuleSet(4), 0, "streams")
    bots = [make_bot("heuristic", s) for s in range(4)]
    seen: dict[int, set[str]] = {s: set() for s in range(4)}
    while (seat := deal.to_act) is not None:
        obs = deal.observation(seat)
        key = decision_seed("s", obs)
        assert key not in seen[seat]
        seen[seat].add(key)
        deal.apply(bots[seat].choose(obs), seat=seat)
    assert all(len(keys) > 18 for keys in seen.values())


def test_the_expert_through_the_protocol_plays_as_in_process(tmp_path, capsys):
    """An engine is told the seat's seed (a hash, no way back to the cards) and ``atout engine`` restarts
    its stream from it at each decision as the arena's robots do: the expert measures 0 against itself
    through the pipe, card for card."""
    out = tmp_path / "pipe.json"
    engine = shlex.join(
        [
            sys.executable,
            "-c",
            LIFT + "import sys; from atout.cli.main import main; sys.exit(main())",
            "engine",
            "--level",
            "expert",
        ]
    )
    try:
        code = main(
            [
                "arena",
                "--players",
                "3",
                "--deals",
                "1",
                "--start",
                "1",
                "--seed",
                "crn-pipe",
                "--quiet",
                "--candidate",
                "expert",
                "--baseline",
                f"cmd:{engine}",
                "--out",
                str(out),
            ]
        )
    finally:
        close_engines()
    assert code == 0, capsys.readouterr().err
    results = json.loads(out.read_text())
    assert results["config"]["seeding"] == "common" and results["summary"]["faults"] == {}
    assert [s["diff"] for d in results["deals"] for s in d["seats"]] == [0, 0, 0]


def test_the_command_line_takes_a_seeding_and_says_it(tmp_path, capsys):
    """``--seeding`` reaches the run, the report and the JSON; an unknown one is refused before any deal."""
    out = tmp_path / "level.json"
    code = main(
        [
            "arena",
            "--players",
            "4",
            "--deals",
            "1",
            "--seed",
            "crn-cli",
            "--quiet",
            "--candidate",
            "beginner",
            "--baseline",
            "heuristic",
            "--seeding",
            "level",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    assert "seed crn-cli, level seeding" in capsys.readouterr().out
    data = json.loads(out.read_text())
    want = play_duplicate(4, "beginner", "heuristic", "crn-cli", 0, seeding="level")
    assert data["config"]["seeding"] == "level"
    assert [s["diff"] for s in data["deals"][0]["seats"]] == _diffs(want)
    with pytest.raises(SystemExit) as refused:
        main(["arena", "--deals", "1", "--seeding", "lucky", "--out", str(tmp_path / "no.json")])
    assert refused.value.code == 2 and "invalid choice: 'lucky'" in capsys.readouterr().err
    assert not (tmp_path / "no.json").exists()
