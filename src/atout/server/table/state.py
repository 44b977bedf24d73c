"""One table's state, and the only code that writes it: ``Table.evolve`` (a lichess-style round, without the I/O).

Every change is an event (a dict with a ``type``); ``evolve(event)`` applies one, and is all a restarted
server needs to rebuild a table from its log. What the server learns at run time and never stores (a
connection lost or back, a restart, the store away, addresses shared) enters through ``evolve`` too, as an
unnumbered ``Fact``. A request is decided by its job's module (``seating``, ``play``, ``votes``, ``clocks``)
into a ``Batch``: the checks here refuse it before any event, else it emits its events, each evolved as it
is made. Views are the ``Observer``'s, which only reads. Keys that start with ``_`` (the deal's secret seed)
are stored and never sent.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from dataclasses import asdict
from typing import Any, Concatenate, ParamSpec

from ...engine.actions import Action
from ...engine.game import Game
from ...engine.record import parse_action
from ..kinds import EventType, Outcome, SeatKind, TableStatus, Unranked
from ..options import TableOptions
from ..protocol import ProtocolError
from ..results import Bets, GameOver, robot_account
from .ending import CONCLUDING, concluded
from .evolving import EVOLVE, FACTS, Event, Fact
from .fields import CHAT_KEPT, TableFields
from .seats import Seat, Timing

ASIDES = frozenset(
    {"chat", "absent", "present", "automatic", "invited", "vote", "claimed", "unclaimed", "handed", "unranked"}
)
"""Events that change nothing a request answers: a request made before them is not stale (a chat line
must not make a card on its way stale, nor another person's vote mine)."""
Events = list[Event]
P = ParamSpec("P")


class Table(TableFields):
    """A table: its fields (``TableFields``) and the one writer of them, ``evolve``; its snapshot for the store."""

    def evolve(self, event: Event, parsed: Action | None = None, concluded: Bets | GameOver | None = None) -> None:
        """Apply one stored event (or an unnumbered runtime ``Fact``); the only place the table changes.
        A fresh event may come with its action as parsed (not parsed again) and the bets or game's end it
        makes, kept for the ledger (``take_concluded``): replayed events make none, they were written then."""
        kind = event["type"]
        fact = FACTS.get(kind)
        if fact is not None:
            fact(self, event)
            return
        self.seq = event["seq"]
        if kind not in ASIDES:
            self.guard_seq = event["seq"]
        self.last_event_at = event.get("at", self.last_event_at)
        if kind == EventType.ACTION:  # the most frequent event, applied here
            assert self.game is not None
            seat = event["seat"]
            if parsed is None:  # an event read from the store
                seat, parsed = parse_action({"seat": seat, **event["action"]}, 0, self.players)
            self.game.apply(parsed, seat)
            self.turn_started = event.get("at")
            if event.get("by") == SeatKind.PERSON:
                self.seats[seat].automatic = False
                self.awaited.pop(seat, None)  # they came: acting is arriving
            return
        self._seat_cache = None
        self.version += 1
        EVOLVE[kind](self, event)
        if concluded is not None:
            self._concluded.append(concluded)

    def take_concluded(self) -> list[Bets | GameOver]:
        """The bets and game ends the events made since the last call, for the store to write with them."""
        out, self._concluded = self._concluded, []
        return out

    # ------------------------------------------------------------ stored form
    def snapshot(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "players": self.players,
            "options": self.options.to_json(),
            "seats": [asdict(s) for s in self.seats],
            "master": self.master,
            "seq": self.seq,
            "status": self.status,
            "quick": self.quick,
            "daily": self.daily,
            "daily_seed": self.daily_seed,
            "game": None if self.game is None else self.game.to_json(),
            "game_id": self.game_id,
            "game_started_at": self.game_started_at,
            "game_outcome": self.game_outcome,
            "game_seq": self.game_seq,
            "abandoned": self.abandoned,
            "game_names": self.game_names,
            "records": self.records,
            "commitments": self.commitments,
            "abandoners": self.abandoners,
            "game_ranked": self.game_ranked,
            "game_unranked": self.game_unranked,
            "stakes": self.stakes,
            "commitment": self.commitment,
            "vote": None
            if self.vote is None
            else {**self.vote, "votes": [[k, v] for k, v in self.vote["votes"].items()]},
            "proposed": [[k, v] for k, v in self.proposed.items()],
            "chat": list(self.chat),
            "invited": sorted(self.invited),
            "changed": self.changed,
            "changed_seq": self.changed_seq,
            "guard_seq": self.guard_seq,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any], timing: Timing | None = None) -> Table:
        table = cls(data["id"], data["players"], TableOptions.stored(data["options"]), timing)
        table.seats = [Seat(**{**s, "kind": SeatKind(s["kind"])}) for s in data["seats"]]
        table.master = data["master"]
        table.seq = data["seq"]
        table.status = TableStatus(data["status"])
        table.quick = bool(data.get("quick", False))
        table.daily = data.get("daily")
        table.daily_seed = data.get("daily_seed")
        table.game = None if data["game"] is None else Game.from_json(data["game"])
        table.game_id = data["game_id"]
        table.game_started_at = data["game_started_at"]
        table.game_seq = data.get("game_seq", data.get("guard_seq", data["seq"]))  # older: as before
        table.game_outcome = None if data["game_outcome"] is None else Outcome(data["game_outcome"])
        table.abandoned = list(data["abandoned"])
        table.game_names = list(data.get("game_names") or [])
        table.records = list(data.get("records", []))
        table.commitments = list(data.get("commitments") or [None] * len(table.records))  # older snapshots: none
        table.abandoners = list(data.get("abandoners", []))
        table.game_ranked = bool(data.get("game_ranked", table.options.competitive))
        table.game_unranked = None if data.get("game_unranked") is None else Unranked(data["game_unranked"])
        table.stakes = list(data.get("stakes") or [0] * table.players)
        table.commitment = data["commitment"]
        vote = data["vote"]
        table.vote = None if vote is None else {**vote, "votes": {k: v for k, v in vote["votes"]}}
        table.proposed = {k: v for k, v in data["proposed"]}
        table.chat = deque(data["chat"], maxlen=CHAT_KEPT)
        table.invited = set(data["invited"])
        table.changed = list(data["changed"])
        table.changed_seq = data["changed_seq"]
        table.guard_seq = data.get("guard_seq", data["seq"])
        return table


def rebuilt(
    snapshot: dict[str, Any], events: Iterable[Event], timing: Timing, now: float, here: AbstractSet[int] = frozenset()
) -> Table:
    """A table from a snapshot and the events after it, its clocks started afresh (nobody loses the
    time the server was away); the seats in ``here`` had their person connected all along."""
    table = Table.from_snapshot(snapshot, timing)
    for event in events:
        table.evolve(event)
    table.evolve({"type": Fact.RESTARTED, "at": now, "here": sorted(here)})
    return table


# ------------------------------------------------------------ making events
class Batch:
    """The events one request makes at its time ``now``, each evolved as it is made: the next check reads
    the table as it now stands, and a refusal raised before the first changes nothing."""

    def __init__(self, table: Table, now: float) -> None:
        self.table = table
        self.now = now
        self.events: Events = []

    def emit(self, kind: EventType, parsed: Action | None = None, **fields: Any) -> Event:
        """The next event, evolved; ``parsed``: a game action's, as the engine checked it."""
        table = self.table
        event = {"type": kind, "seq": table.seq + 1, "at": self.now, **fields}
        # a game's end is made before its event empties the abandoners' seats
        over = concluded(table, kind, fields, self.now) if kind in CONCLUDING else None
        table.evolve(event, parsed, over)
        self.events.append(event)
        return event


def decided(
    table: Table, now: float, decide: Callable[Concatenate[Batch, P], object], *args: P.args, **kwargs: P.kwargs
) -> Events:
    """A request decided at once, outside a room (a test, a tool, a game made up for the store): its events."""
    batch = Batch(table, now)
    decide(batch, *args, **kwargs)
    return batch.events


# ------------------------------------------------------------ refusals
def check_seq(table: Table, seq: int, since: int | None = None) -> None:
    """A request answers the table as of event ``seq``: stale if anything it answers changed since, that is after
    event ``since`` (by default the last event other than an aside; a request about the game as a whole, a
    proposal to cancel, gives the game's first: robots playing meanwhile do not make it stale)."""
    if not (table.guard_seq if since is None else since) <= seq <= table.seq:
        raise ProtocolError(
            "stale",
            f"this answers event {seq}, but the table is at event {table.seq}: look at the new state and try again",
            seq=table.seq,
        )


def check_master(table: Table, player: str) -> None:
    if table.master is None or table.seats[table.master].player != player:
        raise ProtocolError("not_master", "only the table's master may do that")


def check_waiting(table: Table, what: str) -> None:
    if table.status == TableStatus.PLAYING:
        raise ProtocolError("game_running", f"{what} only before or between games")
    if table.status == TableStatus.CLOSED:
        raise ProtocolError("no_table", "this table is closed")


def check_seat(table: Table, seat: int) -> None:
    if not 0 <= seat < table.players:
        raise ProtocolError("no_seat", f"seat {seat}: this table's seats are 0 to {table.players - 1}")


def check_may_bet(table: Table, player: str) -> None:
    """Chips belong to registered players: a guest does not sit at a betting table; and a robot account
    plays people at practice tables only, never ranked."""
    if robot_account(player) and table.options.competitive:
        raise ProtocolError(
            "robot_unranked",
            "a robot account plays at practice tables only (competitive: false), "
            "never ranked against people: this table is ranked",
        )
    if table.options.bet and not player.startswith("p"):
        raise ProtocolError(
            "registered_only",
            f"this table bets {table.options.bet} chips a game: log in (or register) to sit at a betting table",
        )


def seated(table: Table, player: str, what: str) -> int:
    """``player``'s seat, or a refusal saying they may not ``what`` without one."""
    seat = table.seat_of(player)
    if seat is None:
        raise ProtocolError("not_seated", what)
    return seat


__all__ = [
    "ASIDES",
    "Batch",
    "Events",
    "Fact",
    "Table",
    "check_master",
    "check_may_bet",
    "check_seat",
    "check_seq",
    "check_waiting",
    "decided",
    "rebuilt",
    "seated",
]
