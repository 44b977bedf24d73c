"""Where the test suite's time goes: the README's test run (``pytest -n 4``, or the arguments given after
``--``) with every process on the machine looked at twice a second, its CPU summed by kind (Chromium's
renderers, its browser and GPU processes, Playwright's driver, the pytest workers, the servers they fork,
PostgreSQL, Redis), and each test's CPU (its worker's and every process below it) by folder and by test:
looked at once a second, the CPU since the last look counted to the test running then, so a test shorter than
a second is counted with its neighbours (the folders' sums hold; a short test's own figure does not).

    python benchmarks/suite_cpu.py --out benchmarks/results/suite_cpu.json
    python benchmarks/suite_cpu.py --out /tmp/web.json -- -n 4 -q tests/web

The suite's budget is six minutes on two cores (README): the run is CPU-bound, so the wall time is at least
its CPU over two, and only less CPU makes it shorter; this says which CPU. A figure, not a check: the same
machine gives a third more CPU for the same work when its host is busy (README), so compare runs made in turns.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HZ = os.sysconf("SC_CLK_TCK")
EVERY = 0.5
"""Seconds between two looks at /proc: a process that lives less than this is missed (a `git` call, a short
`atout` command); the run's total from /proc/stat says how much that leaves out. Each look costs CPU too (some
700 processes read): at 0.25 s here and 0.5 s in each test process the suite took 791 s of CPU, at 0.5 s and 1 s
810 s, against 703-739 s without them the same evening (the host's own drift is as large)."""


def proc_stat() -> tuple[float, float]:
    """The machine's busy and idle CPU seconds so far (/proc/stat's first line)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / HZ, (idle + iowait) / HZ


def processes(commands: bool = True) -> dict[int, tuple[int, float, str]]:
    """Every process now: its parent, its CPU seconds (user and system, its own) and, with ``commands``, its command
    line (else ""; the plugin's looks, in every test process, need only the first two)."""
    seen = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = (
                Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                if commands
                else ""
            )
        except OSError:
            continue
        rest = stat[stat.rindex(")") + 2 :].split()
        seen[int(entry)] = (int(rest[1]), (int(rest[11]) + int(rest[12])) / HZ, command)
    return seen


def kind(pid: int, table: dict[int, tuple[int, float, str]]) -> str:
    """What a process is, from its command line (and, for a forked server, its parent's)."""
    parent, _, command = table[pid]
    if "chrom" in command or "headless_shell" in command:
        for part in ("renderer", "gpu-process", "utility", "zygote"):
            if f"--type={part}" in command:
                return f"chromium {part}"
        return "chromium browser"
    if "playwright" in command or command.startswith("node ") or "/node " in command:
        return "playwright driver (node)"
    for name in ("postgres", "redis-server", "nginx"):
        if name in command:
            return name
    if "python" in command or "pytest" in command or "atout" in command:
        if parent in table and table[parent][2] == command:
            return "server forked by a test (atout serve)"
        if "forkserver" in command:
            return "fork server (tests/served.py)"
        if "execnet" in command or "xdist" in command or "exec(eval(" in command:
            return "pytest worker"
        if "pytest" in command or "suite_cpu" in command:
            return "pytest controller"
        return "other python (atout commands, workers)"
    return "other"


class Sampler:
    """Each process's CPU since the run began, by kind, from looks at /proc every ``EVERY`` seconds."""

    def __init__(self) -> None:
        self.first = {pid: cpu for pid, (_, cpu, _) in processes().items()}  # before the run: not counted
        self.last: dict[int, tuple[str, float]] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        me = os.getpid()
        while not self.stop.is_set():
            table = processes()
            for pid, (_, cpu, _) in table.items():
                if pid == me:
                    continue
                known = self.last.get(pid)
                self.last[pid] = (known[0] if known else kind(pid, table), cpu)
            self.stop.wait(EVERY)

    def by_kind(self) -> dict[str, dict[str, float]]:
        seconds: collections.Counter[str] = collections.Counter()
        count: collections.Counter[str] = collections.Counter()
        for pid, (what, cpu) in self.last.items():
            seconds[what] += cpu - self.first.get(pid, 0.0)
            count[what] += 1
        return {what: {"cpu_s": round(s, 1), "processes": count[what]} for what, s in seconds.most_common()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="the figures as JSON (printed either way)")
    parser.add_argument("--top", type=int, default=25, help="how many of the costliest tests to list")
    parser.add_argument("pytest", nargs="*", help="pytest's arguments, after -- (default: the README's, -n 4 -q)")
    args = parser.parse_args(argv)
    pytest_args = args.pytest or ["-n", "4", "-q"]
    tests = Path(os.environ.get("TMPDIR", "/tmp")) / f"suite_cpu-{os.getpid()}"
    tests.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "SUITE_CPU_DIR": str(tests),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "benchmarks"), os.environ.get("PYTHONPATH")])),
    }
    sampler = Sampler()
    busy0, idle0 = proc_stat()
    start = time.monotonic()
    sampler.thread.start()
    code = subprocess.call([sys.executable, "-m", "pytest", "-p", "suite_cpu_plugin", *pytest_args], cwd=ROOT, env=env)
    wall = time.monotonic() - start
    sampler.stop.set()
    sampler.thread.join()
    busy1, idle1 = proc_stat()
    per_test: collections.Counter[str] = collections.Counter()
    for part in tests.glob("*.json"):
        per_test.update(json.loads(part.read_text()))
        part.unlink()
    tests.rmdir()
    folders: collections.Counter[str] = collections.Counter()
    for nodeid, cpu in per_test.items():
        folders["/".join(nodeid.split("::")[0].split("/")[:2])] += cpu
    figures = {
        "command": "pytest " + " ".join(pytest_args),
        "exit_code": code,
        "wall_s": round(wall, 1),
        "machine_busy_cpu_s": round(busy1 - busy0, 1),
        "machine_idle_cpu_s": round(idle1 - idle0, 1),
        "cores": os.cpu_count(),
        "by_kind": sampler.by_kind(),
        "by_folder": {k: round(v, 1) for k, v in folders.most_common()},
        "costliest_tests": {k: round(v, 2) for k, v in per_test.most_common(args.top)},
        "tests_measured": len(per_test),
    }
    text = json.dumps(figures, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
