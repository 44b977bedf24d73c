"""Browser tests: Playwright drives Debian's Chromium (nothing is downloaded) against a real ``atout serve``
in a child process, on its own SQLite file.

Debian's ``chromium-headless-shell`` when installed (``.ci/run`` installs it): the same Chromium build as
the ``chromium`` package, without the full browser's user interface around the page, as Playwright itself
runs Chromium headless. Measured on the browser tests (``tests/web``, ``-n 4``, 2 cores): 216 s of CPU
against 250 s with ``chromium``. Otherwise Debian's ``chromium``; ``ATOUT_CHROMIUM`` names another.

Where Chromium is missing the browser tests are skipped with the reason, except in CI (``CI`` set),
where that is a failure: ``.ci/run`` installs it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from served import Served, free_port, migrated_sqlite

from .pages import WAIT_MS, http_get, http_post

WITHIN = 120.0
"""How long a wait for something to happen may last before the test calls it a hang (an upper bound,
never a guess of how fast it happens)."""
expect.set_options(timeout=WAIT_MS)
"""Playwright's assertions wait as long as its other waits (``Person``'s contexts): their own default, 5 s, is a
guess a loaded machine misses (seen: an analysis shown after more than 5 s in CI, test_analysis.py)."""

CHROMIUM = (
    os.environ.get("ATOUT_CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium"
)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        message = (
            f"Chromium not found at {CHROMIUM}: the browser tests did not run "
            "(apt-get install chromium-headless-shell or chromium, or set ATOUT_CHROMIUM)"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


class Site:
    """``atout serve`` on a free port: robots without pause, a short pause between deals, and no analysis
    worker unless ``analyses`` (a worker is a process of its own, spawned and warmed with the server: about
    0.8 s of CPU a server start, for the one test here that asks for an analysis)."""

    def __init__(self, tmp_path: Path, deal_pause: float = 0.3, args: tuple[str, ...] = (), analyses: int = 0) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.tmp_path = tmp_path
        self.deal_pause = deal_pause
        self.args = args  # more of atout serve's options
        self.analyses = analyses
        if not (tmp_path / "web.db").exists():  # a site started again keeps its database
            shutil.copyfile(migrated_sqlite(), tmp_path / "web.db")
        self.start()

    def start(self) -> None:
        tmp_path = self.tmp_path
        self.log = tmp_path / "serve.log"
        self.proc = Served(
            [
                "--port",
                str(self.port),
                "--db",
                f"sqlite:///{tmp_path / 'web.db'}",
                "--robot-pace",
                "0",
                "--deal-pause",
                str(self.deal_pause),
                "--log-level",
                "warning",
                "--analysis-worlds",
                "1",
                "--analysis-workers",
                str(self.analyses),
                *self.args,
            ],
            {"ATOUT_SECRET": "web-test-secret", "XDG_DATA_HOME": str(tmp_path)},
            self.log,
        )
        deadline = time.monotonic() + WITHIN  # bounds a hang only: a loaded machine starts a server slowly
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if http_get(f"{self.url}/health").status_code == 200:
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        raise AssertionError(f"atout serve did not start: {self.log.read_text()[-2000:]}")

    def advance_clock(self, seconds: float) -> float:
        """Move the server's clock on (a site started with ``args=("--test-clock",)``): a turn clock or an
        absence runs out now, without the test waiting real seconds. The server's time after the step."""
        answer = http_post(f"{self.url}/test/clock", json={"advance": seconds}, headers={"Origin": self.url})
        assert answer.status_code == 200, answer.text
        return answer.json()["now"]

    def kill(self) -> None:
        """SIGKILL: the server vanishes mid-game, as on a crash or a cut network."""
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        self.proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def site(tmp_path) -> Iterator[Site]:
    server = Site(tmp_path)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def analysing_site(tmp_path) -> Iterator[Site]:
    """A server with its analysis worker, started and warmed with it as ``atout serve``'s is by default."""
    server = Site(tmp_path, analyses=1)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def clocked_site(tmp_path) -> Iterator[Site]:
    """A server whose clock the test moves on (``Site.advance_clock``): clocks run out when it says."""
    server = Site(tmp_path, args=("--test-clock",))
    try:
        yield server
    finally:
        server.stop()


HELD_PACE = 600.0
"""A robot's pace on ``held_site``: seconds of the server's clock, far beyond a test's real time."""


@pytest.fixture
def held_site(tmp_path) -> Iterator[Site]:
    """A test-clock server whose robots wait for the test: each robot move (a robot's seat, or a person's
    in automatic mode) comes when the test moves the clock on by ``HELD_PACE``, never on its own, so a
    page can be looked at (and clicked) in a state that would last milliseconds at a robot pace of 0."""
    server = Site(tmp_path, args=("--test-clock", "--robot-pace", str(HELD_PACE)))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def shared_site(tmp_path_factory) -> Iterator[Site]:
    """One server for a whole module of tests that each use people of their own names (a server start
    costs seconds on a loaded machine: the suite must stay under six minutes)."""
    server = Site(tmp_path_factory.mktemp("site"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _pages_closed_after_a_failure(request) -> Iterator[None]:
    """Every browser context a failed test opened is closed after it: its people stayed online otherwise, and the
    next test of its module on the same site failed waiting for one of them to be offline (test_profile.py: a
    friend's box waited 120 s for "1 offline"). Only after a failure: closing every test's contexts took 10% more
    time on 29 browser tests (medians of three runs in turns; a context's close waits for its pages), for nothing a
    passed test needs."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    if getattr(request.node, "failed_call", False):
        for context in browser.contexts:
            if context not in before:
                with contextlib.suppress(Exception):  # closed already, or its browser gone: nothing left open
                    context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test's report carries the end of its server's log and what each of its pages showed: a
    failure seen once in a full run (a traceback on the server's side, a refused request, a page left on an error
    message or without its connection) is then read, not guessed."""
    report = yield
    if report.failed and call.when == "call":
        item.failed_call = True  # its pages are closed after it (_pages_closed_after_a_failure)
        for value in getattr(item, "funcargs", {}).values():
            if isinstance(value, Site) and value.log.exists():
                report.sections.append((f"atout serve's log ({value.url})", value.log.read_text()[-6000:]))
        browser = getattr(item, "funcargs", {}).get("browser")
        if browser is not None:
            report.sections.append(("the pages at the failure", _pages_now(browser)))
    return report


PAGE_NOW = """() => ({ at: location.hash, connection: document.body.dataset.connection || null,
  said: [...document.querySelectorAll(".refusal, .toast, [role=alert]")].map((e) => e.textContent.trim())
    .filter(Boolean),
  main: (document.querySelector("#main") || document.body).innerText.slice(0, 800) })"""


def _pages_now(browser) -> str:
    """Each open page: where it is, its connection, the refusals and alerts it shows, the start of its text."""
    lines = []
    for context in browser.contexts:
        for page in context.pages:
            try:
                lines.append(f"{page.url}: {json.dumps(page.evaluate(PAGE_NOW), ensure_ascii=False)}")
            except Exception as err:  # a page closed or hung: said, the others still looked at
                lines.append(f"{page.url}: not read ({type(err).__name__})")
    return "\n".join(lines) or "no page open"
