"""Duplicate scoring (arena/scoring.py): per deal-seat the duplicate scores sum to zero exactly over the
tables that played it to its end, whatever sat there (robots too), whatever the order; a deal not played to
its end scores nothing and moves no mean; ties share a place; abandoners rank after the others."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atout.arena.scoring import SeatResult, duplicate_scores, ranking

PEOPLE = ["Ann", "Bob", "Cyd", "Dan", "Eve"]


@st.composite
def tournaments(draw) -> list[SeatResult]:
    """Deals played at several tables, 3 to 5 seats each, people or robots in each seat, some deals not played
    to their end at some tables, some people abandoning."""
    players = draw(st.integers(3, 5))
    out = []
    for deal in range(draw(st.integers(1, 4))):
        for table in range(draw(st.integers(1, 5))):
            unfinished = draw(st.booleans()) and draw(st.booleans())
            for seat in range(players):
                person = draw(st.sampled_from([*PEOPLE, None]))
                out.append(
                    SeatResult(
                        deal,
                        seat,
                        f"t{table}",
                        None if unfinished else draw(st.integers(-400, 400)),
                        person,
                        abandoned=person is not None and draw(st.integers(0, 9)) == 0,
                    )
                )
    return draw(st.permutations(out))


@given(tournaments())
def test_duplicate_scores_sum_to_zero_per_deal_seat(results: list[SeatResult]) -> None:
    scores = duplicate_scores(results)
    assert [s.result for s in scores] == results  # one each, in the order given
    sums: dict[tuple, Fraction] = {}
    for s in scores:
        key = (s.result.deal, s.result.seat)
        if s.result.points is None:
            assert s.score is None  # not played to its end: no score
            continue
        counted = [r.points for r in results if (r.deal, r.seat) == key and r.points is not None]
        assert s.tables == len(counted) and s.mean == Fraction(sum(counted), len(counted))
        assert s.score == s.result.points - s.mean
        sums[key] = sums.get(key, Fraction(0)) + s.score
    assert all(total == 0 for total in sums.values())
    # the order of the results changes no score
    again = {(s.result.deal, s.result.seat, s.result.table): s.score for s in duplicate_scores(reversed(results))}
    assert again == {(s.result.deal, s.result.seat, s.result.table): s.score for s in scores}


@given(tournaments())
def test_the_ranking_shares_places_on_ties_and_puts_abandoners_last(results: list[SeatResult]) -> None:
    places = ranking(duplicate_scores(results))
    assert {p.player for p in places} == {r.player for r in results if r.player is not None}  # no robot
    assert [p.abandoned for p in places] == sorted(p.abandoned for p in places)
    for i, p in enumerate(places):
        assert p.total == sum(
            (s.score for s in duplicate_scores(results) if s.result.player == p.player and s.score is not None),
            Fraction(0),
        )
        if i:
            before = places[i - 1]
            if before.abandoned == p.abandoned:
                assert before.total >= p.total
                assert p.place == (before.place if before.total == p.total else i + 1)
            else:
                assert p.place == i + 1
        else:
            assert p.place == 1


def test_a_small_tournament_by_hand() -> None:
    """Two tables, one deal at four, seat 0: Ann made 60, Bob 20 with the same cards; a robot sat at seat 1
    of both; a third table stopped during the deal."""
    results = [
        SeatResult("d1", 0, "A", 60, "Ann"),
        SeatResult("d1", 1, "A", -20, None),
        SeatResult("d1", 0, "B", 20, "Bob"),
        SeatResult("d1", 1, "B", -20, None),
        SeatResult("d1", 0, "C", None, "Cyd"),
        SeatResult("d1", 1, "C", None, "Dan", abandoned=True),
        SeatResult("d2", 0, "A", 30, "Ann"),  # a deal only table A played: nobody to compare with
    ]
    scores = duplicate_scores(results)
    assert [s.score for s in scores] == [20, 0, -20, 0, None, None, 0]
    assert [s.mean for s in scores][:2] == [40, -20] and scores[4].mean == 40 and scores[0].tables == 2
    assert scores[0].to_json()["score"] == 20.0
    places = ranking(scores)
    assert [(p.place, p.player, p.total, p.deals) for p in places] == [
        (1, "Ann", 20, 2),
        (2, "Cyd", 0, 0),
        (3, "Bob", -20, 1),
        (4, "Dan", 0, 0),
    ]
    tied = ranking(duplicate_scores([SeatResult("d", 0, "A", 10, "Ann"), SeatResult("d", 0, "B", 10, "Bob")]))
    assert [(p.place, p.player) for p in tied] == [(1, "Ann"), (1, "Bob")]
    with pytest.raises(ValueError, match="given twice"):
        duplicate_scores([SeatResult("d", 0, "A", 10), SeatResult("d", 0, "A", 20)])
