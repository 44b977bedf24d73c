"""docs/rules.md sections 10 and 12: counting and scoring."""

import pytest

from atout.engine import GARDE, GARDE_CONTRE, GARDE_SANS, PRISE
from atout.engine.scoring import TARGETS, chelem_bonus, margin, shares, unit


def test_targets_by_bouts():
    assert TARGETS == {3: 36, 2: 41, 1: 51, 0: 56}


@pytest.mark.parametrize(
    "points,target,m,made",
    [
        (40.5, 41, 1, False),
        (41.5, 41, 1, True),
        (41, 41, 0, True),
        (45, 41, 4, True),
        (35.5, 36, 1, False),
        (56, 56, 0, True),
        (55.5, 56, 1, False),
        (50.5, 51, 1, False),
        (51.5, 51, 1, True),
        (0, 56, 56, False),
        (91, 36, 55, True),
        (44.5, 41, 4, True),
        (37.5, 41, 4, False),
    ],
)
def test_margin_rounds_the_half_point_to_the_winner(points, target, m, made):
    half = int(points * 2)
    assert margin(half, target) == m
    bouts = {v: k for k, v in TARGETS.items()}[target]
    u, got_made, got_m = unit(PRISE, half, bouts, 0, 0, 0)
    assert (got_made, got_m) == (made, m)
    assert u == (25 + m if made else -(25 + m))


def test_worked_example_4p_garde_pab_defence():
    u, made, m = unit(GARDE, 90, 2, -1, 0, 0)
    assert (u, made, m) == (38, True, 4)
    assert shares(4, (0, 1, 2, 3), 2, None, u) == [-38, -38, 114, -38]


def test_worked_example_3p_prise_40_5():
    u, made, m = unit(PRISE, 81, 2, 0, 0, 0)
    assert (u, made, m) == (-26, False, 1)
    assert shares(3, (0, 1, 2), 0, None, u) == [-52, 26, 26]


def test_worked_example_5p_garde_sans_partner():
    u, made, m = unit(GARDE_SANS, 120, 1, 0, 0, 0)
    assert u == 136 and made and m == 9
    assert shares(5, (0, 1, 2, 3, 4), 1, 3, u) == [-136, 272, -136, 136, -136]


def test_worked_example_4p_garde_defender_poignee():
    u, _, _ = unit(GARDE, 90, 2, 0, 20, 0)
    assert u == 78
    assert shares(4, (0, 1, 2, 3), 2, None, u) == [-78, -78, 234, -78]


def test_poignee_not_multiplied_and_against_a_failing_taker():
    assert unit(GARDE_CONTRE, 80, 2, 0, 30, 0)[0] == -(26 * 6) - 30
    assert unit(PRISE, 82, 2, 0, 40, 0)[0] == 25 + 40


@pytest.mark.parametrize("contract,k", [(PRISE, 1), (GARDE, 2), (GARDE_SANS, 4), (GARDE_CONTRE, 6)])
def test_petit_au_bout_is_multiplied_whether_or_not_made(contract, k):
    assert unit(contract, 100, 2, 1, 0, 0)[0] == (25 + 9 + 10) * k
    assert unit(contract, 60, 2, 1, 0, 0)[0] == (-(25 + 11) + 10) * k
    assert unit(contract, 60, 2, -1, 0, 0)[0] == (-(25 + 11) - 10) * k


def test_chelem_bonus_not_multiplied():
    bonus, _ = chelem_bonus(True, 18, 0)
    assert unit(GARDE_CONTRE, 182, 3, 0, 0, bonus)[0] == (25 + 55) * 6 + 400


@pytest.mark.parametrize(
    "players,active,taker,partner,expected",
    [
        (3, (0, 1, 2), 1, None, [-10, 20, -10]),
        (4, (0, 1, 2, 3), 0, None, [30, -10, -10, -10]),
        (5, (0, 1, 2, 3, 4), 2, 4, [-10, -10, 20, -10, 10]),
        (5, (0, 1, 2, 3, 4), 2, None, [-10, -10, 40, -10, -10]),
        (5, (1, 2, 3, 4), 2, None, [0, -10, 30, -10, -10]),  # dealer 0 sits out
    ],
)
def test_shares_sum_to_zero(players, active, taker, partner, expected):
    got = shares(players, active, taker, partner, 10)
    assert got == expected and sum(got) == 0
    neg = shares(players, active, taker, partner, -7)
    assert neg == [-x * 7 // 10 for x in expected] and sum(neg) == 0


def test_never_times_three_at_three_or_five():
    assert shares(3, (0, 1, 2), 0, None, 10)[0] == 20
    assert shares(5, (0, 1, 2, 3, 4), 0, 1, 10)[0] == 20


@pytest.mark.parametrize("players", [3, 5])
def test_half_point_rounding_at_three_and_five_players(players):
    # At 3 and 5 players the points can end in a half: 50.5 with one bout fails by 1.
    assert unit(PRISE, 101, 1, 0, 0, 0)[:3] == (-26, False, 1)
    assert unit(PRISE, 103, 1, 0, 0, 0)[:3] == (26, True, 1)
    active = tuple(range(players))
    assert sum(shares(players, active, 0, None, -26)) == 0


@pytest.mark.parametrize("players", [3, 5])
def test_half_points_in_real_deals_round_to_the_winner(players):
    from .helpers import find_game

    for made in (True, False):
        deal = find_game(players, lambda d, made=made: d.result.points % 1 == 0.5 and d.result.made == made)
        r = deal.result
        assert r.margin == int(abs(r.points - r.target) + 0.5)
        assert r.made == (r.points > r.target)
