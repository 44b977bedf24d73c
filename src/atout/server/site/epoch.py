"""The epoch of the site's Redis: a key every process reads and the first to find it missing sets.

Redis keeps nothing on disk here, so a restarted Redis lacks it, and a process that finds it new knows
that what it told Redis (presence, guests' names) is gone and that messages were lost, even after a
restart so quick that its connections never broke (Redis's client reconnects by itself): it resyncs
(``resync.py``)."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

EPOCH = "atout:epoch"
EPOCH_SECONDS = 1.0
"""How often each process reads the epoch (and whenever its bus reconnects)."""
SETTLE_SECONDS = 3.0
"""After a Redis restart, a new guest's name waits until the epoch is this old: the other processes
have come back by then (they reconnect within a second or two) and said which names their guests hold."""


class Epoch:
    """The epoch as this process last read it."""

    def __init__(self, redis: Any) -> None:
        self._redis = redis
        self.value: str | None = None

    async def read(self) -> bool:
        """Read the epoch (set it, first after a restart); True when it is not the one this process knew."""
        value = await self._redis.get(EPOCH)
        if value is None:
            await self._redis.set(EPOCH, f"{secrets.token_hex(8)} {time.time():.3f}", nx=True)
            value = await self._redis.get(EPOCH)
        epoch = value.decode() if isinstance(value, bytes) else str(value)
        changed = self.value is not None and epoch != self.value
        self.value = epoch
        return changed

    async def settle(self) -> None:
        """Wait until the epoch is SETTLE_SECONDS old (at once, but in the seconds after a restart)."""
        at = float((self.value or "").rpartition(" ")[2] or 0)
        wait = at + SETTLE_SECONDS - time.time()
        if wait > 0:
            await asyncio.sleep(min(wait, SETTLE_SECONDS))


__all__ = ["EPOCH", "EPOCH_SECONDS", "SETTLE_SECONDS", "Epoch"]
