"""The run's own figures at its end (tests/run_figures.py): its time, the machine's CPU, the host's speed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import run_figures

HERE = Path(__file__).parent


def test_the_yardstick_gives_seconds_of_cpu() -> None:
    """The loop's time, each time it is taken: some CPU seconds, more than none and less than a hang."""
    times = [run_figures.yardstick() for _ in range(2)]
    assert all(0 < t < 30 for t in times)


def test_a_run_ends_with_its_time_its_cpu_and_the_hosts_speed(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert sum(range(10)) == 45\n")
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "run_figures", "-p", "no:cacheprovider", "test_one.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    said = re.search(
        r"this run: (\d+) s, (\d+) s of the machine's CPU \((\d+) cores; (\d+) s idle, (\d+) s stolen\); the host's "
        r"speed: a million turns of a Python loop took (\d+\.\d\d) s of CPU at the start, (\d+\.\d\d) s at the end",
        done.stdout,
    )
    assert said, done.stdout
    assert int(said[3]) == os.cpu_count()
    assert float(said[6]) > 0 and float(said[7]) > 0
