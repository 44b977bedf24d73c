"""A decision request holds all a seat may know: the engine side makes the very same Observation again
from its JSON, at every decision, at 3, 4 and 5 players and under the options that add decisions."""

from __future__ import annotations

import json

import pytest

from atout.bots import make_bot
from atout.engine import Play, RuleSet, new_deal
from atout.engine.cards import codes
from atout.protocol import EngineFault
from atout.protocol.messages import decide, read_answer
from atout.protocol.views import observation_from_json

RULES = [RuleSet.make(3), RuleSet.make(4, petit_sec="holder_may_play", chelem_announce="with_bid"),
         RuleSet.make(5), RuleSet.make(5, five_players="dealer_sits_out")]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}-{'-'.join(r.non_default_options().values())}")
def test_every_decision_s_observation_comes_back_whole(rules):
    decisions = 0
    for d in range(6):
        deal = new_deal(rules, d % rules.players, f"views/{d}")
        bots = [make_bot("heuristic" if s % 2 else "random", f"views/{d}/{s}") for s in range(rules.players)]
        while (seat := deal.to_act) is not None:
            obs = deal.observation(seat)
            request = json.loads(json.dumps(decide(7, obs, None)))
            assert observation_from_json(rules, seat, request) == obs
            decisions += 1
            deal.apply(bots[seat].choose(obs), seat=seat)
    assert decisions > 100


def test_a_request_shows_no_other_seat_s_cards():
    deal = new_deal(RuleSet(4), 0, "views/hidden")
    seat = deal.to_act
    text = json.dumps(decide(1, deal.observation(seat), None))
    request = json.loads(text)
    assert request["view"]["hand"] == codes(deal.hands[seat])
    assert "views/hidden" not in text  # the deal's seed, which deals every hand
    shown = set(text.replace('"', " ").replace(",", " ").split())
    for other in range(4):
        if other != seat:
            assert not set(codes(deal.hands[other])) & shown
    assert not set(codes(deal.dog)) & shown


@pytest.mark.parametrize(("line", "kind"), [
    ("not json", "malformed"),
    ('{"type": "ready"}', "malformed"),
    ('{"type": "action", "id": 2, "action": {"bid": "pass"}}', "malformed"),  # another request's answer
    ('{"type": "action", "id": 1, "action": {"bid": "maybe"}}', "malformed"),
    ('{"type": "action", "id": 1, "action": {"seat": 0, "bid": "pass"}}', "malformed"),
    ('{"type": "action", "id": 1, "action": {"play": "T21"}}', "illegal"),  # a card in the bidding
])
def test_an_answer_that_is_no_legal_action_is_named(line, kind):
    deal = new_deal(RuleSet(4), 0, "views/answers")
    obs = deal.observation(deal.to_act)
    with pytest.raises(EngineFault) as caught:
        read_answer(line, 1, obs)
    assert caught.value.kind == kind and caught.value.message
    assert read_answer('{"type": "action", "id": 1, "action": {"bid": "pass"}}', 1, obs).contract == 0
    assert not isinstance(read_answer('{"type": "action", "id": 1, "action": {"bid": "pass"}}', 1, obs), Play)
