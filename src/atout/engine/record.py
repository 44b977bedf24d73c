"""The deal record (docs/record-format.md, format ``atout-deal`` version 1): read, write, replay."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .actions import (
    PLAYS,
    Action,
    Bid,
    Call,
    Chelem,
    Choice,
    Discard,
    DiscardFrom,
    IllegalAction,
    PetitSecDecision,
    Play,
    Poignee,
    PoigneeFrom,
    contract_name,
)
from .cards import DECK_SIZE, card_code, codes, mask_of, parse_card
from .deal import deal_cards
from .kinds import Contract
from .rules import RuleError, RuleSet
from .state import Deal

FORMAT = "atout-deal"
VERSION = 1
_BIDS = {contract.value: contract.rank for contract in Contract}
_CODE_CARDS = {card_code(card): card for card in range(DECK_SIZE)}
"""Each card by its canonical code (``parse_card``'s first try)."""
_ACTION_KEYS = ("bid", "call", "discard", "chelem", "poignee", "play", "petit_sec")
_ENTRY_KEYS = frozenset({"seat", *_ACTION_KEYS})


class RecordError(ValueError):
    """A record that is malformed (``action`` None) or whose action ``action`` is illegal."""

    def __init__(self, action: int | None, rule: str, message: str) -> None:
        super().__init__(message)
        self.action = action
        self.rule = rule
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"error": {"action": self.action, "rule": self.rule, "message": self.message}}


@dataclass
class Replayed:
    """A record read and replayed: the deal as it stands after its last action."""

    deal: Deal
    record: dict[str, Any]


def action_to_json(seat: int, action: Action) -> dict[str, Any]:
    """One action in record form."""
    if isinstance(action, Play):
        return {"seat": seat, "play": card_code(action.card)}
    if isinstance(action, Bid):
        out: dict[str, Any] = {"seat": seat, "bid": contract_name(action.contract)}
        if action.chelem:
            out["chelem"] = True
        return out
    if isinstance(action, Call):
        return {"seat": seat, "call": card_code(action.card)}
    if isinstance(action, Discard):
        return {"seat": seat, "discard": codes(action.cards)}
    if isinstance(action, Chelem):
        return {"seat": seat, "chelem": action.announce}
    if isinstance(action, Poignee):
        return {"seat": seat, "poignee": codes(action.cards)}
    if isinstance(action, PetitSecDecision):
        return {"seat": seat, "petit_sec": "redeal" if action.redeal else "play"}
    raise TypeError(f"not an action: {action!r}")


def choice_to_json(choice: Choice) -> dict[str, Any]:
    """A legal choice as ``atout legal`` prints it (seat left out)."""
    if isinstance(choice, DiscardFrom):
        return {"discard_from": codes(choice.cards), "count": choice.count}
    if isinstance(choice, PoigneeFrom):
        return {"poignee_from": codes(choice.cards), "sizes": dict(choice.sizes)}
    out = action_to_json(0, choice)
    del out["seat"]
    return out


def to_record(deal: Deal, with_seed: bool = True) -> dict[str, Any]:
    """The record of ``deal`` so far; by seed when it has one, else by hands and dog."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "players": deal.players,
        "options": dict(deal.rules.options),
        "dealer": deal.dealer,
    }
    if with_seed and deal.seed is not None:
        record["seed"] = deal.seed
    else:
        record["hands"] = [codes(h) for h in deal.initial_hands]
        record["dog"] = codes(deal.initial_dog)
    record["actions"] = [action_to_json(s, a) for s, a in deal.history]
    return record


def _cards(value: Any, index: int | None, what: str) -> int:
    if not isinstance(value, list):
        raise RecordError(index, "record", f"{what} must be a list of card codes")
    cards = []
    for text in value:
        try:
            cards.append(parse_card(text))
        except ValueError as err:
            raise RecordError(index, "card_code", f"{what}: {err}") from None
    mask = mask_of(cards)
    if mask.bit_count() != len(cards):
        dup = sorted({card_code(c) for c in cards if cards.count(c) > 1})
        raise RecordError(index, "duplicate_card", f"{what}: card given twice: {' '.join(dup)}")
    return mask


def _card(value: Any, index: int, what: str) -> int:
    try:
        return parse_card(value)
    except ValueError as err:
        raise RecordError(index, "card_code", f"{what}: {err}") from None


def parse_action(entry: Any, index: int, players: int) -> tuple[int, Action]:
    """One record action as (seat, Action); RecordError names what is wrong."""
    if type(entry) is dict and len(entry) == 2:  # the usual one, a card by its code: read at once (a
        seat, value = entry.get("seat"), entry.get("play")  # server reads one per action)
        if type(seat) is int and 0 <= seat < players and type(value) is str:
            card = _CODE_CARDS.get(value)
            if card is not None:
                return seat, PLAYS[card]
    if not isinstance(entry, dict):
        raise RecordError(index, "record", "an action is a JSON object")
    seat = entry.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise RecordError(index, "record", f"an action needs a seat from 0 to {players - 1}, not {seat!r}")
    keys = [k for k in _ACTION_KEYS if k in entry]
    extra = entry.keys() - _ENTRY_KEYS
    if keys == ["bid", "chelem"] or keys == ["chelem", "bid"]:
        keys = ["bid"]
    if len(keys) != 1 or extra:
        raise RecordError(
            index, "record", f"an action has a seat and one of {', '.join(_ACTION_KEYS)}; got {sorted(entry)}"
        )
    key = keys[0]
    value = entry[key]
    if key == "play":
        return seat, Play(_card(value, index, "play"))
    if key == "bid":
        if not isinstance(value, str) or value not in _BIDS:
            raise RecordError(index, "record", f"no bid {value!r}; bids are {', '.join(_BIDS)}")
        chelem = entry.get("chelem", False)
        if not isinstance(chelem, bool):
            raise RecordError(index, "record", "a bid's chelem is true or false")
        return seat, Bid(_BIDS[value], chelem)
    if key == "call":
        return seat, Call(_card(value, index, "call"))
    if key == "discard":
        return seat, Discard(_cards(value, index, "discard"))
    if key == "poignee":
        return seat, Poignee(_cards(value, index, "poignee"))
    if key == "chelem":
        if not isinstance(value, bool):
            raise RecordError(index, "record", "chelem is true or false")
        return seat, Chelem(value)
    if value not in ("redeal", "play"):
        raise RecordError(index, "record", 'petit_sec is "redeal" or "play"')
    return seat, PetitSecDecision(value == "redeal")


def start_deal(record: Any) -> Deal:
    """The deal a record describes, before its actions; RecordError (action None) if malformed."""
    if not isinstance(record, dict):
        raise RecordError(None, "record", "a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(None, "record", f"format must be {FORMAT!r}, not {record.get('format')!r}")
    if record.get("version") != VERSION:
        raise RecordError(None, "record", f"version must be {VERSION}, not {record.get('version')!r}")
    players: Any = record.get("players")  # JSON: RuleSet checks it
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(None, "record", "options must be a JSON object")
    try:
        rules = RuleSet.make(players, **options)  # a non-int count is refused there, by name
    except RuleError as err:
        raise RecordError(None, "rules", str(err)) from None
    players = rules.players
    dealer = record.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise RecordError(None, "record", f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    if "seed" in record:
        if "hands" in record or "dog" in record:
            raise RecordError(None, "record", "a record gives either a seed or hands and dog, not both")
        seed = record["seed"]
        if not isinstance(seed, str):
            raise RecordError(None, "record", "seed must be a string")
        hands, dog = deal_cards(seed, dealer, rules)
        return Deal(rules, dealer, hands, dog, seed=seed)
    if "hands" not in record or "dog" not in record:
        raise RecordError(None, "record", "a record needs a seed, or hands and dog")
    raw = record["hands"]
    if not isinstance(raw, list) or len(raw) != players:
        raise RecordError(None, "record", f"hands must be a list of {players} hands")
    hands = [_cards(h, None, f"hand of seat {i}") for i, h in enumerate(raw)]
    dog = _cards(record["dog"], None, "dog")
    try:
        return Deal(rules, dealer, hands, dog)
    except ValueError as err:
        raise RecordError(None, "deal", str(err)) from None


def published_record(published: Any) -> Any:
    """The deal record in what a server publishes: the record itself, ``{"commitment", "seed",
    "record"}`` (a deal's end, or a deal downloaded from the site), or the event message carrying it."""
    if isinstance(published, dict):
        if isinstance(published.get("event"), dict) and "record" not in published:
            published = published["event"]
        if "record" in published and "format" not in published:
            return published["record"]
    return published


def replay(record: Any) -> Replayed:
    """Replay every action of ``record``; RecordError at the first bad one."""
    deal = start_deal(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(None, "record", "actions must be a list")
    for i, entry in enumerate(actions):
        seat, action = parse_action(entry, i, deal.players)
        try:
            deal.apply(action, seat=seat)
        except IllegalAction as err:
            raise RecordError(i, err.rule, err.message) from None
    return Replayed(deal, record)


def outcome_json(deal: Deal) -> dict[str, Any]:
    """``atout replay --json``'s object."""
    fields = ("taker", "contract", "partner", "bouts", "points", "target", "made", "margin",
              "petit_au_bout", "poignees", "chelem", "unit", "scores")  # fmt: skip
    if deal.result is None:
        out: dict[str, Any] = {"complete": False, "void": None, **dict.fromkeys(fields)}
        out["next"] = deal.to_act
        return out
    out = deal.result.to_json()
    if deal.void:
        for name in fields[:-1]:
            out[name] = None
    return out


def legal_json(deal: Deal) -> dict[str, Any]:
    """``atout legal --json``'s object."""
    return {"seat": deal.to_act, "actions": [choice_to_json(c) for c in deal.legal_actions()]}


def loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as err:  # JSONDecodeError, too many digits, too deep
        raise RecordError(None, "json", f"not JSON: {err}") from None
