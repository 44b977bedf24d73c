"""A game's end written down: the table's ``GameOver`` as the games row and the ledger's settlement.

Both are written by the store in the transaction that stores the events that ended the game, so a
game is settled exactly once, and never without its events (docs/server.md, "Chips, XP, levels and badges").
"""

from __future__ import annotations

from typing import Any

from ..kinds import Outcome, SeatKind
from ..results import GameEnd, GameOver, GameRow, SeatResult


def game_row(over: GameOver) -> GameRow:
    """The games row (and each person's line for the standings) of a finished, cancelled or deserted game.

    A deserted game (every person left mid-game) is recorded as their abandonment, on the deals played to
    their end: each person ranked last, as an abandoner of a finished game, so leaving never erases a loss."""
    seats = [{"seat": s.seat, "kind": s.kind, "player": s.player, "name": s.name, "level": s.level} for s in over.seats]
    data: dict[str, Any] = {
        "seats": seats,
        "options": over.options,
        "sheet": list(over.sheet),
        "records": list(over.records),
        "commitments": list(over.commitments),
        "totals": [s.total for s in over.seats],
        "ranking": None if over.ranking is None else list(over.ranking),
        "abandoned": [s.seat for s in over.seats if s.abandoned],
        "abandoners": list(over.abandoners),
        "ranked": over.ranked,
        "unranked": over.unranked,
        "daily": over.daily is not None,  # a daily deal's or tournament's: a void deal is one of its deals
    }
    participants: list[dict[str, Any]] = []
    if over.outcome in (Outcome.FINISHED, Outcome.DESERTED):
        for s in over.seats:
            if s.kind != SeatKind.PERSON or s.player is None:
                continue
            participants.append(
                {
                    "seat": s.seat,
                    "player_id": s.player,
                    "name": s.name,
                    "total": s.total,
                    "place": s.place,
                    "won": s.place == 1 and not s.abandoned,
                    "abandoned": s.abandoned,
                    "deals": over.counted,
                    "taker_deals": s.taker_deals,
                    "taker_made": s.taker_made,
                    "competitive": over.competitive,
                }
            )
    return GameRow(
        over.game_id,
        over.table_id,
        over.players,
        over.outcome,
        over.started_at,
        over.ended_at,
        data,
        tuple(participants),
        ranked=over.ranked,
    )


def settlement(over: GameOver) -> GameEnd:
    """What the ledger needs to share out the pot and give XP and badges."""
    seats = tuple(SeatResult(s.seat, s.player, s.total, s.abandoned, s.stake) for s in over.seats)
    return GameEnd(
        over.game_id,
        over.players,
        str(over.outcome),
        over.ranked,
        over.deals,
        seats,
        over.ended_at,
        over.single,
        over.records,
        over.unranked,
    )


__all__ = ["game_row", "settlement"]
