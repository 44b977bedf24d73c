"""The site: every process that serves it, seen from one of them.

The hub asks the site what lies beyond its own process: where a table it does not run is run, which
tables and guests the other processes have, and to tell a player or the lobby something everywhere.
``LocalSite`` is the embedded default, one process alone (the in-process bus: nothing is beyond it);
``cluster.RedisSite`` is one process of several sharing the site through Redis and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..features.limits import Buckets
from ..protocol import ProtocolError
from ..told import Told

if TYPE_CHECKING:
    from ..room import Room, Stats
    from ..store import Store
    from .connection import Connection
    from .roles import Handovers, Identities, SessionEnds


class Host(Protocol):
    """What a site uses of its process's hub."""

    store: Store
    rooms: dict[str, Room]
    connections: set[Connection]
    stats: Stats

    @property
    def identity(self) -> Identities: ...
    @property
    def handover(self) -> Handovers: ...
    @property
    def sessions(self) -> SessionEnds: ...

    def resume(self, item: Any) -> Room: ...
    async def load_table(self, table_id: str) -> bool: ...
    def lose(self, table_id: str) -> Room | None: ...
    async def receive(self, conn: Connection, text: str | bytes, edge_checked: bool = False) -> None: ...
    async def disconnect(self, conn: Connection) -> None: ...
    def lobby_connections(self) -> list[Connection]: ...


class Site(Protocol):
    """One site interface, for one process or many."""

    process: str

    async def start(self, host: Host) -> None:
        """Run the tables this process should run (all of them, alone) before it opens."""

    async def stop(self) -> None: ...

    def new_table_id(self) -> str:
        """An id for a table created here."""

    def new_lease(self) -> tuple[str, float, float] | None:
        """The lease a table created here is stored with, (owner, now, seconds), in the transaction that
        stores it; None when nobody else could run it."""

    def claimed(self, table_id: str, token: int | None) -> None:
        """A table created here is run here (``token``: its lease's fencing token)."""

    def fence(self, table_id: str) -> tuple[str, int] | None:
        """What every write of the table must still hold (a lease), if anything."""

    async def lost(self, table_id: str, why: str) -> None:
        """A write of the table was fenced: another process runs it now."""

    async def release(self, room: Room) -> bool:
        """A vacant room leaves memory here (``release.py``), with whatever the site held for running it
        (a lease); False (nothing done) if it may not: an open table must be found again when someone
        names it, which only one process alone can promise (with many, another's scan would take it over)."""

    async def forward(self, conn: Connection, table_id: str, text: str | bytes, ref: str | None) -> None:
        """A request about a table this process does not run: sent to the process that runs it, or
        refused (``no_table``, ``unavailable``)."""

    def closed(self, conn: Connection) -> None:
        """A connection of this process closed."""

    def guest(self, name: str, player_id: str, online: bool) -> None:
        """A guest left here (``online`` false), or came online under ``name`` after all."""

    async def take_guest_name(self, name: str, player_id: str) -> bool:
        """Hold ``name`` for the guest ``player_id``, online here: False (and nothing held) if a guest of
        another process holds it (any case or accents)."""

    async def guests(self, name: str) -> set[str]:
        """The ids of the guests online under ``name`` on the other processes."""

    def player(self, player_id: str, online: bool) -> None:
        """A registered player's first connection here opened (or the last one closed)."""

    async def online(self, player_ids: set[str]) -> set[str]:
        """Those of ``player_ids`` connected to another process."""

    def seated(self, player_ids: set[str]) -> dict[str, list[tuple[str, str, dict[str, Any] | None]]]:
        """Where each of ``player_ids`` plays at tables other processes run: (table, status, whom it admits)."""

    def table_changed(self, room: Room) -> None:
        """A table run here changed in the lobby."""

    def tables_for(self, conn: Connection) -> list[dict[str, Any]]:
        """The lobby lines of the tables other processes run that ``conn`` may see."""

    def friends_changed(self, player_ids: tuple[str, ...]) -> None:
        """A friendship changed here: the other processes forget what they cached of it."""

    def tell_player(self, player_id: str, message: Told) -> None:
        """Send ``message`` to ``player_id``'s connections on the other processes."""

    def sessions_ended(self, player_id: str, sessions: Sequence[str], why: str) -> None:
        """Sessions of ``player_id`` ended here (a logout, a password change, an account deleted): the
        other processes close the sockets those sessions opened."""

    def handed_over(self, guest: str, account: str, name: str) -> None:
        """A guest registered (or logged in) here: the other processes hand that guest's seats at their
        tables to the account."""

    async def take(self, items: Sequence[tuple[str, int, float]], now: float) -> tuple[int, float] | None:
        """``limits.Take`` for the buckets of people and addresses, which the whole site shares."""

    def health(self) -> dict[str, Any]:
        """What ``/health`` says of the site beyond this process (``"bus": "down"`` makes it degraded)."""


def line_for(summary: dict[str, Any], people: list[str | None], player_id: str | None) -> dict[str, Any]:
    """A table's lobby line as one person sees it: ``you`` is the seat they play there, if any (so
    that a person who closed the tab finds their table), and nobody learns who else sits where."""
    you = people.index(player_id) if player_id is not None and player_id in people else None
    return {**summary, "you": you}


def random_table_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


class LocalSite:
    """One process alone: every table is run here, and nothing lies beyond it."""

    def __init__(self) -> None:
        self.process = "local"
        self.buckets = Buckets()  # every person's and address's: this process is the whole site

    async def start(self, host: Host) -> None:
        for item in await asyncio.to_thread(host.store.open_tables):
            host.resume(item)

    async def stop(self) -> None:
        return None

    def new_table_id(self) -> str:
        return random_table_id()

    def new_lease(self) -> tuple[str, float, float] | None:
        return None

    def claimed(self, table_id: str, token: int | None) -> None:
        return None

    def fence(self, table_id: str) -> tuple[str, int] | None:
        return None

    async def lost(self, table_id: str, why: str) -> None:
        return None

    async def release(self, room: Room) -> bool:
        return True

    async def forward(self, conn: Connection, table_id: str, text: str | bytes, ref: str | None) -> None:
        raise ProtocolError("no_table", f"no open table {table_id!r}")

    def closed(self, conn: Connection) -> None:
        return None

    def guest(self, name: str, player_id: str, online: bool) -> None:
        return None

    async def take_guest_name(self, name: str, player_id: str) -> bool:
        return True

    async def guests(self, name: str) -> set[str]:
        return set()

    def player(self, player_id: str, online: bool) -> None:
        return None

    async def online(self, player_ids: set[str]) -> set[str]:
        return set()

    def seated(self, player_ids: set[str]) -> dict[str, list[tuple[str, str, dict[str, Any] | None]]]:
        return {}

    def table_changed(self, room: Room) -> None:
        return None

    def tables_for(self, conn: Connection) -> list[dict[str, Any]]:
        return []

    def friends_changed(self, player_ids: tuple[str, ...]) -> None:
        return None

    def tell_player(self, player_id: str, message: Told) -> None:
        return None

    def sessions_ended(self, player_id: str, sessions: Sequence[str], why: str) -> None:
        return None

    def handed_over(self, guest: str, account: str, name: str) -> None:
        return None

    async def take(self, items: Sequence[tuple[str, int, float]], now: float) -> tuple[int, float] | None:
        return self.buckets.take_now(items, now)

    def health(self) -> dict[str, Any]:
        return {}


__all__ = ["Host", "LocalSite", "Site", "line_for", "random_table_id"]
