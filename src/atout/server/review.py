"""A finished deal told whole, for the page that replays it trick by trick.

Made from the deal's record by the engine (the cards from the seed, each action checked as it is
applied), so the page repeats no rule: every hand as dealt, the dog, the auction, the écart, the
poignées, each trick with who played what and who won it, the result, and every decision numbered
as in the record (where an analysis may later put its marks). Only a deal that is over has one: its
hands are everyone's once it has ended, and never before.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from ..engine import IllegalAction
from ..engine.actions import Play
from ..engine.cards import codes
from ..engine.record import RecordError, action_to_json, outcome_json, parse_action, start_deal


class NotOver(ValueError):
    """The record stops before the deal's end: its hands are still secret."""


def review(record: dict[str, Any]) -> dict[str, Any]:
    """The review of a finished deal's record; NotOver for one still being played, RecordError for a
    record the engine refuses."""
    deal = start_deal(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(None, "record", "actions must be a list")
    decisions: list[dict[str, Any]] = []
    tricks: list[dict[str, Any]] = []
    plays: list[dict[str, Any]] = []
    for i, entry in enumerate(actions):
        seat, action = parse_action(entry, i, deal.players)
        before = len(deal.tricks)
        try:
            deal.apply(action, seat=seat)
        except IllegalAction as err:
            raise RecordError(i, err.rule, err.message) from None
        done = action_to_json(seat, action)
        decisions.append({"index": i, **done})
        if isinstance(action, Play):
            plays.append({"seat": seat, "card": done["play"], "index": i})
            if len(deal.tricks) > before:
                trick = deal.tricks[-1]
                tricks.append(
                    {"number": len(tricks) + 1, "leader": trick.leader, "winner": trick.winner, "plays": plays}
                )
                plays = []
    if not deal.is_over:
        raise NotOver("this deal is not over: its hands are secret until it ends")
    discard = next((d["discard"] for d in decisions if "discard" in d), None)
    return {
        "players": deal.players,
        "dealer": deal.dealer,
        "seats": list(deal.seats),  # the seats dealt in, in playing order
        "hands": [codes(hand) for hand in deal.initial_hands],
        "dog": codes(deal.initial_dog),
        "taker": deal.taker,
        "called": next((d["call"] for d in decisions if "call" in d), None),
        "ecart": discard,  # None: no écart laid (a garde sans or contre, a void deal)
        "poignees": [
            {"seat": seat, "size": size, "cards": codes(cards), "bonus": bonus}
            for seat, cards, size, bonus in deal.poignees
        ],
        "tricks": tricks,
        "decisions": decisions,
        "result": outcome_json(deal),
    }


def deal_places(sheet: list[dict[str, Any]], redealt: bool = True) -> list[int]:
    """Each finished deal's number in its game, "deal k of the game's deals" (as the table's bar and log
    said it): a void deal does not count and is dealt again under its number, so it carries the number of
    the deal that follows it; where it is one of the preset deals instead (a daily deal's or a
    tournament's table: not ``redealt``), every deal is numbered by its place."""
    if not redealt:
        return list(range(1, len(sheet) + 1))
    out: list[int] = []
    counted = 0
    for line in sheet:
        counted += 0 if line.get("void") else 1
        out.append(counted + 1 if line.get("void") else counted)
    return out


class PublishedDeal(TypedDict):
    """A finished deal as the page reviews and downloads it (``/api/games/ID/deals/N``, the ``review`` message)."""

    game: str
    deal: int
    deals: int
    number: NotRequired[int]
    of: NotRequired[int]
    names: list[str]
    commitment: str | None
    seed: str | None
    record: dict[str, Any]
    review: dict[str, Any]


def published(
    game_id: str,
    number: int,
    deals: int,
    record: dict[str, Any],
    commitment: str | None,
    names: list[str],
    place: tuple[int, int] | None = None,
) -> PublishedDeal:
    """Deal ``number`` of the ``deals`` finished ones of a game (void ones included: the address of its
    review), as the page reviews and downloads it: ``commitment``, ``seed`` and ``record`` are what
    ``atout verify FILE`` checks alone, ``review`` the deal told whole; ``place`` is how the game numbers
    it, (k, the game's deals): "deal k of n". NotOver for a deal still being played."""
    deal: PublishedDeal = {
        "game": game_id,
        "deal": number,
        "deals": deals,
        "names": record.get("names") or names,
        "commitment": commitment,
        "seed": record.get("seed"),
        "record": record,
        "review": review(record),
    }
    if place is not None:
        deal["number"], deal["of"] = place
    return deal


__all__ = ["NotOver", "PublishedDeal", "deal_places", "published", "review"]
