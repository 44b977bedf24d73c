"""Duplicate scoring (issue 24, part 3: duplicate tournaments): the pure core, without I/O.

In a duplicate tournament the same deals are played at several tables, each seat of a deal holding the
same cards everywhere. A seat's **duplicate score** on a deal is its points minus the mean of the points
that seat of that deal made over every table that played the deal to its end:

    duplicate(deal, seat, table) = points(deal, seat, table) − mean over tables t of points(deal, seat, t)

So luck of the cards cancels: a seat dealt a monster hand scores what it made beyond what the others made
with the same hand. Per deal-seat the duplicate scores sum to zero exactly (the means are kept as exact
fractions), and a deal-seat played at one table only scores 0 (nobody to compare with).

The cases (docs/duplicate.md):

- **Robots' seats** count like any seat: a robot's points are what that table made of those cards, so they
  enter the mean and get their own duplicate score (the sum stays zero); a ranking of people leaves robots
  out (``ranking``).
- **Abandonments.** A deal that a table did not play to its end (the game deserted or cancelled during it)
  has no points: ``points`` is None, it enters no mean and has no duplicate score. A deal the table played
  to its end after a person abandoned (a robot finished it for them) has points: they count in the mean, and
  the duplicate score is the seat's, marked ``abandoned`` (``ranking`` places an abandoner after everyone
  who did not abandon, as a table ranks one last).
- **Ties.** Equal totals share a place (1, 1, 3), as the score sheet ranks a game.
- Results are keyed by (deal, seat, table); the same key twice is refused (ValueError), the order of the
  results changes nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class SeatResult:
    """What one seat made of one deal at one table."""

    deal: Hashable  # the tournament's deal (its seed, its number)
    seat: int  # the seat, that is the cards (the same cards at every table)
    table: Hashable
    points: int | None  # the seat's score on the deal; None: the table did not play the deal to its end
    player: str | None = None  # who held the seat (None: a robot)
    abandoned: bool = False  # the person left during the deal or before it (a robot played for them)


@dataclass(frozen=True)
class Duplicate:
    """A seat's duplicate score on a deal at a table: its points less the deal-seat's mean."""

    result: SeatResult
    mean: Fraction | None  # the deal-seat's mean over the tables that played it to the end
    score: Fraction | None  # points − mean; None when the deal was not played to its end there
    tables: int  # how many tables the mean is over

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {
            "deal": r.deal,
            "seat": r.seat,
            "table": r.table,
            "player": r.player,
            "abandoned": r.abandoned,
            "points": r.points,
            "tables": self.tables,
            "mean": None if self.mean is None else round(float(self.mean), 2),
            "score": None if self.score is None else round(float(self.score), 2),
        }


def duplicate_scores(results: Iterable[SeatResult]) -> list[Duplicate]:
    """Every result's duplicate score, in the order given (see the module docstring)."""
    results = list(results)
    seen: set[tuple[Hashable, int, Hashable]] = set()
    played: dict[tuple[Hashable, int], list[int]] = defaultdict(list)
    for r in results:
        key = (r.deal, r.seat, r.table)
        if key in seen:
            raise ValueError(f"deal {r.deal!r}, seat {r.seat}, table {r.table!r} is given twice")
        seen.add(key)
        if r.points is not None:
            played[(r.deal, r.seat)].append(r.points)
    out = []
    for r in results:
        points = played.get((r.deal, r.seat), [])
        mean = Fraction(sum(points), len(points)) if points else None
        score = None if r.points is None or mean is None else r.points - mean
        out.append(Duplicate(r, mean, score, len(points)))
    return out


@dataclass(frozen=True)
class Place:
    """A person's place in a duplicate tournament."""

    place: int
    player: str
    total: Fraction  # the sum of their duplicate scores
    deals: int  # the deals scored
    abandoned: bool


def ranking(scores: Iterable[Duplicate]) -> list[Place]:
    """People by their total duplicate score, best first: equal totals share a place; anyone who abandoned
    comes after everyone who did not (among them, by total too); robots are not ranked."""
    totals: dict[str, Fraction] = defaultdict(Fraction)
    deals: dict[str, int] = defaultdict(int)
    abandoned: set[str] = set()
    for d in scores:
        player = d.result.player
        if player is None:
            continue
        deals[player] += 0  # ranked even with no deal scored (every table it sat at stopped early)
        if d.result.abandoned:
            abandoned.add(player)
        if d.score is not None:
            totals[player] += d.score
            deals[player] += 1
    order = sorted(deals, key=lambda p: (p in abandoned, -totals[p], p))
    out: list[Place] = []
    for i, player in enumerate(order):
        gone = player in abandoned
        tied = bool(out) and out[-1].abandoned == gone and out[-1].total == totals[player]
        out.append(Place(out[-1].place if tied else i + 1, player, totals[player], deals[player], gone))
    return out


__all__ = ["Duplicate", "Place", "SeatResult", "duplicate_scores", "ranking"]
