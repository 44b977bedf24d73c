"""The chaos run's short version (issue 48, item 4): three processes on a PostgreSQL and a Redis of the test's
own, nine tables of people and robots, two faults of each kind (PostgreSQL restarted fast and immediately and
stopped for seconds, Redis restarted, a worker killed) in some two minutes; then every promise checked: no table
silent beyond its promise, every game finishes, nothing lost, changed, doubled or heard twice, no hole in any
stored log, every record replays, no 5xx after the faults, no traceback (``tests/chaos.py``;
``benchmarks/chaos.py`` runs the same for thirty minutes)."""

from __future__ import annotations

import os
import shutil

import pytest

from chaos import Fault, chaos
from pgserver import binaries


@pytest.mark.timeout(900)  # two minutes on a quiet machine; a loaded one may take several times that
async def test_nine_tables_come_through_two_faults_of_each_kind(tmp_path) -> None:
    missing = [
        name
        for name, there in (
            ("redis-server", shutil.which("redis-server")),
            ("PostgreSQL's initdb and pg_ctl", binaries()),
        )
        if not there
    ]
    if missing:
        message = f"{', '.join(missing)} not installed: the chaos run did not run"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    schedule = [
        Fault.PG_FAST,
        Fault.WORKER,
        Fault.REDIS,
        Fault.PG_STOP,
        Fault.PG_IMMEDIATE,
        Fault.PG_IMMEDIATE,
        Fault.REDIS,
        Fault.WORKER,
        Fault.PG_STOP,
        Fault.PG_FAST,
    ]
    run = await chaos(
        tmp_path,
        seconds=600,
        tables=9,
        schedule=schedule,
        every=(3.0, 6.0),
        robot_pace=0.3,
        deal_pause=1.0,
        deals=1,
        settle=120.0,
        progress=lambda line: None,
    )
    figures = run.figures
    assert figures["faults"] == {str(k): 2 for k in Fault}, figures["fault_log"]
    assert run.problems == [], "\n".join(run.problems) + f"\n{figures}"
    assert figures["games_finished"] >= 9, figures  # every table finished a game at least
