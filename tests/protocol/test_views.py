"""A decision request holds all a seat may know: the engine side makes the very same Observation again
from its JSON, at every decision, at 3, 4 and 5 players and under the options that add decisions."""

from __future__ import annotations

import json

import pytest

from atout.bots import make_bot
from atout.engine import Play, RuleSet, new_deal
from atout.engine.cards import codes
from atout.protocol import EngineFault
from atout.protocol.messages import action_json, decide, read_answer
from atout.protocol.views import observation_from_json

RULES = [
    RuleSet.make(3),
    RuleSet.make(4, petit_sec="holder_may_play", chelem_announce="with_bid"),
    RuleSet.make(5),
    RuleSet.make(5, five_players="dealer_sits_out"),
]


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


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("not json", "malformed"),
        ('{"type": "ready"}', "malformed"),
        ('{"type": "action", "id": 2, "action": {"bid": "pass"}}', "malformed"),  # another request's answer
        ('{"type": "action", "id": 1, "action": {"bid": "maybe"}}', "malformed"),
        ('{"type": "action", "id": 1, "action": {"seat": 0, "bid": "pass"}}', "malformed"),
        ('{"type": "action", "id": 1, "action": {"play": "T21"}}', "illegal"),  # a card in the bidding
    ],
)
def test_an_answer_that_is_no_legal_action_is_named(line, kind):
    deal = new_deal(RuleSet(4), 0, "views/answers")
    obs = deal.observation(deal.to_act)
    with pytest.raises(EngineFault) as caught:
        read_answer(line, 1, obs)
    assert caught.value.kind == kind and caught.value.message
    assert read_answer('{"type": "action", "id": 1, "action": {"bid": "pass"}}', 1, obs).contract == 0
    assert not isinstance(read_answer('{"type": "action", "id": 1, "action": {"bid": "pass"}}', 1, obs), Play)


def test_an_illegal_answer_names_the_rule_it_breaks():
    """An engine's illegal card, bid or call is named by the rule it breaks, as the deal's referee words it
    ("6S does not follow suit: play spades (follow_suit)"), from the seat's observation alone: the very
    words the deal gives for the same action, for every card the seat may not play."""
    from atout.engine import Bid, Call, IllegalAction
    from atout.engine.actions import GARDE, PRISE
    from atout.engine.cards import card_code

    rules_met: set[str] = set()
    for d in range(6):
        rules = RuleSet.make(4 + d % 2)
        deal = new_deal(rules, d % rules.players, f"views/why/{d}")
        bot = make_bot("heuristic", f"views/why/{d}")
        while (seat := deal.to_act) is not None:
            obs = deal.observation(seat)
            wrong: list = []
            if deal.phase == "play":
                wrong = [Play(c) for c in range(78) if deal.hands[seat] >> c & 1 and not deal.may_play(c)]
            elif deal.phase == "bidding" and deal.contract >= PRISE:
                wrong = [Bid(PRISE)]
            elif deal.phase == "call":
                wrong = [Call(c) for c in range(78) if Call(c) not in obs.legal][:2]
            for action in wrong:
                with pytest.raises(IllegalAction) as referee:
                    deal.clone().apply(action, seat)
                answer = json.dumps({"type": "action", "id": 3, "action": action_json(action)})
                with pytest.raises(EngineFault) as caught:
                    read_answer(answer, 3, obs)
                assert caught.value.kind == "illegal"
                assert caught.value.message == f"{referee.value.message} ({referee.value.rule})"
                rules_met.add(referee.value.rule)
            deal.apply(bot.choose(obs), seat=seat)
    assert {"follow_suit", "must_trump", "overtrump", "bid_too_low", "call"} <= rules_met
    deal = new_deal(RuleSet(4), 0, "views/why/bid")
    deal.apply(Bid(GARDE), seat=deal.to_act)
    obs = deal.observation(deal.to_act)
    with pytest.raises(EngineFault) as caught:
        read_answer('{"type": "action", "id": 1, "action": {"bid": "prise"}}', 1, obs)
    assert caught.value.message == "prise does not overcall garde (bid_too_low)"
    with pytest.raises(EngineFault) as caught:
        read_answer('{"type": "action", "id": 1, "action": {"play": "6S"}}', 1, obs)
    assert caught.value.message == f"Play ({card_code(5)}) is not possible now: seat {obs.seat} to bid (wrong_phase)"
