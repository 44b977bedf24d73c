"""The leaderboard: ranking points, games and wins per player count and period, and a skill rating.

Standings are kept as running sums, written in the same transaction as the game
that changes them, so a leaderboard page is an index range, never a scan of
every game. The rating is openskill's Plackett-Luce model over each game's
finishing order (equal totals share a place; an abandoner is last).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce

from ..store.db import players as players_table
from ..store.db import rating_history, ratings, standings
from . import ledger

PERIODS = ("week", "month", "all")
MODEL = PlackettLuce()
PAGE = 20


def period_start(period: str, at: float) -> float:
    """The UTC start of the week (Monday) or month that holds ``at``; 0 for all time."""
    if period == "all":
        return 0.0
    day = dt.datetime.fromtimestamp(at, dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        day -= dt.timedelta(days=day.weekday())
    elif period == "month":
        day = day.replace(day=1)
    else:
        raise ValueError(f"no period {period!r}; periods are {', '.join(PERIODS)}")
    return day.timestamp()


def ranked(participants: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines that count: registered people at a competitive table (guests and robots never do)."""
    return [p for p in participants if p["competitive"] and p["player_id"].startswith("p")]


def record(
    conn: sa.Connection, players: int, ended_at: float, participants: list[dict[str, Any]], game_id: str = ""
) -> None:
    """Add a finished game to the standings and ratings, and each new rating to its person's history
    (inside the game's own transaction)."""
    lines = ranked(participants)
    if not lines:
        return
    for line in lines:
        for period in PERIODS:
            key = {
                "player_id": line["player_id"],
                "players": players,
                "period": period,
                "period_start": period_start(period, ended_at),
            }
            where = sa.and_(*(standings.c[k] == v for k, v in key.items()))
            done = conn.execute(
                standings.update()
                .where(where)
                .values(
                    points=standings.c.points + line["total"],
                    games=standings.c.games + 1,
                    wins=standings.c.wins + int(line["won"]),
                )
            )
            if done.rowcount == 0:
                conn.execute(standings.insert().values(**key, points=line["total"], games=1, wins=int(line["won"])))
    if len(lines) < 2:
        return  # a rating compares people: one person among robots and guests moves nobody's
    ids = [line["player_id"] for line in lines]
    found = {
        r.player_id: r
        for r in conn.execute(sa.select(ratings).where(ratings.c.players == players, ratings.c.player_id.in_(ids)))
    }
    teams = [[MODEL.rating(mu=found[i].mu, sigma=found[i].sigma) if i in found else MODEL.rating()] for i in ids]
    new = MODEL.rate(teams, ranks=[line["place"] for line in lines])
    for line, (rating,) in zip(lines, new, strict=True):
        pid = line["player_id"]
        if pid in found:
            conn.execute(
                ratings.update()
                .where(ratings.c.player_id == pid, ratings.c.players == players)
                .values(mu=rating.mu, sigma=rating.sigma, games=ratings.c.games + 1)
            )
        else:
            conn.execute(
                ratings.insert().values(player_id=pid, players=players, mu=rating.mu, sigma=rating.sigma, games=1)
            )
        if game_id:
            conn.execute(
                rating_history.insert().values(
                    player_id=pid, players=players, game_id=game_id, at=ended_at, mu=rating.mu, sigma=rating.sigma
                )
            )


def leaderboard(
    engine: sa.Engine, players: int, period: str, at: float, page: int = 1, per_page: int = PAGE
) -> dict[str, Any]:
    """One page of the leaderboard: points first, then wins, with the rating and its uncertainty."""
    if players not in (3, 4, 5):
        raise ValueError(f"players: 3, 4 or 5, not {players!r}")
    start = period_start(period, at)
    if page < 1 or not 1 <= per_page <= 100:
        raise ValueError("page from 1, per_page from 1 to 100")
    query = (
        sa.select(
            players_table.c.id,
            players_table.c.name,
            players_table.c.avatar,
            standings.c.points,
            standings.c.games,
            standings.c.wins,
            ratings.c.mu,
            ratings.c.sigma,
        )
        .join(players_table, players_table.c.id == standings.c.player_id)
        .outerjoin(
            ratings, sa.and_(ratings.c.player_id == standings.c.player_id, ratings.c.players == standings.c.players)
        )
        .where(standings.c.players == players, standings.c.period == period, standings.c.period_start == start)
        .order_by(standings.c.points.desc(), standings.c.wins.desc(), players_table.c.name_key)
        .limit(per_page)
        .offset((page - 1) * per_page)
    )
    count = (
        sa.select(sa.func.count())
        .select_from(standings)
        .where(standings.c.players == players, standings.c.period == period, standings.c.period_start == start)
    )
    with engine.connect() as conn:
        rows = conn.execute(query).all()
        total = conn.execute(count).scalar_one()
        xp = ledger.balances(conn, [r.id for r in rows], "xp")  # the level column: from the ledger's XP
    first = (page - 1) * per_page
    return {
        "players": players,
        "period": period,
        "since": start,
        "page": page,
        "per_page": per_page,
        "total": total,
        "rows": [
            {
                "rank": first + i + 1,
                "name": r.name,
                "avatar": r.avatar,
                "points": r.points,
                "games": r.games,
                "wins": r.wins,
                "xp": xp[r.id],
                "level": ledger.level_for(xp[r.id]),
                "rating": None
                if r.mu is None
                else {"mu": round(r.mu, 2), "sigma": round(r.sigma, 2), "shown": round(r.mu - 3 * r.sigma, 2)},
            }
            for i, r in enumerate(rows)
        ],
    }


__all__ = ["PERIODS", "leaderboard", "period_start", "record"]
