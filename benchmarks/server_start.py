"""What one ``atout serve`` start costs the tests: CPU seconds of a browser test's server (``tests/web/conftest.py``
``Site``: forked by the tests' fork server, ``tests/served.py``, on a fresh copy of the tests' migrated SQLite
file), from its fork until it answers ``/health`` and a moment after.

    python benchmarks/server_start.py            # ten starts, their CPU sorted: quote the median
    python benchmarks/server_start.py --starts 20

The suite starts some 150 such servers (benchmarks/results/suite_cpu.md). A figure, not a check: compare two
commits in turns on one machine, never against a figure of another hour (README).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HZ = os.sysconf("SC_CLK_TCK")
SETTLE = 0.3
"""Seconds after the first answer before the server's CPU is read: what it does at once after its start counts."""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=10)
    starts = parser.parse_args().starts
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]
    from tests.web.conftest import Site  # a browser test's server: started, then waited on until it answers

    spent = []
    for n in range(starts):
        folder = Path(tempfile.mkdtemp(prefix="atout-start-"))
        site = Site(folder)
        time.sleep(SETTLE)
        spent.append(cpu_seconds(site.proc.pid))
        site.stop()
        shutil.rmtree(folder, ignore_errors=True)
        print(f"start {n + 1}: {spent[-1]:.2f} s of CPU", flush=True)
    print(f"{starts} starts: median {statistics.median(spent):.3f} s of CPU; sorted {sorted(spent)}")


if __name__ == "__main__":
    main()
