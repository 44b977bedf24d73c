"""What a game leaves behind, as frozen values the table makes: its bets when it starts, and its end.

The table makes these from its own state at the moment a game starts or ends, so nothing downstream
(the ledger, the games table, the standings) works it out again from event dicts; the finisher
(``table/finisher.py``) turns a ``GameOver`` into the rows the store writes in the same transaction as the
events that ended the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

from .kinds import Outcome


def registered(player: str | None) -> TypeGuard[str]:
    """Registered players' ids start with ``p``; guests' with ``g``; robots have none."""
    return player is not None and player.startswith("p")


def robot_account(player: str | None) -> bool:
    """Robot accounts' ids (a person's program with an API token) start with ``b``: never ranked, never staked."""
    return player is not None and player.startswith("b")


@dataclass(frozen=True)
class Bets:
    """The bets a starting game takes into its pot: (player id, chips) for each registered person."""

    game_id: str
    stakes: tuple[tuple[str, int], ...]
    at: float


@dataclass(frozen=True)
class SeatResult:
    """One seat at a game's end: who sat there (None: a robot), the total, and the chips it staked."""

    seat: int
    player: str | None
    total: int
    abandoned: bool = False
    stake: int = 0


@dataclass(frozen=True)
class GameEnd:
    """Everything a settlement needs, as plain data (made by the finisher from the table's GameOver)."""

    game_id: str
    players: int
    outcome: str  # Outcome: "finished" | "cancelled" | "deserted" (every person left mid-game)
    ranked: bool  # competitive, and not two registered people from one address
    deals: int  # the game's deals (counted ones: a void deal is redealt)
    seats: tuple[SeatResult, ...]
    at: float
    single: dict[str, Any] | None = None  # a one-deal game's deal: taker, partner, made
    records: tuple[dict[str, Any], ...] = ()  # the deal records, for badges
    unranked: str | None = None  # why not ranked, when it is not


@dataclass(frozen=True)
class SeatOver:
    """A seat as the game ended: who sat there (an abandoner still named), its total and its place."""

    seat: int
    kind: str  # SeatKind of whoever sat there during the game (an abandoner is a person)
    player: str | None
    name: str | None
    level: str | None
    total: int
    abandoned: bool
    stake: int
    place: int | None  # finished or deserted games: 1 is first, ties share a place, an abandoner is last
    taker_deals: int
    taker_made: int


@dataclass(frozen=True)
class GameOver:
    """A game's end as the table saw it: the one value every record of that game is written from."""

    game_id: str
    table_id: str
    players: int
    outcome: Outcome
    ranked: bool
    unranked: str | None
    competitive: bool
    started_at: float
    ended_at: float
    deals: int  # the game's length in deals, as set
    counted: int  # the deals that counted (void deals are redealt)
    seats: tuple[SeatOver, ...]
    options: dict[str, Any]
    sheet: tuple[dict[str, Any], ...]
    records: tuple[dict[str, Any], ...]
    commitments: tuple[str | None, ...]  # each record's commitment, as published when its deal began
    ranking: tuple[dict[str, Any], ...] | None  # finished games: place, seat, total
    abandoners: tuple[dict[str, Any], ...]
    single: dict[str, Any] | None  # a one-deal game's deal: taker, partner, made
    daily: dict[str, Any] | None = None  # a daily deal's game: {day, absent: the seats away at its end} (docs/daily.md)


@dataclass(frozen=True)
class DailyEnd:
    """A daily play's end (``features/daily.py``), written with the events that ended its game."""

    day: str
    player_id: str
    game_id: str
    status: str  # "finished" | "abandoned"
    total: int
    deals_done: int
    at: float
    data: dict[str, Any]


__all__ = ["Bets", "DailyEnd", "GameEnd", "GameOver", "SeatOver", "SeatResult", "registered", "robot_account"]


@dataclass(frozen=True)
class GameRow:
    """A finished, cancelled or deserted game, written with the events that ended it."""

    game_id: str
    table_id: str
    players: int
    status: str  # "finished" | "cancelled" | "deserted" (every person abandoned: finisher.py)
    started_at: float
    ended_at: float
    data: dict[str, Any]
    participants: tuple[dict[str, Any], ...] = ()  # one line per person of a finished or deserted game (game_players)
    ranked: bool = True  # False: practice, or two registered people from one address (no standings)
