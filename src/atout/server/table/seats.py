"""A table's seats and pace: who sits where, whether a robot plays for them, and the server's timings."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ...bots import level_shown
from ..kinds import SeatKind
from ..results import robot_account

ABSENT_AFTER = 10.0
"""Seconds without a connection before a robot plays for a seated person."""
ABANDON_AFTER = 180.0
"""Seconds without a connection before the seat is abandoned (PLATFORM: 3 minutes, a server setting)."""
VOTE_SECONDS = 60.0
ARRIVE_WITHIN = 60.0
"""Seconds a person whom a new game finds elsewhere (another page of the site, no connection at all: a
tournament's round) has to arrive before their turn's clock runs out or a robot plays for them
(docs/server.md, "A new game fetches its people"): a minute to see the notice on any page, or the tab's title,
and come back; a person at the table when the game starts plays on the table's own clock."""


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
            "robot_account": robot_account(self.player),  # a person's program, playing with an API token
        }


@dataclass
class Timing:
    """Server settings for a table's pace; tests set them to zero or small values."""

    absent_after: float = ABSENT_AFTER
    abandon_after: float = ABANDON_AFTER
    arrival: float = ARRIVE_WITHIN
    vote_seconds: float = VOTE_SECONDS
    deal_pause: float = 5.0
    robot_pace: float = 0.8


def admitted(
    player: str, seated: Collection[str | None], invited: Collection[str], master_friends: Collection[str]
) -> bool:
    """The rule of a private table: its seated people, the invited and the master's friends."""
    return player in seated or player in invited or player in master_friends


__all__ = ["ABANDON_AFTER", "ABSENT_AFTER", "ARRIVE_WITHIN", "VOTE_SECONDS", "Seat", "Timing", "admitted", "robot_name"]
