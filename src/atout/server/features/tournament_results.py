"""What a tournament shows, read from the store: its live ranking (``arena/scoring.py``'s duplicate scores),
its page, the list of tournaments, and once it is over its every deal with the revealed seed
(``atout verify``). The tournament's life (creation, registration, rounds) is ``tournaments.py``."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from ...arena.scoring import Duplicate, SeatResult, duplicate_scores, ranking
from ..fair_sets import TOURNAMENT_FORMAT, daily_deal_seed, tournament_round_seed
from ..kinds import NEVER_CAME
from ..store.db import (
    games,
    players,
    table_events,
    tables,
    tournament_entries,
    tournament_tables,
    tournaments,
)
from .daily import with_seed
from .tournaments import LISTED, TournamentError, entries_count, to_play, tournament_row


def _results(conn: sa.Connection, tid: str) -> tuple[list[SeatResult], list[dict[str, Any]]]:
    """Every seat's result on every deal ended at the tournament's tables, and the tables."""
    rows = conn.execute(
        sa.select(tournament_tables, tables.c.status)
        .select_from(tournament_tables.outerjoin(tables, tables.c.id == tournament_tables.c.table_id))
        .where(tournament_tables.c.tournament_id == tid)
        .order_by(tournament_tables.c.round, tournament_tables.c.number)
    ).all()
    ids = [r.table_id for r in rows]
    events: dict[str, list[Any]] = {i: [] for i in ids}
    if ids:
        for e in conn.execute(
            sa.select(table_events.c.table_id, table_events.c.kind, table_events.c.data)
            .where(table_events.c.table_id.in_(ids), table_events.c.kind.in_(("deal_end", "abandon")))
            .order_by(table_events.c.table_id, table_events.c.seq)
        ):
            events[e.table_id].append(e)
    game_of = (
        {
            g.table_id: g.id
            for g in conn.execute(sa.select(games.c.id, games.c.table_id).where(games.c.table_id.in_(ids)))
        }
        if ids
        else {}
    )
    out: list[SeatResult] = []
    listed = []
    for r in rows:
        # a seat whose person never came (recorded as the game ended: play._end_game) is absent from the start
        gone = {e.data["seat"] for e in events[r.table_id] if e.kind == "abandon" and e.data.get("why") == NEVER_CAME}
        deals = 0
        for e in events[r.table_id]:
            if e.kind == "abandon":
                gone.add(e.data["seat"])
                continue
            scores = e.data["line"]["scores"]
            for seat, points in enumerate(scores):
                out.append(SeatResult(f"{r.round}.{deals}", seat, r.table_id, int(points), r.seats[seat], seat in gone))
            deals += 1
        listed.append(
            {
                "round": r.round,
                "number": r.number,
                "table": r.table_id,
                "seats": r.seats,
                "closed": r.status == "closed",
                "deals_done": deals,
                "game": game_of.get(r.table_id),
            }
        )
    return out, listed


def _names(conn: sa.Connection, ids: set[str]) -> dict[str, str]:
    if not ids:
        return {}
    return {r.id: r.name for r in conn.execute(sa.select(players.c.id, players.c.name).where(players.c.id.in_(ids)))}


def _public(row: Any, entries: int) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "deals": row.deals,
        "players": row.players,
        "rounds": row.rounds,
        "starts_at": row.starts_at,
        "size": row.size,
        "private": row.private,
        "level": row.level,
        "status": row.status,
        "round": row.round,
        "commitment": row.commitment,
        "entries": entries,
        "created_at": row.created_at,
        "started_at": row.started_at,
        "ended_at": row.ended_at,
    }


def view(engine: sa.Engine, tid: str, viewer: str | None) -> dict[str, Any] | None:
    """A tournament as anyone with its link sees it: options, entries, tables, live ranking; each deal's
    scores table by table once its round is over everywhere; the seed once the tournament is over."""
    with engine.connect() as conn:
        row = tournament_row(conn, tid)
        if row is None:
            return None
        entry_rows = conn.execute(
            sa.select(tournament_entries.c.player_id, players.c.name)
            .select_from(tournament_entries.join(players, players.c.id == tournament_entries.c.player_id))
            .where(tournament_entries.c.tournament_id == tid)
            .order_by(tournament_entries.c.number)
        ).all()
        creator = conn.execute(sa.select(players.c.name).where(players.c.id == row.creator_id)).scalar()
        results, listed = _results(conn, tid)
        names = _names(conn, {p for t in listed for p in t["seats"] if p is not None})
    scores = duplicate_scores(results)
    over_rounds = {t["round"] for t in listed} - {t["round"] for t in listed if not t["closed"]}
    names.update({e.player_id: e.name for e in entry_rows})
    waiting = [Duplicate(SeatResult("-", -1, e.player_id, None, e.player_id), None, None, 0) for e in entry_rows]
    places = [
        {
            "place": p.place,
            "name": names.get(p.player, "?"),
            "total": round(float(p.total), 2),
            "deals": p.deals,
            "abandoned": p.abandoned,
            "you": p.player == viewer,
        }
        for p in ranking(scores + waiting)
    ]  # everyone registered, those with no deal scored yet too
    deals = []
    for d in scores:
        r = d.result
        if int(str(r.deal).split(".")[0]) not in over_rounds:
            continue
        line = d.to_json()
        line["name"] = None if r.player is None else names.get(r.player, "?")
        line.pop("player")
        deals.append(line)
    you_table = None
    for t in listed:
        t["names"] = [None if p is None else names.get(p, "?") for p in t["seats"]]
        if viewer is not None and viewer in t["seats"] and not t["closed"]:
            you_table = t["table"]
        mine = viewer is not None and viewer in t["seats"]
        if t["round"] not in over_rounds and not mine:
            t["game"] = None  # the game's cards stay hidden from the others until their copy is played
        del t["seats"]
    out = _public(row, len(entry_rows))
    out.update(
        {
            "creator": creator,
            "registered": viewer is not None and any(e.player_id == viewer for e in entry_rows),
            "entries_names": [e.name for e in entry_rows],
            "tables": listed,
            "ranking": places,
            "deals_scores": deals,
            "your_table": you_table,
            "seed": row.seed if row.status == "finished" else None,
        }
    )
    return out


def listing(engine: sa.Engine, viewer: str | None, player: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """The tournaments by status: open (registration), running, finished; private ones only to their
    creator and entrants. ``player``: that person's tournaments only (their profile)."""
    count = entries_count()
    mine = sa.exists().where(
        tournament_entries.c.tournament_id == tournaments.c.id, tournament_entries.c.player_id == viewer
    )
    query = sa.select(tournaments, count.label("entries"))
    if player is not None:
        query = query.where(
            sa.exists().where(
                tournament_entries.c.tournament_id == tournaments.c.id, tournament_entries.c.player_id == player
            ),
            sa.or_(tournaments.c.private.is_(False), mine),
        )
    elif viewer is None:
        query = query.where(tournaments.c.private.is_(False))
    else:
        query = query.where(sa.or_(tournaments.c.private.is_(False), tournaments.c.creator_id == viewer, mine))
    out: dict[str, list[dict[str, Any]]] = {"open": [], "running": [], "finished": []}
    with engine.connect() as conn:
        for status in out:
            rows = conn.execute(
                query.where(tournaments.c.status == status).order_by(tournaments.c.created_at.desc()).limit(LISTED)
            ).all()
            out[status] = [_public(r, r.entries) for r in rows]
    return out


def published_deals(engine: sa.Engine, tid: str) -> dict[str, Any]:
    """A finished tournament's every deal at every table, each record by its seed, with the revealed seed:
    what ``atout verify`` checks (``verify_tournament``). TournamentError before the end."""
    with engine.connect() as conn:
        row = tournament_row(conn, tid)
        if row is None:
            raise TournamentError(404, "no_tournament", "no such tournament")
        if row.status != "finished":
            raise TournamentError(
                403,
                "tournament_not_over",
                "the tournament's seed is revealed, and its deals with it, once the tournament is over",
            )
        rows = conn.execute(
            sa.select(tournament_tables.c.round, tournament_tables.c.number, games.c.data)
            .select_from(tournament_tables.outerjoin(games, games.c.table_id == tournament_tables.c.table_id))
            .where(tournament_tables.c.tournament_id == tid)
            .order_by(tournament_tables.c.round, tournament_tables.c.number)
        ).all()
    listed = []
    for r in rows:
        data = r.data or {}
        seed = tournament_round_seed(row.seed, r.round)
        records = [with_seed(rec, daily_deal_seed(seed, k)) for k, rec in enumerate(data.get("records", []))]
        names = [s.get("name") for s in data.get("seats", [])]
        listed.append({"round": r.round, "number": r.number, "names": names, "records": records})
    return {
        "format": TOURNAMENT_FORMAT,
        "id": row.id,
        "name": row.name,
        "commitment": row.commitment,
        "seed": row.seed,
        "players": row.players,
        "deals": row.deals,
        "rounds": row.rounds,
        "tables": listed,
    }


def locked_game(engine: sa.Engine, game_id: str, person: str | None) -> bool:
    """A tournament's game may be looked at by the people of its table, and by anyone once every table of
    its round is closed (before, its cards are those another table is still to play)."""
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(tournament_tables)
            .select_from(tournament_tables.join(games, games.c.table_id == tournament_tables.c.table_id))
            .where(games.c.id == game_id)
        ).first()
        if row is None or (person is not None and person in row.seats):
            return False
        return conn.execute(to_play(row.tournament_id, row.round).limit(1)).first() is not None
