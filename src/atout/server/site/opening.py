"""Opening tables: a person's ``create``, a ``quick`` game (a seat at a table with people, or a new quick
table with robots), the day's ``daily`` deal. A new table is run here once the store holds it."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from ..features import daily
from ..features.daily_marks import mark
from ..features.limits import Budget
from ..options import OptionError, TableOptions
from ..protocol import Claim, Create, Daily, ProtocolError, Quick, dumps
from ..room import Room
from ..table import Table, play
from .connection import Connection
from .quick import QUICK_OPTIONS, pick

if TYPE_CHECKING:
    from ..clock import Clock
    from ..room import Services
    from ..store import Store
    from .config import Config
    from .local import Site
    from .roles import LobbyUpdates, RestingTables, RunHere, TableChecks


class OpeningHub(Protocol):
    """What opening tables uses of its hub (``Hub`` is one)."""

    @property
    def rooms(self) -> dict[str, Room]: ...
    @property
    def store(self) -> Store: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def config(self) -> Config: ...
    @property
    def site(self) -> Site: ...
    @property
    def services(self) -> Services[Room]: ...
    @property
    def lobby(self) -> LobbyUpdates: ...
    @property
    def release(self) -> RestingTables: ...
    @property
    def tables(self) -> TableChecks: ...
    @property
    def run_here(self) -> RunHere: ...
    async def spend(self, conn: Connection, budget: Budget) -> None: ...


class Opening:
    """New tables, opened for a person's request."""

    def __init__(self, hub: OpeningHub) -> None:
        self.hub = hub

    async def on_create(self, conn: Connection, m: Create) -> None:
        player = conn.who
        try:
            options = TableOptions.from_json(m.options)
        except OptionError as err:
            raise ProtocolError("bad_option", str(err)) from None
        await self.hub.spend(conn, Budget.TABLE)
        await self.hub.tables.check_chips(options, [(player.id, player.name)])
        table = Table(self.hub.site.new_table_id(), m.players, options, self.hub.config.timing)
        room = Room(table, self.hub.services)

        await room.create(conn, m.ref, self.hub.run_here(room), lease=self.hub.site.new_lease())
        room.start()

    async def on_quick(self, conn: Connection, m: Quick) -> None:
        """A game now: a seat at a table of that size with people (a robot's, taken at the next deal, or a
        free one), else a new quick table with robots, started at once (``quick.py``)."""
        player = conn.who
        lines = self.hub.lobby.lines_here(conn)
        lines += [line for line in self.hub.site.tables_for(conn) if line["id"] not in self.hub.rooms]
        table_id = pick(lines, m.players, m.near)
        if table_id is None:
            await self.hub.spend(conn, Budget.TABLE)  # a new table, as a create makes
            table = Table(self.hub.site.new_table_id(), m.players, QUICK_OPTIONS, self.hub.config.timing)
            room = Room(table, self.hub.services)

            await room.create(conn, m.ref, self.hub.run_here(room), quick=True, lease=self.hub.site.new_lease())
            room.start()
            await room.request(conn, lambda b: play.quick_start(b, player.id))
        elif await self.hub.release.bring_back(table_id):
            await self.hub.tables.on_claim(conn, Claim(type="claim", table=table_id, ref=m.ref))
        else:  # run by another process: the claim goes there, as the person's own request would
            claim: dict[str, Any] = {"type": "claim", "table": table_id}
            if m.ref is not None:
                claim["ref"] = m.ref
            await self.hub.site.forward(conn, table_id, dumps(claim), m.ref)

    def daily_day(self, day: str) -> daily.Day:
        """The daily deal's set of ``day``, drawn and committed to now if nobody asked for it yet (a thread's)."""
        return daily.ensure_day(
            self.hub.store.engine, day, self.hub.config.daily_deals, self.hub.config.daily_level, self.hub.clock.now()
        )

    async def on_daily(self, conn: Connection, m: Daily) -> None:
        """The day's daily deal (``features/daily.py``): a registered person's one play of it, at a table of its own
        (the person at seat 0, the day's robots in the others), stored as it starts and started at once."""
        player = conn.who
        if not player.registered:
            raise ProtocolError(
                "registered_only", "the daily deal is for registered players: log in (or register) to play it"
            )
        day = await asyncio.to_thread(self.daily_day, daily.day_of(self.hub.clock.now()))
        table = Table(self.hub.site.new_table_id(), day.players, day.options(), self.hub.config.timing)
        salt = day.salt or ""  # every day has one (drawn with it, or by migration 0016)
        await asyncio.to_thread(
            daily.begin,
            self.hub.store.engine,
            day.day,
            player.id,
            table.id,
            self.hub.clock.now(),
            mark(salt, "address", conn.address),
            mark(salt, "browser", conn.browser),
        )
        room = Room(table, self.hub.services)

        await room.create(
            conn,
            m.ref,
            self.hub.run_here(room),
            lease=self.hub.site.new_lease(),
            daily=({"day": day.day, "deals": day.deals}, day.seed),
        )
        room.start()
        await room.request(conn, lambda b: play.daily_start(b, player.id))
