"""docs/rules.md section 7: playing the cards (four players, dealer 3, so seat 0 leads; seat 0 takes)."""

import pytest

from atout.engine import GARDE_SANS, IllegalAction, Play, Poignee

from .helpers import C, build, legal_codes, play, snapshot, to_play

S1 = "6S KS T3 T15 EX 5H 6H 7H 8H 3D 4D 5D 6D 3C 4C 5C 6C 7C"
S2 = "T5 T12 9H 10H JH NH QH KH 7D 8D 9D 10D 8C 9C 10C JC NC QC"
PLAIN3 = "1H 2H 3H 4H 1D 2D JD ND QD KD 1C 2C KC"


def table(s0="5S", s1=S1, s2=S2, s3=None, **options):
    hands = {0: s0, 1: s1, 2: s2}
    if s3 is not None:
        hands[3] = s3
    deal = build(4, hands, dealer=3, **options)
    return to_play(deal, 0, GARDE_SANS)


def _set(text):
    return set(text.split())


def test_first_lead_by_the_dealers_right_any_card():
    deal = table()
    assert deal.to_act == 0
    assert legal_codes(deal) == {c for c in _codes(deal.hands[0])}


def _codes(mask):
    from .helpers import codes_of

    return codes_of(mask)


def test_follow_suit_any_rank_and_the_excuse():
    deal = table()
    play(deal, "5S")
    assert legal_codes(deal) == _set("6S KS EX")
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as err:
        deal.apply(Play(C("T15")), 1)
    assert err.value.rule == "follow_suit"
    with pytest.raises(IllegalAction) as err:
        deal.apply(Play(C("5H")), 1)
    assert err.value.rule == "follow_suit"
    assert snapshot(deal) == before


def test_must_trump_when_void():
    deal = table()
    play(deal, "5S", "KS")
    assert legal_codes(deal) == _set("T5 T12")
    with pytest.raises(IllegalAction) as err:
        deal.apply(Play(C("9H")), 2)
    assert err.value.rule == "must_trump"


def test_must_overtrump_even_over_a_partner():
    # Seats 2 and 3 are both defenders: seat 3 must still beat its partner's T12.
    deal = table(s3=PLAIN3 + " T2 T4 T14 T16 T6")
    play(deal, "5S", "KS", "T12")
    assert legal_codes(deal) == _set("T14 T16")
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as err:
        deal.apply(Play(C("T4")), 3)
    assert err.value.rule == "overtrump"
    with pytest.raises(IllegalAction) as err:
        deal.apply(Play(C("1H")), 3)
    assert err.value.rule == "must_trump"
    assert snapshot(deal) == before


def test_undertrump_when_unable_to_overtrump():
    deal = table(s3=PLAIN3 + " T2 T4 T6 T7 T8")
    play(deal, "5S", "KS", "T12")
    assert legal_codes(deal) == _set("T2 T4 T6 T7 T8")


def test_no_trump_play_anything():
    s2 = "9H 10H JH NH QH KH 7D 8D 9D 10D 8C 9C 10C JC NC QC 1H 2H"
    deal = table(s2=s2)
    play(deal, "5S", "KS")
    assert legal_codes(deal) == _set(s2)


def test_trump_led_overtrump_else_any_trump_else_anything():
    deal = table(s0="T10 T21")
    play(deal, "T10")
    assert legal_codes(deal) == _set("T15 EX")
    play(deal, "T15")
    assert legal_codes(deal) == _set("T5 T12")  # cannot beat T15: any trump


def test_trump_led_without_trumps_play_anything():
    s1 = "6S KS EX 5H 6H 7H 8H 3D 4D 5D 6D 3C 4C 5C 6C 7C 1H 2H"
    deal = table(s0="T10", s1=s1)
    play(deal, "T10")
    assert legal_codes(deal) == _set(s1)


def test_excuse_led_second_card_sets_the_suit():
    deal = table(s0="EX", s1="6S KS T3 T15 5H 6H 7H 8H 3D 4D 5D 6D 3C 4C 5C 6C 7C 1S")
    play(deal, "EX")
    assert legal_codes(deal) == _codes(deal.hands[1])
    play(deal, "5H")
    assert legal_codes(deal) == _set("9H 10H JH NH QH KH")


def test_excuse_then_trump_must_overtrump():
    deal = table(s0="EX", s1="6S KS T3 T10 5H 6H 7H 8H 3D 4D 5D 6D 3C 4C 5C 6C 7C 1S")
    play(deal, "EX", "T10")
    assert legal_codes(deal) == _set("T12")


def test_highest_of_the_suit_led_wins_without_trump():
    s2 = "7S T2 T4 T5 T6 T7 T8 T9 T10 T12 T13 T14 T16 T17 T18 T19 T20 T21"
    s3 = "1H 2H 3H 4H 9H 10H JH NH QH KH 1D 2D 7D 8D 9D 10D JD KC"
    deal = table(s0="4S 5S", s2=s2, s3=s3)
    play(deal, "4S", "6S", "7S")
    assert legal_codes(deal) == _set(s3)  # no spade, no trump: anything
    play(deal, "KC")
    assert deal.tricks[0].winner == 2 and deal.to_act == 2
    assert deal.tricks[0].plays == ((0, C("4S")), (1, C("6S")), (2, C("7S")), (3, C("KC")))


def test_excuse_never_wins_and_winner_leads_next():
    s3 = "8S KC 2H 3H 4H 1D 2D JD ND QD 1C 2C T2 T4 T6 T7 T8 T9"
    s2 = "7S 9H 10H JH NH QH KH 7D 8D 9D 10D 8C 9C 10C JC NC QC 1H"
    deal = table(s0="5S", s2=s2, s3=s3)
    play(deal, "5S", "EX", "7S", "8S")
    assert deal.tricks[0].winner == 3 and deal.to_act == 3


def test_any_trump_beats_the_suit():
    deal = table(s0="5S 4S", s3=PLAIN3 + " T2 T4 T6 T7 T8")
    play(deal, "4S", "KS", "T5", "T8")
    assert deal.tricks[0].winner == 3 and deal.to_act == 3


def test_not_in_hand_no_card_and_out_of_turn_change_nothing():
    deal = table()
    before = snapshot(deal)
    for action, rule in [
        (Play(C("KS")), "not_in_hand"),
        (Play(78), "card"),
        (Play(-1), "card"),
        (Play("5S"), "card"),
        (Play(None), "card"),
        (Play(5.0), "card"),
    ]:
        with pytest.raises(IllegalAction) as err:
            deal.apply(action, 0)
        assert err.value.rule == rule, action
    with pytest.raises(IllegalAction) as err:
        deal.apply(Play(C("6S")), 1)
    assert err.value.rule == "out_of_turn"
    assert snapshot(deal) == before


def test_a_bool_is_not_a_card():
    # True == 1 == 2S: must be refused cleanly, whoever holds 2S.
    for holder in (0, 1):
        hands = {0: "2S 5S"} if holder == 0 else {0: "5S", 1: S1.replace("7C", "2S")}
        deal = build(4, hands, dealer=3)
        to_play(deal, 0, GARDE_SANS)
        before = snapshot(deal)
        for junk in (True, False):
            with pytest.raises(IllegalAction):
                deal.apply(Play(junk), 0)
        assert snapshot(deal) == before


def test_wrong_kind_of_action_in_play():
    deal = table()
    before = snapshot(deal)
    with pytest.raises(IllegalAction):
        deal.apply(Poignee(0), 0)
    with pytest.raises(IllegalAction):
        deal.apply(object(), 0)
    assert snapshot(deal) == before
