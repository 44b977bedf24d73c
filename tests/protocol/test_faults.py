"""The arena's policy for an engine that fails: the deal is finished by the heuristic for its seat, the
fault is counted against that engine and reported, and the match goes on (with a new process after
anything but an illegal action)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from atout.arena.duplicate import deal_seed, play_duplicate, play_game
from atout.arena.engines import EngineSettings, close_engines
from atout.arena.run import report, summarize
from atout.engine import RuleSet

FAULTY = Path(__file__).with_name("faulty_engine.py")


def faulty(mode: str) -> str:
    return f"cmd:{sys.executable} {FAULTY} {mode}"


@pytest.fixture(autouse=True)
def _engines_closed():
    yield
    close_engines()


@pytest.mark.parametrize(
    ("mode", "kind"), [("illegal", "illegal"), ("garbage", "malformed"), ("sleep", "timeout"), ("exit", "crash")]
)
def test_a_failing_engine_s_deal_is_finished_by_the_heuristic_and_reported(mode, kind, tmp_path):
    players = 3
    # a short timeout only where it is the test: elsewhere a busy machine must not make one
    engines = EngineSettings(timeout=2 if mode == "sleep" else 30, logs=str(tmp_path))
    records = [play_duplicate(players, "heuristic", faulty(mode), "faults", i, engines=engines) for i in (0, 1)]
    first, second = records
    # deal 0: each engine failed at its first decision of every playing, so the heuristic played all of them
    assert {f["kind"] for f in first["faults"]} == {kind}
    assert len(first["faults"]) == players + players * (players - 1)  # every engine seat of every playing
    assert {f["engine"] for f in first["faults"]} == {"baseline"}
    assert all(f["decision"] is not None and f["message"] for f in first["faults"])
    assert first["baseline_faults"] == players and all(s["faults"] == players - 1 for s in first["seats"])
    everyone_heuristic = play_game(RuleSet(players), 0, deal_seed("faults", 0), ["heuristic"] * players)
    assert first["baseline_scores"] == everyone_heuristic.scores
    assert all(s["diff"] == 0 for s in first["seats"])
    # deal 1: the engine (started again where it had to be) plays its seats itself
    assert second["faults"] == [] and second["baseline_faults"] == 0
    assert sum(second["baseline_scores"]) == 0
    summary = summarize(records)
    assert summary["faults"] == {"baseline": {kind: 9, "playings": 4}}
    text = report(
        summary,
        {
            "candidate": "heuristic",
            "baseline": faulty(mode),
            "players": players,
            "seed": "faults",
            "engine_logs": str(tmp_path),
        },
    )
    assert f"baseline engine faults: 9 {kind}, in 4 playings finished by the heuristic" in text
    assert str(tmp_path) in text
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"baseline-seat{s}.log" for s in range(players)]
    close_engines()  # each says quit and is waited for: its log is whole
    log = (tmp_path / "baseline-seat0.log").read_text()
    if mode == "exit":
        assert "exiting as told" in log
    # told of each deal's end while it runs: after an illegal answer it still does (3 playings of deal 0
    # hold seat 0 with the engine), after any other failure it was ended and started again for deal 1
    assert log.count("deal 0 ended") == (3 if mode == "illegal" else 0)
    assert log.count("deal 1 ended") == 3


def test_an_ecart_the_deal_refuses_is_an_illegal_answer():
    engines = EngineSettings(timeout=5)
    record = play_duplicate(4, "heuristic", faulty("ecart"), "ecart", 0, engines=engines)
    assert record["faults"], "the engine took a garde and laid a king aside"
    assert {f["kind"] for f in record["faults"]} == {"illegal"}
    assert all("discard" in f["message"] for f in record["faults"])


def test_an_engine_that_does_not_start_leaves_its_seats_to_the_heuristic():
    record = play_duplicate(3, "heuristic", "cmd:/nonexistent/engine", "gone", 0, engines=EngineSettings())
    assert {f["kind"] for f in record["faults"]} == {"crash"}
    assert all(f["decision"] is None and "could not start" in f["message"] for f in record["faults"])
    assert all(s["diff"] == 0 for s in record["seats"])
