"""The messages of "atout-engine 1", one JSON object a line (docs/engine-protocol.md).

The host's requests reuse the site's forms: a decision carries the seat's DealView
(``observation_to_json``, as the site sends it to that seat) and the deal's actions as the site's
``action`` events show them to that seat; an answer's action is the site's ``act`` form.
"""

from __future__ import annotations

import json
from typing import Any

from ..engine import (
    Action,
    Bid,
    Call,
    Chelem,
    EcartShown,
    IllegalAction,
    Observation,
    PetitSecDecision,
    Play,
    RuleSet,
)
from ..engine.cards import codes
from ..engine.record import RecordError, action_to_json, parse_action
from ..engine.refusal import refusal
from ..engine.view import observation_to_json
from .faults import EngineFault

NAME = "atout-engine"
VERSION = 1
MAX_LINE = 1 << 20
"""The longest line either side need accept (a decision request is a few KB)."""

HOST_TYPES = ("hello", "deal", "decide", "deal_end", "quit")
"""What the host sends; an engine ignores a type it does not know (a later version may add some)."""


def dumps(message: dict[str, Any]) -> str:
    """One message as its line, without the newline."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def action_json(action: Action) -> dict[str, Any]:
    """An action in the site's ``act`` form: the record form without the seat."""
    out = action_to_json(0, action)
    del out["seat"]
    return out


def actions_json(obs: Observation) -> list[dict[str, Any]]:
    """The deal's actions as the site's ``action`` events show them to ``obs.seat``: ``{seat, action}``,
    another's écart as ``{"ecart": {"trumps", "count"}}``, and ``won`` on the card that ends a trick."""
    ends: dict[int, int] = {}  # the index among the plays of each trick's last card -> its winner
    n = 0
    for trick in obs.tricks:
        n += len(trick.plays)
        ends[n - 1] = trick.winner
    out: list[dict[str, Any]] = []
    plays = 0
    dog = obs.rules.settings.dog_size
    for seat, action in obs.history:
        if isinstance(action, EcartShown):
            out.append({"seat": seat, "action": {"ecart": {"trumps": codes(action.trumps), "count": dog}}})
            continue
        entry: dict[str, Any] = {"seat": seat, "action": action_json(action)}
        if type(action) is Play:
            if plays in ends:
                entry["won"] = ends[plays]
            plays += 1
        out.append(entry)
    return out


def hello(rules: RuleSet, seat: int, budget: float | None, timeout: float, name: str | None = None) -> dict[str, Any]:
    """The host's first message: the protocol, the rules, the engine's seat and its time."""
    return {
        "type": "hello",
        "protocol": NAME,
        "version": VERSION,
        "players": rules.players,
        "options": dict(rules.options),
        "seat": seat,
        "budget": budget,
        "timeout": timeout,
        "name": name,
    }


def new_deal(number: int, dealer: int, seed: str) -> dict[str, Any]:
    """A deal begins; ``seed`` is for the engine's own random choices (never the deal's cards' seed)."""
    return {"type": "deal", "number": number, "dealer": dealer, "seed": seed}


def decide(request: int, obs: Observation, budget: float | None) -> dict[str, Any]:
    """A decision request: exactly what ``obs.seat`` may know, its legal choices in ``view.legal``."""
    return {
        "type": "decide",
        "id": request,
        "budget": budget,
        "view": observation_to_json(obs),
        "actions": actions_json(obs),
    }


def deal_end(number: int, result: dict[str, Any], record: dict[str, Any] | None) -> dict[str, Any]:
    """The deal is over: its result (``Result.to_json``, scores per seat) and its record, by hands."""
    return {"type": "deal_end", "number": number, "result": result, "record": record}


QUIT = {"type": "quit"}


def answer(request: int, action: Action) -> dict[str, Any]:
    """The engine's answer to decision ``request``."""
    return {"type": "action", "id": request, "action": action_json(action)}


_SIMPLE = (Bid, Call, Chelem, PetitSecDecision, Play)
"""Actions a legal list names one by one (an écart or a poignée is chosen from a set: the deal judges it)."""


def read_answer(line: str, request: int, obs: Observation) -> Action:
    """The action an answer line names; EngineFault ``malformed`` or ``illegal`` says what is wrong.
    An écart or a poignée is only read here: the deal itself judges it (``Deal.apply``)."""
    if len(line) > MAX_LINE:
        raise EngineFault("malformed", f"an answer of {len(line)} characters")
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as err:
        raise EngineFault("malformed", f"not JSON: {err}: {line[:80]!r}") from None
    if not isinstance(message, dict) or message.get("type") != "action":
        raise EngineFault("malformed", f"expected an action message, got {line[:80]!r}")
    if message.get("id") != request:
        raise EngineFault("malformed", f"an answer to request {message.get('id')!r}, not {request}")
    action = message.get("action")
    if not isinstance(action, dict) or "seat" in action:
        raise EngineFault("malformed", f'an action is an object such as {{"play": "7H"}}, not {action!r}')
    assert obs.seat is not None
    try:
        _, parsed = parse_action({"seat": obs.seat, **action}, 0, obs.players)
    except RecordError as err:
        raise EngineFault("malformed", err.message) from None
    if isinstance(parsed, _SIMPLE) and parsed not in obs.legal:
        raise EngineFault("illegal", illegal_message(refusal(obs, parsed)))
    return parsed


def illegal_message(err: IllegalAction) -> str:
    """An ``illegal`` fault's message: the deal's words, which name the card and the rule broken, then the
    rule's name for programs ("6S does not follow suit: play spades (follow_suit)")."""
    return f"{err.message} ({err.rule})"
