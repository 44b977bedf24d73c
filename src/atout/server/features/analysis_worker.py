"""What the site's analysis worker processes run (``analysis.AnalysisPool``): the warm-up and one decision a task.

A module of its own so that a worker imports the robots' search and numba, not the web server (half the
worker's start: 0.7 s of CPU against 1.4 s measured).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing.context
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ...bots.analysis import WORLDS_FACTOR, Decision, analyse_point, decision_points

_warmed: int | None = None
"""How many compiled functions this process held once warmed (None: not warmed)."""


def warm(server: int | None = None) -> None:
    """A worker's start: it ends with its server ``server`` (a pid: ``follow_parent``), and the compiled card
    play is loaded from numba's on-disk cache (or compiled, about 15 s on an idle machine, the first time on
    a machine or after an upgrade) before any job, not in a person's wait."""
    global _warmed
    from ...bots.warm import warm_up

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # born with it blocked (DeafToCtrlC): now ignored for good
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    follow_parent(os.getppid() if server is None else server)
    warm_up()
    _warmed = compiled()


class _DeafProcess(multiprocessing.context.SpawnProcess):
    def start(self) -> None:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # this thread's mask: the child's at birth
        try:
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


class DeafToCtrlC(multiprocessing.context.SpawnContext):
    """The workers' processes: spawned, and born with Ctrl-C blocked (``warm`` then ignores it). A Ctrl-C in the
    server's terminal reaches its whole process group, and the server ends its workers itself: a worker that heard
    it printed a KeyboardInterrupt's traceback under the server's last words, and one still starting made the server
    log that its workers did not start."""

    Process = _DeafProcess


async def end_workers(executor: ProcessPoolExecutor, within: float = 10.0) -> None:
    """A pool's end at the server's stop: its workers ended at once (one still compiling or analysing is not waited
    for), its jobs dropped, and its thread waited for, within ``within`` seconds, so that its queues are let go
    before the process ends: uvicorn ends it by the signal it caught, before any exit handler, and multiprocessing's
    resource tracker reported the queues' semaphores leaked."""
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        with contextlib.suppress(Exception):
            process.terminate()
    # one shutdown, waiting: a first one without waiting forgot the pool's thread unjoined, still holding the queues
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True), within)


def follow_parent(server: int, every: float = 1.0) -> threading.Thread:
    """End this process once its parent is no longer ``server`` (given by the server: it may die before
    this runs): a server killed (SIGKILL, a crash) never stops its pool, and a spawned worker, which holds
    both ends of its task queue, would wait for tasks for ever, 150 MB each."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(every)
        os._exit(0)

    thread = threading.Thread(target=watch, name="follow the server", daemon=True)
    thread.start()
    return thread


def compiled() -> int:
    """How many compiled versions of the robots' numba functions this process holds, loaded or compiled: a
    job that adds one made a person wait for what the warm-up should have done."""
    from numba.core.registry import CPUDispatcher

    return sum(
        len(value.overloads)
        for name, module in list(sys.modules.items())
        if name.startswith("atout.") and module is not None
        for value in list(vars(module).values())
        if isinstance(value, CPUDispatcher)
    )


def state() -> dict[str, Any]:
    """This worker: its process id, the compiled functions it held once warmed (None: never warmed) and now."""
    return {"pid": os.getpid(), "warmed": _warmed, "compiled": compiled()}


def count_points(record: dict[str, Any], seat: int) -> int:
    """How many decisions of ``seat`` the record holds (what progress counts to)."""
    return sum(1 for _ in decision_points(record, [seat]))


def analyse_nth(record: dict[str, Any], seat: int, seed: str, n: int, factor: int = WORLDS_FACTOR) -> Decision | None:
    """The ``n``-th decision of ``seat`` in ``record``, scored (one task of a worker process)."""
    for i, point in enumerate(decision_points(record, [seat])):
        if i == n:
            return analyse_point(point, seed, factor)
    raise IndexError(f"seat {seat} has fewer than {n + 1} decisions")


def warm_low(server: int | None = None) -> None:
    """A background worker's start (``background.Background``): ``warm``, at a lower priority (nice 10) than the
    server and the analyses people ask for, so the tables' event loop and robots come first on a busy machine."""
    with contextlib.suppress(OSError):
        os.nice(10)
    warm(server)


def timed_nth(
    record: dict[str, Any], seat: int, seed: str, n: int, factor: int = WORLDS_FACTOR
) -> tuple[Decision | None, float]:
    """``analyse_nth`` and the CPU seconds this process spent on it (what the background's budget counts)."""
    began = time.process_time()
    decision = analyse_nth(record, seat, seed, n, factor)
    return decision, time.process_time() - began
