"""Loading the expert robots' compiled code before a terminal game starts (the site loads it
at a robot's first turn, off its event loop)."""

from __future__ import annotations

import sys
import threading


def warm_robots(out=sys.stderr, notice_after: float = 1.0) -> None:
    """Compile the expert's card play (the first time on a machine, about 10 s) or load it from
    numba's cache (a fraction of a second), so that no robot's first move waits on it; say so
    when it takes more than ``notice_after`` seconds. Returns once the notice is written or known
    not to come (a test checks either without guessing how long a thread takes to run)."""
    from ..bots.warm import warm_up

    done = threading.Event()

    def notice() -> None:
        if not done.wait(notice_after):
            print(
                "Preparing the expert robots: their card play is compiled once on this machine (about 10 seconds)...",
                file=out,
                flush=True,
            )

    noticer = threading.Thread(target=notice, daemon=True)
    noticer.start()
    try:
        warm_up()
    finally:
        done.set()
        noticer.join()
