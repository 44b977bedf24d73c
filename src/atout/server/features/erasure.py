"""An account deleted: what goes, what stays anonymised, in one transaction.

The ledger keeps every row (a balance is a sum of rows: removing one would make chips appear or
vanish), and a row names its holder by id only. So the account's row stays too, as a tombstone:
its name becomes ``DELETED_NAME``, its name is free for anyone to register again, its password
matches nothing, and every id of it that a game shows is shown as ``DELETED_NAME``. Sessions,
friendships and friend requests, standings, ratings (and their history), badges, lesson progress and the
accuracy of its deals go.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ..store.db import (
    accuracy,
    badges,
    daily_plays,
    friendships,
    game_players,
    games,
    lesson_progress,
    players,
    rating_history,
    ratings,
    sessions,
    standings,
)
from .tournaments import withdraw

DELETED_NAME = "deleted player"
"""What a deleted account is called wherever a game or a table showed its name: not a name anyone can
take (it has a space), the same for every deleted account."""
NO_PASSWORD = "!"
"""The password hash of a deleted account: no hash, so no password verifies."""


@dataclass(frozen=True)
class Erased:
    sessions: list[str]  # the keys of the sessions that ended (their sockets close, on every process)
    friends: list[str]  # the people a friendship or request with it bound (their caches forget it)
    games: int  # stored games whose names were replaced


def tombstone_key(player_id: str) -> str:
    """The deleted account's ``name_key``: unique, never a name's (a name has no ``~``), so the name it
    held is free again."""
    return f"~{player_id}"[:20]


def anonymised(data: dict[str, Any], gone: set[str]) -> dict[str, Any]:
    """A stored game's data with the names of the accounts in ``gone`` replaced by DELETED_NAME: its
    seats, its abandoners, and the names each deal record carries (one per seat)."""
    seats = [i for i, s in enumerate(data.get("seats", [])) if s.get("player") in gone]
    if not seats:
        return data
    out = dict(data)
    out["seats"] = [{**s, "name": DELETED_NAME} if s.get("player") in gone else s for s in data.get("seats", [])]
    out["abandoners"] = [
        {**a, "name": DELETED_NAME} if a.get("player") in gone else a for a in data.get("abandoners", [])
    ]
    out["records"] = [
        {**r, "names": [DELETED_NAME if i in seats else n for i, n in enumerate(r["names"])]}
        if isinstance(r.get("names"), list)
        else r
        for r in data.get("records", [])
    ]
    return out


def _daily_anonymised(data: dict[str, Any]) -> dict[str, Any]:
    """A daily deal's play (daily.py: its seat, names and records) with its person named as deleted."""
    seat = data.get("seat", 0)

    def names(values: Any) -> Any:
        return [DELETED_NAME if i == seat else n for i, n in enumerate(values)] if isinstance(values, list) else values

    return {
        **data,
        "names": names(data.get("names")),
        "records": [
            {**r, "names": names(r.get("names"))} if isinstance(r, dict) and "names" in r else r
            for r in data.get("records", [])
        ],
    }


def deleted_among(conn: sa.Connection, ids: Iterable[str]) -> set[str]:
    """Which of these player ids belong to deleted accounts."""
    ids = [i for i in set(ids) if i]
    if not ids:
        return set()
    return {
        r.id
        for r in conn.execute(sa.select(players.c.id).where(players.c.id.in_(ids), players.c.deleted_at.is_not(None)))
    }


def erase(conn: sa.Connection, player_id: str, now: float) -> Erased:
    """Delete the account ``player_id`` inside the caller's transaction (all of it, or none)."""
    ended = [
        r.token_hash for r in conn.execute(sa.select(sessions.c.token_hash).where(sessions.c.player_id == player_id))
    ]
    conn.execute(sessions.delete().where(sessions.c.player_id == player_id))
    bound = sa.or_(friendships.c.requester == player_id, friendships.c.addressee == player_id)
    friends = sorted(
        {
            r.requester if r.addressee == player_id else r.addressee
            for r in conn.execute(sa.select(friendships.c.requester, friendships.c.addressee).where(bound))
        }
    )
    conn.execute(friendships.delete().where(bound))
    for table in (standings, ratings, rating_history, badges, lesson_progress, accuracy):
        conn.execute(table.delete().where(table.c.player_id == player_id))
    conn.execute(game_players.update().where(game_players.c.player_id == player_id).values(name=DELETED_NAME))
    finished = sa.select(game_players.c.game_id).where(game_players.c.player_id == player_id)
    mentioned = sa.cast(games.c.data, sa.Text).contains(f'"{player_id}"', autoescape=True)
    # finished games through the index of who played them; cancelled ones (no lines per player) by their data
    found = conn.execute(
        sa.select(games.c.id, games.c.data).where(
            sa.or_(games.c.id.in_(finished), sa.and_(games.c.status != "finished", mentioned))
        )
    ).all()
    changed = 0
    for row in found:
        data = row.data
        new = anonymised(data, {player_id})
        if new != data:
            conn.execute(games.update().where(games.c.id == row.id).values(data=new))
            changed += 1
    for play in conn.execute(
        sa.select(daily_plays.c.day, daily_plays.c.data).where(
            daily_plays.c.player_id == player_id, daily_plays.c.data.is_not(None)
        )
    ).all():
        conn.execute(
            daily_plays.update()
            .where(daily_plays.c.day == play.day, daily_plays.c.player_id == player_id)
            .values(data=_daily_anonymised(play.data))
        )
    # registrations to tournaments not yet started end; those played keep their seat, named as deleted
    withdraw(conn, player_id)
    conn.execute(
        players.update()
        .where(players.c.id == player_id)
        .values(name=DELETED_NAME, name_key=tombstone_key(player_id), password_hash=NO_PASSWORD, deleted_at=now)
    )
    return Erased(ended, friends, changed)


__all__ = ["DELETED_NAME", "Erased", "anonymised", "deleted_among", "erase", "tombstone_key"]
