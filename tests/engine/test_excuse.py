"""docs/rules.md section 8: the Excuse (four players, dealer 3: seat 0 leads)."""

import pytest

from atout.engine import GARDE_SANS, PRISE, Play
from atout.engine.cards import EXCUSE, EXCUSE_BIT, HALF_POINTS, LOW_CARDS, half_points

from .helpers import C, M, auto, build, find_game, play, replay_history, to_play

S1_EX = "EX KH 1S 2S 3S 4S 5S 6S 7S 8S 1D 2D 3D 4D 5D 6D 7D 8D"


def _lowest_other(deal):
    legal = [a.card for a in deal.legal_actions() if isinstance(a, Play)]
    plain = [c for c in legal if c != EXCUSE]
    deal.apply(Play(min(plain) if plain else EXCUSE), deal.to_act)


def test_excuse_stays_with_owner_and_is_paid_when_its_side_first_wins_a_trick():
    deal = build(4, {0: "T21 1H", 1: S1_EX}, dealer=3)
    to_play(deal, 0, GARDE_SANS)
    play(deal, "T21", "EX")
    _lowest_other(deal)
    _lowest_other(deal)
    assert deal.tricks[0].winner == 0
    # The defence has no trick yet: it keeps the Excuse and owes a low card.
    assert deal.piles[1] == EXCUSE_BIT
    assert deal.piles[0].bit_count() == 3 and not deal.piles[0] & EXCUSE_BIT
    taker_before = deal.piles[0]
    play(deal, "1H", "KH")
    _lowest_other(deal)
    _lowest_other(deal)
    assert deal.tricks[1].winner != 0
    trick2 = sum(1 << c for _, c in deal.tricks[1].plays)
    given = deal.piles[0] & ~taker_before
    assert given.bit_count() == 1 and given & trick2 and given & LOW_CARDS
    assert deal.piles[1] == EXCUSE_BIT | (trick2 & ~given)
    assert half_points(deal.piles[0]) == half_points(taker_before) + 1


def test_excuse_paid_at_once_when_its_side_already_has_a_trick():
    s1 = "KH 1S 2S 3S 4S 5S 6S 7S 8S 1D 2D 3D 4D 5D 6D 7D 8D 9D"
    deal = build(4, {0: "T21 EX 1H", 1: s1}, dealer=3)
    to_play(deal, 0, GARDE_SANS)
    play(deal, "T21")
    for _ in range(3):
        _lowest_other(deal)
    assert deal.tricks[0].winner == 0
    first = deal.piles[0]
    play(deal, "EX", "KH")  # the Excuse led: KH sets hearts
    _lowest_other(deal)
    _lowest_other(deal)
    assert deal.side[deal.tricks[1].winner] == 1
    given = first & ~deal.piles[0]
    assert given.bit_count() == 1 and given & LOW_CARDS
    assert deal.piles[0] == (first & ~given) | EXCUSE_BIT
    assert deal.piles[1] & given


def test_excuse_never_paid_from_the_ecart_settled_at_the_end():
    # The taker only wins nothing; the Excuse led first stays with the taker, unpaid.
    taker = "EX 1S 2S 3S 4S 5S 6S 7S 8S 1H 2H 3H 4H 5H 6H 7H 8H 9H"
    deal = build(4, {0: taker}, dog="1D 2D 3D 4D 5D 6D", dealer=3)
    to_play(deal, 0, PRISE, discard="1D 2D 3D 4D 5D 6D")
    play(deal, "EX")
    auto(deal)
    assert deal.phase == "end"
    assert all(deal.side[t.winner] == 1 for t in deal.tricks)
    assert deal.ecart == M("1D 2D 3D 4D 5D 6D")
    assert deal.piles[0] == EXCUSE_BIT
    assert not deal.piles[1] & (EXCUSE_BIT | deal.ecart)
    # Excuse 4.5 + écart 3 − the unpaid half point.
    assert deal.result.points == 7.0
    assert deal.result.bouts == 1
    assert deal.result.chelem == "defence"


def _last_trick(deal):
    return deal.tricks[-1]


def _excuse_seat(trick):
    return next((s for s, c in trick.plays if c == EXCUSE), None)


def _excuse_in_last_trick(deal, same_side_wins):
    last = _last_trick(deal)
    seat = _excuse_seat(last)
    if seat is None:
        return False
    owner = deal.side[seat]
    if all(deal.side[t.winner] == owner for t in deal.tricks[:-1]):
        return False  # the chelem case
    return (deal.side[last.winner] == owner) == same_side_wins


@pytest.mark.parametrize("players", [3, 4, 5])
def test_last_trick_excuse_goes_to_the_other_side(players):
    deal = find_game(players, lambda d: _excuse_in_last_trick(d, False))
    owner = deal.side[_excuse_seat(_last_trick(deal))]
    assert deal.piles[1 - owner] & EXCUSE_BIT and not deal.piles[owner] & EXCUSE_BIT
    other = replay_history(deal, excuse_last_trick="trick_winner")
    assert other.piles[1 - owner] & EXCUSE_BIT  # the winner's side too


@pytest.mark.parametrize("players", [4, 5])
def test_last_trick_excuse_options_differ_when_its_own_side_wins(players):
    deal = find_game(players, lambda d: _excuse_in_last_trick(d, True))
    owner = deal.side[_excuse_seat(_last_trick(deal))]
    # Default (FFT): the Excuse changes sides even though its side won the trick.
    assert deal.piles[1 - owner] & EXCUSE_BIT and not deal.piles[owner] & EXCUSE_BIT
    other = replay_history(deal, excuse_last_trick="trick_winner")
    assert other.piles[owner] & EXCUSE_BIT and not other.piles[1 - owner] & EXCUSE_BIT
    excuse_points = HALF_POINTS[EXCUSE] / 2
    sign = 1 if owner == 0 else -1
    assert other.result.points - deal.result.points == sign * excuse_points
    assert other.result.bouts - deal.result.bouts == sign


# Seat 0 holds the 17 top trumps and the Excuse: it wins every trick, leads the Excuse last.
CHELEM = "EX T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21"


@pytest.mark.parametrize("option", ["other_side", "trick_winner"])
def test_excuse_led_last_after_every_trick_wins_it(option):
    deal = build(4, {0: CHELEM}, dealer=3, excuse_last_trick=option)
    to_play(deal, 0, GARDE_SANS, chelem=True)
    auto(deal)
    last = _last_trick(deal)
    assert last.plays[0] == (0, EXCUSE) and last.winner == 0
    assert deal.piles[0] & EXCUSE_BIT
    assert all(t.winner == 0 for t in deal.tricks)
    assert deal.result.chelem == "announced_made" and deal.result.bouts == 3 and deal.result.points == 91.0


def test_excuse_played_before_the_last_trick_does_not_win_it():
    # Same hand, but the Excuse is led first: the defence wins that trick.
    deal = build(4, {0: CHELEM}, dealer=3)
    to_play(deal, 0, GARDE_SANS)
    play(deal, "EX")
    auto(deal)
    first = deal.tricks[0]
    assert first.winner != 0 and deal.piles[0] & EXCUSE_BIT
    assert deal.result.chelem is None


def test_petit_au_bout_in_the_next_to_last_trick_of_a_chelem():
    # Seat 0: T1, EX and 16 high trumps; it plays trumps high to low, the Petit next-to-last.
    hand = "EX T1 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21"
    deal = build(4, {0: hand}, dealer=3)
    to_play(deal, 0, GARDE_SANS, chelem=True)

    def high_first(d, legal):
        trumps = [c for c in legal if 56 <= c < 77]
        return max(trumps) if trumps else EXCUSE

    auto(deal, policies={0: high_first})
    assert deal.tricks[-2].plays[0] == (0, C("T1")) and deal.tricks[-1].plays[0] == (0, EXCUSE)
    assert all(t.winner == 0 for t in deal.tricks)
    r = deal.result
    assert r.petit_au_bout == "taker" and r.chelem == "announced_made" and r.bouts == 3
    # U = (25 + m + 10) * 4 + 400 with P = 91 - ... everything but nothing: the taker took all.
    assert r.points == 91.0 and r.margin == 55
    assert r.unit == (25 + 55 + 10) * 4 + 400
