"""The analysis of a deal: a king thrown away is flagged, the analysis knows only what the seat knew,
and a record and a seed give the same analysis."""

from __future__ import annotations

import json

from atout.bots import make_bot
from atout.bots.analysis import analyse, decision_points
from atout.engine import GARDE, PASS, Bid, Chelem, Deal, Play, RuleSet, new_deal
from atout.engine.cards import parse_card
from atout.engine.kinds import DecisionKind
from atout.engine.record import parse_action, replay, start_deal, to_record
from engine.helpers import build


def _finish(deal: Deal, level: str = "heuristic", seed: str = "finish") -> dict:
    """The record of ``deal`` played to its end by robots of ``level``, by hands and dog."""
    bots = [make_bot(level, f"{seed}/{s}") for s in range(deal.players)]
    while not deal.is_over:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat)
    return to_record(deal, with_seed=False)


def _king_deal(first_heart: str) -> dict:
    """Seat 0 leads 5♥ at a Garde of seat 1, who has no heart and trumps with the 21; seat 2, who
    holds R♥, 2♥, 3♥ and fifteen of the other trumps (so the taker has at most five left, and a king
    kept will be master once they are gone), plays ``first_heart``; robots play the rest."""
    deal = build(
        4,
        dealer=3,
        dog="1S 2S 3S 1C 2C 3C",
        hands={
            0: "5H 9H 10H",
            1: "T21 T5 T4 KS KD KC QS QD QC NS ND NC JS JD JC 10S 10D 10C",
            2: "KH 2H 3H T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17",
            3: "1H 4H 6H 7H 8H JH NH QH",
        },
    )
    for seat, entry in (
        (0, {"bid": "pass"}),
        (1, {"bid": "garde"}),
        (2, {"bid": "pass"}),
        (3, {"bid": "pass"}),
        (1, {"discard": ["1S", "2S", "3S", "1C", "2C", "3C"]}),
        (1, {"chelem": False}),
        (0, {"play": "5H"}),
        (1, {"play": "T21"}),
        (2, {"play": first_heart}),
    ):
        deal.apply(parse_action({"seat": seat, **entry}, 0, 4)[1], seat)
    return _finish(deal)


def _decision(analysis, index: int, kind: DecisionKind = DecisionKind.CARD):
    return next(d for d in analysis.decisions if d.index == index and d.kind == kind)


def test_a_king_given_to_the_takers_trick_is_flagged_and_a_low_heart_is_not():
    king = analyse(_king_deal("KH"), seats=[2], seed="t")
    thrown = _decision(king, 8)
    assert thrown.action.card == parse_card("KH")
    assert thrown.mark is not None, thrown
    assert thrown.best.card in (parse_card("2H"), parse_card("3H"))
    assert thrown.interval[0] > 0  # sure of it: the king is lost in every world
    low = analyse(_king_deal("2H"), seats=[2], seed="t")
    kept = _decision(low, 8)
    assert kept.mark is None and kept.loss < 1.0, kept


def _swap_unseen(record: dict, seat: int, cut: int) -> dict | None:
    """``record`` with two cards of one plain suit exchanged between two other seats' hands, neither
    played before action ``cut`` nor in the dog or the écart: the deal as ``seat`` saw it before
    ``cut`` is the same.  None if no such pair."""
    played: set[str] = {a["play"] for a in record["actions"][:cut] if "play" in a}
    dog = set(record["dog"]).union(*(a["discard"] for a in record["actions"] if "discard" in a))
    others = [s for s in range(record["players"]) if s != seat]
    for i, a in enumerate(others):
        for b in others[i + 1 :]:
            for x in record["hands"][a]:
                for y in record["hands"][b]:
                    same_suit = x[-1] == y[-1] and x[-1] in "SHDC" and not x.startswith("T")
                    if same_suit and x != y and not {x, y} & (played | dog):
                        hands = [list(h) for h in record["hands"]]
                        hands[a][hands[a].index(x)] = y
                        hands[b][hands[b].index(y)] = x
                        return {**record, "hands": hands}
    return None


def test_cards_the_seat_had_not_seen_leave_its_earlier_decisions_unchanged():
    """Two deals that agree on everything seat 0 saw up to its sixth card, and differ in the hands of
    others (cards it has not seen yet) and so in everything after: its decisions before that card have
    the same analysis in both."""
    seat = 0
    record = next(
        r
        for r in (_finish(new_deal(RuleSet(4), 3, f"invariance/{i}"), "heuristic", "inv") for i in range(20))
        if replay(r).deal.taker is not None
    )
    cards = [i for i, a in enumerate(record["actions"]) if a["seat"] == seat and "play" in a]
    cut = cards[5]
    changed = _swap_unseen(record, seat, cut)
    assert changed is not None
    # Replay the common beginning with the changed hands, then let robots finish it their own way.
    other = start_deal(changed)
    for entry in record["actions"][:cut]:
        s, action = parse_action(entry, 0, 4)
        other.apply(action, s)
    changed = _finish(other, "heuristic", "other")
    assert changed["hands"] != record["hands"]
    assert (
        replay(changed).deal.result.scores != replay(record).deal.result.scores
        or changed["actions"] != record["actions"]
    )
    # The expert's worlds, not eight times as many: what is checked is where they come from, not how many.
    before = [d.to_json() for d in analyse(record, seats=[seat], seed="s", factor=1).decisions if d.index < cut]
    after = [d.to_json() for d in analyse(changed, seats=[seat], seed="s", factor=1).decisions if d.index < cut]
    assert len(before) >= 5
    assert before == after


def test_the_same_record_and_seed_give_the_same_analysis():
    record = _finish(new_deal(RuleSet(4), 1, "determinism/2"), "heuristic", "det")
    first = analyse(record, seats=[2], seed="same").to_json()
    again = analyse(record, seats=[2], seed="same").to_json()
    assert json.dumps(first) == json.dumps(again)
    assert len(first["decisions"]) > 5
    other = analyse(record, seats=[2], seed="another", factor=1).to_json()  # other worlds (fewer: quicker)
    assert [d["expected"] for d in other["decisions"]] != [d["expected"] for d in first["decisions"]]


def test_a_poignee_kept_hidden_and_a_card_are_two_decisions_at_one_index():
    deal = build(4, dealer=3, hands={0: "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 1S"})
    for seat, bid in ((0, "pass"), (1, "garde"), (2, "pass"), (3, "pass")):
        deal.apply(Bid(GARDE if bid == "garde" else PASS), seat)
    deal.apply(make_bot("heuristic").choose(deal.observation(1)), 1)  # the écart
    deal.apply(Chelem(False), 1)
    deal.apply(Play(parse_card("1S")), 0)  # no poignée shown
    record = _finish(deal)
    index = (
        len(record["actions"])
        - 1
        - next(i for i, a in enumerate(reversed(record["actions"])) if a == {"seat": 0, "play": "1S"})
    )
    points = [p.kind for p in decision_points(record, [0]) if p.index == index]
    assert points == [DecisionKind.POIGNEE, DecisionKind.CARD]
    hidden = _decision(analyse(record, seats=[0], seed="p", factor=1), index, DecisionKind.POIGNEE).to_json()
    assert hidden["action"] == {"poignee": None}
    assert {"poignee": None} in [c["action"] for c in hidden["candidates"]]
    assert any(c["action"].get("poignee") for c in hidden["candidates"])
