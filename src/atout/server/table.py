"""One table: the only code that changes it (a lichess-style round actor, without the I/O).

Every change is an event (a dict with a ``type``); ``evolve(event)`` applies one,
and is all a restarted server needs to rebuild a table from its log.  The
request methods check a request against the table and the engine, then evolve
the events they make and return them: a refused request raises ``ProtocolError``
before any event, so it changes nothing.  Keys that start with ``_`` (the deal's
secret seed) are stored and never sent.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import asdict, dataclass
from typing import Any

from ..bots import level_shown
from ..engine import IllegalAction
from ..engine.actions import Play
from ..engine.fairness import commitment as seed_commitment
from ..engine.fairness import daily_deal_seed
from ..engine.game import Game
from ..engine.kinds import EventType, Outcome, SeatKind, TableStatus, Unranked
from ..engine.observation import Private, private_parts
from ..engine.record import RecordError, action_to_json, parse_action, to_record
from ..engine.state import Deal
from ..engine.view import PublicViews, private_json
from .options import OptionError, TableOptions
from .patches import changed
from .protocol import ProtocolError
from .results import Bets, GameOver, SeatOver
from .review import deal_places

ABSENT_AFTER = 10.0
"""Seconds without a connection before a robot plays for a seated person."""
ABANDON_AFTER = 180.0
"""Seconds without a connection before the seat is abandoned (PLATFORM: 3 minutes, a server setting)."""
VOTE_SECONDS = 60.0
MIN_VOTERS = 2
"""People present (robots do not vote) needed for an amicable end: one alone with robots may only leave."""
CHAT_KEPT = 40
ASIDES = frozenset({"chat", "absent", "present", "automatic", "invited", "vote", "claimed", "unclaimed", "handed"})
"""Events that change nothing a request answers: a request made before them is not stale (a chat line
must not make a card on its way stale, nor another person's vote mine)."""


def robot_name(seat: int, level: str) -> str:
    """A robot's name at the table, with its level as people read it ("Robot 2 (club)", never heuristic)."""
    return f"Robot {seat + 1} ({level_shown(level)})"


@dataclass
class Seat:
    """Who sits in a seat, and whether a robot plays for them now."""

    kind: SeatKind = SeatKind.EMPTY
    player: str | None = None
    name: str | None = None
    level: str | None = None
    absent: bool = False  # the connection was lost for a while: a robot plays for the person
    automatic: bool = False  # the turn clock ran out: the robot plays until the person is back
    abandoned: bool = False
    claimant: str | None = None  # a robot's seat at a quick table: the person who takes it at the next deal
    claimant_name: str | None = None

    @property
    def robot_plays(self) -> bool:
        return self.kind == SeatKind.ROBOT or self.absent or self.automatic or self.abandoned

    def public(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "name": self.name,
            "kind": self.kind,
            "level": self.level,
            "present": self.kind != SeatKind.PERSON or not self.absent,
            "automatic": self.automatic,
            "abandoned": self.abandoned,
            "taking": self.claimant_name,  # who takes this robot's seat at the next deal
        }


@dataclass
class Timing:
    """Server settings for a table's pace; tests set them to zero or small values."""

    absent_after: float = ABSENT_AFTER
    abandon_after: float = ABANDON_AFTER
    vote_seconds: float = VOTE_SECONDS
    deal_pause: float = 5.0
    robot_pace: float = 0.8


def admitted(player: str, seated, invited, master_friends) -> bool:
    """The rule of a private table: its seated people, the invited and the master's friends."""
    return player in seated or player in invited or player in master_friends


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
        # Runtime, never stored: clock times (a restarted server gives the clocks their time back).
        self.turn_started: float | None = None
        self.deal_ended_at: float | None = None
        self.gone_since: dict[int, float] = {}
        self.same_address: list[int] = []  # seats of registered people sharing an address (note_same_address)
        self.paused: str | None = None  # why the table waits (the store unreachable: pause)
        self.last_event_at = 0.0
        self._sheet_cache: list[tuple[Any, dict[str, Any]]] = []
        self._seat_cache: dict[str | None, int] | None = None  # seat_of's answers
        self.version = 0  # counts the events other than game actions: what is remembered between cards
        self._concluded: list[Bets | GameOver] = []  # what the events made since take_concluded: for the ledger
        self._lasting: tuple[Any, dict[str, Any]] | None = None  # (key, the shared view's lasting parts)
        self._parsed: tuple[dict[str, Any], Any] | None = None  # the action being emitted, as stored and parsed
        self._private_kept: dict[int, tuple[Private, dict[str, Any]]] = {}  # each seat's last private view
        self._public_views = PublicViews()  # the spectator's view, made from the last one

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
    def deal(self):
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
        """Seats whose person is here and playing for themselves: those who vote."""
        return [i for i, s in enumerate(self.seats)
                if s.kind == SeatKind.PERSON and not (s.absent or s.automatic or s.abandoned) and i not in self.gone_since]

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

    # ------------------------------------------------------------ evolving
    def evolve(self, event: dict[str, Any]) -> None:
        """Apply one stored event; the only place the table changes."""
        self.seq = event["seq"]
        if event["type"] not in ASIDES:
            self.guard_seq = event["seq"]
        self.last_event_at = event.get("at", self.last_event_at)
        if event["type"] != "action":
            self._seat_cache = None
            self.version += 1
        EVOLVE[event["type"]](self, event)

    def _on_created(self, e: dict[str, Any]) -> None:
        self.options = TableOptions.from_json(e["options"])
        self.quick = bool(e.get("quick", False))
        self.daily = e.get("daily")
        self.daily_seed = e.get("_daily_seed")

    def _on_claimed(self, e: dict[str, Any]) -> None:
        seat = self.seats[e["seat"]]
        seat.claimant, seat.claimant_name = e["player"], e["name"]

    def _on_unclaimed(self, e: dict[str, Any]) -> None:
        seat = self.seats[e["seat"]]
        seat.claimant = seat.claimant_name = None

    def _on_replaced(self, e: dict[str, Any]) -> None:
        self.seats[e["seat"]] = Seat(SeatKind.PERSON, e["player"], e["name"])

    def _on_handed(self, e: dict[str, Any]) -> None:
        seat = self.seats[e["seat"]]
        if (seat.claimant if e.get("claim") else seat.player) in self.invited:  # a private table admits them still
            self.invited.add(e["player"])
        if e.get("claim"):  # the robot's seat the guest takes at the next deal
            seat.claimant, seat.claimant_name = e["player"], e["name"]
        else:  # the seat itself, as it is: its clocks, automatic mode and abandonment stay
            seat.player, seat.name = e["player"], e["name"]

    def _on_sat(self, e: dict[str, Any]) -> None:
        self.seats[e["seat"]] = Seat(SeatKind.PERSON, e["player"], e["name"])
        if self.master is None:
            self.master = e["seat"]

    def _on_left(self, e: dict[str, Any]) -> None:
        self.seats[e["seat"]] = Seat()
        self.gone_since.pop(e["seat"], None)

    def _on_master(self, e: dict[str, Any]) -> None:
        self.master = e["seat"]

    def _on_robot(self, e: dict[str, Any]) -> None:
        self.seats[e["seat"]] = Seat(SeatKind.ROBOT, None, e["name"], e["level"])

    def _on_unrobot(self, e: dict[str, Any]) -> None:
        self.seats[e["seat"]] = Seat()

    def _on_options(self, e: dict[str, Any]) -> None:
        self.options = TableOptions.from_json(e["options"])
        self.changed = list(e["changed"])
        self.changed_seq = e["seq"]

    def _on_invited(self, e: dict[str, Any]) -> None:
        self.invited.update(e["players"])

    def _on_game_start(self, e: dict[str, Any]) -> None:
        options = TableOptions.from_json(e["options"])
        self.game = Game(players=self.players, deals=e["deals"], seed=e["_seed"], rules=options.ruleset(self.players))
        self.game_id = e["game"]
        self.game_started_at = e.get("at")
        self.game_outcome = None
        self.abandoned = []
        self.abandoners = []
        self.records = []
        self.commitments = []
        self.game_ranked = bool(e.get("ranked", options.competitive))  # games started before the ledger: as set
        self.game_unranked = None if e.get("unranked") is None else Unranked(e["unranked"])
        self.stakes = list(e.get("stakes") or [0] * self.players)
        self.proposed = {}
        self.changed = []  # a game started with them: the options' changes are no news any more
        self.status = TableStatus.PLAYING

    def _on_deal_start(self, e: dict[str, Any]) -> None:
        assert self.game is not None
        self.game.start_deal(e["_seed"])
        self.commitment = e["commitment"]
        self.turn_started = e.get("at")
        self.deal_ended_at = None

    def _on_action(self, e: dict[str, Any]) -> None:
        assert self.game is not None
        parsed, self._parsed = self._parsed, None
        if parsed is not None and parsed[0] is e["action"]:
            seat, action = e["seat"], parsed[1]
        else:  # an event read from the store
            seat, action = parse_action({"seat": e["seat"], **e["action"]}, 0, self.players)
        self.game.apply(action, seat)
        self.turn_started = e.get("at")
        if self.seats[seat].automatic and e.get("by") == SeatKind.PERSON:
            self.seats[seat].automatic = False

    def _on_deal_end(self, e: dict[str, Any]) -> None:
        self.deal_ended_at = e.get("at")
        self.records.append(e["record"])
        self.commitments.append(e.get("commitment"))
        self.turn_started = None

    def _on_game_end(self, e: dict[str, Any]) -> None:
        self._close_game(Outcome.FINISHED)

    def _on_cancel_end(self, e: dict[str, Any]) -> None:
        self.vote = None
        if e["cancelled"]:
            self._close_game(Outcome.CANCELLED)

    def _close_game(self, outcome: Outcome) -> None:
        self.status = TableStatus.WAITING
        self.game_outcome = outcome
        self.commitment = None
        self.vote = None
        self.turn_started = None
        self.deal_ended_at = None
        for i, seat in enumerate(self.seats):
            if seat.abandoned:
                self.seats[i] = Seat()
            else:
                seat.automatic = False

    def _on_absent(self, e: dict[str, Any]) -> None:
        self.seats[e["seat"]].absent = True

    def _on_present(self, e: dict[str, Any]) -> None:
        self.seats[e["seat"]].absent = False

    def _on_automatic(self, e: dict[str, Any]) -> None:
        self.seats[e["seat"]].automatic = e["on"]
        if not e["on"] and self.to_act() == e["seat"]:  # back on their own turn: a whole turn's time again
            self.turn_started = e.get("at", self.turn_started)

    def _on_timeout(self, e: dict[str, Any]) -> None:
        pass

    def _on_abandon(self, e: dict[str, Any]) -> None:
        seat = self.seats[e["seat"]]
        seat.abandoned = True
        seat.absent = False
        self.abandoned.append(e["seat"])
        self.abandoners.append({"seat": e["seat"], "player": seat.player, "name": seat.name, "why": e.get("why")})
        self.gone_since.pop(e["seat"], None)

    def _on_chat(self, e: dict[str, Any]) -> None:
        self.chat.append({"seq": e["seq"], "name": e["name"], "seat": e.get("seat"), "text": e["text"]})

    def _on_cancel_proposed(self, e: dict[str, Any]) -> None:
        self.vote = {"by": e["by"], "votes": {e["by"]: True}, "started": e.get("at"), "voters": e["voters"]}
        self.proposed[e["by"]] = self.game.deal_index if self.game else 0

    def _on_vote(self, e: dict[str, Any]) -> None:
        if self.vote is not None:
            self.vote["votes"][e["seat"]] = e["accept"]

    def _on_closed(self, e: dict[str, Any]) -> None:
        self.status = TableStatus.CLOSED

    # ------------------------------------------------------------ making events
    def _emit(self, out: list[dict[str, Any]], kind: str, now: float, **fields: Any) -> dict[str, Any]:
        event = {"type": kind, "seq": self.seq + 1, "at": now, **fields}
        over = self._ending(kind, fields, now)  # made before the event empties the abandoners' seats
        self.evolve(event)
        out.append(event)
        if over is not None:
            self._concluded.append(over)
        elif kind == EventType.GAME_START and any(self.stakes):
            stakes = tuple((self.seats[i].player or "", bet) for i, bet in enumerate(self.stakes) if bet)
            self._concluded.append(Bets(fields["game"], stakes, now))
        return event

    def take_concluded(self) -> list[Bets | GameOver]:
        """The bets and game ends the events made since the last call, for the store to write with them
        (events replayed from the store make none: they were written then)."""
        out, self._concluded = self._concluded, []
        return out

    def _ending(self, kind: str, fields: dict[str, Any], now: float) -> GameOver | None:
        """The GameOver an event about to be emitted makes, if it ends a game."""
        if self.game is None or self.game_id is None:
            return None
        if kind == EventType.GAME_END:
            return self._game_over(Outcome.FINISHED, now)
        if kind == EventType.CANCEL_END and fields["cancelled"]:
            return self._game_over(Outcome.CANCELLED, now)
        if kind == EventType.CLOSED and self.status == TableStatus.PLAYING:
            return self._game_over(Outcome.DESERTED, now)
        return None

    def _game_over(self, outcome: Outcome, now: float) -> GameOver:
        """The game's end from the table as it stands (every abandoner still in its seat)."""
        game = self.game
        assert game is not None and self.game_id is not None
        totals = game.totals
        counted = game.counted
        abandoned = set(self.abandoned)
        ranking = None
        places: dict[int, int] = {}
        if outcome == Outcome.FINISHED:
            ranking = tuple({"place": p, "seat": s, "total": t} for p, s, t in game.ranking())
            stayed = [r for r in ranking if r["seat"] not in abandoned]  # an abandoner is ranked last
            for k, r in enumerate(stayed):
                tied = k and r["total"] == stayed[k - 1]["total"]
                places[r["seat"]] = places[stayed[k - 1]["seat"]] if tied else k + 1
        seats = []
        for i, s in enumerate(self.seats):
            person = s.kind == SeatKind.PERSON
            place = None if outcome == Outcome.CANCELLED or not person else \
                self.players if i in abandoned else places.get(i)  # deserted: every person abandoned
            seats.append(SeatOver(
                seat=i, kind=s.kind, player=s.player if person else None, name=s.name, level=s.level,
                total=totals[i], abandoned=i in abandoned, stake=self.stakes[i], place=place,
                taker_deals=sum(1 for line in counted if line.taker == i),
                taker_made=sum(1 for line in counted if line.taker == i and line.made)))
        single = None
        if game.deals == 1 and counted:
            line = counted[0]
            single = {"taker": line.taker, "partner": line.partner, "made": line.made}
        return GameOver(
            game_id=self.game_id, table_id=self.id, players=self.players, outcome=outcome,
            ranked=self.game_ranked, unranked=self.game_unranked, competitive=self.options.competitive,
            started_at=self.game_started_at or now, ended_at=now,
            deals=game.deals, counted=len(counted), seats=tuple(seats), options=self.options.to_json(),
            sheet=tuple(self._stored_line(line.to_json()) for line in game.sheet), records=tuple(self.records),
            commitments=tuple(self.commitments), ranking=ranking,
            abandoners=tuple(dict(a) for a in self.abandoners), single=single,
            daily=None if self.daily is None else {
                "day": str(self.daily["day"]), "absent": [i for i, s in enumerate(self.seats) if s.absent],
                **({"tournament": self.daily["tournament"]} if "tournament" in self.daily else {})})

    def _stored_line(self, line: dict[str, Any]) -> dict[str, Any]:
        """A sheet line as the games row keeps it: at a daily deal's table, without its seed (docs/daily.md)."""
        if self.daily is not None:
            line.pop("seed", None)
        return line

    def _check_seq(self, seq: int) -> None:
        """A request answers the table as of event ``seq``: stale if anything it answers changed since."""
        if not self.guard_seq <= seq <= self.seq:
            raise ProtocolError("stale", f"this answers event {seq}, but the table is at event {self.seq}: "
                                         "look at the new state and try again", seq=self.seq)

    def _check_master(self, player: str) -> None:
        if self.master is None or self.seats[self.master].player != player:
            raise ProtocolError("not_master", "only the table's master may do that")

    def _check_waiting(self, what: str) -> None:
        if self.status == TableStatus.PLAYING:
            raise ProtocolError("game_running", f"{what} only before or between games")
        if self.status == TableStatus.CLOSED:
            raise ProtocolError("no_table", "this table is closed")

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.players:
            raise ProtocolError("no_seat", f"seat {seat}: this table's seats are 0 to {self.players - 1}")

    def _check_may_bet(self, player: str) -> None:
        """Chips belong to registered players: a guest does not sit at a betting table."""
        if self.options.bet and not player.startswith("p"):
            raise ProtocolError("registered_only", f"this table bets {self.options.bet} chips a game: "
                                                   "log in (or register) to sit at a betting table")

    def create(self, player: str, name: str, now: float, quick: bool = False,
               daily: tuple[dict[str, Any], str] | None = None) -> list[dict[str, Any]]:
        """A new table, its creator at seat 0 and its master; ``daily``: a daily deal's ({day, deals}, the day's
        secret seed), which deals the day's preset deals instead of fresh ones (docs/daily.md)."""
        self._check_may_bet(player)
        out: list[dict[str, Any]] = []
        extra: dict[str, Any] = {} if daily is None else {"daily": daily[0], "_daily_seed": daily[1]}
        self._emit(out, EventType.CREATED, now, players=self.players, options=self.options.to_json(), quick=quick,
                   **extra)
        self._emit(out, EventType.SAT, now, seat=0, player=player, name=name)
        self._emit(out, EventType.MASTER, now, seat=0)
        return out

    def sit(self, player: str, name: str, seat: int, seq: int, now: float,
            master_friends: AbstractSet[str] = frozenset()) -> list[dict[str, Any]]:
        self._check_seq(seq)
        self._check_waiting("sitting down")
        self._check_seat(seat)
        if not self.admits(player, name, master_friends):
            raise ProtocolError("private", "this table is private: only invited people may sit")
        if self.seat_of(player) is not None:
            raise ProtocolError("seated", f"you already sit at seat {self.seat_of(player)}")
        if self.seats[seat].kind != SeatKind.EMPTY:
            raise ProtocolError("seat_taken", f"seat {seat} is taken by {self.seats[seat].name}")
        self._check_may_bet(player)
        out: list[dict[str, Any]] = []
        self._emit(out, EventType.SAT, now, seat=seat, player=player, name=name)
        if self.master == seat:
            self._emit(out, EventType.MASTER, now, seat=seat)
        return out

    def leave(self, player: str, seq: int | None, now: float, why: str = "left the table") -> list[dict[str, Any]]:
        """Stand up: before a game the seat is freed; during one it is an abandonment (``why``)."""
        if seq is not None:
            self._check_seq(seq)
        seat = self.seat_of(player)
        claimed = next((i for i, s in enumerate(self.seats) if s.claimant == player), None)
        if seat is None and claimed is not None:  # one who was to take a robot's seat changes their mind
            gone: list[dict[str, Any]] = []
            self._emit(gone, EventType.UNCLAIMED, now, seat=claimed)
            return gone
        if seat is None:
            raise ProtocolError("not_seated", "you do not sit at this table")
        out: list[dict[str, Any]] = []
        if self.status == TableStatus.PLAYING:
            self._emit(out, EventType.ABANDON, now, seat=seat, player=player, why=why)
            self._after_vote_change(out, now)
        else:
            self._emit(out, EventType.LEFT, now, seat=seat)
        self._succeed_master(out, now, seat)
        return out

    def _succeed_master(self, out: list[dict[str, Any]], now: float, gone: int) -> None:
        if self.master != gone:
            return
        for k in range(1, self.players + 1):
            i = (gone + k) % self.players
            s = self.seats[i]
            if s.kind == SeatKind.PERSON and not s.abandoned:
                if i != gone:
                    self._emit(out, EventType.MASTER, now, seat=i)
                return
        self._emit(out, EventType.MASTER, now, seat=None)
        self._emit(out, EventType.CLOSED, now, why="nobody is left at the table")

    def add_robot(self, player: str, seat: int, level: str | None, seq: int, now: float) -> list[dict[str, Any]]:
        self._check_seq(seq)
        self._check_master(player)
        self._check_waiting("adding a robot")
        self._check_seat(seat)
        if self.seats[seat].kind != SeatKind.EMPTY:
            raise ProtocolError("seat_taken", f"seat {seat} is taken by {self.seats[seat].name}")
        level = level or self.options.robot_level
        try:
            self.options.changed(robot_level=level)
        except OptionError as err:
            raise ProtocolError("bad_option", str(err).replace("robot_level", "level")) from None
        out: list[dict[str, Any]] = []
        self._emit(out, EventType.ROBOT, now, seat=seat, level=level, name=robot_name(seat, level))
        return out

    def remove_robot(self, player: str, seat: int, seq: int, now: float) -> list[dict[str, Any]]:
        self._check_seq(seq)
        self._check_master(player)
        self._check_waiting("removing a robot")
        self._check_seat(seat)
        if self.seats[seat].kind != SeatKind.ROBOT:
            raise ProtocolError("not_robot", f"seat {seat} has no robot")
        out: list[dict[str, Any]] = []
        self._emit(out, EventType.UNROBOT, now, seat=seat)
        return out

    def set_options(self, player: str, values: dict[str, Any], seq: int, now: float) -> list[dict[str, Any]]:
        self._check_seq(seq)
        self._check_master(player)
        self._check_waiting("changing the options")
        try:
            options = self.options.changed(**values)
        except OptionError as err:
            raise ProtocolError("bad_option", str(err)) from None
        guests = [i for i, s in enumerate(self.seats) if s.kind == SeatKind.PERSON and not (s.player or "").startswith("p")]
        if options.bet and guests:
            raise ProtocolError("bad_option", f"bet: a guest sits at seat {guests[0]}; a betting table is for "
                                              "registered players")
        before, after = self.options.to_json(), options.to_json()
        changed = [k for k in after if after[k] != before[k]]
        if not changed:
            raise ProtocolError("bad_option", "those are the options already in force")
        out: list[dict[str, Any]] = []
        self._emit(out, EventType.OPTIONS, now, options=after, changed=changed)
        return out

    def invite(self, player: str, name: str, invitees: list[str], now: float) -> list[dict[str, Any]]:
        """Invite the player(s) called ``name`` (their ids, found by the caller): they may see, watch and sit."""
        self._check_master(player)
        out: list[dict[str, Any]] = []
        self._emit(out, EventType.INVITED, now, name=name, players=sorted(invitees))
        return out

    def start(self, player: str, seq: int, now: float, same_address: list[int] | None = None) -> list[dict[str, Any]]:
        """Start a game; ``same_address`` (the runtime's): seats of registered people sharing an address,
        which makes the game unranked (no bets taken, nothing won)."""
        self._check_seq(seq)
        self._check_master(player)
        self._check_waiting("starting a game")
        if self.daily is not None and self.game_id is not None:
            raise ProtocolError("daily_played", "a daily deal is played once: its game is over")
        empty = [i for i, s in enumerate(self.seats) if s.kind == SeatKind.EMPTY]
        if empty:
            raise ProtocolError("seats_empty", f"every seat must be filled first; empty: {', '.join(map(str, empty))}")
        unranked = Unranked.PRACTICE if not self.options.competitive else Unranked.SAME_ADDRESS if same_address else None
        stakes = [self.options.bet if unranked is None and s.kind == SeatKind.PERSON and (s.player or "").startswith("p")
                  else 0 for s in self.seats]
        out: list[dict[str, Any]] = []
        self._emit(out, EventType.GAME_START, now, game=secrets.token_hex(8), deals=self.options.deals,
                   options=self.options.to_json(), ranked=unranked is None, unranked=unranked, stakes=stakes,
                   _seed=self.daily_seed if self.daily is not None else secrets.token_hex(16))
        assert self.game is not None
        self._emit(out, EventType.GAME_DEALER, now, dealer=self.game.dealer)
        self._start_deal(out, now)
        return out

    def _on_game_dealer(self, e: dict[str, Any]) -> None:
        pass

    def _start_deal(self, out: list[dict[str, Any]], now: float) -> None:
        assert self.game is not None
        if self.daily is not None and self.daily_seed is not None:  # the day's preset deal, the same for all
            seed = daily_deal_seed(self.daily_seed, self.game.deal_index)
        else:
            seed = secrets.token_hex(16)
        number = self.game.deal_index + 1 if self.daily is not None else self.game.deals_played + 1  # deal_number's rule
        self._emit(out, EventType.DEAL_START, now, number=number, dealer=self.game.next_dealer,
                   commitment=seed_commitment(seed), _seed=seed)
        if self.deal is not None and self.deal.is_over:  # a petit sec voided it as it was dealt
            self._end_deal(out, now)
        self._after_change(out, now)

    def act(self, player: str, action: dict[str, Any], seq: int, now: float) -> list[dict[str, Any]]:
        """A person's own game action."""
        self._check_seq(seq)
        seat = self.seat_of(player)
        if seat is None:
            raise ProtocolError("not_seated", "only a seated player may play")
        return self.play(seat, action, now, by=SeatKind.PERSON)

    def play(self, seat: int, action: dict[str, Any], now: float, by: str) -> list[dict[str, Any]]:
        """``seat``'s action (by its person or its robot), checked by the engine."""
        if not self.in_deal:
            raise ProtocolError("no_deal", "no deal is being played at this table")
        if self.vote is not None:
            raise ProtocolError("vote_running", "a vote to cancel the game is running: vote first")
        if self.deal.to_act != seat:
            raise ProtocolError("not_your_turn", f"it is seat {self.deal.to_act}'s turn, not seat {seat}'s")
        if not isinstance(action, dict) or "seat" in action:
            raise ProtocolError("malformed", "an action is an object such as {\"play\": \"7H\"}, without a seat")
        try:
            parsed_seat, parsed = parse_action({"seat": seat, **action}, 0, self.players)
            if not isinstance(parsed, Play) or not self.deal.may_play(parsed.card):
                self.deal.clone().apply(parsed, parsed_seat)  # checked on a copy: the engine names the broken rule
        except RecordError as err:
            raise ProtocolError("malformed", err.message) from None
        except IllegalAction as err:
            raise ProtocolError("illegal", err.message, rule=err.rule) from None
        out: list[dict[str, Any]] = []
        stored = action_to_json(seat, parsed)
        del stored["seat"]
        self._parsed = (stored, parsed)  # the action event applies it without parsing it again
        tricks = len(self.deal.tricks)
        was_automatic = self.seats[seat].automatic
        event = self._emit(out, EventType.ACTION, now, seat=seat, action=stored, by=by)
        if len(self.deal.tricks) > tricks:  # this card ended a trick: who won it, for every log
            event["won"] = self.deal.tricks[-1].winner
        if was_automatic and by == SeatKind.PERSON:  # the person's own action ends automatic mode (said)
            self._emit(out, EventType.AUTOMATIC, now, seat=seat, on=False)
        if self.deal.is_over:
            self._end_deal(out, now)
        else:
            self._after_change(out, now)
        return out

    def _end_deal(self, out: list[dict[str, Any]], now: float) -> None:
        assert self.game is not None and self.deal is not None
        line = self.game.sheet[-1].to_json()
        line.pop("record", None)
        names = [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]  # for whoever replays it
        if self.daily is not None:  # the day's seeds stay secret until the day is over: the record by its hands
            line.pop("seed", None)
            self._emit(out, EventType.DEAL_END, now, _seed=self.deal.seed, commitment=self.commitment,
                       record={**to_record(self.deal, with_seed=False), "names": names}, line=line)
            if self.game.is_over or self.game.deal_index >= self.daily["deals"]:  # a void deal counts as one
                self._end_game(out, now)
            return
        self._emit(out, EventType.DEAL_END, now, seed=self.deal.seed, commitment=self.commitment,
                   record={**to_record(self.deal), "names": names}, line=line)
        if self.game.is_over:
            self._end_game(out, now)

    def _end_game(self, out: list[dict[str, Any]], now: float) -> None:
        assert self.game is not None
        ranking = [{"place": p, "seat": s, "total": t} for p, s, t in self.game.ranking()]
        self._emit(out, EventType.GAME_END, now, game=self.game_id, totals=self.game.totals, ranking=ranking,
                   abandoned=list(self.abandoned))
        self._hand_over_claims(out, now)
        if self.daily is not None:  # played once: the table closes (no second game, nobody to sit)
            why = ("the tournament's round is played here: its ranking is on the tournament's page"
                   if "tournament" in self.daily else "the daily deal is played: its ranking is on the daily page")
            self._emit(out, EventType.CLOSED, now, why=why)

    def next_deal(self, now: float) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if (self.status == TableStatus.PLAYING and self.game is not None and self.deal is not None
                and self.deal.is_over and not self.game.is_over):
            self._hand_over_claims(out, now)
            self._start_deal(out, now)
        return out

    def _hand_over_claims(self, out: list[dict[str, Any]], now: float) -> None:
        """Between deals (or games): the people who claimed robots' seats take them."""
        for i, seat in enumerate(self.seats):
            if seat.kind == SeatKind.ROBOT and seat.claimant is not None:
                self._emit(out, EventType.REPLACED, now, seat=i, player=seat.claimant, name=seat.claimant_name)

    def claim(self, player: str, name: str, now: float,
              master_friends: AbstractSet[str] = frozenset()) -> list[dict[str, Any]]:
        """Quick play's "a seat here for me": a free seat now if there is one before a game; else a
        robot's seat at a quick table, now between deals or games, or else at the next deal (the robot
        plays on until then)."""
        if self.status == TableStatus.CLOSED:
            raise ProtocolError("no_table", "this table is closed")
        if not self.admits(player, name, master_friends):
            raise ProtocolError("private", "this table is private: only invited people may sit")
        if self.seat_of(player) is not None:
            raise ProtocolError("seated", f"you already sit at seat {self.seat_of(player)}")
        claimed = next((i for i, s in enumerate(self.seats) if s.claimant == player), None)
        if claimed is not None:
            raise ProtocolError("seated", f"you take seat {claimed} at the next deal already")
        out: list[dict[str, Any]] = []
        free = [i for i, s in enumerate(self.seats) if s.kind == SeatKind.EMPTY]
        if self.status == TableStatus.WAITING and free:
            self._check_may_bet(player)
            self._emit(out, EventType.SAT, now, seat=free[0], player=player, name=name)
            return out
        robots = self._claimable()
        if not robots:
            raise ProtocolError("no_seat_free", "no seat is free at this table, nor a robot's to take: try quick "
                                                "play again, or watch")
        between = self.status == TableStatus.WAITING or (self.deal is not None and self.deal.is_over)
        kind = EventType.REPLACED if between else EventType.CLAIMED
        self._emit(out, kind, now, seat=robots[0], player=player, name=name)
        return out

    def daily_start(self, player: str, now: float) -> list[dict[str, Any]]:
        """A daily deal's game, at once: the day's robots in every other seat, then the start."""
        if self.daily is None:
            raise ProtocolError("bad_option", "not a daily deal's table")
        return self.quick_start(player, now)

    def tournament_open(self, seats: list[tuple[str, str] | None], spec: dict[str, Any], seed: str,
                        now: float) -> list[dict[str, Any]]:
        """A tournament's table (docs/tournaments.md), opened by the server and started at once: each
        person (id, name) in their seat, robots in the others (None); ``spec`` {tournament, round, deals} and
        ``seed`` the round's secret seed, whose preset deals every table of the round plays (as a daily
        deal's: ``daily`` carries them)."""
        people = [(i, s) for i, s in enumerate(seats) if s is not None]
        if len(seats) != self.players or not people:
            raise ProtocolError("bad_option", "a tournament's table seats its players, one person at least")
        out: list[dict[str, Any]] = []
        self._emit(out, EventType.CREATED, now, players=self.players, options=self.options.to_json(), quick=False,
                   daily={"day": None, **spec}, _daily_seed=seed)
        for i, (player, name) in people:
            self._emit(out, EventType.SAT, now, seat=i, player=player, name=name)
        self._emit(out, EventType.MASTER, now, seat=people[0][0])
        for i, seat in enumerate(self.seats):
            if seat.kind == SeatKind.EMPTY:
                level = self.options.robot_level
                self._emit(out, EventType.ROBOT, now, seat=i, level=level, name=robot_name(i, level))
        out += self.start(people[0][1][0], self.seq, now)
        return out

    def quick_start(self, player: str, now: float) -> list[dict[str, Any]]:
        """A quick table's first game, at once: robots in every empty seat, then the start."""
        self._check_master(player)
        out: list[dict[str, Any]] = []
        for i, seat in enumerate(self.seats):
            if seat.kind == SeatKind.EMPTY:
                level = self.options.robot_level
                self._emit(out, EventType.ROBOT, now, seat=i, level=level, name=robot_name(i, level))
        out += self.start(player, self.seq, now)
        return out

    def back(self, player: str, now: float, seq: int | None = None) -> list[dict[str, Any]]:
        if seq is not None and seq > self.seq:  # never stale otherwise: the robot plays on meanwhile
            self._check_seq(seq)
        seat = self.seat_of(player)
        if seat is None:
            raise ProtocolError("not_seated", "you do not sit at this table")
        if not self.seats[seat].automatic:
            raise ProtocolError("not_automatic", "your seat is not in automatic mode")
        out: list[dict[str, Any]] = []
        self._emit(out, EventType.AUTOMATIC, now, seat=seat, on=False)
        self._after_change(out, now)
        return out

    def hand_over(self, guest: str, account: str, name: str, now: float) -> list[dict[str, Any]]:
        """The guest registered, or logged in, at the browser that holds their seat: the seat (or the robot's
        seat they take at the next deal) is the account's from now on (docs/security.md, "A guest who
        registers"). Refused (``seated``) where the account has a seat already: one person, one seat."""
        if self.status == TableStatus.CLOSED:
            return []
        held = [i for i, s in enumerate(self.seats) if s.kind == SeatKind.PERSON and s.player == guest and not s.abandoned]
        claims = [i for i, s in enumerate(self.seats) if s.claimant == guest]
        if not held and not claims:
            return []
        if self.seat_of(account) is not None or any(s.claimant == account for s in self.seats):
            raise ProtocolError("seated", f"{name} has a seat at table {self.id} already, where the guest sits too: "
                                          "one person, one seat (leave one of them first)")
        out: list[dict[str, Any]] = []
        for i in held:
            self._emit(out, EventType.HANDED, now, seat=i, player=account, name=name)
        for i in claims:
            self._emit(out, EventType.HANDED, now, seat=i, player=account, name=name, claim=True)
        return out

    def say(self, player: str, name: str, text: str, now: float) -> list[dict[str, Any]]:
        text = text.strip()
        if not text:
            raise ProtocolError("malformed", "chat: the message is empty")
        out: list[dict[str, Any]] = []
        self._emit(out, EventType.CHAT, now, name=name, seat=self.seat_of(player), text=text)
        return out

    def propose_cancel(self, player: str, seq: int, now: float) -> list[dict[str, Any]]:
        if self.daily is not None:  # whatever the table's state: a cancel would reveal the unfinished deal's seed
            if "tournament" in self.daily:
                raise ProtocolError("tournament_table", "a tournament's table cannot be cancelled: leaving it is an "
                                                        "abandonment")
            raise ProtocolError("daily_table", "a daily deal cannot be cancelled: leaving it is an abandonment")
        self._check_seq(seq)
        seat = self.seat_of(player)
        if seat is None:
            raise ProtocolError("not_seated", "only a seated player may propose to cancel")
        if self.status != TableStatus.PLAYING:
            raise ProtocolError("no_game", "no game is being played")
        if self.vote is not None:
            raise ProtocolError("vote_running", "a vote is already running")
        assert self.game is not None  # playing
        if self.proposed.get(seat) == self.game.deal_index:
            raise ProtocolError("vote_again", "you may propose again after the next deal")
        voters = sorted(set(self.present_people()) | {seat})
        if len(voters) < MIN_VOTERS:  # alone with robots, a lost game would be erased at will
            raise ProtocolError("needs_two_people", "an amicable end needs the agreement of at least two people "
                                                    "present: alone with robots, leaving the table is an abandonment")
        out: list[dict[str, Any]] = []
        self._emit(out, EventType.CANCEL_PROPOSED, now, by=seat, voters=voters)
        self._after_vote_change(out, now)
        return out

    def cast_vote(self, player: str, accept: bool, seq: int, now: float) -> list[dict[str, Any]]:
        self._check_seq(seq)
        seat = self.seat_of(player)
        if self.vote is None:
            raise ProtocolError("no_vote", "no vote is running")
        if seat is None or seat not in self.vote["voters"]:
            raise ProtocolError("not_voter", "only the people present at the table vote")
        if seat in self.vote["votes"]:
            raise ProtocolError("voted", "you have voted already")
        out: list[dict[str, Any]] = []
        self._emit(out, EventType.VOTE, now, seat=seat, accept=accept)
        self._after_vote_change(out, now)
        return out

    def _after_vote_change(self, out: list[dict[str, Any]], now: float) -> None:
        vote = self.vote
        if vote is None:
            return
        proposer = {vote["by"]} - self.gone_since.keys()  # counted in automatic mode too, not once gone
        here = set(self.present_people()) | proposer
        voters = [s for s in vote["voters"] if s in here and not (self.seats[s].abandoned or self.seats[s].absent)]
        if any(v is False for v in vote["votes"].values()):
            refused = next(s for s, v in vote["votes"].items() if v is False)
            self._emit(out, EventType.CANCEL_END, now, cancelled=False, why=f"{self.seats[refused].name} refused")
        elif len(voters) < MIN_VOTERS:  # the others left or went away: no agreement of two people any more
            self._emit(out, EventType.CANCEL_END, now, cancelled=False, why="fewer than two people present")
        elif all(vote["votes"].get(s) for s in voters):
            unfinished = self.deal if self.deal is not None and not self.deal.is_over else None
            reveal = {} if unfinished is None else {  # the shuffle stays checkable: its seed is revealed too
                "seed": unfinished.seed, "commitment": self.commitment, "record": to_record(unfinished)}
            self._emit(out, EventType.CANCEL_END, now, cancelled=True, why="everyone present accepted",
                       game=self.game_id, abandoned=list(self.abandoned), **reveal)
            self._hand_over_claims(out, now)
        if self.vote is None and self.status == TableStatus.PLAYING:
            self._after_change(out, now)

    def _after_change(self, out: list[dict[str, Any]], now: float) -> None:
        """Nothing to do here today: robots and clocks are the runtime's (they read robot_turn/deadlines)."""

    # ------------------------------------------------------------ runtime facts
    def note_same_address(self, seats: list[int]) -> bool:
        """The seats of registered people who share an address with another seated one, as the server
        saw their connections (runtime only: a game's start stores whether it counts). True if it moved."""
        if seats == self.same_address:
            return False
        self.same_address = list(seats)
        return True

    def pause(self, why: str) -> bool:
        """The store does not answer: nothing more is accepted until the table is loaded again from it.
        False if it was paused already."""
        if self.paused is not None:
            return False
        self.paused = why
        return True

    # ------------------------------------------------------------ presence and clocks
    def connection_lost(self, seat: int, now: float) -> None:
        """The seat's person has no connection left: the absence clock starts (runtime only)."""
        self.gone_since.setdefault(seat, now)

    def connection_back(self, player: str, now: float) -> list[dict[str, Any]]:
        seat = self.seat_of(player)
        out: list[dict[str, Any]] = []
        if seat is None:
            return out
        self.gone_since.pop(seat, None)
        if self.seats[seat].absent:
            self._emit(out, EventType.PRESENT, now, seat=seat)
        return out

    def deadlines(self) -> list[tuple[float, str, int | None]]:
        """(when, what, seat) for everything that will happen by itself."""
        t = self.timing
        out: list[tuple[float, str, int | None]] = []
        seat = self.to_act()
        turn = self.options.turn_seconds
        if (seat is not None and turn and self.turn_started is not None and self.vote is None
                and not self.seats[seat].robot_plays):
            out.append((self.turn_started + turn, "timeout", seat))
        for s, since in self.gone_since.items():
            person = self.seats[s]
            if person.kind != SeatKind.PERSON or person.abandoned:
                continue
            if self.status == TableStatus.PLAYING:
                if not person.absent:
                    out.append((since + t.absent_after, "absent", s))
                out.append((since + t.abandon_after, "abandon", s))
            else:
                out.append((since + t.abandon_after, "gone", s))
        if self.vote is not None and self.vote.get("started") is not None:
            out.append((self.vote["started"] + t.vote_seconds, "vote_over", None))
        if self.status == TableStatus.PLAYING and self.deal_ended_at is not None and self.deal.is_over:
            out.append((self.deal_ended_at + t.deal_pause, "next_deal", None))
        return sorted(out, key=lambda d: d[0])

    def tick(self, now: float) -> list[dict[str, Any]]:
        """Everything whose time has come."""
        out: list[dict[str, Any]] = []
        for when, what, at in self.deadlines():
            if when > now:
                break
            seat = -1 if at is None else at  # the seat a seat's deadline is about (the others have none)
            if what == "timeout" and at == self.to_act():
                self._emit(out, EventType.TIMEOUT, now, seat=seat)
                self._emit(out, EventType.AUTOMATIC, now, seat=seat, on=True)
            elif what == "absent":
                self._emit(out, EventType.ABSENT, now, seat=seat)
                self._after_vote_change(out, now)
            elif what == "abandon":
                self._emit(out, EventType.ABANDON, now, seat=seat, player=self.seats[seat].player, why="did not come back")
                self._succeed_master(out, now, seat)
                self._after_vote_change(out, now)
            elif what == "gone":
                self._emit(out, EventType.LEFT, now, seat=seat)
                self._succeed_master(out, now, seat)
            elif what == "vote_over" and self.vote is not None:
                self._emit(out, EventType.CANCEL_END, now, cancelled=False, why="the time to vote ran out")
            elif what == "next_deal":
                out.extend(self.next_deal(now))
            if out:  # one deadline at a time: the next ones are computed from the new state
                break
        return out

    def restarted(self, now: float, here: set[int] | frozenset[int] = frozenset()) -> None:
        """After loading: clocks start afresh (nobody loses the time the server was away); the seats in
        ``here`` had their person connected all along, and get no absence clock."""
        if self.in_deal:
            self.turn_started = now
        if self.status == TableStatus.PLAYING and self.deal is not None and self.deal.is_over:
            self.deal_ended_at = now
        if self.vote is not None:
            self.vote["started"] = now
        for i, seat in enumerate(self.seats):
            if seat.kind == SeatKind.PERSON and not seat.abandoned and i not in here:
                self.gone_since[i] = now

    # ------------------------------------------------------------ views
    def public_events(self, events: list[dict[str, Any]], viewers: set[int | None]
                      ) -> dict[int | None, list[dict[str, Any]]]:
        """``public_event`` for each viewer; an event every viewer sees alike is made once and shared (and
        when every event is, so is the list)."""
        if not any(event["type"] == "action" and "discard" in event["action"] for event in events):
            alike = [self.public_event(event, None) for event in events]  # read, never changed: shared
            return {v: alike for v in viewers}
        out: dict[int | None, list[dict[str, Any]]] = {v: [] for v in viewers}
        for event in events:
            if event["type"] == "action" and "discard" in event["action"]:
                for v in viewers:
                    out[v].append(self.public_event(event, v))
            else:
                same = self.public_event(event, None)
                for v in viewers:
                    out[v].append(same)
        return out

    def public_event(self, event: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` (a seat, or None for a spectator) may see of an event."""
        out = {k: v for k, v in event.items() if not k.startswith("_") and k not in ("seq", "player")}
        if event["type"] == "action" and "discard" in event["action"] and viewer != event["seat"]:
            cards = event["action"]["discard"]
            trumps = [c for c in cards if c.startswith("T")]
            out["action"] = {"ecart": {"trumps": trumps, "count": len(cards)}}
        return out

    def shared_view(self, now: float, spectators: int = 0) -> dict[str, Any]:
        """The parts of the TableView that are the same for every viewer."""
        lasting, passing = self.shared_parts(now, spectators)
        return {**lasting, **passing}

    def shared_parts(self, now: float, spectators: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
        """The shared view in two: its lasting parts (``_lasting_view``: the same dict while they do
        not change) and those that move with any action (seq, spectators, clock, vote)."""
        clock = None
        seat = self.to_act()
        if seat is not None and self.turn_started is not None and self.options.turn_seconds:
            left = self.turn_started + self.options.turn_seconds - now
            clock = {"seat": seat, "seconds_left": max(0.0, round(left, 1)), "turn_seconds": self.options.turn_seconds}
        vote = None
        if self.vote is not None:
            started = self.vote.get("started") or now
            vote = {"by": self.vote["by"], "voters": self.vote["voters"],
                    "votes": {str(k): v for k, v in self.vote["votes"].items()},
                    "seconds_left": max(0.0, round(started + self.timing.vote_seconds - now, 1))}
        return self._lasting_view(), {"seq": self.seq, "spectators": spectators, "clock": clock, "vote": vote}

    def _lasting_view(self) -> dict[str, Any]:
        """The shared view's parts that no game action changes, built again only when they change: the
        same objects from card to card, so a patch finds them unchanged at a glance (``is``)."""
        game = self.game
        key = (self.version, self.paused, tuple(self.same_address), tuple(self.gone_since),
               [(s.absent, s.automatic) for s in self.seats],
               None if game is None else (len(game.sheet), game.deal_number, game.dealer))
        cached = self._lasting
        if cached is not None and cached[0] == key:
            return cached[1]
        view = {
            "id": self.id,
            "players": self.players,
            "status": self.status,
            "master": self.master,
            "options": self.options.to_json(),
            "seats": [{**s.public(i), "connected": s.kind != SeatKind.PERSON or i not in self.gone_since}
                      for i, s in enumerate(self.seats)],
            "game": None if game is None else {
                "id": self.game_id,
                "deals": game.deals,
                "deal_number": self.deal_number(),
                "dealer": game.dealer,
                "sheet": self._sheet(),
                "totals": game.totals,
                "over": self.game_outcome is not None,
                "outcome": self.game_outcome,
                "ranking": [{"place": p, "seat": s, "total": t} for p, s, t in game.ranking()]
                if self.game_outcome == Outcome.FINISHED else None,
                "ranked": self.game_ranked,
                "unranked": self.game_unranked,
                "pot": sum(self.stakes),
            },
            "same_address": self.same_address,
            "quick": self.quick,
            "daily": self._daily_view(),
            "paused": self.paused,
            "commitment": self.commitment,
            "chat": list(self.chat),
        }
        self._lasting = (key, view)
        return view

    def _daily_view(self) -> dict[str, Any] | None:
        """What the page says of a daily deal's or a tournament round's table: where its ranking is (its
        game ranks nobody here, and it is played once)."""
        if self.daily is None:
            return None
        day = self.daily.get("day")
        return {"day": None if day is None else str(day), "tournament": self.daily.get("tournament")}

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

    def _sheet(self) -> list[dict[str, Any]]:
        """The score sheet as viewers see it (no seeds: those go with each deal's end); cached per line."""
        assert self.game is not None
        sheet = self.game.sheet
        cache = self._sheet_cache
        if len(cache) > len(sheet) or (cache and cache[-1][0] is not sheet[len(cache) - 1]):
            cache.clear()
        for line in sheet[len(cache):]:
            cache.append((line, {k: v for k, v in line.to_json().items() if k not in ("record", "seed")}))
        return [view for _, view in cache]

    def deal_parts(self, viewers: set[int | None]) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]:
        """The spectator's DealView (None without a deal) and each seated viewer's private fields."""
        deal = self.deal
        if deal is None:
            return None, {}
        public = self._public_views.view(deal.observation(None))
        return public, {v: self._private_view(deal, v) for v in viewers if v is not None}

    def public_changes(self, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
        """``patches.changed(before, after)`` for two spectator's DealViews of this table: read off the
        public views' own record when ``after`` was made right after ``before`` (every action's telling)."""
        known = self._public_views.changes(before)
        return known if known is not None and after is self._public_views.current else changed(before, after)

    def _private_view(self, deal: Deal, seat: int) -> dict[str, Any]:
        """``private_json`` of the seat's private parts, the same dict as last time when they did not
        change (most seats, after a card): made once, and the patches find it unchanged at a glance."""
        parts = private_parts(deal, seat)
        kept = self._private_kept.get(seat)
        if kept is None or kept[0] != parts:
            kept = self._private_kept[seat] = (parts, private_json(parts))
        return kept[1]

    def deal_views(self, viewers: set[int | None]) -> dict[int | None, dict[str, Any] | None]:
        """Each viewer's DealView: the spectator's view once, and each seat's own private fields."""
        public, private = self.deal_parts(viewers)
        if public is None:
            return dict.fromkeys(viewers)
        return {v: public if v is None else {**public, **private[v]} for v in viewers}

    def view(self, viewer: int | None, now: float, spectators: int = 0,
             seen_options: int = -1) -> dict[str, Any]:
        """The whole table as ``viewer`` (a seat, or None for a spectator) may see it: a TableView."""
        return {**self.shared_view(now, spectators), "you": viewer,
                "changed": self.changed if self.changed_seq > seen_options else [],
                "deal": self.deal_views({viewer})[viewer]}

    def people(self) -> list[str | None]:
        """The person who plays each seat, or takes it at the next deal (None: empty, a robot, or
        abandoned): whose table it is, which the lobby tells each of them (``site.line_for``) and never
        anyone else."""
        return [s.player if s.kind == SeatKind.PERSON and not s.abandoned else s.claimant for s in self.seats]

    def _claimable(self) -> list[int]:
        """The robots' seats a person may take at a quick table (none claimed yet)."""
        if not self.quick or self.status == TableStatus.CLOSED:
            return []
        return [i for i, s in enumerate(self.seats) if s.kind == SeatKind.ROBOT and s.claimant is None]

    def summary(self, spectators: int = 0) -> dict[str, Any]:
        """The lobby's line for this table (``you``, the viewer's seat, is added per viewer)."""
        return {
            "id": self.id,
            "players": self.players,
            "seats": [s.name for s in self.seats],
            "robots": sum(s.kind == SeatKind.ROBOT for s in self.seats),
            "free": sum(s.kind == SeatKind.EMPTY for s in self.seats),
            "status": self.status,
            "over": self.game_outcome if self.status == TableStatus.WAITING else None,  # not a table waiting for people
            "options": self.options.to_json(),
            "spectators": spectators,
            "private": self.options.private,
            "quick": self.quick,
            "claimable": len(self._claimable()),
        }

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
            "abandoned": self.abandoned,
            "records": self.records,
            "commitments": self.commitments,
            "abandoners": self.abandoners,
            "game_ranked": self.game_ranked,
            "game_unranked": self.game_unranked,
            "stakes": self.stakes,
            "commitment": self.commitment,
            "vote": None if self.vote is None else {**self.vote, "votes": [[k, v] for k, v in self.vote["votes"].items()]},
            "proposed": [[k, v] for k, v in self.proposed.items()],
            "chat": list(self.chat),
            "invited": sorted(self.invited),
            "changed": self.changed,
            "changed_seq": self.changed_seq,
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


EVOLVE: dict[str, Callable[[Table, dict[str, Any]], None]] = {kind: getattr(Table, f"_on_{kind}") for kind in EventType}
"""How each stored event changes a table: every EventType has its method (checked as the module loads)."""


__all__ = ["ABANDON_AFTER", "ABSENT_AFTER", "EVOLVE", "Seat", "Table", "Timing"]
