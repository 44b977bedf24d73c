"""The hint and its reasons (issue 46, items 4-5): the analysis's own search asked of a decision not yet taken,
so following the hint is never marked; every reason's figure and the choice of reason are the search's."""

from __future__ import annotations

from atout.bots import make_bot
from atout.bots.analysis import analyse
from atout.bots.hint import hint
from atout.bots.reasons import Figures, ReasonKind, reason_json, reasons
from atout.engine import Discard, Play, RuleSet, new_deal
from atout.engine.cards import SPADES, mask_of, suit_card, trump
from atout.engine.record import to_record
from atout.tui.text import reason_words

FACTOR = 1  # the expert's own worlds: the same search, quicker


def test_following_every_hint_no_decision_is_marked_nor_loses_anything():
    deal = new_deal(RuleSet(4), 3, "hint/follow")
    bots = [make_bot("club", f"hint/follow/{s}") for s in range(4)]
    hinted = 0
    while deal.to_act is not None:
        seat = deal.to_act
        obs = deal.observation(seat)
        if seat == 0:
            found = hint(obs, len(deal.history), "analysis", FACTOR, seconds=None)
            assert found.action in obs.legal or type(found.action) is Discard  # an écart is one of its choices
            assert found.reasons
            deal.apply(found.action, seat)
            hinted += 1
        else:
            deal.apply(bots[seat].choose(obs), seat)
    analysis = analyse(to_record(deal), seats=[0], factor=FACTOR)
    assert hinted >= 10 and analysis.decisions
    assert all(d.loss == 0 and d.mark is None for d in analysis.decisions), [
        (d.kind, d.loss, d.mark) for d in analysis.decisions if d.loss
    ]
    assert all(d.reasons for d in analysis.decisions)


def figures(values, petit=None, sides=False, hand=0, actions=None):
    return Figures(actions or [Play(1), Play(2)], values, [1.0] * len(values), [0.0, 0.0], petit, sides, hand)


def test_the_reasons_are_the_searchs_figures_change_them_and_the_sentence_changes():
    sure = figures([[30, 10], [20, 0], [25, 5], [35, 15]])  # +20 in every world
    [gain] = reasons(sure, 0)
    assert gain.kind is ReasonKind.GAIN and gain.figures["gain"] == 20.0 and gain.figures["worlds"] == 4
    assert gain.other == Play(2)
    said = reason_words(gain)
    assert "20 points" in said and "4 deals searched" in said
    other = reason_words(reasons(figures([[31, 10], [20, 0], [25, 5], [35, 15]]), 0)[0])
    assert other != said and "20.2 points" in other

    noisy = figures([[40, 0], [0, 30], [50, 10], [10, 40]])  # ahead by 5 on average, but not surely
    [noise] = reasons(noisy, 0)
    assert noise.kind is ReasonKind.NOISE and noise.figures["low"] < 0 < noise.figures["high"]
    assert "noise" in reason_words(noise)
    assert reasons(figures([[10, 10], [5, 5]]), 0)[0].kind is ReasonKind.EVEN


def test_the_second_reason_is_the_figure_that_differs_most():
    values = [[30, 10], [20, 5], [25, 5], [-15, -35]]  # +20 surely, the side wins in 3 worlds of 4 either way
    petit = [[1, 0], [1, 0], [1, 1], [1, 0]]  # the Petit saved in 4 worlds of 4, against 1
    first, second = reasons(figures(values, petit=petit, sides=True), 0)
    assert first.kind is ReasonKind.GAIN
    assert second.kind is ReasonKind.PETIT and second.figures == {"chance": 100, "other_chance": 25}
    assert "100%" in reason_words(second) and "25%" in reason_words(second)
    # the same Petit and the same chance of winning the deal after both: no second reason
    same = [[1, 1]] * 4
    assert len(reasons(figures(values, petit=same, sides=True), 0)) == 1
    wins = [[30, -10], [20, -5], [25, 5], [-15, -35]]
    first, second = reasons(figures(wins, petit=same, sides=True), 0)
    assert second.kind is ReasonKind.WINS and second.figures == {"chance": 75, "other_chance": 25}


def test_an_ecart_says_the_suit_it_empties():
    spades = [suit_card(r, SPADES) for r in (2, 3)]
    hand = mask_of([*spades, suit_card(5, 1), suit_card(6, 1), trump(4)])
    empties, keeps = Discard(mask_of(spades)), Discard(mask_of([suit_card(5, 1), suit_card(6, 1)]))
    [gain, voids] = reasons(figures([[30, 10], [20, 0]], hand=hand, actions=[empties, keeps]), 0)
    assert gain.kind is ReasonKind.GAIN
    assert voids.kind is ReasonKind.VOIDS and voids.figures == {"suits": ["S"]}
    assert reason_json(voids, lambda a: "x")["suits"] == ["S"] and "♠" in reason_words(voids)


def test_a_reason_that_starts_with_a_card_starts_with_a_capital():
    [even] = reasons(figures([[10, 10], [5, 5]], actions=[Play(trump(3)), Play(trump(8))]), 0)
    assert reason_words(even).startswith("Trump 8 is as good")
