"""Loading the expert robots' compiled code before a terminal game starts (the site loads it
at a robot's first turn, off its event loop)."""

from __future__ import annotations

import sys
import threading


def warm_robots(out=sys.stderr) -> None:
    """Compile the expert's card play (the first time on a machine, about 10 s) or load it from
    numba's cache (a fraction of a second), so that no robot's first move waits on it; say so
    when it takes more than a second."""
    from ..bots.fastplay import warm_up

    done = threading.Event()

    def notice() -> None:
        if not done.wait(1.0):
            print("Preparing the expert robots: their card play is compiled once on this machine "
                  "(about 10 seconds)...", file=out, flush=True)

    threading.Thread(target=notice, daemon=True).start()
    try:
        warm_up()
    finally:
        done.set()
