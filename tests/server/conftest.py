"""Every server test runs on a fresh SQLite file and on a fresh database of a real PostgreSQL.

Fresh, and already at the newest schema: a copy of one migrated once a test process (an SQLite file copied, a
PostgreSQL database made from a template), as ``db_url`` gives it; the tests of the migrations themselves take
``empty_db_url``. Migrating each test's database anew cost 60-100 ms of CPU a test, for 280-odd tests.

PostgreSQL comes from ``ATOUT_TEST_POSTGRES`` (default: the local server, user postgres). Where it
cannot be reached the PostgreSQL half is skipped with the reason — except in CI (``CI`` set), where
that is a failure: CI's machine has PostgreSQL and must run both halves.
"""

from __future__ import annotations

import contextlib
import os
import queue
import secrets
import shutil
import threading
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from atout.server.features.bookkeeping import book
from atout.server.store import Store, engine_url
from served import migrated_sqlite

POSTGRES = os.environ.get("ATOUT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def _admin() -> sa.Engine:
    return sa.create_engine(engine_url(POSTGRES), isolation_level="AUTOCOMMIT")


@pytest.fixture(scope="session")
def postgres_reachable() -> str | None:
    """None when PostgreSQL answers, else why not."""
    try:
        engine = _admin()
        with engine.connect() as conn:
            conn.execute(sa.text("select 1"))
        engine.dispose()
        return None
    except Exception as err:  # any reason at all: say it
        return f"{type(err).__name__}: {str(err).splitlines()[0]}"


@contextlib.contextmanager
def fresh_postgres(postgres_reachable: str | None, template: str | None = None) -> Iterator[str]:
    """A new PostgreSQL database (a copy of ``template``), dropped afterwards (by ``_Dropper``); skipped (failed under
    CI) when none answers."""
    if postgres_reachable is not None:
        message = (
            f"PostgreSQL not reachable at {POSTGRES.split('@')[-1]} ({postgres_reachable}); "
            "the PostgreSQL half of the server suite did not run"
        )
        if os.environ.get("CI"):
            pytest.fail(message + " — start it: pg_ctlcluster --skip-systemctl-redirect 15 main start")
        pytest.skip(message)
    name = f"atout_test_{secrets.token_hex(6)}"
    admin = _admin()
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")))
    admin.dispose()
    base = POSTGRES.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        _dropper().put(name)


class _Dropper(threading.Thread):
    """Drops the test databases in a thread of this test process, while the next tests run: a DROP DATABASE
    waits for a checkpoint that writes every dirty page of the PostgreSQL server to disk (0.25 s on an idle
    machine, over a second while the other workers write), which no test's claim is about. The run's end
    waits until every database is dropped (``pytest_sessionfinish``) and fails if one was not."""

    def __init__(self) -> None:
        super().__init__(name="drop test databases", daemon=True)
        self.names: queue.Queue[str | None] = queue.Queue()
        self.failures: list[str] = []
        self.start()

    def put(self, name: str) -> None:
        self.names.put(name)

    def run(self) -> None:
        admin = _admin()
        while (name := self.names.get()) is not None:
            try:
                with admin.connect() as conn:
                    conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            except Exception as err:  # any reason at all: said at the run's end
                self.failures.append(f"{name}: {type(err).__name__}: {err}")
        admin.dispose()

    def finish(self) -> None:
        self.names.put(None)
        self.join()
        if self.failures:
            raise RuntimeError("test databases not dropped: " + "; ".join(self.failures))


_dropping: list[_Dropper] = []


def _dropper() -> _Dropper:
    if not _dropping:
        _dropping.append(_Dropper())
    return _dropping[0]


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _dropping:
        _dropping.pop().finish()


@pytest.fixture(scope="session")
def migrated_postgres(postgres_reachable) -> Iterator[str]:
    """The name of a PostgreSQL database at the newest schema, for this test process's tests to copy (a template
    may have no session open on it while it is copied: none is, once migrated)."""
    with fresh_postgres(postgres_reachable) as url:
        store = Store(url, book=book)
        store.migrate()
        store.close()
        yield url.rsplit("/", 1)[1]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path, postgres_reachable) -> Iterator[str]:
    """A fresh database at the newest schema: an SQLite file, or a new PostgreSQL database dropped afterwards."""
    if request.param == "sqlite":
        shutil.copyfile(migrated_sqlite(), tmp_path / "atout.db")
        yield f"sqlite:///{tmp_path / 'atout.db'}"
        return
    with fresh_postgres(postgres_reachable, template=request.getfixturevalue("migrated_postgres")) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db_url(request, tmp_path, postgres_reachable) -> Iterator[str]:
    """A fresh, empty database (no schema): for the tests of the migrations, from any revision."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'atout.db'}"
        return
    with fresh_postgres(postgres_reachable) as url:
        yield url


@pytest.fixture
def pg_url(postgres_reachable) -> Iterator[str]:
    """A fresh PostgreSQL database (several server processes share one)."""
    with fresh_postgres(postgres_reachable) as url:
        yield url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A migrated store on a fresh database."""
    store = Store(db_url, book=book)
    store.migrate()
    try:
        yield store
    finally:
        store.close()
