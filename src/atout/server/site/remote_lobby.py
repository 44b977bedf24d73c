"""The lobby across processes: each process posts its tables' lobby lines on the bus, and keeps the lines
of the tables the others run, shown to its own connections as they may see them (a private table's only
to whom it admits, which each process checks with its own cache of friends)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..kinds import TableStatus
from ..table import admitted
from .bus import SITE, BusKind
from .connection import Connection
from .local import line_for

if TYPE_CHECKING:
    from ..room import Room
    from .members import Members


@dataclass(frozen=True)
class RemoteTable:
    """A table another process runs, as its last lobby line said: the summary, whom a private one
    admits (None: everyone), and the person at each seat (for their own ``you``, and presence)."""

    id: str
    summary: dict[str, Any]
    admit: dict[str, Any] | None
    people: list[str | None]


class RemoteLobby:
    """The lobby lines of the tables other processes run, and posting ours."""

    def __init__(self, site: Members) -> None:
        self.site = site
        self.lines: dict[str, RemoteTable] = {}  # the tables other processes run, as their lobby lines say
        self.unconfirmed: set[str] = set()  # lines kept from before a resync, not said again since

    def post(self, room: Room) -> None:
        """A table of ours changed in the lobby: the other processes show it (or drop it, closed); a
        private one only to whom it admits, which each process checks."""
        table = room.table
        summary = None if table.status == TableStatus.CLOSED else room.summary()
        self.site.bus.post(
            SITE,
            {
                "kind": BusKind.LOBBY,
                "table": table.id,
                "summary": summary,
                "admit": table.admission(),
                "people": table.people(),
            },
        )

    def tables_for(self, conn: Connection) -> list[dict[str, Any]]:
        """The tables other processes run, private ones to whom they admit, as this person sees them."""
        player = conn.who.id
        return [
            line_for(line.summary, line.people, player) for line in self.lines.values() if self.admits(line.admit, conn)
        ]

    def seated(self, player_ids: set[str]) -> dict[str, list[tuple[str, str, dict[str, Any] | None]]]:
        out: dict[str, list[tuple[str, str, dict[str, Any] | None]]] = {}
        for line in self.lines.values():
            for player in line.people:
                if player in player_ids:
                    out.setdefault(player, []).append((line.id, line.summary["status"], line.admit))
        return out

    def admits(self, admit: dict[str, Any] | None, conn: Connection) -> bool:
        """Whether a table another process runs, with that admission, is shown to this connection."""
        if admit is None:
            return True
        player = conn.player
        return player is not None and admitted(
            player.id, admit["seated"], admit["invited"], self.site.hub.identity.friends_of(admit["master"])
        )

    def show_private(self, player_ids: tuple[str, ...] | list[str]) -> None:
        """The private tables other processes run whose master's friends changed: shown again to whom
        they admit."""
        for line in list(self.lines.values()):
            if line.admit is not None and line.admit["master"] in player_ids:
                self.show(line)

    def friends_heard(self, body: dict[str, Any]) -> None:
        """Another process changed a friendship: this process's cache forgets it, and the private tables
        the others run are shown again to whom they now admit."""
        self.site.hub.identity.forget_friends(*body["players"], site=False)
        self.show_private(body["players"])

    def heard(self, body: dict[str, Any]) -> None:
        """Another process's lobby line: kept and shown, or (closed) dropped."""
        table_id, summary, admit, people = body["table"], body["summary"], body.get("admit"), body.get("people") or []
        self.unconfirmed.discard(table_id)
        if summary is None or summary.get("status") == TableStatus.CLOSED:
            self.remove(table_id)
            return
        self.lines[table_id] = line = RemoteTable(table_id, summary, admit, people)
        self.show(line)

    def remove(self, table_id: str) -> None:
        """A line goes, from each page here that may show it (a closed table said again by a resync,
        never shown here, goes unsaid)."""
        if self.lines.pop(table_id, None) is None:
            return
        for conn in self.site.hub.lobby_connections():
            conn.send({"type": "lobby_remove", "table": table_id})

    def unconfirm(self) -> None:
        """A resync begins: every line must be said again by the process that runs its table."""
        self.unconfirmed = set(self.lines)

    def drop_unconfirmed(self) -> None:
        """The lines nobody said again since the resync: their tables are run nowhere now (closed, or
        their process gone; one taken over is said again by its new owner)."""
        for table_id in sorted(self.unconfirmed):
            if table_id in self.site.hub.rooms:  # run here now: the lobby lists it from here
                self.lines.pop(table_id, None)
            else:
                self.remove(table_id)
        self.unconfirmed = set()

    def show(self, line: RemoteTable) -> None:
        """The lobby line to each connection here it admits; a private table's removal to the others
        (it may have been shown to them before: a seat left, a friendship ended)."""
        for conn in self.site.hub.lobby_connections():
            if self.admits(line.admit, conn):
                conn.send({"type": "lobby_table", "table": line_for(line.summary, line.people, conn.who.id)})
            elif line.admit is not None:
                conn.send({"type": "lobby_remove", "table": line.id})


__all__ = ["RemoteLobby", "RemoteTable"]
