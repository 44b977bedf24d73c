"""The lobby: the tables a connection may see (a private table's only to those it admits), sent whole
on ``lobby`` and then line by line as tables change, here and on the site's other processes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..kinds import TableStatus
from ..protocol import Lobby
from ..room import Room
from ..table import Table, admitted
from .connection import Connection
from .local import line_for

if TYPE_CHECKING:
    from .local import Site
    from .roles import Identities, RestingTables


class LobbyHub(Protocol):
    """What the lobby's lists use of their hub (``Hub`` is one)."""

    @property
    def rooms(self) -> dict[str, Room]: ...
    @property
    def site(self) -> Site: ...
    @property
    def identity(self) -> Identities: ...
    @property
    def release(self) -> RestingTables: ...
    def lobby_connections(self) -> list[Connection]: ...


class LobbyLists:
    """The lobby's lists, as each watcher may see them."""

    def __init__(self, hub: LobbyHub) -> None:
        self.hub = hub

    def admits(self, table: Table, conn: Connection) -> bool:
        return conn.player is not None and table.admits(
            conn.player.id, conn.player.name, self.hub.identity.master_friends(table)
        )

    def lines_here(self, conn: Connection) -> list[dict[str, Any]]:
        """The lobby lines of the tables this process has, in memory or resting (``release.py``), that
        ``conn`` may see, as its person sees them."""
        player = conn.who.id
        lines = [
            line_for(r.summary(), r.table.people(), player)
            for r in self.hub.rooms.values()
            if r.table.status != TableStatus.CLOSED and self.admits(r.table, conn)
        ]
        friends = self.hub.identity.friends_of
        lines += [
            line_for(rest.summary, rest.people, player)
            for table_id, rest in self.hub.release.lines()
            if table_id not in self.hub.rooms
            and (
                rest.admit is None
                or admitted(player, rest.admit["seated"], rest.admit["invited"], friends(rest.admit["master"]))
            )
        ]
        return lines

    async def on_lobby(self, conn: Connection, m: Lobby) -> None:
        conn.lobby = True
        tables = self.lines_here(conn)
        tables += [line for line in self.hub.site.tables_for(conn) if line["id"] not in self.hub.rooms]
        conn.send({"type": "lobby", "tables": tables})

    def update(self, room: Room) -> None:
        table = room.table
        summary = None if table.status == TableStatus.CLOSED else room.summary()
        people = table.people()
        for conn in self.hub.lobby_connections():
            if summary is None or not self.admits(table, conn):
                conn.send({"type": "lobby_remove", "table": table.id})
            else:
                conn.send({"type": "lobby_table", "table": line_for(summary, people, conn.who.id)})
        self.hub.site.table_changed(room)
