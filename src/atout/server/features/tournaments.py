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

import math
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...engine.fairness import commitment
from ..fair_sets import tournament_round_seed
from ..options import TableOptions
from ..store.db import (
    players,
    tables,
    tournament_entries,
    tournament_tables,
    tournaments,
)

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
        raise _bad(
            "give a start time (starts_at, seconds since 1970) or a size (start when that many have "
            "registered), one of the two"
        )
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
            raise _bad(
                f"size: at least {fewest(seats)} people at {seats} a table, so that two tables play the same "
                "deals (alone at one table, every seat would score 0)"
            )
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
UNCLOSED = sa.or_(tables.c.status.is_(None), tables.c.status != "closed")
"""A tournament's table still to play: open, or not yet stored (its round's tables are opened one by one)."""


def to_play(tournament: Any, round_: Any) -> sa.Select[tuple[str]]:
    """The tables still to play (``UNCLOSED``) of a tournament's round: a tournament's id and round, or the
    columns of the ``tournaments`` row a query correlates with (every running tournament's current round)."""
    return (
        sa.select(tournament_tables.c.table_id)
        .select_from(tournament_tables.outerjoin(tables, tables.c.id == tournament_tables.c.table_id))
        .where(tournament_tables.c.tournament_id == tournament, tournament_tables.c.round == round_, UNCLOSED)
    )


def tournament_row(conn: sa.Connection, tid: str) -> Any:
    return conn.execute(sa.select(tournaments).where(tournaments.c.id == tid)).first()


def create(engine: sa.Engine, spec: Spec, creator: str, level: str, now: float) -> str:
    tid = secrets.token_urlsafe(9)
    seed = secrets.token_hex(16)
    with engine.begin() as conn:
        # the creator's creations take turns (a no-op update holds the person's row, as ``_hold`` does a
        # tournament's): counted apart, twenty at once all found fewer than five waiting
        conn.execute(players.update().where(players.c.id == creator).values(id=players.c.id))
        waiting = conn.execute(
            sa.select(sa.func.count())
            .select_from(tournaments)
            .where(tournaments.c.creator_id == creator, tournaments.c.status == "open")
        ).scalar_one()
        if waiting >= OPEN_PER_PERSON:
            raise TournamentError(
                409,
                "too_many_tournaments",
                f"you have {waiting} tournaments waiting for their start already: {OPEN_PER_PERSON} at most",
            )
        conn.execute(
            tournaments.insert().values(
                id=tid,
                name=spec.name,
                creator_id=creator,
                deals=spec.deals,
                players=spec.players,
                rounds=spec.rounds,
                starts_at=spec.starts_at,
                size=spec.size,
                private=spec.private,
                level=level,
                seed=seed,
                commitment=commitment(seed),
                status="open",
                round=0,
                created_at=now,
            )
        )
    return tid


def _hold(conn: sa.Connection, tid: str) -> Any:
    """The open tournament's row, held to the end of the transaction: registrations, unregistrations and
    the start of one tournament take their turns, so that a count read next is the count written (issue 37).
    An update that changes nothing is the lock on both databases: on PostgreSQL it locks the row (as
    SELECT ... FOR UPDATE: a second waits, then sees the first's work), on SQLite it begins the write
    transaction (one writer at a time: pysqlite begins none for a SELECT, whose count would be stale)."""
    held = conn.execute(
        tournaments.update().where(tournaments.c.id == tid, tournaments.c.status == "open").values(status="open")
    )
    row = tournament_row(conn, tid)
    if row is None:
        raise TournamentError(404, "no_tournament", f"no tournament {tid[:40]!r}")
    if held.rowcount != 1 or row.status != "open":
        raise TournamentError(409, "tournament_started", "the tournament has started: registration is closed")
    return row


def register(engine: sa.Engine, tid: str, player: str, now: float) -> bool:
    """Register ``player``; True when the tournament is full (a "when full" tournament starts then): told to
    exactly one registration, the one that fills it. Past its size, ``tournament_full``."""
    try:
        with engine.begin() as conn:
            row = _hold(conn, tid)
            count, last = conn.execute(
                sa.select(sa.func.count(), sa.func.max(tournament_entries.c.number)).where(
                    tournament_entries.c.tournament_id == tid
                )
            ).one()
            if row.size is not None and count >= row.size:
                raise TournamentError(
                    409, "tournament_full", f"the tournament is full: its {row.size} places are taken"
                )
            conn.execute(
                tournament_entries.insert().values(
                    tournament_id=tid, player_id=player, number=(last or 0) + 1, registered_at=now
                )
            )
    except IntegrityError:  # (tournament, player) is the key; (tournament, number) unique: the database's word
        raise TournamentError(409, "registered", "you are registered already") from None
    return row.size is not None and count + 1 >= row.size


def unregister(engine: sa.Engine, tid: str, player: str) -> None:
    """Leave a tournament before its start; at the start, the start or the leaving comes first (``_hold``)."""
    with engine.begin() as conn:
        _hold(conn, tid)
        done = conn.execute(
            tournament_entries.delete().where(
                tournament_entries.c.tournament_id == tid, tournament_entries.c.player_id == player
            )
        )
        if done.rowcount != 1:
            raise TournamentError(409, "not_registered", "you are not registered")


def withdraw(conn: sa.Connection, player_id: str) -> None:
    """An account deleted (``erasure.erase``, inside its transaction): its registrations to tournaments not
    yet started end, each in that tournament's turn (``_hold``), so that a start reading the entries either
    comes first (the seat stays, named as deleted) or sees the entry gone: never a seat whose entry was
    deleted after the start read it."""
    waiting = (
        conn.execute(
            sa.select(tournament_entries.c.tournament_id)
            .join(tournaments, tournaments.c.id == tournament_entries.c.tournament_id)
            .where(tournament_entries.c.player_id == player_id, tournaments.c.status == "open")
        )
        .scalars()
        .all()
    )
    for tid in sorted(waiting):  # one order: two deletions never hold each other's tournaments crosswise
        try:
            _hold(conn, tid)
        except TournamentError:  # started meanwhile: the seat is kept, as a played one is
            continue
        conn.execute(
            tournament_entries.delete().where(
                tournament_entries.c.tournament_id == tid, tournament_entries.c.player_id == player_id
            )
        )


def entries_count() -> Any:
    """Each tournament's number of entrants, as a column of a query on ``tournaments``."""
    return (
        sa.select(sa.func.count())
        .select_from(tournament_entries)
        .where(tournament_entries.c.tournament_id == tournaments.c.id)
        .scalar_subquery()
    )


def due(engine: sa.Engine, now: float) -> tuple[list[str], float | None]:
    """The open tournaments to start (their start time has come, or "when full" and full: a start that
    failed, or a process that stopped before it, is not left open for good), and the next start time."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(
                tournaments.c.id, tournaments.c.starts_at, tournaments.c.size, entries_count().label("entries")
            ).where(tournaments.c.status == "open")
        ).all()
    ready = [
        r.id
        for r in rows
        if (r.starts_at is not None and r.starts_at <= now) or (r.size is not None and r.entries >= r.size)
    ]
    later = [r.starts_at for r in rows if r.starts_at is not None and r.starts_at > now]
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
        return TableOptions().changed(
            deals=self.deals, competitive=False, private=True, spectators=False, robot_level=self.level
        )

    def spec(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "round": self.round, "deals": self.deals}


def _seat_round(conn: sa.Connection, row: Any, round_: int, new_id: Any) -> Round:
    people = conn.execute(
        sa.select(tournament_entries.c.player_id, players.c.name)
        .select_from(tournament_entries.join(players, players.c.id == tournament_entries.c.player_id))
        .where(tournament_entries.c.tournament_id == row.id)
        .order_by(tournament_entries.c.number)
    ).all()
    made = []
    for number, table in enumerate(seating(len(people), row.players, round_)):
        seats: list[tuple[str, str] | None] = [
            None if i is None else (people[i].player_id, people[i].name) for i in table
        ]
        table_id = new_id()
        conn.execute(
            tournament_tables.insert().values(
                tournament_id=row.id,
                round=round_,
                number=number,
                table_id=table_id,
                seats=[None if s is None else s[0] for s in seats],
            )
        )
        made.append((number, table_id, seats))
    return Round(row.id, round_, row.deals, row.players, row.level, round_seed(row.seed, round_), made)


def start(engine: sa.Engine, tid: str, now: float, new_id: Any) -> Round | None:
    """Start the tournament (the first process to do so wins: None for the others, and for a tournament
    with fewer entrants than ``fewest``, which is cancelled); its first round's tables, stored."""
    with engine.begin() as conn:
        done = conn.execute(
            tournaments.update()
            .where(tournaments.c.id == tid, tournaments.c.status == "open")
            .values(status="running", started_at=now, round=0)
        )
        if done.rowcount != 1:
            return None
        row = tournament_row(conn, tid)
        count = conn.execute(
            sa.select(sa.func.count()).select_from(tournament_entries).where(tournament_entries.c.tournament_id == tid)
        ).scalar_one()
        if count < fewest(row.players):  # one table or none: nothing to compare
            conn.execute(tournaments.update().where(tournaments.c.id == tid).values(status="cancelled", ended_at=now))
            return None
        return _seat_round(conn, row, 0, new_id)


def advance(engine: sa.Engine, tid: str, now: float, new_id: Any) -> Round | None:
    """When every table of the current round is closed: the next round's tables (stored), or the
    tournament finished. None when there is nothing to open (or another process advanced it)."""
    with engine.begin() as conn:
        row = tournament_row(conn, tid)
        if row is None or row.status != "running":
            return None
        if conn.execute(to_play(tid, row.round).limit(1)).first() is not None:
            return None
        last = row.round + 1 >= row.rounds
        values: dict[str, Any] = {"status": "finished", "ended_at": now} if last else {"round": row.round + 1}
        done = conn.execute(
            tournaments.update()
            .where(tournaments.c.id == tid, tournaments.c.round == row.round, tournaments.c.status == "running")
            .values(**values)
        )
        if done.rowcount != 1 or last:
            return None
        return _seat_round(conn, row, row.round + 1, new_id)


def rounds_over(engine: sa.Engine) -> list[str]:
    """The running tournaments whose current round has no table left to play: each is owed its next round (or
    its end). The table that closes last advances its round; this finds a round whose advance was lost (its
    process gone at that moment, the store failing then, the close settled after an outage)."""
    left = to_play(tournaments.c.id, tournaments.c.round).exists()
    with engine.connect() as conn:
        return [r.id for r in conn.execute(sa.select(tournaments.c.id).where(tournaments.c.status == "running", ~left))]


def unopened(engine: sa.Engine) -> list[Round]:
    """The tables of running tournaments' current rounds that the store does not hold: seated, never opened (the
    store failed as the round opened them one by one, or their process was gone). A round waits for every table
    it seated: each comes back here, a ``Round`` of those tables alone, to open (the first process to store one
    wins: a table's id is unique)."""
    seated = tournament_tables.c
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(
                tournaments.c.id,
                tournaments.c.round,
                tournaments.c.deals,
                tournaments.c.players,
                tournaments.c.level,
                tournaments.c.seed,
                seated.number,
                seated.table_id,
                seated.seats,
            )
            .select_from(
                tournaments.join(
                    tournament_tables,
                    sa.and_(seated.tournament_id == tournaments.c.id, seated.round == tournaments.c.round),
                ).outerjoin(tables, tables.c.id == seated.table_id)
            )
            .where(tournaments.c.status == "running", tables.c.id.is_(None))
            .order_by(tournaments.c.id, seated.number)
        ).all()
        ids = {p for r in rows for p in r.seats if p is not None}
        names = {
            p.id: p.name for p in conn.execute(sa.select(players.c.id, players.c.name).where(players.c.id.in_(ids)))
        }
    made: dict[str, Round] = {}
    for r in rows:
        opened = made.setdefault(
            r.id, Round(r.id, r.round, r.deals, r.players, r.level, round_seed(r.seed, r.round), [])
        )
        opened.tables.append((r.number, r.table_id, [None if p is None else (p, names[p]) for p in r.seats]))
    return list(made.values())


__all__ = [
    "Round",
    "Spec",
    "TournamentError",
    "advance",
    "create",
    "due",
    "register",
    "round_seed",
    "rounds_over",
    "seating",
    "start",
    "to_play",
    "unopened",
    "unregister",
    "validate",
    "withdraw",
]
