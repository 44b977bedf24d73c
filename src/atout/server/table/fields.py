"""A table's fields and the questions asked of them (``TableFields``): what ``Table.evolve``'s handlers write
(evolving.py) and a game's end reads (ending.py), apart from ``Table`` itself (state.py), which imports both."""

from __future__ import annotations

from collections import deque
from collections.abc import Set as AbstractSet
from typing import Any

from ...engine.game import Game
from ...engine.state import Deal
from ..kinds import Outcome, SeatKind, TableStatus, Unranked
from ..options import TableOptions
from ..protocol import ProtocolError
from ..results import Bets, GameOver, robot_account
from ..review import deal_places
from .seats import Seat, Timing, admitted

CHAT_KEPT = 40


class TableFields:
    """A table's state: seats, master, options, the game, the vote, the chat, the event number; and what can be
    asked of it. Written only by ``Table.evolve`` (state.py) and its handlers (evolving.py), which take this class:
    the handlers need the fields, not the table's writer, so no module of the table imports another in a circle."""

    def __init__(
        self, table_id: str, players: int, options: TableOptions | None = None, timing: Timing | None = None
    ) -> None:
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
        self.game_seq = 0  # the event that started the game under way: what a proposal to cancel answers
        self.game_outcome: Outcome | None = None  # the last game's end: finished or cancelled
        # the names of the last game's players as it ended: its score sheet, last trick and result are
        # theirs, whoever sits in their seats after it (empty while a game is played: the seats' names)
        self.game_names: list[str | None] = []
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
        # seats whose person a new game found elsewhere, and when it started: a longer clock until they
        # arrive (Fact.AWAITED, Fact.ARRIVED); one who never arrives abandons at the game's end
        self.awaited: dict[int, float] = {}
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

    def turn_ends(self) -> float | None:
        """When the turn's clock of the seat to act runs out (None: no clock runs): a person the game is
        still waiting for has until the new game's start plus ``timing.arrival`` at least."""
        seat = self.to_act()
        turn = self.options.turn_seconds
        if seat is None or not turn or self.turn_started is None:
            return None
        ends = self.turn_started + turn
        called = self.awaited.get(seat)
        return ends if called is None else max(ends, called + self.timing.arrival)

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
        return [
            i
            for i, s in enumerate(self.seats)
            if s.kind == SeatKind.PERSON
            and not (s.absent or s.automatic or s.abandoned or robot_account(s.player))
            and i not in self.gone_since
        ]

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
        """The robots' seats a person may take (none claimed yet): at a quick table at any time (at the next
        deal during a game); at another table between its games, or during a practice game (which ranks
        nobody: the person plays on from the robot's score) at its next deal. Never during a competitive
        game (its people are ranked against the seats it started with), at a betting table (its pot is
        staked by those who sat at its start) or a daily deal's or tournament's (played once, by its own)."""
        if self.status == TableStatus.CLOSED or self.daily is not None:
            return []
        if not self.quick and (self.options.bet or (self.status == TableStatus.PLAYING and self.options.competitive)):
            return []
        return [i for i, s in enumerate(self.seats) if s.kind == SeatKind.ROBOT and s.claimant is None]

    def deal_number(self) -> int:
        """ "Deal k of the game's deals" for the deal being played or just ended: a void deal is dealt
        again under its number (``Game.deal_number``), except at a daily deal's or tournament's table,
        where it is one of the preset deals and the next is k + 1."""
        assert self.game is not None
        return self.game.deal_index if self.daily is not None else self.game.deal_number

    def deal_place(self, number: int) -> tuple[int, int]:
        """Finished deal ``number``'s (from 1, void ones included) "deal k of n", as ``deal_number`` said it."""
        assert self.game is not None
        return deal_places([line.to_json() for line in self.game.sheet], self.daily is None)[
            number - 1
        ], self.game.deals

    # ------------------------------------------------------------ evolving


__all__ = ["CHAT_KEPT", "TableFields"]
