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
from ...engine.state import Deal
from ..kinds import EventType, Outcome, SeatKind, TableStatus, Unranked
from ..options import TableOptions
from ..protocol import ProtocolError
from ..results import Bets, GameOver, robot_account
from ..review import deal_places
from .ending import CONCLUDING, concluded
from .evolving import EVOLVE, FACTS, Event, Fact
from .seats import Seat, Timing, admitted

CHAT_KEPT = 40
ASIDES = frozenset({"chat", "absent", "present", "automatic", "invited", "vote", "claimed", "unclaimed", "handed"})
"""Events that change nothing a request answers: a request made before them is not stale (a chat line
must not make a card on its way stale, nor another person's vote mine)."""
Events = list[Event]
P = ParamSpec("P")


class Table:
    """A table's state: seats, master, options, the game, the vote, the chat, the event number."""

    def __init__(self, table_id: str, players: int, options: TableOptions | None = None,
                 timing: Timing | None = None) -> None:
        if players not in (3, 4, 5):
            raise ProtocolError("bad_option", f"players: a table has 3, 4 or 5 seats, not {players!r}")
        self.id = table_id
        self.players = players
        self.options = options or TableOptions()
        self.timing = timing or Timing()
        self.seats = [Seat() for _ in range(players)]
        self.master: int | None = None
        self.seq = 0
        self.guard_seq = 0  # the last event that a request must have seen (not a chat line or the like)
        self.status = TableStatus.WAITING
        self.quick = False  # opened by quick play: its robots give their seats to people between deals
        self.daily: dict[str, Any] | None = None  # a daily deal's table: {day, deals} (docs/daily.md)
        self.daily_seed: str | None = None  # its day's secret seed: the game's, every deal's (never sent)
        self.game: Game | None = None
        self.game_id: str | None = None
        self.game_started_at: float | None = None
        self.game_outcome: Outcome | None = None  # the last game's end: finished or cancelled
        self.abandoned: list[int] = []
        self.abandoners: list[dict[str, Any]] = []  # who left this game: seat, player, name, why
        self.records: list[dict[str, Any]] = []  # the current game's deal records, void deals included
        self.commitments: list[str | None] = []  # each record's commitment, as published at its deal's start
        self.game_ranked = False  # the current game counts: competitive, and nobody shares an address
        self.game_unranked: Unranked | None = None  # why it does not
        self.stakes: list[int] = [0] * players  # the chips each seat put in the current game's pot
        self.commitment: str | None = None
        self.vote: dict[str, Any] | None = None
        self.proposed: dict[int, int] = {}  # seat -> deal_index when it last proposed to cancel
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self.invited: set[str] = set()
        self.changed: list[str] = []
        self.changed_seq = 0
        # Runtime, never stored (Facts): clock times (a restarted server gives the clocks their time back).
        self.turn_started: float | None = None
        self.deal_ended_at: float | None = None
        self.gone_since: dict[int, float] = {}
        self.same_address: list[int] = []  # seats of registered people sharing an address (Fact.SAME_ADDRESS)
        self.paused: str | None = None  # why the table waits (the store unreachable: Fact.PAUSED)
        self.last_event_at = 0.0
        self.version = 0  # counts the events other than game actions: what is remembered between cards
        self._seat_cache: dict[str | None, int] | None = None  # seat_of's answers
        self._concluded: list[Bets | GameOver] = []  # what fresh events made since take_concluded: for the ledger

    # ------------------------------------------------------------ queries
    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` sits at (remembered until an event other than a game action: only those
        move people; a server asks this for every follower after every card)."""
        seats = self._seat_cache
        return (self._people() if seats is None else seats).get(player)

    def _people(self) -> dict[str | None, int]:
        """Each seated person's seat (not the abandoned), remembered as ``seat_of`` says."""
        seats = self._seat_cache
        if seats is None:
            seats = self._seat_cache = {}
            for i, seat in reversed(list(enumerate(self.seats))):
                if seat.kind == SeatKind.PERSON and not seat.abandoned:
                    seats[seat.player] = i
        return seats

    @property
    def deal(self) -> Deal | None:
        return None if self.game is None else self.game.deal

    @property
    def in_deal(self) -> bool:
        return self.status == TableStatus.PLAYING and self.deal is not None and not self.deal.is_over

    def to_act(self) -> int | None:
        """``deal.to_act`` while a deal is played (``in_deal``), read in one go: several times an action."""
        game = self.game
        deal = None if game is None else game.deal
        if deal is None or deal.is_over or self.status != TableStatus.PLAYING:
            return None
        return deal.to_act

    def robot_turn(self) -> int | None:
        """The seat a robot must play for now, if any."""
        seat = self.to_act()
        if seat is not None and self.seats[seat].robot_plays and self.vote is None:
            return seat
        return None

    def robot_level(self, seat: int) -> str:
        return self.seats[seat].level or self.options.robot_level

    def present_people(self) -> list[int]:
        """Seats whose person is here and playing for themselves: those who vote (a robot account is a
        program, and robots do not vote)."""
        return [i for i, s in enumerate(self.seats)
                if s.kind == SeatKind.PERSON and not (s.absent or s.automatic or s.abandoned or robot_account(s.player))
                and i not in self.gone_since]

    def admits(self, player: str, name: str, master_friends: AbstractSet[str] = frozenset()) -> bool:
        """Whether this person may see, watch or sit at the table (private tables: the invited and
        the master's friends, whose ids the caller knows)."""
        return not self.options.private or admitted(player, self._people(), self.invited, master_friends)

    def admission(self) -> dict[str, Any] | None:
        """Whom a private table admits, as data another process checks with ``admitted`` (None: everyone)."""
        if not self.options.private:
            return None
        return {"master": self.master_player, "invited": sorted(self.invited), "seated": sorted(self._people())}

    @property
    def master_player(self) -> str | None:
        return None if self.master is None else self.seats[self.master].player

    def people(self) -> list[str | None]:
        """The person who plays each seat, or takes it at the next deal (None: empty, a robot, or
        abandoned): whose table it is, which the lobby tells each of them (``site.line_for``) and never
        anyone else."""
        return [s.player if s.kind == SeatKind.PERSON and not s.abandoned else s.claimant for s in self.seats]

    def claimable(self) -> list[int]:
        """The robots' seats a person may take at a quick table (none claimed yet)."""
        if not self.quick or self.status == TableStatus.CLOSED:
            return []
        return [i for i, s in enumerate(self.seats) if s.kind == SeatKind.ROBOT and s.claimant is None]

    def deal_number(self) -> int:
        """"Deal k of the game's deals" for the deal being played or just ended: a void deal is dealt
        again under its number (``Game.deal_number``), except at a daily deal's or tournament's table,
        where it is one of the preset deals and the next is k + 1."""
        assert self.game is not None
        return self.game.deal_index if self.daily is not None else self.game.deal_number

    def deal_place(self, number: int) -> tuple[int, int]:
        """Finished deal ``number``'s (from 1, void ones included) "deal k of n", as ``deal_number`` said it."""
        assert self.game is not None
        return deal_places([line.to_json() for line in self.game.sheet], self.daily is None)[number - 1], self.game.deals

    # ------------------------------------------------------------ evolving
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
            if self.seats[seat].automatic and event.get("by") == SeatKind.PERSON:
                self.seats[seat].automatic = False
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
            "id": self.id, "players": self.players, "options": self.options.to_json(),
            "seats": [asdict(s) for s in self.seats], "master": self.master, "seq": self.seq, "status": self.status,
            "quick": self.quick, "daily": self.daily, "daily_seed": self.daily_seed,
            "game": None if self.game is None else self.game.to_json(), "game_id": self.game_id,
            "game_started_at": self.game_started_at, "game_outcome": self.game_outcome, "abandoned": self.abandoned,
            "records": self.records, "commitments": self.commitments, "abandoners": self.abandoners,
            "game_ranked": self.game_ranked, "game_unranked": self.game_unranked, "stakes": self.stakes,
            "commitment": self.commitment,
            "vote": None if self.vote is None else {**self.vote, "votes": [[k, v] for k, v in self.vote["votes"].items()]},
            "proposed": [[k, v] for k, v in self.proposed.items()], "chat": list(self.chat),
            "invited": sorted(self.invited), "changed": self.changed, "changed_seq": self.changed_seq,
            "guard_seq": self.guard_seq,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any], timing: Timing | None = None) -> Table:
        table = cls(data["id"], data["players"], TableOptions.from_json(data["options"]), timing)
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
        table.game_outcome = None if data["game_outcome"] is None else Outcome(data["game_outcome"])
        table.abandoned = list(data["abandoned"])
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


def rebuilt(snapshot: dict[str, Any], events: Iterable[Event], timing: Timing, now: float,
            here: AbstractSet[int] = frozenset()) -> Table:
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


def decided(table: Table, now: float, decide: Callable[Concatenate[Batch, P], object],
            *args: P.args, **kwargs: P.kwargs) -> Events:
    """A request decided at once, outside a room (a test, a tool, a game made up for the store): its events."""
    batch = Batch(table, now)
    decide(batch, *args, **kwargs)
    return batch.events


# ------------------------------------------------------------ refusals
def check_seq(table: Table, seq: int) -> None:
    """A request answers the table as of event ``seq``: stale if anything it answers changed since."""
    if not table.guard_seq <= seq <= table.seq:
        raise ProtocolError("stale", f"this answers event {seq}, but the table is at event {table.seq}: "
                                     "look at the new state and try again", seq=table.seq)


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
        raise ProtocolError("robot_unranked", "a robot account plays at practice tables only (competitive: false), "
                                              "never ranked against people: this table is ranked")
    if table.options.bet and not player.startswith("p"):
        raise ProtocolError("registered_only", f"this table bets {table.options.bet} chips a game: "
                                               "log in (or register) to sit at a betting table")


def seated(table: Table, player: str, what: str) -> int:
    """``player``'s seat, or a refusal saying they may not ``what`` without one."""
    seat = table.seat_of(player)
    if seat is None:
        raise ProtocolError("not_seated", what)
    return seat


__all__ = ["ASIDES", "Batch", "Events", "Fact", "Table", "check_master", "check_may_bet", "check_seat", "check_seq",
           "check_waiting", "decided", "rebuilt", "seated"]
