"""Who is at a table, as its room works it out: registered people sharing an address (a game that then stops
counting), the people a new game awaits (fetched wherever they are on the site), and the absence of a person no
page follows. The room's collaborators, each taking what it uses of the room (``PresenceRoom``; split from
``actor.py``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol, Self

from ..kinds import EventType, SeatKind, TableStatus
from ..protocol import ProtocolError
from ..table import Events, Fact, clocks, play

if TYPE_CHECKING:
    from ..table import Table
    from .follower import Follower
    from .services import Make, Services


class PresenceRoom(Protocol):
    """What presence uses of a room (``Room`` is one): its table, whose pages follow or look at it, the seats
    sharing an address as last worked out, its tasks and requests, its services."""

    same_address_seen: tuple[tuple[int, int], list[int]] | None  # (table's, addresses' versions), the seats

    @property
    def table(self) -> Table: ...
    @property
    def services(self) -> Services[Self]: ...
    def follows(self, player: str) -> bool: ...
    def looks(self, player: str) -> bool: ...
    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]: ...
    async def request(self, conn: Follower | None, make: Make) -> None: ...


def same_address(room: PresenceRoom) -> list[int]:
    """``AddressBook.shared`` for this table, worked out again only when its people or the
    addresses seen change."""
    key = (room.table.version, room.services.addresses.version)
    cached = room.same_address_seen
    if cached is None or cached[0] != key:
        cached = room.same_address_seen = (key, room.services.addresses.shared(room.table.seats))
    return cached[1]


def note_facts(room: PresenceRoom) -> None:
    """Hand the table the runtime facts its views show (the seats sharing an address), if they moved."""
    seats = same_address(room)
    if seats != room.table.same_address:
        room.table.evolve({"type": Fact.SAME_ADDRESS, "seats": list(seats)})
        if seats and room.table.status == TableStatus.PLAYING and room.table.game_ranked:
            room.spawn(_unrank(room), "unranked")


async def _unrank(room: PresenceRoom) -> None:
    """A game under way whose seats now share an address (a guest registered during it, say) stops
    counting, in the table's turn (``play.unrank_shared``, which looks again: the game may be over)."""
    with contextlib.suppress(ProtocolError):  # paused: its end looks again (``play._end_game``)
        await room.request(None, lambda b: play.unrank_shared(b, b.table.same_address))


def await_arrivals(room: PresenceRoom, origin: Follower | None) -> None:
    """A game just started: each person in it whose page is not at the table (elsewhere on the site, or
    no page at all) is awaited, with ``timing.arrival`` to come before their clock or absence runs out, and
    fetched wherever they are on the site (``called``). The one who started it is here."""
    table = room.table
    starter = origin.player.id if origin is not None and origin.player is not None else None
    seats = [
        i
        for i, s in enumerate(table.seats)
        if s.kind == SeatKind.PERSON
        and not s.abandoned
        and s.player is not None
        and s.player != starter
        and not room.looks(s.player)
    ]
    if not seats:
        return
    table.evolve({"type": Fact.AWAITED, "seats": seats, "at": room.services.clock.now()})
    if room.services.called is not None:
        for i in seats:
            room.services.called(table.seats[i].player or "", table.id)


def absent_unless_here(room: PresenceRoom, events: Events) -> None:
    """A person who took a robot's seat, or an account a guest's seat was handed to, whom no page here
    follows: their absence clock starts, as for a connection lost (the page that registered reloads and
    its ``join`` is the return; a page that never comes back is absent, then abandons, as any)."""
    now = room.services.clock.now()
    for e in events:
        took = e["type"] == EventType.REPLACED or (e["type"] == EventType.HANDED and not e.get("claim"))
        if took and not room.follows(e["player"]):
            clocks.connection_lost(room.table, e["seat"], now)


__all__ = ["PresenceRoom", "absent_unless_here", "await_arrivals", "note_facts", "same_address"]
