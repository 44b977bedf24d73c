"""The store: tables as a snapshot plus numbered events, and finished games (SQLite or PostgreSQL).

``Store`` is plain synchronous SQLAlchemy; ``StoreWriter`` (``writer.py``) commits from one thread
for the event loop. What a game's end books beyond its events and rows (``Append.booked``) is the
``book`` it is built with: the store knows no feature.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa
from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ..results import GameRow
from .db import games, table_events, table_leases, tables
from .health import AtCommit, StoreHealth, cause_of, committed
from .rows import Append, Book, Fenced, Lease, StoredEvent, StoredTable, StoreError, failure, refused

MIGRATIONS = Path(__file__).with_name("migrations")


def engine_url(url: str) -> str:
    """``postgresql://`` URLs use psycopg 3 (SQLAlchemy would look for psycopg2)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def _json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str) -> Engine:
    url = engine_url(url)
    codec = {"json_serializer": _json, "json_deserializer": orjson.loads}
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **codec)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:  # durable on a crash, readers never blocked
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True, **codec)


def _alembic_config() -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@functools.cache
def newest_revisions() -> frozenset[str]:
    """The migrations' heads, found once a process: Alembic reads every migration's file to find them."""
    return frozenset(ScriptDirectory.from_config(_alembic_config()).get_heads())


class Store:
    """Tables, their events and their games, on the database at ``url``."""

    def __init__(self, url: str, book: Book | None = None) -> None:
        self.url = url
        self.book = book  # a game's end's writes beyond its events (features/bookkeeping.py): none, none allowed
        try:
            self.engine = make_engine(url)
        except (SQLAlchemyError, ValueError) as err:
            raise StoreError(f"cannot use the database {url.split('@')[-1]!r}: {err}") from None
        self.health = StoreHealth()  # whether it takes writes: every error its connections meet is looked at
        self.health.watch(self.engine)
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self._mark = mark
        self._insert_events = (
            f"INSERT INTO table_events (table_id, seq, at, kind, data) VALUES ({', '.join([mark] * 5)})"
        )

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to ``revision``, the newest by default (Alembic); harmless when it is there. A
        database already at the newest is only looked at: Alembic's own run reads its environment and every
        migration's file again each time (10 ms of CPU a start, the tests' hundreds of servers and stores)."""
        config = _alembic_config()
        with self.engine.connect() as connection:
            sqlite = connection.dialect.name == "sqlite"
            if sqlite:  # SQLite changes a column by copying its table: its references are checked after
                connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # (sqlite.org/lang_altertable.html)
                connection.commit()  # outside any transaction, or SQLite ignores it
            try:
                with connection.begin():
                    if connection.dialect.name == "postgresql":  # several processes starting at once: one migrates
                        connection.execute(sa.text("SELECT pg_advisory_xact_lock(7072011)"))
                    if revision == "head" and newest_revisions() == frozenset(
                        MigrationContext.configure(connection).get_current_heads()
                    ):
                        return
                    config.attributes["connection"] = connection
                    command.upgrade(config, revision)
                    if sqlite and connection.exec_driver_sql("PRAGMA foreign_key_check").first() is not None:
                        raise StoreError("a migration left a reference to a row that is gone: nothing was changed")
            finally:
                if sqlite:
                    connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                    connection.commit()

    def create_table(
        self,
        table_id: str,
        at: float,
        snapshot: dict[str, Any],
        players: int,
        lease: tuple[str, float, float] | None = None,
    ) -> int | None:
        """A new table; with ``lease`` (owner, now, seconds), its lease in the same transaction, so that no
        other process ever sees it without an owner and takes it over: the lease's fencing token."""
        with self.engine.begin() as conn:
            conn.execute(
                tables.insert().values(
                    id=table_id,
                    players=players,
                    status="open",
                    created_at=at,
                    snapshot=snapshot,
                    snapshot_seq=snapshot.get("seq", 0),
                )
            )
            if lease is None:
                return None
            owner, now, ttl = lease
            conn.execute(table_leases.insert().values(table_id=table_id, owner=owner, token=1, expires_at=now + ttl))
            return 1

    def append(self, items: list[Append], connection: sa.Connection | None = None) -> None:
        """Every item in one transaction: all stored, or none (StoreError names the first refusal, or the
        outage, and whether the outcome is unknown: the connection lost while it committed).
        ``connection``: a connection the caller keeps open (the writer thread's), else one from the pool."""
        try:
            self._append_all(items, connection)
        except StoreError:
            raise
        except AtCommit as at:
            raise failure(self.health, at.err, committing=True) from None
        except Exception as err:
            if cause_of(err) is None:
                raise
            raise failure(self.health, err, committing=False) from None

    def _append_all(self, items: list[Append], connection: sa.Connection | None) -> None:
        if connection is not None and all(item.events_only for item in items):
            fences = {item.table_id: item.fence for item in items if item.fence is not None}
            try:
                if connection.dialect.name == "postgresql":
                    self._append_events_postgresql(connection, items, fences)
                    return
                self._append_events(connection, _event_rows(items), fences)
            except Fenced as err:
                raise StoreError(str(err), fenced=err.table_id) from None
            return
        rows = _event_rows(items)
        try:
            with contextlib.ExitStack() as stack:
                conn = connection if connection is not None else stack.enter_context(self.engine.connect())
                transaction = conn.begin()
                try:
                    fences = {item.table_id: item.fence for item in items if item.fence is not None}
                    if fences:
                        self._check_fences(conn, fences)
                    if rows:  # every table's events in one driver-level executemany: the hot path of the server
                        conn.exec_driver_sql(self._insert_events, rows)
                    for item in items:
                        self._append(conn, item)
                except BaseException:
                    with contextlib.suppress(Exception):  # a connection gone: nothing to roll back
                        transaction.rollback()
                    raise
                committed(transaction.commit)
        except IntegrityError as err:
            raise refused(err) from None
        except Fenced as err:
            raise StoreError(str(err), fenced=err.table_id) from None

    def _append_events_postgresql(
        self, connection: sa.Connection, items: list[Append], fences: dict[str, tuple[str, int]]
    ) -> None:
        """Events alone on PostgreSQL in one round trip: the fences and the rows travel as two JSON texts in
        one statement, which is its own transaction (autocommit: the statement is atomic, its share locks
        held to its end), without a BEGIN and a COMMIT around it nor psycopg's pipeline machinery. Against a
        fence check, an executemany and a commit (four or five waits on the socket, each a few system calls)
        this halved the writer's CPU a transaction for the small batches of several processes
        (``APPEND_EVENTS``)."""
        rows = orjson.dumps(
            [[item.table_id, e.seq, e.at, e.kind, e.data] for item in items for e in item.events],
            option=orjson.OPT_NON_STR_KEYS,
        ).decode()
        held = orjson.dumps([[table_id, owner, token] for table_id, (owner, token) in fences.items()]).decode()
        count = sum(len(item.events) for item in items)
        with _driver_transaction(connection) as (dbapi, cursor):
            if dbapi.info.transaction_status == _IDLE:  # one statement, its own transaction: one message each way
                dbapi.autocommit = True
                try:  # the statement is its transaction: lost on the way, nobody knows if it took
                    committed(lambda: cursor.execute(APPEND_EVENTS, (held, rows, len(fences))))
                finally:
                    with contextlib.suppress(Exception):  # a connection gone: the writer opens another
                        dbapi.autocommit = False
            else:  # (never seen: the writer commits each transaction) the statement in one
                with dbapi.pipeline():
                    cursor.execute(APPEND_EVENTS, (held, rows, len(fences)))
                    committed(dbapi.commit)
            stored = cursor.rowcount  # read before the cursor closes
        if stored != count:  # a lease was not held, so nothing was stored: the checked path says whose (Fenced)
            self._append_events(connection, _event_rows(items), fences)

    def _append_events(
        self, connection: sa.Connection, rows: list[tuple[Any, ...]], fences: dict[str, tuple[str, int]]
    ) -> None:
        """Events alone, the writer's usual batch: the leases' fences, one executemany and a commit on the
        driver's own connection, without SQLAlchemy's statement and transaction layers (which cost the
        writer thread more instructions than the database's own work for such a batch)."""
        with _driver_transaction(connection) as (dbapi, cursor):
            if fences:
                self._check_fences_on(cursor, connection.dialect.name, fences)
            cursor.executemany(self._insert_events, rows)
            committed(dbapi.commit)

    def _check_fences(self, conn: sa.Connection, fences: dict[str, tuple[str, int]]) -> None:
        """Fencing: each table's lease must still be (owner, token), read under a share lock so a
        takeover (an update of the lease) waits for this transaction, and loads what it wrote.
        Driver-level SQL: it runs with every write of a table when several processes share the site."""
        dbapi = conn.connection.dbapi_connection
        assert dbapi is not None
        cursor = dbapi.cursor()
        try:
            self._check_fences_on(cursor, conn.dialect.name, fences)
        finally:
            cursor.close()

    @staticmethod
    def _check_fences_on(cursor: Any, dialect: str, fences: dict[str, tuple[str, int]]) -> None:
        """``_check_fences`` on a driver's cursor, inside the transaction it belongs to."""
        ids = list(fences)
        if dialect == "postgresql":
            cursor.execute(
                "SELECT table_id, owner, token FROM table_leases WHERE table_id = ANY(%s) ORDER BY table_id FOR SHARE",
                (ids,),
            )
        else:  # SQLite: one writer at a time already
            marks = ", ".join("?" * len(ids))
            cursor.execute(f"SELECT table_id, owner, token FROM table_leases WHERE table_id IN ({marks})", tuple(ids))
        held = {table_id: (owner, token) for table_id, owner, token in cursor.fetchall()}
        for table_id, fence in fences.items():
            if held.get(table_id) != fence:
                raise Fenced(table_id)

    # ------------------------------------------------------------ leases (several server processes)
    def acquire_lease(self, table_id: str, owner: str, now: float, ttl: float) -> int | None:
        """Take the table's lease if nobody holds it or its holder let it expire: the new fencing token,
        or None when another process holds it."""
        with self.engine.begin() as conn:
            row = conn.execute(
                sa.select(table_leases).where(table_leases.c.table_id == table_id).with_for_update()
            ).first()
            if row is None:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            table_leases.insert().values(table_id=table_id, owner=owner, token=1, expires_at=now + ttl)
                        )
                except IntegrityError:  # another process inserted it first
                    return None
                return 1
            if row.owner != owner and row.expires_at > now:
                return None
            token = row.token + 1
            done = conn.execute(
                table_leases.update()
                .where(table_leases.c.table_id == table_id, table_leases.c.token == row.token)
                .values(owner=owner, token=token, expires_at=now + ttl)
            )
            return token if done.rowcount == 1 else None

    def renew_leases(self, owner: str, held: dict[str, int], now: float, ttl: float) -> set[str]:
        """Extend the leases of ``held`` that ``owner`` still holds (one statement, whatever the number of tables);
        the tables of ``held`` whose lease it lost (another process took them: their owner is no longer ``owner``).
        A lease ``owner`` gave up (``release_lease``) is not among them, and stays given up."""
        if not held:
            return set()
        with self.engine.begin() as conn:
            # the rows locked in the tables' order, as the writer's fence checks lock them: in any other order
            # a renewal and a batch of this process's writes could each hold a lease the other waits for
            mine = (
                sa.select(table_leases.c.table_id)
                .where(table_leases.c.owner == owner, table_leases.c.table_id.in_(list(held)))
                .order_by(table_leases.c.table_id)
                .with_for_update()
            )
            rows = conn.execute(
                table_leases.update()
                .where(table_leases.c.table_id.in_(mine.scalar_subquery()))
                .values(expires_at=now + ttl)
                .returning(table_leases.c.table_id, table_leases.c.token)
            ).all()
        renewed = {table_id: token for table_id, token in rows}
        return {table_id for table_id, token in held.items() if renewed.get(table_id) != token}

    def release_lease(self, table_id: str, owner: str, token: int) -> None:
        """Give the lease up at once (a process stopping cleanly): another may take the table now."""
        with self.engine.begin() as conn:
            conn.execute(
                table_leases.update()
                .where(
                    table_leases.c.table_id == table_id, table_leases.c.owner == owner, table_leases.c.token == token
                )
                .values(expires_at=0.0)
            )

    def lease(self, table_id: str) -> Lease | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(table_leases).where(table_leases.c.table_id == table_id)).first()
        return None if row is None else Lease(row.owner, row.token, row.expires_at)

    def table_status(self, table_id: str) -> str | None:
        """The table's status as stored (``open``, ``closed``), None if there is no such table."""
        with self.engine.connect() as conn:
            return conn.execute(sa.select(tables.c.status).where(tables.c.id == table_id)).scalar()

    def unowned_tables(self, now: float) -> list[str]:
        """Open tables whose lease expired, or that never had one: a process may take them over."""
        query = (
            sa.select(tables.c.id)
            .select_from(tables.outerjoin(table_leases, table_leases.c.table_id == tables.c.id))
            .where(
                tables.c.status == "open", sa.or_(table_leases.c.expires_at.is_(None), table_leases.c.expires_at < now)
            )
            .order_by(tables.c.created_at)
        )
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(query)]

    def _append(self, conn: sa.Connection, item: Append) -> None:
        values: dict[str, Any] = {}
        if item.snapshot is not None:
            values["snapshot_seq"], values["snapshot"] = item.snapshot
        if item.status is not None:
            values["status"] = item.status
        if values:
            done = conn.execute(tables.update().where(tables.c.id == item.table_id).values(**values))
            if done.rowcount != 1:
                raise IntegrityError("update", {}, Exception(f"no table {item.table_id!r}"))
        if item.booked:
            if self.book is None:
                raise StoreError(
                    "this store books no game's end (its row, bets, coins, standings, the daily deal): "
                    "build it with Store(url, book=...) (features/bookkeeping.py)"
                )
            self.book(conn, item)

    def _events(self, conn: sa.Connection, table_id: str, seq: int, limit: int | None = None) -> list[StoredEvent]:
        query = (
            sa.select(table_events.c.seq, table_events.c.at, table_events.c.kind, table_events.c.data)
            .where(table_events.c.table_id == table_id, table_events.c.seq > seq)
            .order_by(table_events.c.seq)
        )
        if limit is not None:
            query = query.limit(limit)
        return [StoredEvent(*row) for row in conn.execute(query)]

    def _tables(self, where: sa.ColumnElement[bool]) -> list[StoredTable]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables.c.id, tables.c.status, tables.c.snapshot, tables.c.snapshot_seq)
                .where(where)
                .order_by(tables.c.created_at)
            ).all()
            return [
                StoredTable(r.id, r.status, r.snapshot, r.snapshot_seq, self._events(conn, r.id, r.snapshot_seq))
                for r in rows
            ]

    def open_tables(self) -> list[StoredTable]:
        """Every open table: its snapshot and the events after it."""
        return self._tables(tables.c.status == "open")

    def table(self, table_id: str) -> StoredTable | None:
        found = self._tables(tables.c.id == table_id)
        return found[0] if found else None

    def events_after(self, table_id: str, seq: int, limit: int | None = None) -> list[StoredEvent]:
        with self.engine.connect() as conn:
            return self._events(conn, table_id, seq, limit)

    def games(self, table_id: str | None = None) -> list[GameRow]:
        query = sa.select(games).order_by(games.c.ended_at)
        if table_id is not None:
            query = query.where(games.c.table_id == table_id)
        with self.engine.connect() as conn:
            return [
                GameRow(r.id, r.table_id, r.players, r.status, r.started_at, r.ended_at, r.data)
                for r in conn.execute(query)
            ]

    def game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(sa.select(games).where(games.c.id == game_id)).first()
        return None if r is None else GameRow(r.id, r.table_id, r.players, r.status, r.started_at, r.ended_at, r.data)

    def close(self) -> None:
        self.engine.dispose()


def _event_rows(items: list[Append]) -> list[tuple[Any, ...]]:
    """Every item's events as the rows of ``table_events``, their data as JSON text."""
    return [(item.table_id, e.seq, e.at, e.kind, _json(e.data)) for item in items for e in item.events]


@contextlib.contextmanager
def _driver_transaction(connection: sa.Connection) -> Iterator[tuple[Any, Any]]:
    """The driver's own connection and a cursor for one transaction the caller commits: on any error it is
    rolled back (the connection may be gone: the writer opens another), a refusal by the database becomes a
    StoreError naming it, and the cursor is closed."""
    dbapi = connection.connection.dbapi_connection
    assert dbapi is not None
    cursor = dbapi.cursor()
    try:
        yield dbapi, cursor
    except connection.dialect.loaded_dbapi.IntegrityError as err:
        with contextlib.suppress(Exception):
            dbapi.rollback()
        raise refused(err) from None
    except BaseException:
        with contextlib.suppress(Exception):
            dbapi.rollback()
        raise
    finally:
        with contextlib.suppress(Exception):
            cursor.close()


APPEND_EVENTS = """
WITH fence AS (
    SELECT f->>0 AS table_id, f->>1 AS owner, (f->>2)::bigint AS token FROM json_array_elements(%s::json) AS f),
held AS (
    SELECT l.table_id FROM table_leases AS l JOIN fence AS f
        ON l.table_id = f.table_id AND l.owner = f.owner AND l.token = f.token
    ORDER BY l.table_id FOR SHARE OF l)
INSERT INTO table_events (table_id, seq, at, kind, data)
SELECT e->>0, (e->>1)::integer, (e->>2)::float8, e->>3, (e->4)::jsonb FROM json_array_elements(%s::json) AS e
WHERE (SELECT count(*) FROM held) = %s"""
"""Every row or none: inserted only if each fence's lease is still (owner, token), read under a share lock so a
takeover waits for this transaction (as ``_check_fences``), in the tables' order (as ``renew_leases``: no deadlock
between them). Its text never changes, so psycopg prepares it."""


_IDLE = 0
"""libpq's PQTRANS_IDLE: a connection in no transaction (psycopg's ``pq.TransactionStatus.IDLE``)."""
