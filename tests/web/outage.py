"""A real outage of the store for browser tests: ``atout serve`` on a fresh PostgreSQL database reached
through a TCP proxy the test cuts (every connection dropped, new ones refused) and restores, as
``tests/server/test_outage.py`` does in-process. Nothing of the server or the page is replaced."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from atout.server.store import engine_url

POSTGRES = os.environ.get("ATOUT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


class CutProxy:
    """TCP from a free local port to PostgreSQL, in threads of the test's process."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.pipes: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed: the test is over
                return
            if not self.up:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pipes |= {client, upstream}
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """PostgreSQL is gone for the server: open connections dropped, new ones refused."""
        self.up = False
        with self.lock:
            pipes, self.pipes = self.pipes, set()
        for s in pipes:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                s.close()

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.cut()
        self.listener.close()


@contextlib.contextmanager
def proxied_postgres() -> Iterator[tuple[str, CutProxy]]:
    """A new PostgreSQL database (dropped afterwards) and its URL through a ``CutProxy``; the test is
    skipped (failed under CI) when PostgreSQL does not answer."""
    admin = sa.create_engine(engine_url(POSTGRES), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text("select 1"))
    except Exception as err:  # any reason at all: say it
        message = f"PostgreSQL not reachable at {POSTGRES.split('@')[-1]}: {str(err).splitlines()[0]}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    name = f"atout_web_{secrets.token_hex(6)}"
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = sa.make_url(engine_url(POSTGRES))
    proxy = CutProxy(url.host or "127.0.0.1", url.port or 5432)
    try:
        through = sa.make_url(POSTGRES).set(host="127.0.0.1", port=proxy.port, database=name)
        yield through.render_as_string(hide_password=False), proxy
    finally:
        proxy.close()
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
