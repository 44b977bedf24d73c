"""What the store stores and answers: tables' events, games, leases, an append, and its refusals."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson
import sqlalchemy as sa

from ..results import Bets, DailyEnd, GameEnd, GameRow
from .health import Cause, StoreHealth


class StoreError(RuntimeError):
    """What could not be stored or read, named; ``fenced`` names a table this process no longer runs;
    ``cause``, an outage (the database away, its disk full) as opposed to a refusal of what was written;
    ``unknown``, a write whose outcome nobody knows (the connection was lost while it committed)."""

    def __init__(
        self, message: str, fenced: str | None = None, cause: Cause | None = None, unknown: bool = False
    ) -> None:
        super().__init__(message)
        self.fenced = fenced
        self.cause = cause
        self.unknown = unknown

    @property
    def outage(self) -> bool:
        return self.cause is not None


class StoredEvent(NamedTuple):
    """One event as stored (a NamedTuple, like ``Append``: one is made per event, and a frozen
    dataclass's __init__ cost several times more)."""

    seq: int
    at: float
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True)
class StoredTable:
    table_id: str
    status: str
    snapshot: dict[str, Any]
    snapshot_seq: int
    events: list[StoredEvent] = field(default_factory=list)  # those after the snapshot, in order


class Append(NamedTuple):
    """What one table adds in one go: events, and maybe a new snapshot, a status, a game."""

    table_id: str
    events: list[StoredEvent]
    snapshot: tuple[int, dict[str, Any] | orjson.Fragment] | None = None  # a Fragment: JSON made already
    status: str | None = None
    game: GameRow | None = None
    bets: Bets | None = None  # a starting game's bets, taken into its pot
    settlement: GameEnd | None = None  # a game's end: its pot shared out, XP, badges (once per game)
    daily: DailyEnd | None = None  # a daily deal's game ended: the person's play of the day (daily.py)
    fence: tuple[str, int] | None = None  # (owner, token): written only while this lease still holds

    @property
    def booked(self) -> bool:
        """Whether it carries a game's row, bets, a settlement or a daily play: the store's ``book`` writes them."""
        return self.game is not None or self.bets is not None or self.settlement is not None or self.daily is not None

    @property
    def events_only(self) -> bool:
        """Whether it adds events and nothing else, its lease's fence aside (most writes: a card, a bid)."""
        return (
            self.snapshot is None
            and self.status is None
            and self.game is None
            and self.bets is None
            and self.settlement is None
            and self.daily is None
        )


class Fenced(Exception):
    """A write by a process whose lease on the table was taken over: nothing of it is stored."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is run by another server process now")
        self.table_id = table_id


@dataclass(frozen=True)
class Lease:
    owner: str
    token: int
    expires_at: float


Book = Callable[[sa.Connection, Append], None]
"""Writes an append's game's end beyond its events, in their transaction (``features/bookkeeping.py``)."""


def first_line(err: BaseException) -> str:
    """A database's refusal in one line."""
    return (str(getattr(err, "orig", None) or err).splitlines() or [type(err).__name__])[0]


def failure(health: StoreHealth, err: BaseException, committing: bool) -> BaseException:
    """A write's failure as the StoreError of its outage (noted in ``health``): ``unknown`` when the connection
    was lost while it committed; else the failure itself, or at the commit a refusal (a constraint checked
    there)."""
    cause = health.report(err)
    if cause is None:
        return refused(err) if committing else err
    return StoreError(f"{cause.why}: {first_line(err)}", cause=cause, unknown=committing and cause == Cause.UNREACHABLE)


def refused(err: BaseException) -> StoreError:
    """The database's refusal of a write (a constraint), named."""
    return StoreError(f"refused by the database: {first_line(err)}")
