"""benchmarks/dev_variants.py: its records are the arena's, and ``--focus`` leaves out only the seat-games it says."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from atout.arena.duplicate import play_duplicate

_PATH = Path(__file__).parents[2] / "benchmarks" / "dev_variants.py"
_spec = importlib.util.spec_from_file_location("dev_variants", _PATH)
dev = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dev)

KEYS = ("seat", "candidate", "baseline", "diff", "role", "baseline_role", "made", "contract")


@pytest.mark.parametrize("players", [4, 5])
def test_without_focus_the_records_are_the_arena_s(players, tmp_path):
    for index in range(3):
        want = play_duplicate(players, "random", "heuristic", "devv", index)
        for cache in (None, tmp_path, tmp_path):  # played, stored, then read back
            got = dev.duplicate(players, "heuristic", "devv", index, None, candidate="random", cache=cache)
            assert got["baseline_scores"] == want["baseline_scores"]
            for a, b in zip(got["seats"], want["seats"], strict=True):
                assert {k: a[k] for k in KEYS} == {k: b[k] for k in KEYS}


@pytest.mark.parametrize("players", [4, 5])
def test_focus_keeps_exactly_the_seat_games_it_names(players):
    kept = {"taker": 0, "defender": 0}
    for index in range(6):
        want = play_duplicate(players, "random", "heuristic", "devf", index)
        for focus in kept:
            got = dev.duplicate(players, "heuristic", "devf", index, focus, candidate="random", cache=None)
            for a, b in zip(got["seats"], want["seats"], strict=True):
                if focus == "taker":
                    keep = b["role"] == "taker" or b["baseline_role"] == "taker"
                else:
                    keep = b["role"] == "defender"
                if keep:
                    kept[focus] += 1
                    assert {k: a[k] for k in KEYS} == {k: b[k] for k in KEYS}
                elif a["role"] != "void":  # a deal all passed is played out (it is over at once)
                    assert a["role"] == "skipped" and a["diff"] == 0
    assert kept["taker"] and kept["defender"]
