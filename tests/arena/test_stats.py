"""The arena's statistics on data whose answers are known by hand."""

from __future__ import annotations

import math

import pytest

from atout.arena.run import summarize
from atout.arena.stats import Z95, mean_ci, median


def test_mean_ci_on_known_data():
    ci = mean_ci([1, 2, 3, 4, 5])
    # mean 3, sample sd sqrt(2.5), half-width 1.96 * sqrt(2.5) / sqrt(5)
    half = Z95 * math.sqrt(2.5) / math.sqrt(5)
    assert ci["mean"] == 3
    assert ci["sd"] == pytest.approx(math.sqrt(2.5))
    assert ci["low"] == pytest.approx(3 - half)
    assert ci["high"] == pytest.approx(3 + half)
    assert ci["n"] == 5


def test_mean_ci_degenerate_cases():
    assert mean_ci([])["mean"] is None
    one = mean_ci([7])
    assert one["mean"] == 7 and one["low"] is None
    flat = mean_ci([2, 2, 2])
    assert flat["low"] == flat["high"] == 2


def test_median():
    assert median([3, 1, 2]) == 2
    assert median([4, 1, 2, 3]) == 2.5
    assert median([]) is None


def _seat(diff, role="defender", made=None, base_role="defender", base_made=None, times=()):
    return {"diff": diff, "role": role, "made": made, "baseline_role": base_role,
            "baseline_made": base_made, "times": list(times)}


def test_summary_pairs_seats_within_a_deal():
    records = [
        {"seats": [_seat(30, "taker", True, "taker", False, [0.01, 0.03]), _seat(-10), _seat(-10), _seat(-10)]},
        {"seats": [_seat(0), _seat(8, "taker", False, "defender"), _seat(0), _seat(0, times=[0.02])]},
    ]
    s = summarize(records)
    # Per deal: the mean over the candidate's seats: 0 and 2.
    assert s["points_per_deal"]["mean"] == 1
    assert s["points_per_deal"]["n"] == 2
    assert s["by_role"]["taker"]["mean"] == 19
    assert s["by_role"]["defender"]["n"] == 6
    assert s["taker_success"]["candidate"] == 0.5
    assert s["taker_success"]["baseline"] == 0.0
    assert s["decision_seconds"]["median"] == 0.02
    assert s["decision_seconds"]["max"] == 0.03
