"""docs/rules.md section 9: the poignée (four players unless said; dealer 3, seat 0 leads)."""

import pytest

from atout.engine import GARDE, GARDE_SANS, IllegalAction, Play, Poignee, PoigneeFrom

from .helpers import M, auto, build, play, show, snapshot, to_play

PLAIN8 = "1S 2S 3S 4S 5S 6S 7S 8S"
TEN = "T2 T3 T4 T6 T7 T8 T9 T10 T11 T12"


def _at_seat1(s1, **kw):
    deal = build(4, {0: "KH", 1: s1}, dealer=3, **kw)
    to_play(deal, 0, GARDE_SANS)
    play(deal, "KH")
    assert deal.to_act == 1
    return deal


def _offer(deal):
    offers = [a for a in deal.legal_actions() if isinstance(a, PoigneeFrom)]
    return offers[0] if offers else None


def test_offer_beside_the_plays_and_exactly_the_threshold():
    deal = _at_seat1(TEN + " " + PLAIN8)
    offer = _offer(deal)
    assert offer == PoigneeFrom(M(TEN), {"simple": 10})
    assert any(isinstance(a, Play) for a in deal.legal_actions())
    before = snapshot(deal)
    for bad, rule in [
        ("T2 T3 T4 T6 T7 T8 T9 T10 T11", "poignee_size"),
        (TEN + " 1S", "poignee_trumps"),
        ("T2 T3 T4 T6 T7 T8 T9 T10 T11 T21", "not_in_hand"),
    ]:
        with pytest.raises(IllegalAction) as err:
            show(deal, bad)
        assert err.value.rule == rule, bad
    for junk in (Poignee(0), Poignee(-5), Poignee("T2"), Poignee(1 << 90)):
        with pytest.raises(IllegalAction):
            deal.apply(junk, 1)
    with pytest.raises(IllegalAction) as err:
        deal.apply(Poignee(M(TEN)), 2)
    assert err.value.rule == "out_of_turn"
    assert snapshot(deal) == before
    show(deal, TEN)
    assert deal.poignees == [(1, M(TEN), "simple", 20)]
    assert deal.to_act == 1 and _offer(deal) is None
    for seat in (None, 0, 2, 3):
        assert deal.observation(seat).poignees[0][1] == M(TEN)
    with pytest.raises(IllegalAction) as err:
        show(deal, TEN)
    assert err.value.rule == "poignee_time"


def test_more_trumps_show_exactly_a_threshold_of_them():
    eleven = TEN + " T13"
    deal = _at_seat1(eleven + " " + PLAIN8[3:])
    with pytest.raises(IllegalAction) as err:
        show(deal, eleven)
    assert err.value.rule == "poignee_size"
    show(deal, TEN)  # any ten of the eleven
    assert deal.poignees[0][2] == "simple"


@pytest.mark.parametrize(
    "players,trumps,sizes",
    [
        (4, 13, {"simple": 10, "double": 13}),
        (4, 15, {"simple": 10, "double": 13, "triple": 15}),
        (3, 13, {"simple": 13}),
        (3, 18, {"simple": 13, "double": 15, "triple": 18}),
        (5, 8, {"simple": 8}),
        (5, 10, {"simple": 8, "double": 10}),
        (5, 13, {"simple": 8, "double": 10, "triple": 13}),
        (4, 9, None),
        (3, 12, None),
        (5, 7, None),
    ],
)
def test_thresholds_by_player_count(players, trumps, sizes):
    size = {3: 24, 4: 18, 5: 15}[players]
    trump_codes = " ".join(f"T{n}" for n in range(2, 2 + trumps))
    plain = " ".join(f"{r}{s}" for s in "SHDC" for r in range(1, 11))  # 40 low cards
    hand = trump_codes + " " + " ".join(plain.split()[: size - trumps])
    deal = build(players, {0: "KC", 1: hand}, dealer=players - 1)
    to_play(deal, 0, GARDE_SANS, call="KC" if players == 5 else None)
    play(deal, "KC")
    offer = _offer(deal)
    if sizes is None:
        assert offer is None
        with pytest.raises(IllegalAction):
            deal.apply(Poignee(M(" ".join(trump_codes.split()))), 1)
    else:
        assert offer.sizes == sizes
        n = max(sizes.values())
        show(deal, " ".join(trump_codes.split()[:n]))
        assert deal.poignees[0][2] == max(sizes, key=sizes.get)
        assert deal.poignees[0][3] == {"simple": 20, "double": 30, "triple": 40}[deal.poignees[0][2]]


def test_excuse_stands_for_a_trump_only_with_no_other_trump_unshown():
    nine = "T2 T3 T4 T6 T7 T8 T9 T10 T11"
    deal = _at_seat1(nine + " EX " + PLAIN8)
    offer = _offer(deal)
    assert offer.cards == M(nine + " EX") and offer.sizes == {"simple": 10}
    show(deal, nine + " EX")
    assert deal.poignees[0][2] == "simple"

    deal = _at_seat1(TEN + " EX " + PLAIN8[3:])
    offer = _offer(deal)
    assert offer.cards == M(TEN) and offer.sizes == {"simple": 10}  # the Excuse is not needed
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as err:
        show(deal, nine + " EX")
    assert err.value.rule == "poignee_excuse"
    assert snapshot(deal) == before


def test_excuse_for_a_double_only():
    twelve = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13"
    deal = _at_seat1(twelve + " EX 1S 2S 3S 4S 5S")
    offer = _offer(deal)
    assert offer.sizes == {"simple": 10, "double": 13} and offer.cards & M("EX")
    with pytest.raises(IllegalAction) as err:
        show(deal, "T2 T3 T4 T5 T6 T7 T8 T9 T10 EX")
    assert err.value.rule == "poignee_excuse"
    show(deal, twelve + " EX")
    assert deal.poignees[0][2] == "double"


def test_only_before_ones_first_card():
    deal = _at_seat1(TEN + " " + PLAIN8)
    deal.apply(next(a for a in deal.legal_actions() if isinstance(a, Play)), 1)
    while deal.tricks == []:
        deal.apply(next(a for a in deal.legal_actions() if isinstance(a, Play)), deal.to_act)
    while deal.to_act != 1:
        deal.apply(next(a for a in deal.legal_actions() if isinstance(a, Play)), deal.to_act)
    assert _offer(deal) is None
    with pytest.raises(IllegalAction) as err:
        show(deal, TEN)
    assert err.value.rule == "poignee_time"


def test_taker_may_show_ecart_trumps():
    # 18 trumps... the taker must lay three trumps aside, and shows them in a poignée.
    hand = "KS KH KD KC T21 T1 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10"
    deal = build(4, {0: hand}, dog="2C 3C 4C T2 T3 T4", dealer=3)
    to_play(deal, 0, GARDE, discard="2C 3C 4C T2 T3 T4")
    offer = _offer(deal)
    assert offer.cards & M("T2 T3 T4") == M("T2 T3 T4")
    poignee = "T2 T3 T4 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21"
    show(deal, poignee)
    assert deal.poignees[0][2] == "triple"


def _unit(r, k, h):
    w = 1 if r.made else -1
    pab = {"taker": 10, "defence": -10, None: 0}[r.petit_au_bout]
    c = {None: 0, "defence": -200, "made": 200, "announced_made": 400, "announced_failed": -200}[r.chelem]
    return (w * (25 + r.margin) + pab) * k + w * h + c


def test_defenders_poignee_goes_to_the_taker_who_makes_it_not_multiplied():
    s0 = "EX T13 T14 T15 T16 T17 T18 T19 T20 T21 KS KH KD KC QS QH QD NS"
    s1 = TEN + " " + PLAIN8
    deal = build(4, {0: s0, 1: s1, 2: "T1 T5"}, dealer=3)
    to_play(deal, 0, GARDE_SANS)
    play(deal, "T21")
    show(deal, TEN)
    auto(deal)
    r = deal.result
    assert r.made and r.poignees == [{"seat": 1, "size": "simple", "bonus": 20}]
    assert r.unit == _unit(r, 4, 20)
    assert r.scores == [3 * r.unit, -r.unit, -r.unit, -r.unit]


def test_two_poignees_add_up_and_go_to_the_defence_when_the_taker_fails():
    s0 = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 1S 2S 3S 4S 5S 6S 7S 8S"
    s1 = "T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 KS KH KD KC QS QH QD QC"
    deal = build(4, {0: s0, 1: s1, 2: "T1 EX"}, dealer=3)
    to_play(deal, 0, GARDE_SANS)
    show(deal, "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11")
    play(deal, "1S")
    show(deal, "T12 T13 T14 T15 T16 T17 T18 T19 T20 T21")
    auto(deal)
    r = deal.result
    assert [(p["seat"], p["size"], p["bonus"]) for p in r.poignees] == [(0, "simple", 20), (1, "simple", 20)]
    assert not r.made
    assert r.unit == _unit(r, 4, 40)
