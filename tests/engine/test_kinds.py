"""The closed sets' words are the wire's and the database's: a renamed member would change a message,
a record or a stored row, so each set is pinned to its strings here."""

from __future__ import annotations

import json

import orjson

from atout.engine import RuleSet, new_deal
from atout.engine.choices import random_action
from atout.engine.kinds import Contract, DecisionKind, EcartRefusal, Mark, Phase, Void
from atout.engine.view import observation_to_json
from atout.server.kinds import EventType, Outcome, SeatKind, TableStatus, Unranked


def test_each_set_is_its_documented_strings():
    assert [p.value for p in Phase] == ["petit_sec", "bidding", "call", "discard", "chelem", "play", "end"]
    assert [c.value for c in Contract] == ["pass", "prise", "garde", "garde_sans", "garde_contre"]
    assert [v.value for v in Void] == ["all_pass", "petit_sec"]
    assert {r.value for r in EcartRefusal} == {"not_in_hand", "king", "bout", "trump", "trumps_enough", "full"}
    assert [s.value for s in TableStatus] == ["waiting", "playing", "closed"]
    assert [k.value for k in SeatKind] == ["empty", "person", "robot"]
    assert [o.value for o in Outcome] == ["finished", "cancelled", "deserted"]
    assert [u.value for u in Unranked] == ["practice", "same_address"]
    assert [k.value for k in DecisionKind] == ["bid", "call", "ecart", "chelem", "poignee", "petit_sec", "card"]
    assert [m.value for m in Mark] == ["inaccuracy", "mistake", "blunder"]
    assert len(EventType) == 29 and EventType("handed") is EventType.HANDED  # a guest's seat handed to its new account
    assert EventType("unranked") is EventType.UNRANKED  # a game that stops counting (two people of one address)


def test_a_member_is_its_string_in_json_and_in_a_dict():
    assert Phase.PLAY == "play" and {"play": 1}[Phase.PLAY] == 1 and {Phase.PLAY: 1}["play"] == 1
    assert json.dumps([Phase.END, Contract.GARDE]) == '["end", "garde"]'
    assert orjson.dumps([Phase.END, Contract.GARDE]) == b'["end","garde"]'
    assert [Contract.of_rank(c.rank) for c in Contract] == list(Contract)


def test_every_view_of_a_deal_serialises_as_the_server_does():
    """orjson (the server's encoder) writes a member as its value but refuses one as a dict key: every
    view of a whole deal goes through it, with the phase written as its plain word."""
    import random

    deal = new_deal(RuleSet(4), 0, "kinds")
    rng = random.Random(1)
    while True:
        for seat in (None, *range(4)):
            view = observation_to_json(deal.observation(seat))
            data = orjson.dumps(view)
            assert b'"phase":"' + deal.phase.value.encode() + b'"' in data
            assert orjson.loads(data) == json.loads(json.dumps(view))
        if deal.is_over:
            break
        deal.apply(random_action(deal.legal_actions(), rng))
    assert orjson.loads(orjson.dumps(deal.result.to_json()))["contract"] in {c.value for c in Contract} | {None}
