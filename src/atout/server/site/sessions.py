"""Sessions that end (a logout, every session ended, an account deleted, one expired): the sockets they
opened hear why and close, here and on every process; a sweep catches a notice lost on the way."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..kinds import TableStatus
from ..logs import event_log
from ..protocol import ProtocolError, SessionEnd, SessionEnded
from ..store import StoreError
from ..table import seating
from .connection import Connection

if TYPE_CHECKING:
    from ..clock import Clock
    from ..features.robot_accounts import RobotAccounts
    from ..room import Room
    from ..store import Store
    from .local import Site


class SessionsHub(Protocol):
    """What ending sessions uses of its hub (``Hub`` is one)."""

    @property
    def rooms(self) -> dict[str, Room]: ...
    @property
    def connections(self) -> set[Connection]: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def store(self) -> Store: ...
    @property
    def site(self) -> Site: ...
    @property
    def accounts(self) -> Any: ...
    @property
    def robots(self) -> RobotAccounts | None: ...
    def spawn(self, work: Awaitable[Any]) -> None: ...


class Sessions:
    """The ending of sessions, and the sockets they opened."""

    SWEEP_SECONDS = 60.0
    """How often the sessions of open sockets are checked in the store: a notice lost on the way (a bus
    outage) closes its sockets this late at most; and sockets in use keep their sessions alive."""
    ENDED_KEPT = 600.0
    """How long an ended session is remembered, to close a socket whose handshake crossed the notice."""

    def __init__(self, hub: SessionsHub) -> None:
        self.hub = hub
        self.ended: dict[str, float] = {}  # sessions that ended lately (key -> when): a socket they open is closed

    def close(self, player_id: str, sessions: Sequence[str], why: str, site: bool = True) -> None:
        """Sessions of ``player_id`` ended (``why``: a SessionEnd): the sockets they opened hear it and
        close, here and, through the site, on every process; an account deleted also leaves its seats."""
        now = self.hub.clock.now()
        self.ended = {k: t for k, t in self.ended.items() if t > now - self.ENDED_KEPT}
        keys = set(sessions)
        for key in keys:
            self.ended[key] = now
        for conn in list(self.hub.connections):
            if conn.session is not None and conn.session in keys:
                self.end(conn, why)
        if why == SessionEnd.DELETED:
            self.hub.spawn(self.leave_seats(player_id))
        if site:
            self.hub.site.sessions_ended(player_id, sorted(keys), why)

    def end(self, conn: Connection, why: str) -> None:
        conn.send(SessionEnded(why=SessionEnd(why)).to_json())
        conn.close_now()  # the pump closes the socket after that frame; the endpoint then disconnects it

    async def leave_seats(self, player_id: str) -> None:
        """A deleted account's seats at the tables run here: left at once (in a game, an abandonment: the
        robot plays the rest, as after a lost connection, without waiting for a return that cannot come)."""
        for room in list(self.hub.rooms.values()):
            if room.table.status == TableStatus.CLOSED or room.table.seat_of(player_id) is None:
                continue
            try:
                await room.request(None, lambda b: seating.leave(b, player_id, None, why="deleted their account"))
            except (ProtocolError, StoreError) as err:  # paused, or gone meanwhile: its absence clock goes on
                event_log(event="leave_failed", table=room.id, error=str(err))

    async def check(self) -> None:
        """Close the sockets whose session is over in the store (a notice this process missed, a session
        expired), and record the others as in use."""
        if self.hub.accounts is None:
            return
        keys = {c.session for c in self.hub.connections if c.session is not None and not c.closed}
        if not keys:
            return
        live = await asyncio.to_thread(self.hub.accounts.live, sorted(keys))
        if self.hub.robots is not None:  # robot accounts' sockets: their tokens' keys
            live |= await asyncio.to_thread(self.hub.robots.live, sorted(keys - live))
        for conn in list(self.hub.connections):
            if conn.session is not None and conn.session not in live and not conn.closed:
                self.end(conn, SessionEnd.ENDED)

    async def sweep(self) -> None:
        while True:
            await self.hub.clock.sleep_until(self.hub.clock.now() + self.SWEEP_SECONDS)
            try:
                await self.check()
            except Exception as err:  # the store away (logged once, by its health): the next sweep tries again
                if self.hub.store.health.report(err) is None:
                    event_log(event="session_check_failed", error=repr(err))
