"""pytest plugin of ``benchmarks/suite_cpu.py``: in each test process, the CPU of that process and of every
process below it (the servers it forks, Playwright's driver and Chromium), looked at once a second and counted
to the test running then; written to ``$SUITE_CPU_DIR`` as one JSON file a process."""

from __future__ import annotations

import collections
import json
import os
import threading
from pathlib import Path

from suite_cpu import processes  # benchmarks/ is on the path suite_cpu.py gives pytest

running = ["(between tests)"]
spent: collections.Counter[str] = collections.Counter()
stop = threading.Event()


def tree_cpu() -> dict[int, float]:
    """The CPU seconds (user and system, each process's own) of this process and every process below it."""
    table = processes(commands=False)
    children: dict[int, list[int]] = collections.defaultdict(list)
    for pid, (parent, _, _) in table.items():
        children[parent].append(pid)
    tree, stack = {}, [os.getpid()]
    while stack:
        pid = stack.pop()
        tree[pid] = table[pid][1] if pid in table else 0.0
        stack.extend(children.get(pid, []))
    return tree


def sample() -> None:
    last = tree_cpu()
    while not stop.wait(1.0):
        now = tree_cpu()
        spent[running[0]] += sum(max(0.0, cpu - last.get(pid, 0.0)) for pid, cpu in now.items())
        last = now


def measuring(config) -> bool:
    """In a test process: the controller of ``-n`` runs no test, and its tree holds the workers'."""
    controller = not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", None))
    return bool(os.environ.get("SUITE_CPU_DIR")) and not controller


def pytest_configure(config) -> None:
    if measuring(config):
        threading.Thread(target=sample, daemon=True).start()


def pytest_runtest_logstart(nodeid, location) -> None:
    running[0] = nodeid


def pytest_unconfigure(config) -> None:
    if measuring(config):
        stop.set()
        folder = os.environ["SUITE_CPU_DIR"]
        name = os.environ.get("PYTEST_XDIST_WORKER", "main")
        Path(folder, f"{name}.json").write_text(json.dumps({k: round(v, 3) for k, v in spent.items()}))
