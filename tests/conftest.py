"""The whole suite: the robots' compiled code is made once, before any test runs.

numba compiles the card play (``bots/fastplay.py``, ``bots/fastdeal.py``) the first time on a machine and
keeps it in its on-disk cache. Done inside a test, that compile ran under the test's timeout and
made one test take minutes on a loaded machine; here it runs once, in the process that starts the run
(xdist's controller, before its workers exist), and every worker then only loads it from the cache.
A first compile (a fresh clone) costs tens of seconds of one core: the controller runs it in a process of
its own before loading the result itself."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Every process of the run keeps the bytecode it compiles, whatever the machine says (PYTHONDONTWRITEBYTECODE,
# as containers often set): else each of the run's hundreds of Python processes (the workers, their servers'
# fork servers, each `atout` command a test runs) compiled the same sources again, and each worker rewrote
# every test module's asserts again (4.7 s of CPU a worker, measured).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

pytest_plugins = ("run_figures",)  # the run's time, CPU and the host's speed, printed at its end

_warm_up_seconds: float | None = None

COMPILES = ("from atout.bots.warm import warm_up; warm_up()",)  # (expert-2's copy left with issue 39)


PRECOLLECTING = "ATOUT_PRECOLLECTING"
"""Set in the process that compiles the test modules for the workers (``_precollect``): it does only that."""


def _precollect(config: pytest.Config) -> subprocess.Popen[bytes] | None:
    """On a fresh clone, the test modules compiled (their asserts rewritten) once, beside numba's compile, before
    the workers start: each of the four then reads them (3.4 s of CPU to collect, against 8.1 s)."""
    # a test module's compiled file, not this conftest's: pytest writes that one as it loads it, before this runs
    compiled = Path(__file__).parent.glob("*/__pycache__/test_*-pytest-*.pyc")
    if not config.getoption("numprocesses", None) or any(compiled):
        return None
    argv = ["--collect-only", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", *config.args]
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", *argv],
        env={**os.environ, PRECOLLECTING: "1"},
        stdout=subprocess.DEVNULL,
        cwd=config.invocation_params.dir,
    )


def _compile_side_by_side(config: pytest.Config) -> None:
    """numba's first compile, each in a process of its own (each writes its part of the on-disk cache), and the
    test modules' compile beside them."""
    collecting = _precollect(config)
    processes = [subprocess.Popen([sys.executable, "-c", code]) for code in COMPILES]
    failed = [code for process, code in zip(processes, COMPILES, strict=True) if process.wait() != 0]
    if failed:
        raise pytest.UsageError(f"the robots' compiled code did not build: {failed}")
    if collecting is not None:
        collecting.wait()  # a module it could not import fails in the workers, where pytest says why


def pytest_configure(config: pytest.Config) -> None:
    global _warm_up_seconds
    if os.environ.get(PRECOLLECTING):
        return
    from atout.bots.warm import warm_up

    start = time.perf_counter()
    if not hasattr(config, "workerinput"):  # the run's first process: build what the cache lacks
        _compile_side_by_side(config)
    warm_up()  # the controller compiles (or loads); a worker, started after it, loads
    _warm_up_seconds = time.perf_counter() - start


def pytest_report_header(config: pytest.Config) -> str | list[str]:
    if _warm_up_seconds is None:
        return []
    return f"robots' compiled code ready in {_warm_up_seconds:.1f} s (numba; compiled once, then cached on disk)"


LONG_FIRST = (
    "tests/tui/test_app.py",
    "tests/cli/test_commands.py",
    "tests/server/test_analysis_api.py",
    "tests/server/test_leaks.py",
    "tests/server/test_slots.py",
)
"""Files whose tests take seconds of CPU each (a whole terminal game, commands in processes of their own, server
processes): run first, so that the run's last minutes are not one worker finishing them while the others wait."""

WAITING_FIRST = (
    "tests/server/test_chaos.py",
    "tests/server/test_store_restarts.py",
    "tests/server/test_cluster.py",
    "tests/server/test_bus_outage.py",
    "tests/protocol/test_faults.py",
    "tests/server/test_handover.py",
    "tests/server/test_outage.py",
    "tests/server/test_restart.py",
)
"""Files whose tests mostly wait (a service stopped for seconds, an engine's timeout, processes that take over from
one another): the first of them starts the run, the others are spread evenly through the tests before the
browser's, so that while one worker waits the others compute. Run all together, they left a third of the two
cores idle for a minute, and started among the first, each between three tests of ``LONG_FIRST``, a quarter idle
for a minute and a half (the machine's /proc/stat, second by second)."""


BROWSER_LAST = "tests/web/"
"""The browser tests run last: Playwright's synchronous API keeps an event loop running in the worker's thread
while its browser is open (a session's fixture), and an asyncio test after them could not start its own.
The run's scheduling (``pytest_xdist_make_scheduler`` below) hands tests out in this order, so no worker gets
another test after a browser test (``--dist worksteal`` would: a worker done with its own share takes from another's
queue)."""


BROWSER_FIRST = (
    "tests/web/test_accessibility.py",
    "tests/web/test_learn.py",
    "tests/web/test_words.py",
    "tests/web/test_table_layout.py",
    "tests/web/test_evening.py",
    "tests/web/test_lobby.py",
    "tests/web/test_blind.py",
    "tests/web/test_play.py",
    "tests/web/test_table_page.py",
    "tests/web/test_profile.py",
    "tests/web/test_tournaments.py",
    "tests/web/test_review.py",
    "tests/web/test_keyboard.py",
    "tests/web/test_cancel.py",
)
"""Among the browser tests, the files that take longest on one worker first, longest first (axe over every page,
a module's tests on its one server, an evening, whole games): a 40-second test or module handed out last kept
one worker busy while the others waited."""

ONE_SERVER_A_MODULE = (
    "tests/web/test_accessibility.py",
    "tests/web/test_learn.py",
    "tests/web/test_words.py",
    "tests/web/test_table_layout.py",
    "tests/web/test_lobby.py",
    "tests/web/test_blind.py",
    "tests/web/test_table_page.py",
    "tests/web/test_profile.py",
    "tests/web/test_review.py",
    "tests/web/test_keyboard.py",
    "tests/web/test_cancel.py",
)
"""Browser modules whose tests share one ``atout serve`` (a module-scoped fixture: ``shared_site``, ``axe_site``...):
each is handed to one worker whole. Spread over the workers test by test, as xdist's default scheduling
does, each worker that got one of its tests started the module's server again (a few seconds each under load)."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):  # type: ignore[no-untyped-def]
    """xdist's default scheduling (``load``: tests handed out in the collection's order, a few at a time), except
    that each module of ``ONE_SERVER_A_MODULE`` is one unit of work (``LoadScopeScheduling``, in the collection's
    order rather than its largest units first)."""
    if config.getoption("dist") != "load":
        return None  # a scheduling asked for by name is left as asked
    from xdist.scheduler import LoadScopeScheduling

    class ModulesOnOneServer(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path in ONE_SERVER_A_MODULE else nodeid

        def _assign_work_unit(self, node) -> None:  # type: ignore[no-untyped-def]
            """The next unit in the order, except that with three workers or more the last takes browser tests from
            the start, and only those (a worker's browser tests are its last: ``BROWSER_LAST``), while the others take
            everything else first: the browser's drawing fills the cores while the server's tests wait (a stopped
            service, a timeout, a takeover), where the first half of the run left a quarter of them idle."""
            early = len(self.nodes) >= 3 and node is max(self.nodes, key=lambda n: int(n.gateway.id.removeprefix("gw")))
            chosen = next((scope for scope in self.workqueue if scope.startswith(BROWSER_LAST) == early), None)
            if chosen is None and early and any(scope.startswith(BROWSER_LAST) for scope in self.assigned_work[node]):
                node.shutdown()  # its browser tests done, what is left is the others' (none may follow them here)
                return
            if chosen is not None:  # else the queue holds the other kind only: its first unit
                self.workqueue.move_to_end(chosen, last=False)  # the unit LoadScopeScheduling hands out next
            super()._assign_work_unit(node)

    config.option.loadscopereorder = False
    return ModulesOnOneServer(config, log)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What a test process holds once it has collected (the modules, the robots' compiled code, Playwright) is kept
    out of the garbage collector's full scans (``gc.freeze``): each scan went through all of it again, a tenth of a
    server test worker's CPU."""
    gc.collect()
    gc.freeze()


def _path(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


@pytest.hookimpl(trylast=True)  # after pytest's own grouping by fixture scope, which a stable sort keeps
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def order(item: pytest.Item) -> int:
        path = _path(item)
        if path.startswith(BROWSER_LAST):
            return 2 + (BROWSER_FIRST.index(path) if path in BROWSER_FIRST else len(BROWSER_FIRST))
        return 0 if path in LONG_FIRST else 1

    items.sort(key=order)
    before_browser = [item for item in items if order(item) < 2]
    waiting = sorted(
        (item for item in before_browser if _path(item) in WAITING_FIRST), key=lambda i: WAITING_FIRST.index(_path(i))
    )
    busy = [item for item in before_browser if _path(item) not in WAITING_FIRST]
    between = len(busy) // max(1, len(waiting))
    mixed: list[pytest.Item] = []
    for k, item in enumerate(waiting):
        mixed += [item, *busy[k * between : (k + 1) * between]]
    mixed += busy[len(waiting) * between :]
    items[: len(before_browser)] = mixed
