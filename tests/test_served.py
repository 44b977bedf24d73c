"""The tests' own ports (``served.free_port``): each test process a block of its own, across runs side by side."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import served

HERE = Path(__file__).parent

FIRST_PORT = "from served import free_port; print(free_port(), flush=True); import sys; sys.stdin.read()"
"""A test process: its first port, then it holds its block until told to end."""


def test_two_runs_side_by_side_give_their_same_numbered_workers_different_ports() -> None:
    """Two runs of the suite on one machine: their workers of the same number take different blocks (the first run's
    holds its block while it lives), and a block held by no one is taken again."""
    env = {**os.environ, "PYTHONPATH": str(HERE), "PYTEST_XDIST_WORKER": "gw2"}

    def worker() -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", FIRST_PORT], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def first_port(process: subprocess.Popen[str]) -> int:
        assert process.stdout is not None
        return int(process.stdout.readline())

    def end(process: subprocess.Popen[str]) -> None:
        process.communicate("")

    one = worker()
    a = first_port(one)
    two = worker()
    b = first_port(two)
    low = max(1024, served._ephemeral_low() - served.BLOCKS * served.BLOCK)

    def block(port: int) -> int:
        return (port - low) // served.BLOCK

    assert block(a) != block(b), (a, b)
    end(one)
    three = worker()  # the first run's worker is gone: its block is free again
    c = first_port(three)
    end(two)
    end(three)
    assert block(c) == block(a), (a, b, c)
