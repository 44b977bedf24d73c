"""The store's health: which errors are an outage (the database away, its disk full) rather than a refusal
or a bug, and the outage as one state of the process, logged once when it starts and once when it ends.

An outage ends only when a write succeeds (the writer's commit, or ``probe``): a database whose disk is
full still answers reads, and a table resumed on a read would pause again at its next write."""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine

from ..logs import event_log
from .db import store_probe


class Cause(StrEnum):
    """Why the store does not take writes."""

    UNREACHABLE = "unreachable"  # the database does not answer (stopped, restarted, the network cut)
    DISK_FULL = "disk_full"  # its disk is full (SQLite's file, or PostgreSQL's)
    DISK_ERROR = "disk_error"  # its disk failed to write

    @property
    def why(self) -> str:
        """The cause in a person's words (a paused table's state, an answer's message)."""
        return _WHY[self]


_WHY = {
    Cause.UNREACHABLE: "the store is unavailable",
    Cause.DISK_FULL: "the disk is full",
    Cause.DISK_ERROR: "the disk cannot be written",
}

_PG_DISK_FULL = "53100"  # PostgreSQL's disk_full
_PG_AWAY = frozenset({"57P01", "57P02", "57P03", "53300"})  # shut down (by an admin, a crash), starting up,
# too many connections; and class 08, the connection's exceptions


def cause_of(err: BaseException) -> Cause | None:
    """The outage ``err`` shows, or None for anything else (a refusal, a bug)."""
    cause = getattr(err, "cause", None)  # a StoreError names its own
    if isinstance(cause, Cause):
        return cause
    orig = getattr(err, "orig", None) or err  # SQLAlchemy wraps the driver's error
    if isinstance(err, sa.exc.DBAPIError) and err.connection_invalidated:
        return Cause.UNREACHABLE
    text = str(orig).lower()
    if isinstance(orig, sqlite3.Error):
        if "database or disk is full" in text:
            return Cause.DISK_FULL
        if "disk i/o error" in text:
            return Cause.DISK_ERROR
        if "database is locked" in text or "unable to open database" in text:
            return Cause.UNREACHABLE
        return None
    state = getattr(orig, "sqlstate", None)  # psycopg's
    if state == _PG_DISK_FULL:
        return Cause.DISK_FULL
    if isinstance(state, str) and (state[:2] == "08" or state in _PG_AWAY):
        return Cause.UNREACHABLE
    module = type(orig).__module__
    if module.startswith("psycopg") and type(orig).__name__ in ("OperationalError", "InterfaceError"):
        return Cause.UNREACHABLE  # no SQLSTATE: the connection failed or was lost
    if isinstance(orig, (ConnectionError, TimeoutError)):
        return Cause.UNREACHABLE
    return None


class StoreHealth:
    """Whether the store takes writes: ``cause`` while it does not. Thread-safe (the writer thread and the
    request threads report to it); ``listeners`` are called (from any thread) when it changes."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.cause: Cause | None = None
        self.since = 0.0
        self.back_at = 0.0  # when the last outage ended (its clock's time)
        self.outages = 0  # how many began since the process started
        self.listeners: list[Callable[[], None]] = []
        self._clock = clock
        self._lock = threading.Lock()

    @property
    def up(self) -> bool:
        return self.cause is None

    def down(self, cause: Cause, error: str = "") -> None:
        """An outage seen: the first report of it starts it (one log line), the others add nothing."""
        with self._lock:
            if self.cause is not None:
                return
            self.cause, self.since = cause, self._clock()
            self.outages += 1
        event_log(event="store_down", cause=str(cause), error=error[:200])
        self._changed()

    def back(self) -> None:
        """A write succeeded: the outage, if any, is over (one log line, with its length)."""
        if self.cause is None:
            return
        with self._lock:
            cause, self.cause = self.cause, None
            if cause is None:
                return
            self.back_at = self._clock()
            seconds = self.back_at - self.since
        event_log(event="store_up", cause=str(cause), seconds=round(seconds, 3))
        self._changed()

    def report(self, err: BaseException) -> Cause | None:
        """``err``'s outage, noted (None: not an outage)."""
        cause = cause_of(err)
        if cause is not None:
            self.down(cause, (str(getattr(err, "orig", None) or err).splitlines() or [type(err).__name__])[0])
        return cause

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def watch(self, engine: Engine) -> None:
        """Every error the engine's connections meet is looked at: an outage starts here, whoever met it
        (a page's read, a login, a table's write). A failed pre-ping is not one: the pool connects again."""

        @event.listens_for(engine, "handle_error")
        def _seen(context: sa.engine.ExceptionContext) -> None:
            if not context.is_pre_ping:
                self.report(context.original_exception)


class AtCommit(Exception):
    """An error met while committing: whether the transaction took is not known."""

    def __init__(self, err: Exception) -> None:
        super().__init__(str(err))
        self.err = err


def committed(commit: Callable[[], Any]) -> None:
    """``commit()``, its failure marked as met while committing (``AtCommit``)."""
    try:
        commit()
    except Exception as err:
        raise AtCommit(err) from err


def probe(engine: Engine, at: float) -> None:
    """A write as large as a table's usual one, committed, then taken back: the store takes writes again
    when this succeeds (a read says nothing of a full disk). Raises what the database raised."""
    with engine.begin() as conn:
        conn.execute(store_probe.insert().values(id=secrets.randbits(62), at=at, data="x" * PROBE_BYTES))
    with engine.begin() as conn:
        conn.execute(store_probe.delete())


PROBE_BYTES = 16_384
"""A snapshot of a table in the middle of a game is a few kilobytes; a batch of events, less."""


__all__ = ["PROBE_BYTES", "AtCommit", "Cause", "StoreHealth", "cause_of", "committed", "probe"]
