"""Clocks and absence: what happens at a table by itself when its time comes (a turn's clock, a person away,
then gone, a vote's time, the pause between deals), and the connections lost and back that start and stop
the absence clock. The room's timer sleeps until ``deadlines(table)[0]`` and asks ``tick``."""

from __future__ import annotations

from enum import StrEnum

from ..kinds import EventType, SeatKind, TableStatus
from .evolving import Fact
from .play import next_deal
from .seating import succeed_master
from .state import Batch, Table
from .votes import after_vote_change, vote_over


class Deadline(StrEnum):
    """What a table's clock may bring about."""

    TIMEOUT = "timeout"  # the turn's time ran out: automatic mode
    ABSENT = "absent"  # away long enough during a game: a robot plays for the person
    ABANDON = "abandon"  # away too long during a game: the seat is abandoned
    GONE = "gone"  # away too long before or between games: the seat is freed
    VOTE_OVER = "vote_over"  # the time to vote ran out
    NEXT_DEAL = "next_deal"  # the pause after a deal is over


def deadlines(table: Table) -> list[tuple[float, Deadline, int | None]]:
    """(when, what, seat) for everything that will happen by itself, the soonest first."""
    t = table.timing
    out: list[tuple[float, Deadline, int | None]] = []
    seat = table.to_act()
    ends = table.turn_ends()
    if seat is not None and ends is not None and table.vote is None and not table.seats[seat].robot_plays:
        out.append((ends, Deadline.TIMEOUT, seat))
    for s, since in table.gone_since.items():
        person = table.seats[s]
        if person.kind != SeatKind.PERSON or person.abandoned:
            continue
        if table.status == TableStatus.PLAYING:
            if not person.absent:  # a person a new game waits for: not before their time to arrive
                called = table.awaited.get(s)
                absent = since + t.absent_after
                out.append((absent if called is None else max(absent, called + t.arrival), Deadline.ABSENT, s))
            out.append((since + t.abandon_after, Deadline.ABANDON, s))
        else:
            out.append((since + t.abandon_after, Deadline.GONE, s))
    if table.vote is not None and table.vote.get("started") is not None:
        out.append((table.vote["started"] + t.vote_seconds, Deadline.VOTE_OVER, None))
    deal = table.deal
    if table.status == TableStatus.PLAYING and table.deal_ended_at is not None and deal is not None and deal.is_over:
        out.append((table.deal_ended_at + t.deal_pause, Deadline.NEXT_DEAL, None))
    return sorted(out, key=lambda d: d[0])


def tick(b: Batch) -> None:
    """The first deadline whose time has come, if any (the next ones are worked out from the new state)."""
    t = b.table
    for when, what, at in deadlines(t):
        if when > b.now:
            break
        seat = -1 if at is None else at  # the seat a seat's deadline is about (the others have none)
        if what == Deadline.TIMEOUT and at == t.to_act():
            b.emit(EventType.TIMEOUT, seat=seat)
            b.emit(EventType.AUTOMATIC, seat=seat, on=True)
        elif what == Deadline.ABSENT:
            b.emit(EventType.ABSENT, seat=seat)
            after_vote_change(b)
        elif what == Deadline.ABANDON:
            b.emit(EventType.ABANDON, seat=seat, player=t.seats[seat].player, why="did not come back")
            succeed_master(b, seat)
            after_vote_change(b)
        elif what == Deadline.GONE:
            b.emit(EventType.LEFT, seat=seat)
            succeed_master(b, seat)
        elif what == Deadline.VOTE_OVER:
            vote_over(b)
        elif what == Deadline.NEXT_DEAL:
            next_deal(b)
        if b.events:
            break


def connection_lost(table: Table, seat: int, now: float) -> None:
    """The seat's person has no connection left: the absence clock starts (a runtime fact, never stored)."""
    table.evolve({"type": Fact.CONNECTION_LOST, "seat": seat, "at": now})


def connection_back(b: Batch, player: str) -> None:
    """The person is connected again: the absence clock stops, and one marked absent is ``present`` again."""
    t = b.table
    seat = t.seat_of(player)
    if seat is None:
        return
    t.evolve({"type": Fact.CONNECTION_BACK, "seat": seat, "at": b.now})
    if t.seats[seat].absent:
        b.emit(EventType.PRESENT, seat=seat)


__all__ = ["Deadline", "connection_back", "connection_lost", "deadlines", "tick"]
