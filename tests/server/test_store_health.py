"""The store's health on real failures, without root: SQLite made full by its page limit (``PRAGMA
max_page_count``: the database refuses to grow, as on a full disk), PostgreSQL at a port nobody serves.

An outage is named (its cause), begins once and ends once (one log line each), and ends only when a write
succeeds: a full database still answers reads."""

from __future__ import annotations

import json
import logging
import socket
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from atout.server.features.bookkeeping import book
from atout.server.store import Append, Store, StoredEvent, StoreError, StoreWriter
from atout.server.store.health import Cause, cause_of, probe


def full_sqlite(path: Path) -> tuple[Store, dict[str, int]]:
    """A migrated SQLite store whose connections may not grow the file past ``limit["pages"]`` (0: no limit)."""
    store = Store(f"sqlite:///{path}", book=book)
    store.migrate()
    limit = {"pages": 0}

    @event.listens_for(store.engine, "connect")
    def _limit(dbapi_connection, _record) -> None:
        if limit["pages"]:
            dbapi_connection.execute(f"PRAGMA max_page_count = {limit['pages']}")

    store.create_table("t1", 1.0, {"seq": 0}, 4)
    with store.engine.connect() as conn:
        limit["pages"] = conn.exec_driver_sql("PRAGMA page_count").scalar_one()
    store.engine.dispose()  # every connection from now on: the database is full as it stands
    return store, limit


def big(seq: int) -> StoredEvent:
    return StoredEvent(seq, 1.0, "chat", {"type": "chat", "seq": seq, "text": "x" * 20_000})


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    lines = [json.loads(r.getMessage()) for r in caplog.records if '"store_' in r.getMessage()]
    return [(x["event"], x["cause"]) for x in lines]


async def test_a_full_sqlite_is_one_outage_until_a_write_succeeds(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    store, limit = full_sqlite(tmp_path / "atout.db")
    writer = StoreWriter(store)
    await writer.start()
    try:
        for seq in (1, 2):  # the first refused, and the next: one outage
            with pytest.raises(StoreError) as refused:
                await writer.write(Append("t1", [big(seq)]))
            assert refused.value.cause == Cause.DISK_FULL and not refused.value.unknown
        assert store.health.cause == Cause.DISK_FULL and store.health.outages == 1
        assert store.table("t1") is not None  # reads still answer...
        assert store.health.cause == Cause.DISK_FULL  # ...and end nothing
        with pytest.raises(sa.exc.OperationalError) as failed:
            probe(store.engine, 1.0)
        assert cause_of(failed.value) == Cause.DISK_FULL

        limit["pages"] = 0
        store.engine.dispose()  # room again (connections opened from now on)
        await writer.write(Append("t1", [big(1)]))  # the writer's own connection opened again after its failure
        assert store.health.up and store.health.outages == 1
        probe(store.engine, 2.0)
        assert [e.seq for e in store.events_after("t1", 0)] == [1]
    finally:
        await writer.stop()
        store.close()
    assert outage_lines(caplog) == [("store_down", "disk_full"), ("store_up", "disk_full")]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_postgresql_that_does_not_answer_is_unreachable_and_a_refusal_is_no_outage(store: Store) -> None:
    with socket.socket() as s:  # a port nobody serves
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    away = sa.create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{port}/atout")
    with pytest.raises(sa.exc.OperationalError) as failed:
        away.connect()
    assert cause_of(failed.value) == Cause.UNREACHABLE
    away.dispose()
    store.create_table("t1", 1.0, {"seq": 0}, 4)
    store.append([Append("t1", [big(1)])])
    with pytest.raises(StoreError) as refused:
        store.append([Append("t1", [big(1)])])  # stored once only: a refusal, not an outage
    assert refused.value.cause is None and cause_of(refused.value) is None
    assert store.health.up and store.health.outages == 0
