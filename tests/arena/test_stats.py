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
    return {
        "diff": diff,
        "role": role,
        "made": made,
        "baseline_role": base_role,
        "baseline_made": base_made,
        "times": list(times),
    }


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


def test_percentile_nearest_rank():
    from atout.arena.stats import percentile

    values = list(range(1, 101))  # 1..100
    assert percentile(values, 99) == 99
    assert percentile(values, 100) == 100
    assert percentile(values, 50) == 50
    assert percentile([5.0], 99) == 5.0
    assert percentile([], 99) is None
    with pytest.raises(ValueError, match="between 0 and 100"):
        percentile(values, 101)


def test_decision_times_split_by_kind():
    from atout.arena.stats import decision_times_by_kind

    seat = _seat(0, times=[0.5, 0.01, 0.03, 0.02])
    seat["kinds"] = ["bid", "card", "card", "card"]
    old = _seat(0, times=[0.2])  # a record from before kinds were kept
    out = decision_times_by_kind([{"seats": [seat, old]}])
    assert out["bid"] == {"count": 1, "median": 0.5, "p99": 0.5, "max": 0.5}
    assert out["card"]["count"] == 3 and out["card"]["median"] == 0.02 and out["card"]["max"] == 0.03
    assert out["unknown"]["count"] == 1


def test_contract_table_counts_takes_and_success():
    from atout.arena.stats import contract_table

    taker = _seat(10, "taker", True, "taker", False)
    taker["contract"] = "garde"
    records = [
        {"baseline_contract": "prise", "seats": [taker, _seat(0)]},
        {"baseline_contract": None, "seats": [_seat(0), _seat(0)]},
    ]
    t = contract_table(records)
    assert t["candidate"] == {"garde": {"takes": 1, "made": 1, "share": 1.0, "success": 1.0}}
    assert t["baseline"] == {"prise": {"takes": 1, "made": 0, "share": 1.0, "success": 0.0}}


def test_paired_runs_on_the_same_deals():
    from atout.arena.stats import paired

    def deal(i, diffs, roles):
        return {"index": i, "seats": [{"diff": d, "role": r} for d, r in zip(diffs, roles, strict=True)]}

    before = [
        deal(0, [4, 0], ["taker", "defender"]),
        deal(1, [0, 2], ["defender", "defender"]),
        deal(2, [9, 9], ["void", "void"]),
    ]
    after = [deal(0, [8, 2], ["taker", "defender"]), deal(1, [6, 2], ["taker", "defender"])]
    p = paired(before, after)
    assert p["deals"] == 2  # deal 2 was played by one run only
    # Per deal: (5 - 2) and (4 - 1).
    assert p["per_deal"]["mean"] == 3
    # Seat-deals where the role stayed: deal 0 taker +4, defender +2; deal 1 seat 1 defender 0.
    assert p["roles"]["taker"]["mean"] == 4 and p["roles"]["taker"]["n"] == 1
    assert p["roles"]["defender"]["mean"] == 1 and p["roles"]["defender"]["n"] == 2
