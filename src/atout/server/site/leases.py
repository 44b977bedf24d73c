"""Which process runs each table: its lease in the store (a row with an expiry and a fencing token),
renewed while this process runs the table, taken over from the store when nobody renews it any more.

A process that lost its lease cannot write, because every write of a table checks the token in its own
transaction. Behind a proxy that routes by slot, a table's own slot (or the slot standing in for it)
takes it over first, and a slot back from an outage gets its tables handed home."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..protocol import dumps
from .bus import SITE, BusKind, inbox
from .connection import Connection
from .proxy import slot_of, successor

if TYPE_CHECKING:
    from .members import Members

log = logging.getLogger("atout.server")

LEASE_SECONDS = 6.0
"""How long a lease lasts unless renewed (renewed every third of it): a dead owner's tables wait at
most this long, plus one scan, before another process takes them over."""
SCAN_SECONDS = 1.0
STANDBY_SECONDS = 3.0
"""How long a table whose process died waits for its slot's successor (where the proxy now sends its
people) before any other process takes it over."""
HANDED_SECONDS = 30.0
"""A table this process handed home is its home's to take for this long; after it (its home gone
meanwhile), the next slot takes it as any table nobody runs. Without it, this process's own scan,
running each second, could take a released table back before the home heard it was its to take."""


class Leases:
    """This process's leases, and what it knows of the other processes' (their owners)."""

    def __init__(self, site: Members, lease_seconds: float, wall: Callable[[], float]) -> None:
        self.site = site
        self.lease_seconds = lease_seconds
        self.wall = wall  # leases use wall-clock time: every process of the site must agree on it
        self.tokens: dict[str, int] = {}  # table -> fencing token, for the tables this process runs
        self.owners: dict[str, tuple[str, float]] = {}  # table -> (process, lease expiry), as last read
        self.unowned_since: dict[str, float] = {}  # tables seen without an owner that another slot should take
        self.handed: dict[str, float] = {}  # tables handed home by this process, when: its home takes them first
        self.takeovers = 0
        self.loading: set[str] = set()  # tables whose lease is taken and which are being loaded from the store
        self.orphans: set[str] = set()  # leases held for no table run here, as the last renewal found them

    def fence(self, table_id: str) -> tuple[str, int] | None:
        token = self.tokens.get(table_id)
        return None if token is None else (self.site.process, token)

    def first_in_line(self, table_id: str) -> bool:
        """Whether this process takes an unowned table over at once: it is the table's slot, or the
        slot the proxy sends that slot's people to while it is down. Others wait STANDBY_SECONDS."""
        home = slot_of(table_id)
        if home is None or self.site.slot is None or not self.site.slots:
            return True
        return self.site.slot in (home, successor(home, self.site.slots))

    def new_lease(self) -> tuple[str, float, float]:
        """A new table is stored with this process's lease, in one transaction: stored first and leased
        after, another process's scan could see it unowned in between and take it over (its creator was
        then told to try again)."""
        return (self.site.process, self.wall(), self.lease_seconds)

    def claimed(self, table_id: str, token: int | None) -> None:
        assert token is not None  # new_lease gave one: the table was stored with it
        self.tokens[table_id] = token

    def forget(self, table_id: str) -> None:
        """This process runs ``table_id`` no longer."""
        self.tokens.pop(table_id, None)
        self.owners.pop(table_id, None)

    async def release(self, table_id: str) -> None:
        """This process runs ``table_id`` no longer and nobody needs to (it closed): the lease given back."""
        token = self.tokens.get(table_id)
        self.forget(table_id)
        if token is not None:
            await asyncio.to_thread(self.site.hub.store.release_lease, table_id, self.site.process, token)

    def moved(self, table_id: str, process: str) -> None:
        """A table found a new owner (the bus says so)."""
        self.owners[table_id] = (process, self.wall() + self.lease_seconds)

    def process_gone(self, process: str) -> None:
        """Another process stopped: the owner of its tables is unknown until their leases are taken."""
        for table_id in [t for t, (owner, _) in self.owners.items() if owner == process]:
            del self.owners[table_id]

    async def run(self) -> None:
        """Renew this process's leases; take over tables nobody runs any more."""
        store = self.site.hub.store
        renew_every = self.lease_seconds / 3
        last_renew = 0.0
        while True:
            await asyncio.sleep(SCAN_SECONDS * (0.75 + random.random() / 2))
            try:
                if time.monotonic() - last_renew >= renew_every:
                    await self.give_up_orphans()
                    lost = await asyncio.to_thread(
                        store.renew_leases, self.site.process, dict(self.tokens), self.wall(), self.lease_seconds
                    )
                    last_renew = time.monotonic()
                    for table_id in lost:
                        await self.site.lost(table_id, "lease lost")
                await self.scan()
            except asyncio.CancelledError:
                raise
            except Exception as err:  # the store unreachable: keep trying; writes say so meanwhile
                log.warning('{"event":"lease_loop_failed","error":%s}', dumps({"e": repr(err)}))

    async def scan(self) -> None:
        hub = self.site.hub
        unowned = await asyncio.to_thread(hub.store.unowned_tables, self.wall())
        now = time.monotonic()
        self.unowned_since = {t: self.unowned_since.get(t, now) for t in unowned}
        self.handed = {t: at for t, at in self.handed.items() if now - at < HANDED_SECONDS}
        for table_id in unowned:
            if table_id in hub.rooms:
                continue
            if not self.first_in_line(table_id) and now - self.unowned_since[table_id] < STANDBY_SECONDS:
                continue
            if now - self.handed.get(table_id, -HANDED_SECONDS) < HANDED_SECONDS:
                continue  # released for its home's process: this scan must not take it back before that one
            if await self.take(table_id):
                self.takeovers += 1

    async def hand_home(self, slot: int, process: str) -> None:
        """Slot ``slot``'s process is back: the tables of that slot run here (taken over while it was
        down) go back to it, where the proxy sends their people again. Each in its table's turn: the
        lease released, the table dropped here, the home told to take it now, and the connections
        here that followed it closed, so that their pages reconnect through the proxy to the home."""
        hub = self.site.hub
        for table_id in [t for t in hub.rooms if slot_of(t) == slot]:
            room = hub.rooms.get(table_id)
            token = self.tokens.get(table_id)
            if room is None or token is None:
                continue
            async with room.lock:
                if hub.rooms.get(table_id) is not room:
                    continue
                self.handed[table_id] = time.monotonic()
                await asyncio.to_thread(hub.store.release_lease, table_id, self.site.process, token)
                followers = [c for c in room.followers if isinstance(c, Connection) and not c.remote]
                await self.site.lost(table_id, f"handed back to slot {slot}")
            self.site.bus.post(inbox(process), {"kind": BusKind.TAKE, "table": table_id})
            self.site.followers.closed_for_home(followers, table_id)

    async def take(self, table_id: str) -> bool:
        """Run a table nobody runs (its lease expired, or its owner released it for this process): its
        lease taken, the table loaded from the store, the site told, this process's followers rejoined.
        False if another process was quicker, or the table is closed or gone."""
        hub = self.site.hub
        if table_id in hub.rooms:
            return False
        token = await asyncio.to_thread(
            hub.store.acquire_lease, table_id, self.site.process, self.wall(), self.lease_seconds
        )
        if token is None:
            return False  # another process was quicker: it runs it
        self.tokens[table_id] = token
        self.loading.add(table_id)
        try:
            loaded = await hub.load_table(table_id)
        except Exception as err:  # the store failed mid-load: the lease given up, not renewed for a table not run
            await self._give_up(table_id, token, repr(err))
            return False
        finally:
            self.loading.discard(table_id)
        if not loaded:
            self.tokens.pop(table_id, None)
            return False
        self.owners[table_id] = (self.site.process, self.wall() + self.lease_seconds)
        self.site.bus.post(SITE, {"kind": BusKind.OWNER, "table": table_id, "process": self.site.process})
        await self.site.followers.rejoin(table_id)
        return True

    async def give_up_orphans(self) -> None:
        """The leases held for a table this process does not run (nor is loading), two renewals in a row: given up,
        so that a scan takes the table again. Renewed, such a lease would keep every process from the table for
        good: a table that never moves again (issue 48: a takeover whose load met a store restarting)."""
        hub = self.site.hub
        now = {t for t in self.tokens if t not in hub.rooms and t not in self.loading}
        for table_id in now & self.orphans:
            token = self.tokens.get(table_id)
            if token is not None and table_id not in hub.rooms:
                await self._give_up(table_id, token, "a lease held for a table not run here")
        self.orphans = now - self.orphans

    async def _give_up(self, table_id: str, token: int, why: str) -> None:
        """``table_id``'s lease no longer renewed here, and released if the store answers (else it runs out)."""
        self.forget(table_id)
        log.warning(dumps({"event": "lease_given_up", "table": table_id, "why": why}))
        try:
            await asyncio.to_thread(self.site.hub.store.release_lease, table_id, self.site.process, token)
        except Exception as err:  # the store away: the lease runs out by itself, LEASE_SECONDS at most
            log.warning(dumps({"event": "lease_release_failed", "table": table_id, "error": repr(err)}))

    async def owner(self, table_id: str) -> str | None:
        """The process running ``table_id`` now, or None when nobody does (moving, or no such table)."""
        hub = self.site.hub
        if table_id in hub.rooms:
            return self.site.process
        cached = self.owners.get(table_id)
        now = self.wall()
        if cached is not None and cached[1] > now:
            return cached[0]
        lease = await asyncio.to_thread(hub.store.lease, table_id)
        if lease is None or lease.expires_at <= now or lease.owner == self.site.process:
            self.owners.pop(table_id, None)
            return None
        self.owners[table_id] = (lease.owner, lease.expires_at)
        return lease.owner


__all__ = ["LEASE_SECONDS", "Leases"]
