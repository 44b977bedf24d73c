"""The whole suite: the robots' compiled code is made once, before any test runs.

numba compiles the card play (``bots/fastplay.py``, ``bots/fastdeal.py``) the first time on a machine and
keeps it in its on-disk cache. Done inside a test, that compile ran under the test's timeout and
made one test take minutes on a loaded machine; here it runs once, in the process that starts the run
(xdist's controller, before its workers exist), and every worker then only loads it from the cache.
A first compile (a fresh clone) costs tens of seconds of one core: the controller runs it in a process of
its own before loading the result itself."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

_warm_up_seconds: float | None = None

COMPILES = ("from atout.bots.warm import warm_up; warm_up()",)  # (expert-2's copy left with issue 39)


def _compile_side_by_side() -> None:
    """numba's first compile, each in a process of its own (each writes its part of the on-disk cache)."""
    processes = [subprocess.Popen([sys.executable, "-c", code]) for code in COMPILES]
    failed = [code for process, code in zip(processes, COMPILES, strict=True) if process.wait() != 0]
    if failed:
        raise pytest.UsageError(f"the robots' compiled code did not build: {failed}")


def pytest_configure(config: pytest.Config) -> None:
    global _warm_up_seconds
    from atout.bots.warm import warm_up

    start = time.perf_counter()
    if not hasattr(config, "workerinput"):  # the run's first process: build what the cache lacks
        _compile_side_by_side()
    warm_up()  # the controller compiles (or loads); a worker, started after it, loads
    _warm_up_seconds = time.perf_counter() - start


def pytest_report_header(config: pytest.Config) -> str:
    return f"robots' compiled code ready in {_warm_up_seconds:.1f} s (numba; compiled once, then cached on disk)"


LONG_FIRST = ("tests/tui/test_app.py", "tests/server/test_cluster.py", "tests/server/test_restart.py",
              "tests/server/test_leaks.py", "tests/server/test_handover.py", "tests/server/test_slots.py",
              "tests/server/test_analysis_api.py", "tests/cli/test_commands.py")
"""Files whose tests take seconds each (server processes, a whole terminal game): run first, so that the
run's last minutes are not one worker finishing them while the others wait."""

BROWSER_LAST = "tests/web/"
"""The browser tests run last: Playwright's synchronous API keeps an event loop running in the worker's thread
while its browser is open (a session's fixture), and an asyncio test after them could not start its own.
xdist's default scheduling hands tests out in this order, so no worker gets another test after a browser
test (``--dist worksteal`` would: a worker done with its own share takes from another's queue)."""


LONG_BROWSER_FIRST = ("tests/web/test_evening.py", "tests/web/test_accessibility.py", "tests/web/test_tournaments.py",
                      "tests/web/test_play.py", "tests/web/test_blind.py", "tests/web/test_table_page.py",
                      "tests/web/test_table_layout.py")
"""Among the browser tests, the files whose tests take tens of seconds (whole games, axe over every page):
first, for the same reason (a 40-second test handed out last kept one worker busy while the others waited)."""


@pytest.hookimpl(trylast=True)  # after pytest's own grouping by fixture scope, which a stable sort keeps
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def order(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        if path.startswith(BROWSER_LAST):
            return 2 if path.startswith(LONG_BROWSER_FIRST) else 3
        return 0 if path.startswith(LONG_FIRST) else 1

    items.sort(key=order)
