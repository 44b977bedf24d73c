"""Deciding an amicable end: a proposal to cancel the game, each present person's vote, and the vote's end
(refused, too few people left, everyone agreeing, or, in ``clocks``, the time to vote run out)."""

from __future__ import annotations

from typing import Any

from ...engine.record import to_record
from ..kinds import EventType, TableStatus
from ..protocol import ProtocolError
from ..results import robot_account
from .play import hand_over_claims
from .state import Batch, check_seq, seated

MIN_VOTERS = 2
"""People present (robots do not vote) needed for an amicable end: one alone with robots may only leave."""


def propose_cancel(b: Batch, player: str, seq: int) -> None:
    t = b.table
    if t.daily is not None:  # whatever the table's state: a cancel would reveal the unfinished deal's seed
        if "tournament" in t.daily:
            raise ProtocolError(
                "tournament_table", "a tournament's table cannot be cancelled: leaving it is an abandonment"
            )
        raise ProtocolError("daily_table", "a daily deal cannot be cancelled: leaving it is an abandonment")
    check_seq(t, seq, since=t.game_seq)  # the game under way, not its last card
    seat = seated(t, player, "only a seated player may propose to cancel")
    if robot_account(player):
        raise ProtocolError("not_voter", "a robot account takes no part in an amicable end: robots do not vote")
    if t.status != TableStatus.PLAYING:
        raise ProtocolError("no_game", "no game is being played")
    if t.vote is not None:
        raise ProtocolError("vote_running", "a vote is already running")
    assert t.game is not None  # playing
    if t.proposed.get(seat) == t.game.deal_index:
        raise ProtocolError("vote_again", "you may propose again after the next deal")
    voters = sorted(set(t.present_people()) | {seat})
    if len(voters) < MIN_VOTERS:  # alone with robots, a lost game would be erased at will
        raise ProtocolError(
            "needs_two_people",
            "an amicable end needs the agreement of at least two people "
            "present: alone with robots, leaving the table is an abandonment",
        )
    b.emit(EventType.CANCEL_PROPOSED, by=seat, voters=voters)
    after_vote_change(b)


def cast_vote(b: Batch, player: str, accept: bool, seq: int) -> None:
    t = b.table
    check_seq(t, seq)
    seat = t.seat_of(player)
    if t.vote is None:
        raise ProtocolError("no_vote", "no vote is running")
    if seat is None or seat not in t.vote["voters"]:
        raise ProtocolError("not_voter", "only the people present at the table vote")
    if seat in t.vote["votes"]:
        raise ProtocolError("voted", "you have voted already")
    b.emit(EventType.VOTE, seat=seat, accept=accept)
    after_vote_change(b)


def after_vote_change(b: Batch) -> None:
    """A running vote ends once someone refused, fewer than two people are left to vote, or all present agree."""
    t = b.table
    vote = t.vote
    if vote is None:
        return
    proposer = {vote["by"]} - t.gone_since.keys()  # counted in automatic mode too, not once gone
    here = set(t.present_people()) | proposer
    voters = [s for s in vote["voters"] if s in here and not (t.seats[s].abandoned or t.seats[s].absent)]
    if any(v is False for v in vote["votes"].values()):
        refused = next(s for s, v in vote["votes"].items() if v is False)
        b.emit(EventType.CANCEL_END, cancelled=False, why=f"{t.seats[refused].name} refused")
    elif len(voters) < MIN_VOTERS:  # the others left or went away: no agreement of two people any more
        b.emit(EventType.CANCEL_END, cancelled=False, why="fewer than two people present")
    elif all(vote["votes"].get(s) for s in voters):
        unfinished = t.deal if t.deal is not None and not t.deal.is_over else None
        reveal: dict[str, Any] = (
            {}
            if unfinished is None
            else {  # the shuffle stays checkable: its seed is revealed too
                "seed": unfinished.seed,
                "commitment": t.commitment,
                "record": to_record(unfinished),
            }
        )
        b.emit(
            EventType.CANCEL_END,
            cancelled=True,
            why="everyone present accepted",
            game=t.game_id,
            abandoned=list(t.abandoned),
            **reveal,
        )
        hand_over_claims(b)


def vote_over(b: Batch) -> None:
    """The time to vote ran out: the game goes on."""
    if b.table.vote is not None:
        b.emit(EventType.CANCEL_END, cancelled=False, why="the time to vote ran out")


__all__ = ["MIN_VOTERS", "after_vote_change", "cast_vote", "propose_cancel", "vote_over"]
