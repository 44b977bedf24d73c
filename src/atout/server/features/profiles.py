"""Profiles: a registered player's statistics and recent games, read from the stored games.

The statistics are sums over ``game_players`` (indexed by player), so a profile
costs one grouped query however many games the site has stored.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from ..review import NotOver, PublishedDeal, deal_places, published
from ..store import Store
from ..store.db import game_players as gp
from ..store.db import ledger as ledger_rows
from ..store.db import players, rating_history
from . import daily, erasure, ledger
from .accounts import Accounts

RECENT = 10
HISTORY = 200
"""The points a profile's charts draw at most: the latest chip movements and rated games."""


def _stats(row: Any) -> dict[str, Any]:
    return {
        "games": row.games,
        "wins": int(row.wins or 0),
        "abandoned": int(row.abandoned or 0),
        "deals": int(row.deals or 0),
        "taker_deals": int(row.taker_deals or 0),
        "taker_success": None if not row.taker_deals else round(row.taker_made / row.taker_deals, 3),
        "average_per_deal": None if not row.deals else round(row.points / row.deals, 1),
    }


def profile(store: Store, accounts: Accounts, name: str, now: float) -> dict[str, Any] | None:
    """What anyone may see of ``name``: avatar, statistics by player count, recent games; a daily deal's game
    counted in none of them before its day is over (docs/daily.md)."""
    account = accounts.find(name)
    if account is None:
        return None
    hidden = daily.locked_games_of(store.engine, account.id, now)
    mine = gp.c.player_id == account.id
    if hidden:
        mine = sa.and_(mine, gp.c.game_id.not_in(hidden))
    totals = [
        sa.func.count().label("games"),
        sa.func.sum(sa.cast(gp.c.won, sa.Integer)).label("wins"),
        sa.func.sum(sa.cast(gp.c.abandoned, sa.Integer)).label("abandoned"),
        sa.func.sum(gp.c.deals).label("deals"),
        sa.func.sum(gp.c.taker_deals).label("taker_deals"),
        sa.func.sum(gp.c.taker_made).label("taker_made"),
        sa.func.sum(gp.c.total).label("points"),
    ]
    with store.engine.connect() as conn:
        by_count = conn.execute(sa.select(gp.c.players, *totals).where(mine).group_by(gp.c.players)).all()
        overall = conn.execute(sa.select(*totals).where(mine)).one()
        recent = conn.execute(sa.select(gp).where(mine).order_by(gp.c.ended_at.desc()).limit(RECENT)).all()
        chips = ledger.standing(conn, account.id)
        history = _history(conn, account.id, chips["chips"])
        owner = players.alias("owner")
        robot_of = conn.execute(
            sa.select(owner.c.name).join(players, players.c.robot_of == owner.c.id).where(players.c.id == account.id)
        ).scalar()
    return {
        "id": account.id,
        "name": account.name,
        "avatar": account.avatar,
        "robot_of": robot_of,  # a robot account's owner: the page says "robot account of NAME"
        **chips,  # chips, xp, level, level_xp, next_level_xp, badges
        "stats": {"all": _stats(overall), **{str(r.players): _stats(r) for r in by_count}},
        "history": history,
        "recent": [
            {
                "game": r.game_id,
                "ended_at": r.ended_at,
                "players": r.players,
                "seat": r.seat,
                "place": r.place,
                "total": r.total,
                "won": r.won,
                "abandoned": r.abandoned,
                "competitive": r.competitive,
            }
            for r in recent
        ],
    }


def _history(conn: Any, player_id: str, chips_now: int) -> dict[str, Any]:
    """What the profile draws: the chips after each of the last HISTORY movements (worked back from the
    balance now), and each rating the last HISTORY rated games left, by player count: [at, mu, sigma]."""
    moves = conn.execute(
        sa.select(ledger_rows.c.at, ledger_rows.c.amount)
        .where(ledger_rows.c.holder == player_id, ledger_rows.c.kind == "chips")
        .order_by(ledger_rows.c.at.desc(), ledger_rows.c.id.desc())
        .limit(HISTORY)
    ).all()
    chips: list[list[float]] = []
    balance = chips_now
    for move in moves:
        chips.append([move.at, balance])
        balance -= move.amount
    rated = conn.execute(
        sa.select(rating_history)
        .where(rating_history.c.player_id == player_id)
        .order_by(rating_history.c.at.desc())
        .limit(HISTORY)
    ).all()
    ratings: dict[str, list[list[float]]] = {}
    for row in reversed(rated):
        ratings.setdefault(str(row.players), []).append([row.at, round(row.mu, 2), round(row.sigma, 2)])
    return {"chips": chips[::-1], "ratings": ratings}


def game(store: Store, game_id: str) -> dict[str, Any] | None:
    """A stored game as anyone may see it once it is over: names, sheet, ranking and every deal record."""
    row = store.game(game_id)
    if row is None:
        return None
    data = _anonymised(store, row.data)
    return {
        "id": row.game_id,
        "players": row.players,
        "status": row.status,
        "started_at": row.started_at,
        "ended_at": row.ended_at,
        "seats": [
            {
                "seat": s["seat"],
                "name": s["name"],
                "kind": s["kind"],
                "level": s["level"],
                **({"deleted": True} if s.get("name") == erasure.DELETED_NAME and s["kind"] == "person" else {}),
            }
            for s in data["seats"]
        ],
        "sheet": data["sheet"],
        "totals": data["totals"],
        "ranking": data["ranking"],
        "records": data.get("records", []),
        "commitments": _commitments(data),
        "ranked": data.get("ranked", True),
        "unranked": data.get("unranked"),
    }


def _anonymised(store: Store, data: dict[str, Any]) -> dict[str, Any]:
    """A game's data with deleted accounts shown as such: stored so already (erasure.py), and this covers
    a deletion that raced the game's end."""
    with store.engine.connect() as conn:
        gone = erasure.deleted_among(conn, [s.get("player") for s in data["seats"]])
    return erasure.anonymised(data, gone)


def _commitments(data: dict[str, Any]) -> list[str | None]:
    """Each deal's commitment as published when it began (None for games stored before they were kept)."""
    records = data.get("records", [])
    kept = data.get("commitments") or []
    return [kept[i] if i < len(kept) else None for i in range(len(records))]


def deal(store: Store, game_id: str, number: int) -> PublishedDeal | None:
    """Deal ``number`` (from 1, void deals included, as the game's records) of a stored game, told whole
    for its review: the names, the record, its commitment, the review. None: no such game or deal."""
    row = store.game(game_id)
    if row is None:
        return None
    data = _anonymised(store, row.data)
    records = data.get("records", [])
    if not 1 <= number <= len(records):
        return None
    record = records[number - 1]
    names = [s["name"] for s in data["seats"]]
    try:
        places = deal_places(data.get("sheet") or [], redealt=not data.get("daily"))
        place = (places[number - 1], data["options"]["deals"]) if len(places) == len(records) else None
        return published(game_id, number, len(records), record, _commitments(data)[number - 1], names, place)
    except NotOver:  # a game stores only its finished deals: never here
        return None


__all__ = ["deal", "game", "profile"]
