"""``protocol.site``: the deal's actions as a robot account hears them, kept for the engine's request."""

from __future__ import annotations

from atout.bots import make_bot
from atout.engine import RuleSet, new_deal
from atout.protocol.messages import actions_json, decide
from atout.protocol.site import DealLog, site_observation, table_rules


def events_of(deal, seat):
    """The ``action`` events the site sends ``seat`` for the deal so far (with ``by`` and ``at`` besides)."""
    return [{"type": "action", "by": "robot", "at": 1.5, **entry} for entry in actions_json(deal.observation(seat))]


def test_a_log_keeps_the_deal_s_actions_from_its_start_once_each_and_sees_a_gap():
    log = DealLog()
    log.hear(1, {"type": "action", "seat": 0, "action": {"bid": "pass"}, "by": "robot", "at": 0})
    log.hear(2, {"type": "deal_start", "number": 1, "dealer": 0, "commitment": "c"})
    log.hear(3, {"type": "action", "seat": 1, "action": {"bid": "prise"}, "by": "person", "at": 1})
    log.hear(3, {"type": "action", "seat": 1, "action": {"bid": "prise"}, "by": "person", "at": 1})  # heard again
    log.hear(4, {"type": "chat", "name": "Ann", "seat": 0, "text": "hi"})
    assert log.actions == [{"seat": 1, "action": {"bid": "prise"}}]
    assert not log.gap(5) and log.gap(6)
    log.restart(
        [
            {"seq": 7, "event": {"type": "deal_start"}},
            {"seq": 8, "event": {"type": "action", "seat": 2, "action": {"play": "7H"}, "won": 1}},
        ]
    )
    assert log.actions == [{"seat": 2, "action": {"play": "7H"}, "won": 1}] and log.seq == 8


def test_the_observation_from_the_site_s_forms_is_the_seat_s():
    """The DealView (the engine's ``observation_to_json``) and the ``action`` events, heard as the site sends
    them, make the seat's observation again, at every decision of played deals."""
    rules = RuleSet.make(4)
    table = {"players": 4, "options": {"rules": dict(rules.options)}}
    assert table_rules(table) == rules
    steps = 0
    for d in range(3):
        deal = new_deal(rules, d, f"site/convert/{d}")
        bots = [make_bot("heuristic" if s % 2 else "random", f"site/{d}/{s}") for s in range(4)]
        while (seat := deal.to_act) is not None:
            obs = deal.observation(seat)
            log = DealLog()
            log.hear(1, {"type": "deal_start", "number": 1, "dealer": d, "commitment": "c"})
            for n, event in enumerate(events_of(deal, seat)):
                log.hear(2 + n, event)
            view = decide(1, obs, None)["view"]
            assert site_observation(table_rules(table), seat, view, log.actions) == obs
            deal.apply(bots[seat].choose(obs), seat=seat)
            steps += 1
    assert steps > 60
