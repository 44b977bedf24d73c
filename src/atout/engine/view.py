"""An observation's JSON form: the bytes about a deal that leave the server for one viewer.

Built from ``Observation`` alone, never from the deal, so nothing hidden can
enter it; the leak tests check this JSON, as OpenSpiel checks its observation
structs.
"""

from __future__ import annotations

from typing import Any

from .actions import Action, Bid, Choice, DiscardFrom, Play, contract_name
from .cards import card_code, codes
from .ecart import ecart_refusals
from .observation import EcartShown, Observation, Private
from .record import choice_to_json

PRIVATE = ("hand", "ecart", "partner", "legal")
"""The DealView fields that differ between seats; all the others are the same for every viewer."""


_CACHE_LIMIT = 4096
"""Entries each cache keeps (then it starts again): a hand or a trick recurs within its deal, and in a
long-running server every entry kept pins its allocator pool (issue 40: engine/state.py, MASK_PLAYS_KEPT)."""
_hand_codes: dict[int, list[str]] = {}
_choice_json: dict[Any, dict[str, Any]] = {}
_play_json: dict[tuple[int, int], dict[str, Any]] = {}
_trick_json: dict[Any, dict[str, Any]] = {}
_bid_json: dict[tuple[int, int, bool], dict[str, Any]] = {}


def _play(seat: int, card: int) -> dict[str, Any]:
    """``{"seat": …, "card": …}``, remembered (shared: read it, never change it)."""
    out = _play_json.get((seat, card))
    if out is None:
        out = _play_json[seat, card] = {"seat": seat, "card": card_code(card)}
    return out


def _last_trick(trick: Any) -> dict[str, Any]:
    """A finished trick's JSON, remembered: the same object for every card of the next trick."""
    out = _trick_json.get(trick)
    if out is None:
        if len(_trick_json) >= _CACHE_LIMIT:
            _trick_json.clear()
        out = _trick_json[trick] = {
            "leader": trick.leader,
            "cards": [_play(s, c) for s, c in trick.plays],
            "winner": trick.winner,
        }
    return out


def _bid(seat: int, bid: Bid) -> dict[str, Any]:
    key = (seat, bid.contract, bid.chelem)
    out = _bid_json.get(key)
    if out is None:
        out = {"seat": seat, "bid": "pass" if bid.contract == 0 else contract_name(bid.contract)}
        if bid.chelem:
            out["chelem"] = True
        _bid_json[key] = out
    return out


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


_PLAY_CHOICES: tuple[dict[str, Any], ...] = tuple({"play": card_code(card)} for card in range(78))
"""Each card's play as a legal choice's JSON (``choice_to_json``), shared like ``_choice``'s."""


def _legal(hand: int, legal: tuple[Choice, ...]) -> list[dict[str, Any]]:
    """The legal choices' JSON; the écart's choice also names each card of the hand that may not go,
    with the reason (``kinds.EcartRefusal``), so a client explains a refusal without knowing the rule.
    Only the taker, to act, has that choice: no other seat learns of the taker's cards."""
    out = []
    for choice in legal:
        if type(choice) is Play:  # most choices: read by card, without hashing the Play (a Python call)
            out.append(_PLAY_CHOICES[choice.card])
        elif isinstance(choice, DiscardFrom):
            refused = ecart_refusals(hand, choice.count)
            out.append({**_choice(choice), "refused": {card_code(c): refused[c].value for c in sorted(refused)}})
        else:
            out.append(_choice(choice))
    return out


def private_json(obs: Observation | Private) -> dict[str, Any]:
    """The fields of a seat's DealView that only it sees (the rest is the spectator's view), from its
    observation or from the same ``private_parts`` the observation is made of."""
    return {
        "hand": _codes(obs.hand),
        "ecart": None if obs.ecart is None else _codes(obs.ecart),
        "partner": obs.partner,
        "legal": _legal(obs.hand, obs.legal),
    }


def _ecart_shown(history: tuple[tuple[int, Action | EcartShown], ...]) -> bool:
    """Whether an écart was laid (seen as EcartShown): it comes before the first card, if at all."""
    for _, action in history:
        if isinstance(action, EcartShown):
            return True
        if isinstance(action, Play):
            return False
    return False


def _bids(obs: Observation) -> list[dict[str, Any]]:
    bids: list[dict[str, Any]] = []
    for seat, action in obs.history:
        if not isinstance(action, Bid):
            if bids:
                break  # the bids come together (after any petit sec decisions): none after them
            continue
        bids.append(_bid(seat, action))
    return bids


def observation_to_json(obs: Observation) -> dict[str, Any]:
    """The viewer's DealView (docs/protocol.md): its own hand, public cards, its legal choices."""
    bids = _bids(obs)
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
        "dog": None if obs.dog is None else _codes(obs.dog),
        "ecart": None if obs.ecart is None else _codes(obs.ecart),
        "ecart_laid": obs.ecart is not None or _ecart_shown(obs.history),
        "ecart_trumps": _codes(obs.ecart_trumps),
        "chelem": obs.chelem_announced,
        "poignees": [
            {"seat": seat, "size": size, "cards": _codes(cards), "bonus": bonus}
            for seat, cards, size, bonus in obs.poignees
        ],
        "trick": [_play(seat, card) for seat, card in obs.trick],
        "last_trick": None if last is None else _last_trick(last),
        "tricks_won": tricks_won,
        "legal": _legal(obs.hand, obs.legal),
        "result": None if obs.result is None else obs.result.to_json(),
        "void": obs.void,
    }


class PublicViews:
    """The spectator's DealView of one deal after each of its actions, as ``observation_to_json`` makes
    it, built from the public observation alone; the parts the new actions left alone are the last
    view's own objects (a server makes one after every action: the bids, tricks and poignées do not
    need reading again, and a patch finds the unchanged parts at a glance, by ``is``). A field is made
    again only when the observation's parts it is made of changed, and the view remembers which fields
    changed from the last one (``changes``), so a telling need not compare every field."""

    __slots__ = ("_changed", "_last", "_obs", "_view")

    def __init__(self) -> None:
        self._obs: Observation | None = None
        self._view: dict[str, Any] | None = None
        self._last: dict[str, Any] | None = None  # the view before the current one
        self._changed: dict[str, Any] | None = None  # the current view's fields that differ from _last's

    @property
    def current(self) -> dict[str, Any] | None:
        """The last view made."""
        return self._view

    def changes(self, since: dict[str, Any]) -> dict[str, Any] | None:
        """The fields of the current view that differ from ``since``'s (``server.table.observer.changed``), when
        ``since`` is the view made just before it; None when unknown."""
        return self._changed if since is self._last and self._last is not None else None

    def view(self, obs: Observation) -> dict[str, Any]:
        """``observation_to_json(obs)`` for a spectator's ``obs`` of the deal the last one was of."""
        last, before = self._obs, self._view
        if (
            obs.seat is not None
            or last is None
            or before is None
            or last.rules is not obs.rules
            or last.dealer != obs.dealer
            or last.seats != obs.seats
            or len(obs.history) < len(last.history)
            or obs.history[: len(last.history)] != last.history
        ):
            out = observation_to_json(obs)  # another deal (or the first view): made whole
            self._obs, self._view, self._last, self._changed = obs, out, before, None
            return out
        made: dict[str, Any] = {}  # the fields made again, each from parts of the observation that changed
        new = obs.history[len(last.history) :]
        for _, action in new:
            if isinstance(action, Bid):
                made["bids"] = _bids(obs)
                break
        # an écart is seen as laid once shown before the first card: while none was, and no card was
        # played before these actions, they alone may show it
        if not before["ecart_laid"] and (
            obs.ecart is not None or (not last.trick and not last.tricks and _ecart_shown(new))
        ):
            made["ecart_laid"] = True
        if len(obs.tricks) != len(last.tricks):
            tricks_won = [0] * obs.players
            for trick in obs.tricks:
                tricks_won[trick.winner] += 1
            made["tricks_won"] = tricks_won
            made["last_trick"] = _last_trick(obs.tricks[-1]) if obs.tricks else None
        if obs.trick != last.trick:
            made["trick"] = [_play(seat, card) for seat, card in obs.trick]
        if obs.poignees != last.poignees:
            made["poignees"] = [
                {"seat": seat, "size": size, "cards": _codes(cards), "bonus": bonus}
                for seat, cards, size, bonus in obs.poignees
            ]
        if obs.hand_sizes != last.hand_sizes:
            made["hand_sizes"] = list(obs.hand_sizes)
        if obs.result is not last.result:
            made["result"] = None if obs.result is None else obs.result.to_json()
        if obs.phase != last.phase:
            made["phase"] = obs.phase
        if obs.to_act != last.to_act:
            made["to_act"] = obs.to_act
        if obs.contract != last.contract or obs.taker != last.taker:
            made["contract"] = obs.contract_name
            made["taker"] = obs.taker
        if obs.called != last.called:
            made["called"] = None if obs.called is None else card_code(obs.called)
        if obs.partner != last.partner:
            made["partner"] = obs.partner
        if obs.dog != last.dog:
            made["dog"] = None if obs.dog is None else _codes(obs.dog)
        if obs.ecart_trumps != last.ecart_trumps:
            made["ecart_trumps"] = _codes(obs.ecart_trumps)
        if obs.chelem_announced != last.chelem_announced:
            made["chelem"] = obs.chelem_announced
        if obs.void != last.void:
            made["void"] = obs.void
        # a spectator's own parts (PRIVATE) are empty and stay so; made again all the same if they moved
        if obs.hand != last.hand:
            made["hand"] = _codes(obs.hand)
        if obs.ecart != last.ecart:
            made["ecart"] = None if obs.ecart is None else _codes(obs.ecart)
        if obs.legal != last.legal or obs.hand != last.hand:
            made["legal"] = _legal(obs.hand, obs.legal)
        out = {**before, **made}
        self._obs, self._view, self._last = obs, out, before
        self._changed = {k: v for k, v in made.items() if (old := before[k]) is not v and old != v}
        return out


__all__ = ["PRIVATE", "PublicViews", "observation_to_json", "private_json"]
