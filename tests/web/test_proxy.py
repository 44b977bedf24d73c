"""The site as deployed: real nginx in front of three ``atout serve`` processes on PostgreSQL and Redis,
routing each table's sockets to the process that runs it (docs/deploy.md), played from Chromium."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from atout.server.site.proxy import nginx_in_folder, slot_of
from served import Served, free_port
from server.conftest import fresh_postgres
from server.test_cluster import RedisServer

from .pages import Person, play_until_over

pytestmark = pytest.mark.slow

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def health(port: int) -> dict:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as err:  # 503 when degraded: still a body
        return json.loads(err.read())


def wait_until(ready, what: str, proc: subprocess.Popen | Served, log: Path, bound: float = 120.0) -> None:
    """Until ``ready()`` (the bound only stops a hang: it says nothing of how fast a start is)."""
    deadline = time.monotonic() + bound
    while True:
        with contextlib.suppress(OSError, ValueError, KeyError):
            if ready():
                return
        if proc.poll() is not None:
            raise AssertionError(f"{what} stopped: {log.read_text()[-2000:]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not start within {bound} s: {log.read_text()[-2000:]}")
        time.sleep(0.05)


class Deployment:
    """Three slotted server processes and nginx in front of them, as docs/deploy.md sets them up."""

    def __init__(self, db: str, redis: str, folder: Path) -> None:
        self.folder = folder
        self.ports = [free_port() for _ in range(3)]
        self.listen = free_port()
        self.url = f"http://127.0.0.1:{self.listen}"
        self.procs: list[Served] = []
        env = {"ATOUT_SECRET": "proxy-test", "XDG_DATA_HOME": str(folder)}
        for slot, port in enumerate(self.ports, start=1):
            log = folder / f"serve{slot}.log"
            self.procs.append(
                Served(
                    [
                        "--port",
                        str(port),
                        "--db",
                        db,
                        "--redis",
                        redis,
                        "--slot",
                        str(slot),
                        "--slots",
                        "3",
                        "--behind-proxy",
                        "--robot-pace",
                        "0",
                        "--deal-pause",
                        "0.3",
                        "--log-level",
                        "warning",
                        "--analysis-workers",
                        "0",
                    ],
                    env,
                    log,
                )
            )  # no analysis asked: no worker process each
        for slot, (port, proc) in enumerate(zip(self.ports, self.procs, strict=True), start=1):
            wait_until(
                lambda port=port: health(port)["status"] == "ok", f"process {slot}", proc, folder / f"serve{slot}.log"
            )
        conf = nginx_in_folder(folder, self.ports, f"127.0.0.1:{self.listen}", connections=256)
        (folder / "nginx.log").touch()
        self.nginx = subprocess.Popen(
            [NGINX, "-c", str(conf), "-p", str(folder)],
            stdout=subprocess.DEVNULL,
            stderr=(folder / "nginx.out").open("w"),
        )
        wait_until(
            lambda: urllib.request.urlopen(f"{self.url}/health", timeout=5).status == 200,
            "nginx",
            self.nginx,
            folder / "nginx.log",
        )

    def stop(self) -> None:
        for proc in [self.nginx, *self.procs]:
            if proc.poll() is None:
                proc.terminate()
        for proc in [self.nginx, *self.procs]:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
            if proc.poll() is None:
                proc.kill()


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    if not Path(NGINX).exists():
        message = f"nginx not found at {NGINX}: the deployment test did not run (apt-get install nginx)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    redis_binary = shutil.which("redis-server")
    if redis_binary is None:
        message = "redis-server not installed: the deployment test did not run"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from server.conftest import POSTGRES, _admin

    try:
        engine = _admin()
        with engine.connect():
            pass
        engine.dispose()
        reachable = None
    except Exception as err:  # any reason: fresh_postgres says it and skips (fails in CI)
        reachable = f"{type(err).__name__} at {POSTGRES.split('@')[-1]}"
    redis = RedisServer(redis_binary, tmp_path)
    redis.start()
    try:
        with fresh_postgres(reachable) as db:
            site = Deployment(db, redis.url, tmp_path)
            try:
                yield site
            finally:
                site.stop()
    finally:
        redis.stop()


def test_a_table_s_people_are_served_by_its_process_through_nginx(browser, deployment: Deployment) -> None:
    """Two people reach the site through nginx (their lobby sockets on different processes: least_conn),
    sit at one table and play a deal with robots: both are served by the table's own process, so no
    frame crosses the bus."""
    anna = Person(browser, deployment.url, "Anna").arrive()
    bruno = Person(browser, deployment.url, "Bruno").arrive()
    table = anna.create(4, deals=1)
    slot = slot_of(table)
    assert slot in (1, 2, 3), table
    owner = deployment.ports[slot - 1]
    assert table in health(owner)["table_ids"]
    bruno.sit_at(table)
    anna.page.wait_for_function("() => window.atout.view.state.seats.filter((s) => s.kind === 'person').length === 2")
    anna.fill_and_start()
    play_until_over([anna, bruno])
    for person in (anna, bruno):
        state = person.state()
        assert state["game"]["outcome"] == "finished" and sum(state["game"]["totals"]) == 0
        assert not [f for f in person.frames if f.get("type") in ("error", "pageerror")]
    figures = [health(port) for port in deployment.ports]
    assert figures[slot - 1]["frames"] > 100  # the deal's frames were made by the table's process
    assert sum(f["frames_crossed"] for f in figures) == 0, figures
    # each page's table socket went to the owner: the owner counts both people among its connections
    assert figures[slot - 1]["connections"] >= 2, figures
    anna.close()
    bruno.close()
