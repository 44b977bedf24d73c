"""The run's own figures, printed at its end: its time, the machine's CPU over it, and the host's speed at its start
and its end. The suite's budget is six minutes on two cores, and the same machine of the same kind has run the same
suite's work at speeds 2.7 times apart within a day (``benchmarks/results/suite_cpu.md``): a fixed piece of Python
timed beside each run says which speed the run met, so a run's time can be read against the host's, not guessed at."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import pytest

YARDSTICK = compile("total = 0\nfor i in range(1_000_000):\n    total += i * i\n", "yardstick", "exec")
"""A million turns of a loop at a module's level, its names in a dictionary. The same loop in a function, its names
in the frame, took 0.10-0.11 s of CPU at a run's two ends while the suite took 1,496 s of CPU, twice a quiet
evening's: it does not see what slows the suite down. This one took 0.29 s then, and the suite's CPU has been
5,000 to 6,500 times its time (``benchmarks/results/suite_cpu.md``)."""


def yardstick() -> float:
    """The CPU the loop takes, the median of three: the host's speed now (the work never changes)."""
    times = []
    for _ in range(3):
        start = time.process_time()
        exec(YARDSTICK, {})  # a constant of this module
        times.append(time.process_time() - start)
    return sorted(times)[1]


@dataclass(frozen=True)
class Cpu:
    """The machine's CPU seconds so far, from /proc/stat (summed over its cores)."""

    busy: float
    idle: float
    steal: float

    @classmethod
    def now(cls) -> Cpu | None:
        try:
            with open("/proc/stat", encoding="ascii") as f:
                fields = [int(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None  # not Linux: the run's time only
        hz = os.sysconf("SC_CLK_TCK")
        user, nice, system, idle, iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
        return cls((user + nice + system + irq + softirq) / hz, (idle + iowait) / hz, steal / hz)


@dataclass
class Start:
    wall: float
    cpu: Cpu | None
    loop: float


_start: list[Start] = []


def _is_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if _is_controller(config) and not os.environ.get("ATOUT_PRECOLLECTING"):
        loop = yardstick()
        _start.append(Start(time.monotonic(), Cpu.now(), loop))


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:  # type: ignore[no-untyped-def]
    if not _start or not _is_controller(config):
        return
    start = _start[0]
    wall = time.monotonic() - start.wall
    cpu, loop = Cpu.now(), yardstick()
    line = f"this run: {wall:.0f} s"
    if start.cpu is not None and cpu is not None:
        busy = cpu.busy - start.cpu.busy
        line += (
            f", {busy:.0f} s of the machine's CPU ({os.cpu_count()} cores; {cpu.idle - start.cpu.idle:.0f} s idle, "
            f"{cpu.steal - start.cpu.steal:.0f} s stolen)"
        )
    line += (
        f"; the host's speed: a million turns of a Python loop took {start.loop:.2f} s of CPU at the start, "
        f"{loop:.2f} s at the end (tests/run_figures.py)"
    )
    terminalreporter.write_line(line)
