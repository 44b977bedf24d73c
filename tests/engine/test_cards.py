"""docs/rules.md section 1: the 78 cards, their order, codes and points."""

import pytest

from atout.engine import cards
from atout.engine.cards import (
    BOUTS,
    DECK_SIZE,
    EXCUSE,
    FULL_DECK,
    HALF_POINTS,
    card_code,
    half_points,
    parse_card,
    rank_of,
    suit_of,
)

from .helpers import C, M

SUIT_CODES = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]
ALL_CODES = [r + s for s in "SHDC" for r in SUIT_CODES] + [f"T{n}" for n in range(1, 22)] + ["EX"]


def test_78_cards_with_canonical_codes():
    assert DECK_SIZE == 78
    assert len(ALL_CODES) == 78
    assert sorted(card_code(c) for c in range(78)) == sorted(ALL_CODES)
    for code in ALL_CODES:
        assert card_code(parse_card(code)) == code


def test_suits_trumps_excuse():
    assert [suit_of(C(f"K{s}")) for s in "SHDC"] == [0, 1, 2, 3]
    assert all(suit_of(C(f"T{n}")) == cards.TRUMP_SUIT for n in range(1, 22))
    assert suit_of(EXCUSE) == cards.EXCUSE_SUIT
    assert sum(1 for c in range(78) if suit_of(c) < 4) == 56


def test_suit_rank_order_king_queen_knight_jack_ten():
    # A Jack is below a Knight (a rule-sheet error the spec names).
    order = ["KH", "QH", "NH", "JH", "10H", "9H", "2H", "1H"]
    ranks = [rank_of(C(c)) for c in order]
    assert ranks == sorted(ranks, reverse=True)
    assert [C(c) for c in order] == sorted((C(c) for c in order), reverse=True)
    assert rank_of(C("NH")) > rank_of(C("JH"))


def test_trump_order():
    assert [rank_of(C(f"T{n}")) for n in range(1, 22)] == list(range(1, 22))
    assert C("T21") > C("T20") > C("T1") > C("KC")


@pytest.mark.parametrize(
    "code,half",
    [
        ("KS", 9),
        ("KC", 9),
        ("T1", 9),
        ("T21", 9),
        ("EX", 9),
        ("QH", 7),
        ("ND", 5),
        ("JC", 3),
        ("10S", 1),
        ("1H", 1),
        ("T2", 1),
        ("T20", 1),
    ],
)
def test_card_points(code, half):
    assert HALF_POINTS[C(code)] == half


def test_deck_totals_91_points():
    assert half_points(FULL_DECK) == 182
    assert sum(HALF_POINTS) == 182


def test_three_bouts():
    assert M("T1 T21 EX") == BOUTS


@pytest.mark.parametrize(
    "text,code",
    [
        ("R♠", "KS"),
        ("D♥", "QH"),
        ("C♦", "ND"),
        ("V♣", "JC"),
        ("21", "T21"),
        ("Ex", "EX"),
        ("1", "T1"),
        ("10♥", "10H"),
        ("kh", "KH"),
    ],
)
def test_french_forms_accepted(text, code):
    assert card_code(parse_card(text)) == code


@pytest.mark.parametrize(
    "bad", ["", "X", "11S", "0S", "T0", "T22", "22", "KX", "ZS", "EXX", "1", None, 5, "K", "T", "♠"]
)
def test_bad_codes_refused_with_value_error(bad):
    if bad == "1":  # "1" is the Petit in French form
        assert parse_card(bad) == C("T1")
        return
    with pytest.raises(ValueError):
        parse_card(bad)


def test_card_code_out_of_range():
    for bad in (-1, 78, 1000):
        with pytest.raises(ValueError):
            card_code(bad)
