"""The hub's jobs as the other jobs see them. Each job takes the hub as a protocol of its own that names what it
uses (``ClockHub`` in ``tournament_clock.py``, ``LobbyHub`` in ``lobby.py``...), and a job it reaches through the
hub is one of these roles, never its class: no job imports the hub or another job, so the site's modules import
each other in no circle (``docs/architecture.md``), and a job's test may hand it only what it uses."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..options import TableOptions
    from ..protocol import Claim
    from ..room import Room
    from ..table import Table
    from ..told import Told
    from .connection import Connection


@dataclass(frozen=True)
class Resting:
    """An open table released here, as its lobby line showed it: the summary, whom a private one admits
    (None: everyone), the person at each seat (none: it is vacant)."""

    summary: dict[str, Any]
    admit: dict[str, Any] | None
    people: list[str | None]


class Identities(Protocol):
    """``identity.Identity``: telling a person something wherever they are, and whose friend each is."""

    def tell_player(self, player_id: str, message: Told, site: bool = True) -> None: ...
    def master_friends(self, table: Table) -> set[str]: ...
    def friends_of(self, player_id: str | None) -> set[str]: ...
    def forget_friends(self, *player_ids: str, site: bool = True) -> None: ...
    async def guests_online(self, name: str) -> set[str]: ...


class LobbyUpdates(Protocol):
    """``lobby.LobbyLists``: a table's line told to the lobby's watchers, and whom a table admits."""

    def update(self, room: Room) -> None: ...
    def admits(self, table: Table, conn: Connection) -> bool: ...
    def lines_here(self, conn: Connection) -> list[dict[str, Any]]: ...


class RestingTables(Protocol):
    """``release.Release``: the open tables resting out of memory, and one brought back when named."""

    @property
    def resting(self) -> dict[str, Resting]: ...
    def lines(self) -> list[tuple[str, Resting]]: ...
    async def bring_back(self, table_id: str) -> bool: ...


class Handovers(Protocol):
    """``handover.Handover``: a guest's seats handed to the account they registered."""

    def handed_over(self, guest: str, account: str, name: str) -> None: ...


class SessionEnds(Protocol):
    """``sessions.Sessions``: the sockets of sessions that ended, closed (a notice lost: found by a check)."""

    def close(self, player_id: str, sessions: Sequence[str], why: str, site: bool = True) -> None: ...
    async def check(self) -> None: ...


class TableChecks(Protocol):
    """``table_requests.TableRequests``, as opening a table uses it."""

    async def on_claim(self, conn: Connection, m: Claim) -> None: ...
    async def check_chips(self, options: TableOptions, people: list[tuple[str, str]]) -> None: ...


RunHere = Callable[["Room"], Callable[[int | None], Awaitable[None]]]
"""``Hub.run_here``: what a room newly stored calls to be run here."""


__all__ = [
    "Handovers",
    "Identities",
    "LobbyUpdates",
    "Resting",
    "RestingTables",
    "RunHere",
    "SessionEnds",
    "TableChecks",
]
