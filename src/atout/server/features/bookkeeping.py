"""The bookkeeping of a game's start and end, written in the transaction of the events that caused it.

The store knows no feature: it is built with ``book`` (``Store(url, book=book)``), which writes what an
append carries beyond its events: the game's row and its players (named as deleted for an account erased
meanwhile), the standings of a ranked game, the bets taken into the pot, the pot shared out, the day's play."""

from __future__ import annotations

import sqlalchemy as sa

from ..results import registered
from ..store import Append, StoreError
from ..store.db import game_players, games
from . import daily, erasure, ledger, standings


def book(conn: sa.Connection, item: Append) -> None:
    """Write ``item``'s game's row, bets, settlement and daily play; StoreError when the ledger refuses."""
    try:
        _book(conn, item)
    except ledger.LedgerError as err:
        raise StoreError(f"refused by the ledger: {err.message}") from None


def _book(conn: sa.Connection, item: Append) -> None:
    if item.game is not None:
        g = item.game
        # a person who deleted their account while this game ran: named as deleted, and never ranked
        gone = erasure.deleted_among(
            conn, [s["player"] for s in g.data.get("seats", []) if registered(s.get("player"))]
        )
        participants = [{**p, "name": erasure.DELETED_NAME} if p["player_id"] in gone else p for p in g.participants]
        conn.execute(
            games.insert().values(
                id=g.game_id,
                table_id=g.table_id,
                players=g.players,
                status=g.status,
                started_at=g.started_at,
                ended_at=g.ended_at,
                data=erasure.anonymised(g.data, gone),
            )
        )
        if participants:
            conn.execute(
                game_players.insert(),
                [{**p, "game_id": g.game_id, "players": g.players, "ended_at": g.ended_at} for p in participants],
            )
            if g.status in ("finished", "deserted") and g.ranked:  # a deserted game: its abandonment
                standings.record(
                    conn, g.players, g.ended_at, [p for p in participants if p["player_id"] not in gone], g.game_id
                )
    if item.bets is not None:
        ledger.take_bets(conn, item.bets)
    if item.settlement is not None:  # in the game row's transaction: both or neither
        ledger.settle(conn, item.settlement)
    if item.daily is not None:
        daily.finish(conn, item.daily)
