"""What a room is given by its process (``Services``: the store, the clock, the site's fences and callbacks, the
process's counters and threads), and what a request is (``Make``). Apart from the actor, so that the room's helpers
name what they use of a room (each its own ``Protocol``, which ``Room`` is) and none imports the actor: the room's
wing has no circle of imports, not even for the type checker (issue 49, item 3)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..addresses import AddressBook
from ..clock import Clock
from ..store import Store, StoreWriter
from ..table import Batch, Timing
from .store_watch import StoreWatch

ROBOT_THREADS = 2
"""Threads the process's robots think in (their search holds the interpreter: more would not think faster)."""

R = TypeVar("R")
"""The rooms the callbacks are given (``Room``): the services name no room, the site's callbacks take its own."""

Make = Callable[[Batch], Awaitable[None] | None]
"""A request: it decides into the batch (the table, at the request's time), or refuses; one that waits for
something first (the chips' check of a game's start) is a coroutine."""


@dataclass
class Stats:
    """This process's counters (``/health``, ``/metrics``)."""

    actions: int = 0  # game actions accepted by the tables run here
    frames: int = 0  # frames made here for connections, this process's and others'
    crossed: int = 0  # of those, frames for another process's connections: they crossed the bus
    released: int = 0  # rooms that left memory, nobody at their table (site/release.py)
    tasks_failed: int = 0  # rooms' tasks that ended by an exception (each logged with its traceback)


@dataclass
class Services(Generic[R]):
    """What a room (``R``) uses of its process: the store, the clock, the site's fences, the lobby."""

    store: Store
    writer: StoreWriter
    clock: Clock
    timing: Timing
    addresses: AddressBook
    fence: Callable[[str], tuple[str, int] | None]
    lobby: Callable[[R], None]  # the table's line in the lobby may have changed
    stats: Stats = field(default_factory=Stats)
    closed: Callable[[R], None] | None = None  # a tournament's table closed (its round may be over)
    called: Callable[[str, str], None] | None = None  # (player, table): a new game waits for them, wherever they are
    watch: StoreWatch = field(init=False)  # the store probed while it is away (one for the process)
    thinking: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=ROBOT_THREADS, thread_name_prefix="atout-robot")
    )  # the robots' threads, apart from the store's

    def __post_init__(self) -> None:
        self.watch = StoreWatch(self.store)


__all__ = ["ROBOT_THREADS", "Make", "Services", "Stats"]
