"""Rooms nobody is at leave memory (issue 40): a night of tables opened and left must not keep every one.

A room vacant (``room.vacant``: no page follows it, no person sits there or it is closed, nothing to come by
itself) for ``Config.idle_release`` seconds of the server's clock is released: out of the hub's rooms, its
timer and robots stopped, its lease given back (``Site.release``). Nothing else holds it: a closed table's
pages stopped following it when it closed (``Room.unfollow_all``), and the lobby's lines, the tournaments'
clock and the site's followers name tables by id. A closed table is gone for good (a request about it is
answered ``no_table``, as before its release); an open one rests, its lobby line kept, and comes back from
the store, as it stood, at the first request that names it (a join by its link, the lobby, a quick game,
a review), through the path a restart takes (``Hub.load_table``)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from ..kinds import TableStatus
from ..logs import event_log
from ..room import Room, vacant
from .roles import Resting

if TYPE_CHECKING:
    from ..clock import Clock
    from ..room import Stats
    from .config import Config
    from .local import Site


class ReleaseHub(Protocol):
    """What releasing rooms uses of its hub (``Hub`` is one)."""

    @property
    def rooms(self) -> dict[str, Room]: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def config(self) -> Config: ...
    @property
    def site(self) -> Site: ...
    @property
    def stats(self) -> Stats: ...
    async def load_table(self, table_id: str) -> bool: ...


class Release:
    """Vacant rooms out of memory after the idle time, and open ones back from the store when asked for."""

    def __init__(self, hub: ReleaseHub) -> None:
        self.hub = hub
        self.resting: dict[str, Resting] = {}  # open tables released here: brought back when named
        self._returning: dict[str, asyncio.Future[bool]] = {}  # one load per table, however many ask at once

    async def run(self) -> None:
        """Release each room once vacant for the idle time: asleep until the first one is due (a room that
        becomes vacant later is due later than the next look), never longer than the idle time."""
        hub = self.hub
        idle = hub.config.idle_release
        if idle <= 0:  # 0: rooms stay (a test, or an operator who wants it)
            return
        while True:
            try:
                due = await self.sweep()
            except Exception as err:  # a bug must not stop the releasing
                event_log(event="release_failed", error=repr(err))
                due = hub.clock.now() + idle
            await hub.clock.sleep_until(due)

    async def sweep(self) -> float:
        """Release the rooms vacant for the idle time; when the next one may be due."""
        hub = self.hub
        idle = hub.config.idle_release
        now = hub.clock.now()
        due = now + idle
        for room in list(hub.rooms.values()):
            if not vacant(room):
                continue
            if now - room.quiet_since >= idle:
                await self.release(room)
            else:
                due = min(due, room.quiet_since + idle)
        return due

    async def release(self, room: Room) -> bool:
        """``room`` out of memory, if it is still run here, vacant, and the site lets it go (one process
        alone, at once; with several, a closed table's, once its lease is given back): checked again and
        removed without yielding, so no request takes it in between (one that held it already is
        refused, ``Room.check_here``)."""
        hub = self.hub
        table = room.table
        if hub.rooms.get(table.id) is not room or not vacant(room) or not await hub.site.release(room):
            return False
        if hub.rooms.get(table.id) is not room or not vacant(room):  # a closed table's lease went: it stays so
            return False
        del hub.rooms[table.id]
        room.released = True
        room.drop()
        if table.status != TableStatus.CLOSED:
            self.resting[table.id] = Resting(room.summary(), table.admission(), table.people())
        hub.stats.released += 1
        event_log(event="released", table=table.id, seq=table.seq, status=table.status)
        await room.stop()
        room.dismantle()
        return True

    async def bring_back(self, table_id: str) -> bool:
        """Whether ``table_id`` is run here, an open table resting here loaded again from the store first."""
        if table_id in self.hub.rooms:
            return True
        if table_id not in self.resting:
            return False
        loading = self._returning.get(table_id)
        if loading is None:
            loading = self._returning[table_id] = asyncio.ensure_future(self._load(table_id))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> bool:
        try:
            back = await self.hub.load_table(table_id)  # False: closed or gone meanwhile
        finally:
            self._returning.pop(table_id, None)
        self.resting.pop(table_id, None)
        event_log(event="brought_back", table=table_id, back=back)
        return back

    def lines(self) -> list[tuple[str, Resting]]:
        """The resting tables' lobby lines, with their ids."""
        return list(self.resting.items())


__all__ = ["Release", "Resting"]
