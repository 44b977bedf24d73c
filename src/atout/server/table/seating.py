"""Deciding who sits where, and the table's settings: the requests made around a table rather than in its game
(sitting, leaving, robots, options, invitations, quick play's claims, a guest's seat handed over, chat)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from ..kinds import EventType, SeatKind, TableStatus
from ..options import OptionError
from ..protocol import ProtocolError
from ..results import robot_account
from .seats import robot_name
from .state import Batch, check_master, check_may_bet, check_seat, check_seq, check_waiting
from .votes import after_vote_change


def create(
    b: Batch, player: str, name: str, quick: bool = False, daily: tuple[dict[str, Any], str] | None = None
) -> None:
    """A new table, its creator at seat 0 and its master; ``daily``: a daily deal's ({day, deals}, the day's
    secret seed), which deals the day's preset deals instead of fresh ones (docs/daily.md)."""
    t = b.table
    check_may_bet(t, player)
    extra: dict[str, Any] = {} if daily is None else {"daily": daily[0], "_daily_seed": daily[1]}
    b.emit(EventType.CREATED, players=t.players, options=t.options.to_json(), quick=quick, **extra)
    b.emit(EventType.SAT, seat=0, player=player, name=name)
    b.emit(EventType.MASTER, seat=0)


def _may_sit(b: Batch, player: str, name: str, master_friends: AbstractSet[str]) -> None:
    t = b.table
    if not t.admits(player, name, master_friends):
        raise ProtocolError("private", "this table is private: only invited people may sit")
    if t.seat_of(player) is not None:
        raise ProtocolError("seated", f"you already sit at seat {t.seat_of(player)}")


def sit(b: Batch, player: str, name: str, seat: int, seq: int, master_friends: AbstractSet[str] = frozenset()) -> None:
    t = b.table
    check_seq(t, seq)
    check_waiting(t, "sitting down")
    check_seat(t, seat)
    _may_sit(b, player, name, master_friends)
    if t.seats[seat].kind != SeatKind.EMPTY:
        raise ProtocolError("seat_taken", f"seat {seat} is taken by {t.seats[seat].name}")
    check_may_bet(t, player)
    b.emit(EventType.SAT, seat=seat, player=player, name=name)
    if t.master == seat:
        b.emit(EventType.MASTER, seat=seat)


def leave(b: Batch, player: str, seq: int | None, why: str = "left the table") -> None:
    """Stand up: before a game the seat is freed; during one it is an abandonment (``why``)."""
    t = b.table
    if seq is not None:
        check_seq(t, seq)
    seat = t.seat_of(player)
    claimed = next((i for i, s in enumerate(t.seats) if s.claimant == player), None)
    if seat is None and claimed is not None:  # one who was to take a robot's seat changes their mind
        b.emit(EventType.UNCLAIMED, seat=claimed)
        return
    if seat is None:
        raise ProtocolError("not_seated", "you do not sit at this table")
    if t.status == TableStatus.PLAYING:
        b.emit(EventType.ABANDON, seat=seat, player=player, why=why)
        after_vote_change(b)
    else:
        b.emit(EventType.LEFT, seat=seat)
    succeed_master(b, seat)


def succeed_master(b: Batch, gone: int) -> None:
    """The next person round the table becomes master when the master is gone; nobody left: the table closes."""
    t = b.table
    if t.master != gone:
        return
    for k in range(1, t.players + 1):
        i = (gone + k) % t.players
        s = t.seats[i]
        if s.kind == SeatKind.PERSON and not s.abandoned:
            if i != gone:
                b.emit(EventType.MASTER, seat=i)
            return
    b.emit(EventType.MASTER, seat=None)
    b.emit(EventType.CLOSED, why="nobody is left at the table")


def add_robot(b: Batch, player: str, seat: int, level: str | None, seq: int) -> None:
    t = b.table
    check_seq(t, seq)
    check_master(t, player)
    check_waiting(t, "adding a robot")
    check_seat(t, seat)
    if t.seats[seat].kind != SeatKind.EMPTY:
        raise ProtocolError("seat_taken", f"seat {seat} is taken by {t.seats[seat].name}")
    level = level or t.options.robot_level
    try:
        t.options.changed(robot_level=level)
    except OptionError as err:
        raise ProtocolError("bad_option", str(err).replace("robot_level", "level")) from None
    b.emit(EventType.ROBOT, seat=seat, level=level, name=robot_name(seat, level))


def remove_robot(b: Batch, player: str, seat: int, seq: int) -> None:
    t = b.table
    check_seq(t, seq)
    check_master(t, player)
    check_waiting(t, "removing a robot")
    check_seat(t, seat)
    if t.seats[seat].kind != SeatKind.ROBOT:
        raise ProtocolError("not_robot", f"seat {seat} has no robot")
    b.emit(EventType.UNROBOT, seat=seat)


def set_options(b: Batch, player: str, values: dict[str, Any], seq: int) -> None:
    t = b.table
    check_seq(t, seq)
    check_master(t, player)
    check_waiting(t, "changing the options")
    try:
        options = t.options.changed(**values)
    except OptionError as err:
        raise ProtocolError("bad_option", str(err)) from None
    guests = [i for i, s in enumerate(t.seats) if s.kind == SeatKind.PERSON and not (s.player or "").startswith("p")]
    if options.bet and guests:
        raise ProtocolError(
            "bad_option", f"bet: a guest sits at seat {guests[0]}; a betting table is for registered players"
        )
    robots = [i for i, s in enumerate(t.seats) if s.kind == SeatKind.PERSON and robot_account(s.player)]
    if options.competitive and robots:
        raise ProtocolError(
            "robot_unranked",
            f"competitive: a robot account sits at seat {robots[0]}; it plays "
            "at practice tables only, never ranked against people",
        )
    before, after = t.options.to_json(), options.to_json()
    changed = [k for k in after if after[k] != before[k]]
    if not changed:
        raise ProtocolError("bad_option", "those are the options already in force")
    b.emit(EventType.OPTIONS, options=after, changed=changed)


def invite(b: Batch, player: str, name: str, invitees: list[str]) -> None:
    """Invite the player(s) called ``name`` (their ids, found by the caller): they may see, watch and sit."""
    check_master(b.table, player)
    b.emit(EventType.INVITED, name=name, players=sorted(invitees))


def claim(b: Batch, player: str, name: str, master_friends: AbstractSet[str] = frozenset()) -> None:
    """Quick play's "a seat here for me", and the lobby's *Sit*: a free seat now if there is one before
    a game; else a robot's seat the person may take (``Table.claimable``), now between deals or games, or
    else at the next deal (the robot plays on until then)."""
    t = b.table
    if t.status == TableStatus.CLOSED:
        raise ProtocolError("no_table", "this table is closed")
    _may_sit(b, player, name, master_friends)
    claimed = next((i for i, s in enumerate(t.seats) if s.claimant == player), None)
    if claimed is not None:
        raise ProtocolError("seated", f"you take seat {claimed} at the next deal already")
    free = [i for i, s in enumerate(t.seats) if s.kind == SeatKind.EMPTY]
    if t.status == TableStatus.WAITING and free:
        check_may_bet(t, player)
        b.emit(EventType.SAT, seat=free[0], player=player, name=name)
        return
    robots = t.claimable()
    if not robots:
        raise ProtocolError(
            "no_seat_free", "no seat is free at this table, nor a robot's to take: try quick play again, or watch"
        )
    between = t.status == TableStatus.WAITING or (t.deal is not None and t.deal.is_over)
    b.emit(EventType.REPLACED if between else EventType.CLAIMED, seat=robots[0], player=player, name=name)


def hand_over(b: Batch, guest: str, account: str, name: str) -> None:
    """The guest registered, or logged in, at the browser that holds their seat: the seat (or the robot's
    seat they take at the next deal) is the account's from now on (docs/security.md, "A guest who
    registers"). Refused (``seated``) where the account has a seat already: one person, one seat."""
    t = b.table
    if t.status == TableStatus.CLOSED:
        return
    held = [i for i, s in enumerate(t.seats) if s.kind == SeatKind.PERSON and s.player == guest and not s.abandoned]
    claims = [i for i, s in enumerate(t.seats) if s.claimant == guest]
    if not held and not claims:
        return
    if t.seat_of(account) is not None or any(s.claimant == account for s in t.seats):
        raise ProtocolError(
            "seated",
            f"{name} has a seat at table {t.id} already, where the guest sits too: "
            "one person, one seat (leave one of them first)",
        )
    for i in held:
        b.emit(EventType.HANDED, seat=i, player=account, name=name)
    for i in claims:
        b.emit(EventType.HANDED, seat=i, player=account, name=name, claim=True)


def say(b: Batch, player: str, name: str, text: str) -> None:
    text = text.strip()
    if not text:
        raise ProtocolError("malformed", "chat: the message is empty")
    b.emit(EventType.CHAT, name=name, seat=b.table.seat_of(player), text=text)


__all__ = [
    "add_robot",
    "claim",
    "create",
    "hand_over",
    "invite",
    "leave",
    "remove_robot",
    "say",
    "set_options",
    "sit",
    "succeed_master",
]
