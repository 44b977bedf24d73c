"""Duplicate tournaments (docs/tournaments.md; issue 24, part 3).

A registered person creates a tournament: deals a round (1 to 12), 4 or 5 players a table, rounds, a start
time or "when full" (a number of people), private (by its link) or open. People register (and unregister)
until it starts. At the start the site seats them at tables of its normal kind (``table.py``, as a daily
deal's: ``daily`` carries the round's preset deals), robots filling the empty seats; every table of a round
plays the same deals from the same seats, dealt from the round's seed, itself drawn from the tournament's
seed (committed to at creation, revealed when the tournament is over). A round's tables closed, the next
round seats people again (``seating``: a rotation so that they meet new opponents).

Each finished deal's points per seat are compared with every other table's on the same deal and seat
(``arena/scoring.py``: points minus the mean of the deal-seat); the live ranking sums them as deals end.
Everything is read from the store (the tables' ``deal_end`` and ``abandon`` events), so the tables of one
tournament may run on any process of a site.
"""

from __future__ import annotations

import asyncio
import math
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..arena.scoring import Duplicate, SeatResult, duplicate_scores, ranking
from ..engine.fairness import TOURNAMENT_FORMAT, commitment, daily_deal_seed, tournament_round_seed
from .accounts import AccountError, name_key
from .db import (
    STORED_ID,
    games,
    players,
    table_events,
    tables,
    tournament_entries,
    tournament_tables,
    tournaments,
)
from .options import TableOptions

DEALS = (1, 12)
ROUNDS = (1, 10)
SIZE = (2, 200)
NAME_LENGTH = 60
FIELDS = {"name", "deals", "players", "rounds", "starts_at", "size", "private"}
OPEN_PER_PERSON = 5
"""Tournaments one person may have created that have not started yet."""
LISTED = 50
"""How many tournaments of each kind ``GET /api/tournaments`` lists."""


class TournamentError(Exception):
    """A refusal: HTTP ``status``, error ``code`` and a message naming what was wrong (nothing changed)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _bad(message: str) -> TournamentError:
    return TournamentError(400, "bad_tournament", message)


def _whole(data: dict[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(f"{key}: a whole number from {low} to {high}, not {str(value)[:20]!r}")
    return value


@dataclass(frozen=True)
class Spec:
    """A tournament's options, checked."""

    name: str
    deals: int
    players: int
    rounds: int
    starts_at: float | None
    size: int | None
    private: bool


def validate(data: dict[str, Any], now: float) -> Spec:
    """The options of a new tournament, each checked; TournamentError ``bad_tournament`` names the first
    that is wrong."""
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise _bad(f"no option {unknown[0][:20]!r}: a tournament takes {', '.join(sorted(FIELDS))}")
    name = data.get("name", "Tournament")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_LENGTH or not name.isprintable():
        raise _bad(f"name: 1 to {NAME_LENGTH} printable characters")
    deals = _whole(data, "deals", *DEALS, default=4)
    seats = data.get("players", 4)
    if seats not in (4, 5) or isinstance(seats, bool):
        raise _bad(f"players: 4 or 5 at a table, not {str(seats)[:20]!r}")
    rounds = _whole(data, "rounds", *ROUNDS, default=1)
    starts_at, size = data.get("starts_at"), data.get("size")
    if (starts_at is None) == (size is None):
        raise _bad("give a start time (starts_at, seconds since 1970) or a size (start when that many have "
                   "registered), one of the two")
    if starts_at is not None:
        if isinstance(starts_at, bool) or not isinstance(starts_at, int | float) or not math.isfinite(starts_at):
            raise _bad("starts_at: a time in seconds since 1970")
        if starts_at <= now:
            raise _bad("starts_at: the start time must be in the future")
        if starts_at > now + 90 * 86400:
            raise _bad("starts_at: at most 90 days ahead")
    if size is not None:
        size = _whole(data, "size", *SIZE)
        if size < fewest(seats):
            raise _bad(f"size: at least {fewest(seats)} people at {seats} a table, so that two tables play the same "
                       "deals (alone at one table, every seat would score 0)")
    private = data.get("private", False)
    if not isinstance(private, bool):
        raise _bad("private: true (by its link only) or false (listed, open to all)")
    return Spec(name.strip(), deals, seats, rounds, None if starts_at is None else float(starts_at), size, private)


# ------------------------------------------------------------------------------ seeds and seating
def fewest(players: int) -> int:
    """The fewest entrants a tournament of ``players`` a table starts with: two tables, so that every seat
    of round 0 has another table's play of the same cards to be compared with (alone at one table, every
    seat would score 0 against itself: no tournament at all)."""
    return players + 1


def round_seed(seed: str, round_: int) -> str:
    """Round ``round_``'s seed: every table of the round deals its deals from it (``daily_deal_seed``), and
    its robots are seeded from it (``daily.robot_seed``). A hash of the tournament's seed, not a part."""
    return tournament_round_seed(seed, round_)


def seating(people: int, seats: int, round_: int) -> list[list[int | None]]:
    """The tables of a round: for each, each seat's person (an index in the order of registration) or None
    (a robot). Round 0 seats people in order, table after table (robots fill the last one). In round r
    the person seated at (table t, seat s) in round 0 moves to table (t + r·s) mod T, keeping their seat:
    the people of one table in round 0 go to different tables, and when T is a prime above the seats, two
    people meet at most once over T rounds (docs/tournaments.md)."""
    count = max(1, -(-people // seats))
    out: list[list[int | None]] = [[None] * seats for _ in range(count)]
    for i in range(people):
        t, s = divmod(i, seats)
        out[(t + round_ * s) % count][s] = i
    return [table for table in out if any(p is not None for p in table)]


# ------------------------------------------------------------------------------ the store
_unclosed = sa.or_(tables.c.status.is_(None), tables.c.status != "closed")
"""A tournament's table still to play: open, or not yet stored (its round's tables are opened one by one)."""

def _row(conn: sa.Connection, tid: str) -> Any:
    return conn.execute(sa.select(tournaments).where(tournaments.c.id == tid)).first()


def create(engine: sa.Engine, spec: Spec, creator: str, level: str, now: float) -> str:
    tid = secrets.token_urlsafe(9)
    seed = secrets.token_hex(16)
    with engine.begin() as conn:
        waiting = conn.execute(sa.select(sa.func.count()).select_from(tournaments).where(
            tournaments.c.creator_id == creator, tournaments.c.status == "open")).scalar_one()
        if waiting >= OPEN_PER_PERSON:
            raise TournamentError(409, "too_many_tournaments", f"you have {waiting} tournaments waiting for their "
                                                               f"start already: {OPEN_PER_PERSON} at most")
        conn.execute(tournaments.insert().values(
            id=tid, name=spec.name, creator_id=creator, deals=spec.deals, players=spec.players, rounds=spec.rounds,
            starts_at=spec.starts_at, size=spec.size, private=spec.private, level=level, seed=seed,
            commitment=commitment(seed), status="open", round=0, created_at=now))
    return tid


def _open_row(conn: sa.Connection, tid: str) -> Any:
    row = _row(conn, tid)
    if row is None:
        raise TournamentError(404, "no_tournament", f"no tournament {tid[:40]!r}")
    if row.status != "open":
        raise TournamentError(409, "tournament_started", "the tournament has started: registration is closed")
    return row


def register(engine: sa.Engine, tid: str, player: str, now: float) -> bool:
    """Register ``player``; True when the tournament is full (a "when full" tournament starts then)."""
    try:
        with engine.begin() as conn:
            row = _open_row(conn, tid)
            count = conn.execute(sa.select(sa.func.count()).select_from(tournament_entries)
                                 .where(tournament_entries.c.tournament_id == tid)).scalar_one()
            if row.size is not None and count >= row.size:
                raise TournamentError(409, "tournament_full", "the tournament is full")
            last = conn.execute(sa.select(sa.func.max(tournament_entries.c.number))
                                .where(tournament_entries.c.tournament_id == tid)).scalar_one()
            conn.execute(tournament_entries.insert().values(tournament_id=tid, player_id=player,
                                                            number=(last or 0) + 1, registered_at=now))
    except IntegrityError:
        raise TournamentError(409, "registered", "you are registered already") from None
    return row.size is not None and count + 1 >= row.size


def unregister(engine: sa.Engine, tid: str, player: str) -> None:
    with engine.begin() as conn:
        _open_row(conn, tid)
        done = conn.execute(tournament_entries.delete().where(tournament_entries.c.tournament_id == tid,
                                                              tournament_entries.c.player_id == player))
        if done.rowcount != 1:
            raise TournamentError(409, "not_registered", "you are not registered")


def due(engine: sa.Engine, now: float) -> tuple[list[str], float | None]:
    """The open tournaments to start (their start time has come, or "when full" and full: a start that
    failed, or a process that stopped before it, is not left open for good), and the next start time."""
    count = (sa.select(sa.func.count()).select_from(tournament_entries)
             .where(tournament_entries.c.tournament_id == tournaments.c.id).scalar_subquery())
    with engine.connect() as conn:
        rows = conn.execute(sa.select(tournaments.c.id, tournaments.c.starts_at, tournaments.c.size,
                                      count.label("entries"))
                            .where(tournaments.c.status == "open")).all()
    ready = [r.id for r in rows if (r.starts_at is not None and r.starts_at <= now)
             or (r.size is not None and r.entries >= r.size)]
    rows = [r for r in rows if r.starts_at is not None]
    later = [r.starts_at for r in rows if r.starts_at > now]
    return ready, min(later) if later else None


@dataclass(frozen=True)
class Round:
    """A round to open: each table's number, new table id and seats ((player, name) or None)."""

    tournament: str
    round: int
    deals: int
    players: int
    level: str
    seed: str  # the round's
    tables: list[tuple[int, str, list[tuple[str, str] | None]]]

    def options(self) -> TableOptions:
        """A tournament's table: private (its people only), nobody watching, unranked on the leaderboard."""
        return TableOptions().changed(deals=self.deals, competitive=False, private=True, spectators=False,
                                      robot_level=self.level)

    def spec(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "round": self.round, "deals": self.deals}


def _seat_round(conn: sa.Connection, row: Any, round_: int, new_id: Any) -> Round:
    people = conn.execute(sa.select(tournament_entries.c.player_id, players.c.name)
                          .select_from(tournament_entries.join(players, players.c.id == tournament_entries.c.player_id))
                          .where(tournament_entries.c.tournament_id == row.id)
                          .order_by(tournament_entries.c.number)).all()
    made = []
    for number, table in enumerate(seating(len(people), row.players, round_)):
        seats: list[tuple[str, str] | None] = [None if i is None else (people[i].player_id, people[i].name)
                                               for i in table]
        table_id = new_id()
        conn.execute(tournament_tables.insert().values(
            tournament_id=row.id, round=round_, number=number, table_id=table_id,
            seats=[None if s is None else s[0] for s in seats]))
        made.append((number, table_id, seats))
    return Round(row.id, round_, row.deals, row.players, row.level, round_seed(row.seed, round_), made)


def start(engine: sa.Engine, tid: str, now: float, new_id: Any) -> Round | None:
    """Start the tournament (the first process to do so wins: None for the others, and for a tournament
    with fewer entrants than ``fewest``, which is cancelled); its first round's tables, stored."""
    with engine.begin() as conn:
        done = conn.execute(tournaments.update().where(tournaments.c.id == tid, tournaments.c.status == "open")
                            .values(status="running", started_at=now, round=0))
        if done.rowcount != 1:
            return None
        row = _row(conn, tid)
        count = conn.execute(sa.select(sa.func.count()).select_from(tournament_entries)
                             .where(tournament_entries.c.tournament_id == tid)).scalar_one()
        if count < fewest(row.players):  # one table or none: nothing to compare
            conn.execute(tournaments.update().where(tournaments.c.id == tid).values(status="cancelled", ended_at=now))
            return None
        return _seat_round(conn, row, 0, new_id)


def advance(engine: sa.Engine, tid: str, now: float, new_id: Any) -> Round | None:
    """When every table of the current round is closed: the next round's tables (stored), or the
    tournament finished. None when there is nothing to open (or another process advanced it)."""
    with engine.begin() as conn:
        row = _row(conn, tid)
        if row is None or row.status != "running":
            return None
        open_tables = conn.execute(
            sa.select(sa.func.count()).select_from(tournament_tables.outerjoin(tables, tables.c.id == tournament_tables.c.table_id))
            .where(tournament_tables.c.tournament_id == tid, tournament_tables.c.round == row.round,
                   _unclosed)).scalar_one()
        if open_tables:
            return None
        last = row.round + 1 >= row.rounds
        values: dict[str, Any] = {"status": "finished", "ended_at": now} if last else {"round": row.round + 1}
        done = conn.execute(tournaments.update().where(tournaments.c.id == tid, tournaments.c.round == row.round,
                                                       tournaments.c.status == "running").values(**values))
        if done.rowcount != 1 or last:
            return None
        return _seat_round(conn, row, row.round + 1, new_id)


def running(engine: sa.Engine) -> list[str]:
    """The tournaments being played (a process starting looks whether one of their rounds is over)."""
    with engine.connect() as conn:
        return [r.id for r in conn.execute(sa.select(tournaments.c.id).where(tournaments.c.status == "running"))]


def tournament_of(engine: sa.Engine, table_id: str) -> str | None:
    with engine.connect() as conn:
        return conn.execute(sa.select(tournament_tables.c.tournament_id)
                            .where(tournament_tables.c.table_id == table_id)).scalar()


# ------------------------------------------------------------------------------ the scores
def _results(conn: sa.Connection, tid: str) -> tuple[list[SeatResult], list[dict[str, Any]]]:
    """Every seat's result on every deal ended at the tournament's tables, and the tables."""
    rows = conn.execute(sa.select(tournament_tables, tables.c.status)
                        .select_from(tournament_tables.outerjoin(tables, tables.c.id == tournament_tables.c.table_id))
                        .where(tournament_tables.c.tournament_id == tid)
                        .order_by(tournament_tables.c.round, tournament_tables.c.number)).all()
    ids = [r.table_id for r in rows]
    events: dict[str, list[Any]] = {i: [] for i in ids}
    if ids:
        for e in conn.execute(sa.select(table_events.c.table_id, table_events.c.kind, table_events.c.data)
                              .where(table_events.c.table_id.in_(ids), table_events.c.kind.in_(("deal_end", "abandon")))
                              .order_by(table_events.c.table_id, table_events.c.seq)):
            events[e.table_id].append(e)
    game_of = {g.table_id: g.id for g in conn.execute(sa.select(games.c.id, games.c.table_id)
                                                      .where(games.c.table_id.in_(ids)))} if ids else {}
    out: list[SeatResult] = []
    listed = []
    for r in rows:
        gone: set[int] = set()
        deals = 0
        for e in events[r.table_id]:
            if e.kind == "abandon":
                gone.add(e.data["seat"])
                continue
            scores = e.data["line"]["scores"]
            for seat, points in enumerate(scores):
                out.append(SeatResult(f"{r.round}.{deals}", seat, r.table_id, int(points), r.seats[seat], seat in gone))
            deals += 1
        listed.append({"round": r.round, "number": r.number, "table": r.table_id, "seats": r.seats,
                       "closed": r.status == "closed", "deals_done": deals, "game": game_of.get(r.table_id)})
    return out, listed


def _names(conn: sa.Connection, ids: set[str]) -> dict[str, str]:
    if not ids:
        return {}
    return {r.id: r.name for r in conn.execute(sa.select(players.c.id, players.c.name).where(players.c.id.in_(ids)))}


def _public(row: Any, entries: int) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "deals": row.deals, "players": row.players, "rounds": row.rounds,
            "starts_at": row.starts_at, "size": row.size, "private": row.private, "level": row.level,
            "status": row.status, "round": row.round, "commitment": row.commitment, "entries": entries,
            "created_at": row.created_at, "started_at": row.started_at, "ended_at": row.ended_at}


def view(engine: sa.Engine, tid: str, viewer: str | None) -> dict[str, Any] | None:
    """A tournament as anyone with its link sees it: options, entries, tables, live ranking; each deal's
    scores table by table once its round is over everywhere; the seed once the tournament is over."""
    with engine.connect() as conn:
        row = _row(conn, tid)
        if row is None:
            return None
        entry_rows = conn.execute(sa.select(tournament_entries.c.player_id, players.c.name)
                                  .select_from(tournament_entries.join(players, players.c.id == tournament_entries.c.player_id))
                                  .where(tournament_entries.c.tournament_id == tid)
                                  .order_by(tournament_entries.c.number)).all()
        creator = conn.execute(sa.select(players.c.name).where(players.c.id == row.creator_id)).scalar()
        results, listed = _results(conn, tid)
        names = _names(conn, {p for t in listed for p in t["seats"] if p is not None})
    scores = duplicate_scores(results)
    over_rounds = {t["round"] for t in listed} - {t["round"] for t in listed if not t["closed"]}
    names.update({e.player_id: e.name for e in entry_rows})
    waiting = [Duplicate(SeatResult("-", -1, e.player_id, None, e.player_id), None, None, 0) for e in entry_rows]
    places = [{"place": p.place, "name": names.get(p.player, "?"), "total": round(float(p.total), 2), "deals": p.deals,
               "abandoned": p.abandoned, "you": p.player == viewer}
              for p in ranking(scores + waiting)]  # everyone registered, those with no deal scored yet too
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
    out.update({"creator": creator, "registered": viewer is not None and any(e.player_id == viewer for e in entry_rows),
                "entries_names": [e.name for e in entry_rows], "tables": listed, "ranking": places, "deals_scores": deals,
                "your_table": you_table,
                "seed": row.seed if row.status == "finished" else None})
    return out


def listing(engine: sa.Engine, viewer: str | None, player: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """The tournaments by status: open (registration), running, finished; private ones only to their
    creator and entrants. ``player``: that person's tournaments only (their profile)."""
    count = (sa.select(sa.func.count()).select_from(tournament_entries)
             .where(tournament_entries.c.tournament_id == tournaments.c.id).scalar_subquery())
    mine = sa.exists().where(tournament_entries.c.tournament_id == tournaments.c.id,
                             tournament_entries.c.player_id == viewer)
    query = sa.select(tournaments, count.label("entries"))
    if player is not None:
        query = query.where(sa.exists().where(tournament_entries.c.tournament_id == tournaments.c.id,
                                              tournament_entries.c.player_id == player),
                            sa.or_(tournaments.c.private.is_(False), mine))
    elif viewer is None:
        query = query.where(tournaments.c.private.is_(False))
    else:
        query = query.where(sa.or_(tournaments.c.private.is_(False), tournaments.c.creator_id == viewer, mine))
    out: dict[str, list[dict[str, Any]]] = {"open": [], "running": [], "finished": []}
    with engine.connect() as conn:
        for status in out:
            rows = conn.execute(query.where(tournaments.c.status == status)
                                .order_by(tournaments.c.created_at.desc()).limit(LISTED)).all()
            out[status] = [_public(r, r.entries) for r in rows]
    return out


def published_deals(engine: sa.Engine, tid: str) -> dict[str, Any]:
    """A finished tournament's every deal at every table, each record by its seed, with the revealed seed:
    what ``atout verify`` checks (``verify_tournament``). TournamentError before the end."""
    from .daily import with_seed

    with engine.connect() as conn:
        row = _row(conn, tid)
        if row is None:
            raise TournamentError(404, "no_tournament", "no such tournament")
        if row.status != "finished":
            raise TournamentError(403, "tournament_not_over", "the tournament's seed is revealed, and its deals "
                                                              "with it, once the tournament is over")
        rows = conn.execute(sa.select(tournament_tables.c.round, tournament_tables.c.number, games.c.data)
                            .select_from(tournament_tables.outerjoin(games, games.c.table_id == tournament_tables.c.table_id))
                            .where(tournament_tables.c.tournament_id == tid)
                            .order_by(tournament_tables.c.round, tournament_tables.c.number)).all()
    listed = []
    for r in rows:
        data = r.data or {}
        seed = tournament_round_seed(row.seed, r.round)
        records = [with_seed(rec, daily_deal_seed(seed, k)) for k, rec in enumerate(data.get("records", []))]
        names = [s.get("name") for s in data.get("seats", [])]
        listed.append({"round": r.round, "number": r.number, "names": names, "records": records})
    return {"format": TOURNAMENT_FORMAT, "id": row.id, "name": row.name, "commitment": row.commitment,
            "seed": row.seed, "players": row.players, "deals": row.deals, "rounds": row.rounds, "tables": listed}


def locked_game(engine: sa.Engine, game_id: str, person: str | None) -> bool:
    """A tournament's game may be looked at by the people of its table, and by anyone once every table of
    its round is closed (before, its cards are those another table is still to play)."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(tournament_tables)
                           .select_from(tournament_tables.join(games, games.c.table_id == tournament_tables.c.table_id))
                           .where(games.c.id == game_id)).first()
        if row is None or (person is not None and person in row.seats):
            return False
        still = conn.execute(
            sa.select(sa.func.count()).select_from(tournament_tables.outerjoin(tables, tables.c.id == tournament_tables.c.table_id))
            .where(tournament_tables.c.tournament_id == row.tournament_id, tournament_tables.c.round == row.round,
                   _unclosed)).scalar_one()
    return bool(still)


__all__ = ["Round", "Spec", "TournamentError", "advance", "create", "due", "listing", "locked_game", "published_deals", "register",
           "round_seed", "running", "seating", "start", "tournament_of", "unregister", "validate", "view"]


# ------------------------------------------------------------------------------ the routes
class TournamentRoutes:
    """``GET /api/tournaments``, ``POST /api/tournaments`` (create), ``GET /api/tournaments/ID``,
    ``POST /api/tournaments/ID/register`` and ``/unregister``, ``GET /api/tournaments/ID/deals`` (docs/protocol.md, "Tournaments")."""

    def routes(self) -> list[Route]:
        return [Route("/api/tournaments", self.index, methods=["GET", "POST"]),
                Route("/api/tournaments/{tid}", self.one, methods=["GET"]),
                Route("/api/tournaments/{tid}/deals", self.deals, methods=["GET"]),
                Route("/api/tournaments/{tid}/register", self.register, methods=["POST"]),
                Route("/api/tournaments/{tid}/unregister", self.unregister, methods=["POST"])]

    @staticmethod
    async def _person(request: Request) -> Any:
        from .api import COOKIE

        hub = request.app.state.hub
        cookie = request.cookies.get(COOKIE)
        if not cookie or hub.accounts is None:
            return None
        return await asyncio.to_thread(hub.accounts.session, cookie)

    async def _registered(self, request: Request) -> Any:
        account = await self._person(request)
        if account is None:
            raise TournamentError(401, "registered_only", "tournaments are for registered players: log in (or register)")
        return account

    async def index(self, request: Request) -> Response:
        from .api import _body

        hub = request.app.state.hub
        engine = hub.store.engine
        try:
            if request.method == "GET":
                account = await self._person(request)
                player = None
                if "player" in request.query_params:  # a profile's tournaments
                    name = request.query_params["player"][:40]
                    player = await asyncio.to_thread(_player_id, engine, name)
                    if player is None:
                        raise TournamentError(404, "no_player", f"no registered player is called {name!r}")
                found = await asyncio.to_thread(listing, engine, None if account is None else account.id, player)
                return JSONResponse(found)
            account = await self._registered(request)
            try:
                data = await _body(request)
            except AccountError as err:
                raise TournamentError(400, err.code, err.message) from None
            spec = validate(data, hub.clock.now())
            tid = await asyncio.to_thread(create, engine, spec, account.id, hub.config.daily_level, hub.clock.now())
            hub.tournament_wake.set()
            made = await asyncio.to_thread(view, engine, tid, account.id)
            return JSONResponse(made, status_code=201)
        except TournamentError as err:
            return _refusal(err)

    async def one(self, request: Request) -> Response:
        hub = request.app.state.hub
        account = await self._person(request)
        try:
            found = await asyncio.to_thread(view, hub.store.engine, _tid(request), None if account is None else account.id)
        except TournamentError as err:
            return _refusal(err)
        if found is None:
            return _refusal(TournamentError(404, "no_tournament", "no such tournament"))
        return JSONResponse(found)

    async def deals(self, request: Request) -> Response:
        """Every deal of every table with the revealed seed, for ``atout verify`` (once it is over)."""
        hub = request.app.state.hub
        try:
            found = await asyncio.to_thread(published_deals, hub.store.engine, _tid(request))
        except TournamentError as err:
            return _refusal(err)
        return JSONResponse(found)

    async def register(self, request: Request) -> Response:
        hub = request.app.state.hub
        try:
            tid = _tid(request)
            account = await self._registered(request)
            full = await asyncio.to_thread(register, hub.store.engine, tid, account.id, hub.clock.now())
        except TournamentError as err:
            return _refusal(err)
        if full and not await hub.tournament_start(tid):  # the store refused: the tournament clock starts it
            hub.tournament_wake.set()
        return JSONResponse(await asyncio.to_thread(view, hub.store.engine, tid, account.id))

    async def unregister(self, request: Request) -> Response:
        hub = request.app.state.hub
        try:
            tid = _tid(request)
            account = await self._registered(request)
            await asyncio.to_thread(unregister, hub.store.engine, tid, account.id)
        except TournamentError as err:
            return _refusal(err)
        return JSONResponse(await asyncio.to_thread(view, hub.store.engine, tid, account.id))


def _tid(request: Request) -> str:
    """The path's tournament id; what cannot be one (``STORED_ID``) is no tournament's."""
    tid = request.path_params["tid"]
    if not STORED_ID.match(tid):
        raise TournamentError(404, "no_tournament", "no such tournament")
    return tid


def _player_id(engine: sa.Engine, name: str) -> str | None:
    with engine.connect() as conn:
        return conn.execute(sa.select(players.c.id).where(players.c.name_key == name_key(name))).scalar()


def _refusal(err: TournamentError) -> Response:
    return JSONResponse({"error": {"code": err.code, "message": err.message}}, status_code=err.status)
