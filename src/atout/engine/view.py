"""An observation's JSON form: the bytes about a deal that leave the server for one viewer.

Built from ``Observation`` alone, never from the deal, so nothing hidden can
enter it; the leak tests check this JSON, as OpenSpiel checks its observation
structs.
"""

from __future__ import annotations

from typing import Any

from .actions import Bid, contract_name
from .cards import card_code, codes
from .observation import EcartShown, Observation, Private
from .record import choice_to_json

PRIVATE = ("hand", "ecart", "partner", "legal")
"""The DealView fields that differ between seats; all the others are the same for every viewer."""


_CACHE_LIMIT = 20_000
_hand_codes: dict[int, list[str]] = {}
_choice_json: dict[Any, dict[str, Any]] = {}


def _codes(mask: int) -> list[str]:
    """``codes(mask)``, remembered: a server writes every seat's hand after every card, and a hand
    changes only when its own seat plays.  The lists are shared: read them, never change them."""
    out = _hand_codes.get(mask)
    if out is None:
        if len(_hand_codes) >= _CACHE_LIMIT:
            _hand_codes.clear()
        out = _hand_codes[mask] = codes(mask)
    return out


def _choice(choice: Any) -> dict[str, Any]:
    """``choice_to_json(choice)``, remembered (choices are frozen values; the dicts are shared)."""
    try:
        out = _choice_json.get(choice)
    except TypeError:  # an unhashable choice: not remembered
        return choice_to_json(choice)
    if out is None:
        if len(_choice_json) >= _CACHE_LIMIT:
            _choice_json.clear()
        out = _choice_json[choice] = choice_to_json(choice)
    return out


def private_json(obs: Observation | Private) -> dict[str, Any]:
    """The fields of a seat's DealView that only it sees (the rest is the spectator's view), from its
    observation or from the same ``private_parts`` the observation is made of."""
    return {
        "hand": _codes(obs.hand),
        "ecart": None if obs.ecart is None else _codes(obs.ecart),
        "partner": obs.partner,
        "legal": [_choice(choice) for choice in obs.legal],
    }


def observation_to_json(obs: Observation) -> dict[str, Any]:
    """The viewer's DealView (docs/protocol.md): its own hand, public cards, its legal choices."""
    bids = []
    for seat, action in obs.history:
        if not isinstance(action, Bid):
            if bids:
                break  # the bids come together (after any petit sec decisions): none after them
            continue
        bid = {"seat": seat, "bid": "pass" if action.contract == 0 else contract_name(action.contract)}
        if action.chelem:
            bid["chelem"] = True
        bids.append(bid)
    tricks_won = [0] * obs.players
    for trick in obs.tricks:
        tricks_won[trick.winner] += 1
    last = obs.tricks[-1] if obs.tricks else None
    return {
        "phase": obs.phase,
        "dealer": obs.dealer,
        "to_act": obs.to_act,
        "seats": list(obs.seats),
        "hand": _codes(obs.hand),
        "hand_sizes": list(obs.hand_sizes),
        "bids": bids,
        "contract": obs.contract_name,
        "taker": obs.taker,
        "called": None if obs.called is None else card_code(obs.called),
        "partner": obs.partner,
        "dog": None if obs.dog is None else codes(obs.dog),
        "ecart": None if obs.ecart is None else codes(obs.ecart),
        "ecart_laid": obs.ecart is not None or any(isinstance(a, EcartShown) for _, a in obs.history),
        "ecart_trumps": codes(obs.ecart_trumps),
        "chelem": obs.chelem_announced,
        "poignees": [
            {"seat": seat, "size": size, "cards": codes(cards), "bonus": bonus}
            for seat, cards, size, bonus in obs.poignees
        ],
        "trick": [{"seat": seat, "card": card_code(card)} for seat, card in obs.trick],
        "last_trick": None
        if last is None
        else {
            "leader": last.leader,
            "cards": [{"seat": seat, "card": card_code(card)} for seat, card in last.plays],
            "winner": last.winner,
        },
        "tricks_won": tricks_won,
        "legal": [_choice(choice) for choice in obs.legal],
        "result": None if obs.result is None else obs.result.to_json(),
        "void": obs.void,
    }


__all__ = ["PRIVATE", "observation_to_json", "private_json"]
