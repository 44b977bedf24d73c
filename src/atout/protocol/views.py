"""An engine's side of a decision request: the seat's ``Observation`` made again from its JSON.

Atout's own robots read ``Observation``s; the request carries the DealView and the actions as the site
sends them, which hold all of it (the finished tricks are the plays between two ``won``).
"""

from __future__ import annotations

from typing import Any

from ..engine import (
    Action,
    Choice,
    DiscardFrom,
    EcartShown,
    Observation,
    Phase,
    Play,
    PoigneeFrom,
    RuleSet,
    Trick,
    Void,
)
from ..engine.cards import mask_of, parse_card
from ..engine.kinds import Contract
from ..engine.record import parse_action

_RANK = {c.value: c.rank for c in Contract}


def _mask(cards: list[str]) -> int:
    return mask_of(parse_card(c) for c in cards)


def _choice(seat: int, players: int, entry: dict[str, Any]) -> Choice:
    if "discard_from" in entry:
        return DiscardFrom(_mask(entry["discard_from"]), entry["count"])
    if "poignee_from" in entry:
        return PoigneeFrom(_mask(entry["poignee_from"]), dict(entry["sizes"]))
    return parse_action({"seat": seat, **entry}, 0, players)[1]


def _history(players: int, actions: list[dict[str, Any]]) -> tuple[list[tuple[int, Action | EcartShown]], list[Trick]]:
    history: list[tuple[int, Action | EcartShown]] = []
    tricks: list[Trick] = []
    plays: list[tuple[int, int]] = []
    for i, entry in enumerate(actions):
        seat, action = entry["seat"], entry["action"]
        if "ecart" in action:
            history.append((seat, EcartShown(_mask(action["ecart"]["trumps"]))))
            continue
        _, parsed = parse_action({"seat": seat, **action}, i, players)
        history.append((seat, parsed))
        if isinstance(parsed, Play):
            plays.append((seat, parsed.card))
            if "won" in entry:
                tricks.append(Trick(plays[0][0], tuple(plays), entry["won"]))
                plays = []
    return history, tricks


def observation_from_json(rules: RuleSet, seat: int, request: dict[str, Any]) -> Observation:
    """``seat``'s observation from a ``decide`` request (``messages.decide``); KeyError or ValueError
    when the request is not one."""
    view, players = request["view"], rules.players
    history, tricks = _history(players, request["actions"])
    contract = view["contract"]
    return Observation(
        seat=seat,
        rules=rules,
        dealer=view["dealer"],
        seats=tuple(view["seats"]),
        phase=Phase(view["phase"]),
        to_act=view["to_act"],
        hand=_mask(view["hand"]),
        hand_sizes=tuple(view["hand_sizes"]),
        history=tuple(history),
        contract=0 if contract is None else _RANK[contract],
        taker=view["taker"],
        called=None if view["called"] is None else parse_card(view["called"]),
        partner=view["partner"],
        dog=None if view["dog"] is None else _mask(view["dog"]),
        ecart=None if view["ecart"] is None else _mask(view["ecart"]),
        ecart_trumps=_mask(view["ecart_trumps"]),
        chelem_announced=view["chelem"],
        poignees=tuple((p["seat"], _mask(p["cards"]), p["size"], p["bonus"]) for p in view["poignees"]),
        tricks=tuple(tricks),
        trick=tuple((p["seat"], parse_card(p["card"])) for p in view["trick"]),
        legal=tuple(_choice(seat, players, entry) for entry in view["legal"]),
        result=None,
        void=None if view["void"] is None else Void(view["void"]),
    )
