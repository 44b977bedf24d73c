"""How each stored event and each runtime fact changes a table: ``Table.evolve``'s handlers, one per kind.

Only ``Table.evolve`` calls these (a game action, the most frequent event, it applies itself); every
``EventType`` and every ``Fact`` has its handler, checked as the module loads.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from ...engine.game import Game
from ..kinds import EventType, Outcome, SeatKind, TableStatus, Unranked
from ..options import TableOptions
from .fields import TableFields
from .seats import Seat

Event = dict[str, Any]


class Fact(StrEnum):
    """What the server learns at run time and never stores: evolved unnumbered, learnt again after a restart."""

    CONNECTION_LOST = (
        "connection_lost"  # {seat, at}: the seat's person has no connection left; the absence clock starts
    )
    CONNECTION_BACK = "connection_back"  # {seat}: connected again
    RESTARTED = "restarted"  # {at, here}: loaded again; clocks start afresh, the seats ``here`` were never gone
    SAME_ADDRESS = "same_address"  # {seats}: registered people sharing an address (the game's start reads it)
    PAUSED = "paused"  # {why}: the store does not answer; nothing is accepted until the table is loaded again
    AWAITED = "awaited"  # {seats, at}: a new game found these seats' people elsewhere; it waits for them longer
    ARRIVED = "arrived"  # {seat, at}: the person's page shows the table now: their turn's clock starts afresh


# ------------------------------------------------------------ stored events
def _created(t: TableFields, e: Event) -> None:
    t.options = TableOptions.stored(e["options"])
    t.quick = bool(e.get("quick", False))
    t.daily = e.get("daily")
    t.daily_seed = e.get("_daily_seed")


def _claimed(t: TableFields, e: Event) -> None:
    seat = t.seats[e["seat"]]
    seat.claimant, seat.claimant_name = e["player"], e["name"]


def _unclaimed(t: TableFields, e: Event) -> None:
    seat = t.seats[e["seat"]]
    seat.claimant = seat.claimant_name = None


def _handed(t: TableFields, e: Event) -> None:
    seat = t.seats[e["seat"]]
    if (seat.claimant if e.get("claim") else seat.player) in t.invited:  # a private table admits them still
        t.invited.add(e["player"])
    if e.get("claim"):  # the robot's seat the guest takes at the next deal
        seat.claimant, seat.claimant_name = e["player"], e["name"]
    else:  # the seat itself, as it is: its clocks, automatic mode and abandonment stay
        seat.player, seat.name = e["player"], e["name"]


def _person(t: TableFields, e: Event) -> None:  # replaced: a person takes a robot's seat between deals
    t.seats[e["seat"]] = Seat(SeatKind.PERSON, e["player"], e["name"])
    t.awaited.pop(e["seat"], None)


def _sat(t: TableFields, e: Event) -> None:
    _person(t, e)
    if t.master is None:
        t.master = e["seat"]


def _emptied(t: TableFields, e: Event) -> None:  # left, unrobot
    t.seats[e["seat"]] = Seat()
    t.gone_since.pop(e["seat"], None)
    t.awaited.pop(e["seat"], None)


def _master(t: TableFields, e: Event) -> None:
    t.master = e["seat"]


def _robot(t: TableFields, e: Event) -> None:
    t.seats[e["seat"]] = Seat(SeatKind.ROBOT, None, e["name"], e["level"])


def _options(t: TableFields, e: Event) -> None:
    t.options = TableOptions.stored(e["options"])
    t.changed = list(e["changed"])
    t.changed_seq = e["seq"]


def _invited(t: TableFields, e: Event) -> None:
    t.invited.update(e["players"])


def _game_start(t: TableFields, e: Event) -> None:
    options = TableOptions.stored(e["options"])
    t.game = Game(players=t.players, deals=e["deals"], seed=e["_seed"], rules=options.ruleset(t.players))
    t.game_id = e["game"]
    t.game_started_at = e.get("at")
    t.game_seq = e["seq"]
    t.game_outcome = None
    t.game_names = []
    t.abandoned, t.abandoners, t.records, t.commitments = [], [], [], []
    t.game_ranked = bool(e.get("ranked", options.competitive))  # games started before the ledger: as set
    t.game_unranked = None if e.get("unranked") is None else Unranked(e["unranked"])
    t.stakes = list(e.get("stakes") or [0] * t.players)
    t.proposed = {}
    t.awaited = {}  # the room says whom this game waits for (Fact.AWAITED), once it is stored
    t.changed = []  # a game started with them: the options' changes are no news any more
    t.status = TableStatus.PLAYING


def _deal_start(t: TableFields, e: Event) -> None:
    assert t.game is not None
    t.game.start_deal(e["_seed"])
    t.commitment = e["commitment"]
    t.turn_started = e.get("at")
    t.deal_ended_at = None


def _deal_end(t: TableFields, e: Event) -> None:
    t.deal_ended_at = e.get("at")
    t.records.append(e["record"])
    t.commitments.append(e.get("commitment"))
    t.turn_started = None


def _close_game(t: TableFields, outcome: Outcome) -> None:
    t.status = TableStatus.WAITING
    t.game_outcome = outcome
    t.game_names = [seat.name for seat in t.seats]  # before its abandoners' seats empty: the game keeps its people
    t.commitment = t.vote = t.turn_started = t.deal_ended_at = None
    t.awaited = {}
    for i, seat in enumerate(t.seats):
        if seat.abandoned:
            t.seats[i] = Seat()
        else:
            seat.automatic = False


def _game_end(t: TableFields, e: Event) -> None:
    _close_game(t, Outcome.FINISHED)


def _cancel_end(t: TableFields, e: Event) -> None:
    t.vote = None
    if e["cancelled"]:
        _close_game(t, Outcome.CANCELLED)


def _unranked(t: TableFields, e: Event) -> None:  # the game under way stops counting (play.unrank_shared)
    t.game_ranked = False
    t.game_unranked = Unranked(e["why"])


def _absent(t: TableFields, e: Event) -> None:
    t.seats[e["seat"]].absent = e["type"] == EventType.ABSENT


def _automatic(t: TableFields, e: Event) -> None:
    t.seats[e["seat"]].automatic = e["on"]
    if not e["on"]:
        t.awaited.pop(e["seat"], None)  # the person's own "I'm back" or action: they are here
    if not e["on"] and t.to_act() == e["seat"]:  # back on their own turn: a whole turn's time again
        t.turn_started = e.get("at", t.turn_started)


def _abandon(t: TableFields, e: Event) -> None:
    seat = t.seats[e["seat"]]
    seat.abandoned = True
    seat.absent = False
    t.abandoned.append(e["seat"])
    t.abandoners.append({"seat": e["seat"], "player": seat.player, "name": seat.name, "why": e.get("why")})
    t.gone_since.pop(e["seat"], None)
    t.awaited.pop(e["seat"], None)


def _chat(t: TableFields, e: Event) -> None:
    t.chat.append({"seq": e["seq"], "name": e["name"], "seat": e.get("seat"), "text": e["text"]})


def _cancel_proposed(t: TableFields, e: Event) -> None:
    t.vote = {"by": e["by"], "votes": {e["by"]: True}, "started": e.get("at"), "voters": e["voters"]}
    t.proposed[e["by"]] = t.game.deal_index if t.game else 0


def _vote(t: TableFields, e: Event) -> None:
    if t.vote is not None:
        t.vote["votes"][e["seat"]] = e["accept"]


def _closed(t: TableFields, e: Event) -> None:
    t.status = TableStatus.CLOSED


def _nothing(t: TableFields, e: Event) -> None:  # game_dealer, timeout: said, and changing nothing kept
    pass


EVOLVE: dict[str, Callable[[TableFields, Event], None]] = {
    EventType.CREATED: _created,
    EventType.SAT: _sat,
    EventType.LEFT: _emptied,
    EventType.MASTER: _master,
    EventType.ROBOT: _robot,
    EventType.UNROBOT: _emptied,
    EventType.OPTIONS: _options,
    EventType.INVITED: _invited,
    EventType.GAME_START: _game_start,
    EventType.GAME_DEALER: _nothing,
    EventType.DEAL_START: _deal_start,
    EventType.DEAL_END: _deal_end,
    EventType.GAME_END: _game_end,
    EventType.CANCEL_END: _cancel_end,
    EventType.ABSENT: _absent,
    EventType.PRESENT: _absent,
    EventType.AUTOMATIC: _automatic,
    EventType.TIMEOUT: _nothing,
    EventType.ABANDON: _abandon,
    EventType.CHAT: _chat,
    EventType.CANCEL_PROPOSED: _cancel_proposed,
    EventType.VOTE: _vote,
    EventType.CLOSED: _closed,
    EventType.CLAIMED: _claimed,
    EventType.UNCLAIMED: _unclaimed,
    EventType.REPLACED: _person,
    EventType.HANDED: _handed,
    EventType.UNRANKED: _unranked,
}
"""How each stored event other than a game action (``Table.evolve`` applies those) changes a table."""
assert set(EVOLVE) | {EventType.ACTION} == set(EventType), "every EventType is evolved"


# ------------------------------------------------------------ runtime facts
def _connection_lost(t: TableFields, f: Event) -> None:
    t.gone_since.setdefault(f["seat"], f["at"])


def _connection_back(t: TableFields, f: Event) -> None:
    t.gone_since.pop(f["seat"], None)


def _restarted(t: TableFields, f: Event) -> None:
    now = f["at"]
    if t.in_deal:
        t.turn_started = now
    if t.status == TableStatus.PLAYING and t.deal is not None and t.deal.is_over:
        t.deal_ended_at = now
    if t.vote is not None:
        t.vote["started"] = now
    for i, seat in enumerate(t.seats):
        if seat.kind == SeatKind.PERSON and not seat.abandoned and i not in f["here"]:
            t.gone_since[i] = now


def _awaited(t: TableFields, f: Event) -> None:
    for seat in f["seats"]:
        t.awaited[seat] = f["at"]


def _arrived(t: TableFields, f: Event) -> None:
    if t.awaited.pop(f["seat"], None) is not None and t.to_act() == f["seat"] and t.turn_started is not None:
        t.turn_started = f["at"]  # their turn, seen now: a whole turn's time from now


def _same_address(t: TableFields, f: Event) -> None:
    t.same_address = list(f["seats"])


def _paused(t: TableFields, f: Event) -> None:
    t.paused = f["why"]


FACTS: dict[str, Callable[[TableFields, Event], None]] = {
    Fact.CONNECTION_LOST: _connection_lost,
    Fact.CONNECTION_BACK: _connection_back,
    Fact.RESTARTED: _restarted,
    Fact.SAME_ADDRESS: _same_address,
    Fact.PAUSED: _paused,
    Fact.AWAITED: _awaited,
    Fact.ARRIVED: _arrived,
}
assert set(FACTS) == set(Fact) and not set(Fact) & set(EventType), "every Fact is evolved, none an event's name"


__all__ = ["EVOLVE", "FACTS", "Event", "Fact"]
