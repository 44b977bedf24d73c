"""Telling a room's followers: each one's events and state (or its patch), made from the table's observer.

A telling works out once what every viewer shares (the shared view, the spectator's DealView, their
changes since the last telling) and then only what differs per follower; followers whose frame is the
same (spectators, and seats whose own fields stayed) get the same text, made once (docs/protocol.md).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Protocol

from ..protocol import dumps
from ..table.observer import Parts, changed, deal_of, patch_for, unmoved
from ..told import Event, Patch, TableState
from . import presence

if TYPE_CHECKING:
    from ..table import Observer
    from .follower import Follower


class TellingRoom(presence.PresenceRoom, Protocol):
    """What its teller uses of a room (``Room`` is one): its followers, each one's seat and the options' change it
    saw, the table's observer; and what presence uses (the seats sharing an address, shown in every state)."""

    @property
    def followers(self) -> Collection[Follower]: ...
    @property
    def observer(self) -> Observer: ...
    @property
    def seen_options(self) -> dict[str, int]: ...
    def viewer(self, conn: Follower) -> int | None: ...
    def spectators(self) -> int: ...


Audience = tuple[list[tuple["Follower", int | None]], set[int | None], int]


class Teller:
    """Tells ``room``'s followers what their viewer may see."""

    def __init__(self, room: TellingRoom) -> None:
        self.room = room
        self.told: tuple[Any, ...] = (None, None, None, None)  # the last telling's shared view, public view,
        # and the shared view's lasting and passing parts
        self._followers_changed = 0  # counts the changes of the room's followers, for ``_audience``
        self._audience_seen: tuple[Any, Audience] | None = None

    def followers_moved(self) -> None:
        self._followers_changed += 1

    def tell(self, events: list[dict[str, Any]], origin: Follower | None = None, ref: str | None = None) -> None:
        """Send each follower the events as its viewer may see them, the last with its whole state (or,
        to a client that asked for patches, what changed in it); the requester's first event echoes its
        request's ``ref``."""
        room = self.room
        observer = room.observer
        table_id = room.table.id
        followers, viewers, spectators = self._audience()
        lasting, passing = observer.shared_parts(room.services.clock.now(), spectators)
        shared = {**lasting, **passing}
        public, private = observer.deal_parts(viewers)
        seen_by = observer.public_events(events, viewers)
        # what changed since the last telling, worked out once for every client that had that one (when
        # the lasting parts are the same dict as then, only the passing ones may have changed)
        last_shared, last_public, last_lasting, last_passing = self.told
        if last_shared is None:
            shared_changed = None
        elif lasting is last_lasting:
            shared_changed = changed(last_passing, passing)
        else:
            shared_changed = changed(last_shared, shared)
        public_changed = None if last_public is None or public is None else observer.public_changes(last_public, public)
        self.told = (shared, public, lasting, passing)
        last = len(events) - 1
        alike: tuple[list[dict[str, Any]], str] | None = None  # the last frame of those whose patch is the
        # shared and public changes alone (spectators, and seats whose own fields stayed): its events, its text
        for conn, viewer in followers:
            seen = room.seen_options.get(conn.player.id, -1) if conn.player else -1
            own = None if public is None or viewer is None else private[viewer]
            options_changed = observer.options_changed(seen)
            basis = conn.views.get(table_id) if conn.patches else None
            for i, (e, public_event) in enumerate(zip(events, seen_by[viewer], strict=True)):
                message: Event = {"type": "event", "table": table_id, "seq": e["seq"], "event": public_event}
                if i == last:
                    parts: Parts = (shared, viewer, options_changed, public, own)
                    if basis is None:
                        message["state"] = {**shared, "you": viewer, "changed": options_changed, "deal": deal_of(parts)}
                    else:
                        conn.views[table_id] = parts
                        public_ok = public_changed if basis[3] is last_public else None
                        if (
                            public_ok is not None
                            and shared_changed is not None
                            and not (i == 0 and conn is origin)
                            and unmoved(basis, parts, last_shared)
                        ):
                            its_events = seen_by[viewer]
                            if alike is None or alike[0] is not its_events:  # made once, sent to each of them
                                patched(message, patch_for(basis, parts, last_shared, shared_changed, public_ok))
                                alike = (its_events, dumps(message))
                            conn.send(alike[1])
                            continue
                        patched(message, patch_for(basis, parts, last_shared, shared_changed, public_ok))
                if i == 0 and ref is not None and conn is origin:
                    message["ref"] = ref
                conn.send(message)

    def _audience(self) -> Audience:
        """Each follower with the seat it sees the table from, the viewers among them, and how many are
        spectators: worked out again only when the followers or the table's people may have changed
        (a non-action event, another table object), not at every action's telling."""
        room = self.room
        table = room.table
        key = (table, table.version, self._followers_changed)
        cached = self._audience_seen
        if cached is None or cached[0] != key:
            followers = [(conn, room.viewer(conn)) for conn in room.followers]
            viewers = {v for _, v in followers}
            spectators = sum(1 for _, v in followers if v is None)  # room.spectators(), from what is at hand
            cached = self._audience_seen = (key, (followers, viewers, spectators))
        return cached[1]

    def tell_state(self, joining: Follower | None = None, log: list[dict[str, Any]] | None = None) -> None:
        """A ``table`` message to every follower: for runtime changes that make no numbered event
        (a connection lost or back before the absence clock ran out, a pause); ``joining``'s with ``log``."""
        for conn in list(self.room.followers):
            conn.send(self.state_for(conn, log if conn is joining else None))

    def state_for(self, conn: Follower, log: list[dict[str, Any]] | None = None) -> TableState:
        """``conn``'s ``table`` message: its viewer's whole TableView (and the log, to a page that arrives)."""
        room = self.room
        presence.note_facts(room)
        seen = room.seen_options.get(conn.player.id, -1) if conn.player else -1
        message: TableState = {
            "type": "table",
            "table": room.table.id,
            "seq": room.table.seq,
            "state": room.observer.view(room.viewer(conn), room.services.clock.now(), room.spectators(), seen),
        }
        if log is not None:
            message["log"] = log
        return message


def patched(message: Event, patch: Patch) -> None:
    """``message`` with ``patch``'s parts (a state's changes in place of the state)."""
    if "patch" in patch:
        message["patch"] = patch["patch"]
    if "deal_patch" in patch:
        message["deal_patch"] = patch["deal_patch"]


__all__ = ["Teller", "TellingRoom"]
