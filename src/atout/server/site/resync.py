"""Resyncing the site after Redis was away: what each process holds, said again from what is true.

Redis keeps nothing on disk here, and what the processes told each other meanwhile was lost. So when a
process's bus comes back (or it finds Redis restarted under it: the epoch key, ``bus.EPOCH``), it says
again what it holds — its people's presence, its guests' names, its tables' lobby lines, which of its
connections follow tables elsewhere — rejoins those tables from the last event each connection heard, and
asks the others to do the same (a ``resync`` message). The processes come back in any order: the last to
come back asks the others, and a rejoin the owner did not hear is sent again until its ``table`` message
comes. A process that did not hear what was sent to it is taken for gone only if it still does not
listen a while later (it may be coming back): until then its people keep their seats, and no absence
clock runs for a silence that was the site's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import orjson

from ..protocol import dumps
from .bus import SITE, BusKind
from .epoch import SETTLE_SECONDS

if TYPE_CHECKING:
    from .members import Members

log = logging.getLogger("atout.server")

GRACE_SECONDS = 5.0
"""How long after a resync (or a message another process did not hear) the site waits for every process
to be back: then the lobby lines nobody said again go, and a process still not listening is gone."""
TICK_SECONDS = 1.0


class Resync:
    """This process's part in resyncing the site."""

    def __init__(self, site: Members) -> None:
        self.site = site
        self.checking: set[str] = set()  # processes that did not hear us, to look at again after the grace
        self.tasks: set[asyncio.Task[Any]] = set()
        self.telling = False  # a presence notice to this process's pages is due

    def later(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def run(self) -> None:
        """Rejoins not answered yet, sent again."""
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self.site.followers.retry()
            except Exception:
                log.exception("rejoin retry failed")

    async def own(self) -> None:
        """This process's bus is back, or Redis restarted: say everything again, ask the others to, rejoin."""
        site = self.site
        site.lobby.unconfirm()
        site.followers.forget_views()  # frames to the stand-ins here were lost: whole states again
        await self.announce()
        site.bus.post(SITE, {"kind": BusKind.RESYNC, "conns": site.followers.following()})
        await site.followers.rejoin_all()
        self.later(self._after_grace())
        self.presence_moved()
        with contextlib.suppress(Exception):  # and notices of sessions ended meanwhile: their sockets close now
            await site.hub.sessions.check()
        log.warning('{"event":"resynced","following":%d}', len(site.followers.following()))

    async def heard(self, body: dict[str, Any]) -> None:
        """Another process resynced: say ours again, forget what we sent its connections, drop the
        stand-ins of its connections that closed meanwhile, tell it ours, and rejoin."""
        site, process = self.site, body["from"]
        site.followers.forget_views(process)
        await site.followers.keep_only(process, body.get("conns") or [])  # in order with its requests
        site.bus.post(SITE, {"kind": BusKind.FOLLOWING, "conns": site.followers.following()})
        self.later(self._said_again())  # in the background: the bus goes on meanwhile
        self.presence_moved()  # its people are online again

    async def _said_again(self) -> None:
        await self.announce()
        await self.site.followers.rejoin_all()

    async def following(self, body: dict[str, Any]) -> None:
        """Another process said which of its connections follow tables elsewhere."""
        await self.site.followers.keep_only(body["from"], body.get("conns") or [])

    async def announce(self) -> None:
        """Presence, guests' names and lobby lines (or their end) of this process, said again."""
        hub = self.site.hub
        players = {c.player.id for c in hub.connections if c.player is not None and c.player.registered}
        guests = {
            (c.player.name, c.player.id)
            for c in hub.connections
            if c.player is not None and not c.player.registered and not c.closed
        }
        try:
            await self.site.bus.announce(sorted(players), sorted(guests))
        except Exception as err:  # away again: the next resync says it
            log.warning('{"event":"announce_failed","error":%s}', dumps({"e": repr(err)}))
        for room in list(hub.rooms.values()):  # a closed one too: its closing may have been lost
            self.site.lobby.post(room)

    def silent(self, process: str) -> None:
        """A process did not hear a message sent to it: gone, or not back on the bus yet. Looked at again
        after the grace; gone only if it still does not listen."""
        if process == self.site.process or process in self.checking:
            return
        self.checking.add(process)
        self.later(self._still_silent(process))

    async def _still_silent(self, process: str) -> None:
        try:
            await asyncio.sleep(GRACE_SECONDS)
            listening = await self.site.bus.listening([process])
        except Exception:  # Redis away: no verdict; the next message not heard asks again
            return
        finally:
            self.checking.discard(process)
        if process not in listening:
            log.warning('{"event":"process_silent","process":%s}', orjson.dumps(process).decode())
            await self.site.process_gone(process)

    def presence_moved(self) -> None:
        """Soon (SETTLE_SECONDS: the others have said again who is online), the pages of registered
        people here ask again where their friends are: they may have been told offline meanwhile. One
        notice for the resyncs of those seconds."""
        if not self.telling:
            self.telling = True
            self.later(self._tell_presence())

    async def _tell_presence(self) -> None:
        try:
            await asyncio.sleep(SETTLE_SECONDS)
        finally:
            self.telling = False
        for conn in list(self.site.hub.connections):
            if conn.player is not None and conn.player.registered:
                conn.send({"type": "presence", "name": None})

    async def _after_grace(self) -> None:
        """The grace over: lobby lines nobody said again go; stand-ins of processes not listening go."""
        await asyncio.sleep(GRACE_SECONDS)
        self.site.lobby.drop_unconfirmed()
        processes = {where for where, _ in self.site.followers.remote}
        for process in processes:
            self.silent(process)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


__all__ = ["GRACE_SECONDS", "Resync"]
