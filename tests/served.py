"""``atout serve`` for the tests that need it as a process of its own (to kill it, restart it, put a proxy
in front of it): a fork of a warm fork server rather than a new interpreter.

The fork server (multiprocessing's ``forkserver``, one per test process) imports the command, the server
and the robots once; each server is then a fork of it that runs ``atout serve`` as the command does
(``atout.cli.main.main``), in a process of its own with its own pid, signals and exit code. A new
interpreter spent about 0.8 s of CPU importing the same modules for each of the suite's hundred-odd servers.

Here too, ``migrated_sqlite``: the one SQLite file at the newest schema that the tests' stores and sites copy.
"""

from __future__ import annotations

import atexit
import fcntl
import functools
import itertools
import multiprocessing
import multiprocessing.context
import multiprocessing.forkserver
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

BLOCK = 1600
"""Ports in a test process's block."""

BLOCKS = 14
"""Blocks below the kernel's range for outgoing ports: room for two runs of the suite side by side (each of their
test processes holds one), above the ports of the machine's own services and of a person's ``atout serve``."""

TLS = ssl.create_default_context()
"""The one TLS context of the tests' HTTP clients: httpx makes one for each client it is not given one, loading
the machine's certificates each time (21 ms of CPU), for clients that speak plain HTTP to a test's own server."""


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


_held: list[int] = []
"""The lock file this process holds its block by, open while it lives (the kernel lets go of it however it ends)."""


def _block() -> int:
    """The first block, from this test process's number in the run (pytest-xdist's), that no other process holds:
    by the worker's number alone, two runs on one machine gave their same-numbered workers the same ports (seen: a
    browser test's server could not bind, and its page talked to the other run's server)."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    for k in range(BLOCKS):
        block = (worker + k) % BLOCKS
        lock = os.open(Path(tempfile.gettempdir()) / f"atout-test-ports-{block}.lock", os.O_RDONLY | os.O_CREAT, 0o644)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(lock)
            continue
        _held.append(lock)
        return block
    raise AssertionError(f"all {BLOCKS} blocks of test ports are held by other test processes")


@functools.cache
def _ports() -> Iterator[int]:
    """This test process's own ports: a block of its own below the range the kernel picks outgoing connections'
    ports from. A port asked of the kernel (bind to 0) is in that range: between its release and the server's bind,
    another worker's server or any client's connection could take it (seen: a server of a two-process test failed to
    bind while another test's server answered its health check on the same port)."""
    base = max(1024, _ephemeral_low() - BLOCKS * BLOCK) + _block() * BLOCK
    return itertools.cycle(range(base, base + BLOCK))


def free_port() -> int:
    """A port for a test's server (``atout serve``, redis-server, nginx): of this process's block, not in
    use now, and not handed out again before the block's others."""
    for port in itertools.islice(_ports(), BLOCK):  # one turn of the block at most
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError(f"no free port in this test process's block of {BLOCK}")


def _serve(argv: list[str], env: dict[str, str], log: str | None, printed: bool) -> None:
    """The forked process: the environment's additions, its log (standard error, and standard output when
    ``printed``) to ``log`` or nowhere, then the command."""
    os.environ.update(env)
    out = os.open(log or os.devnull, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.dup2(out if printed else os.open(os.devnull, os.O_WRONLY), 1)
    os.dup2(out, 2)
    from atout.cli.main import main

    sys.exit(main(argv))


@functools.cache
def _forks() -> multiprocessing.context.ForkServerContext:
    """The fork server, started here with this directory on its path (it takes no ``sys.path`` of ours: Python
    3.11's forkserver.main ignores it) to load ``fork_preload``."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["fork_preload"])
    here = str(Path(__file__).parent)
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [here, before]))
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before
    return context


class Served:
    """``atout serve *argv`` started at once, with the part of ``subprocess.Popen``'s interface the tests use.

    ``env`` is added to this process's environment (and ``--insights-budget 0 --password-costs minimum`` to the
    options before ``argv``: no test server analyses in the background unless its test says so); ``log`` receives
    its log lines (standard error) and, when ``printed``, what it prints (the address it serves at).
    """

    def __init__(
        self, argv: list[str], env: dict[str, str], log: str | os.PathLike[str] | None = None, printed: bool = True
    ) -> None:
        options = ["--insights-budget", "0", "--password-costs", "minimum"]
        # no background analyses unless a test asks (its own --insights-budget comes after, and wins); passwords at
        # OWASP's least argon2id costs (0.04 s of CPU a hash against 0.2 s: a few hundred of them in a run)
        self._process = _forks().Process(
            target=_serve,
            args=(["serve", *options, *argv], env, None if log is None else str(log), printed),
            name="atout serve",
        )
        self._process.start()
        self.pid = self._process.pid

    def poll(self) -> int | None:
        """None while it runs, else its exit code (negative: the signal that ended it)."""
        return None if self._process.is_alive() else self._process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired("atout serve", timeout or 0)
        return self._process.exitcode

    def send_signal(self, sig: int) -> None:
        if self._process.is_alive():
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def answered(
    argv: list[str], env: dict[str, str], log: str | os.PathLike[str], printed: bool = False
) -> tuple[int, str]:
    """``atout serve *argv`` where it answers and exits before serving (a refusal, the proxy's configuration), as
    ``Served``: its exit code and what it said (its standard error; with ``printed``, what it printed too)."""
    served = Served(argv, env, log, printed)
    try:
        code = served.wait(120)  # bounds a hang only: the answer comes before anything starts
    finally:
        served.kill()
    return code, Path(log).read_text()


@functools.cache
def migrated_sqlite() -> Path:
    """An SQLite file at the newest schema, made once in this test process: each store and site of the tests starts
    on a copy of it (the migrations from an empty database, 0.07 s of CPU a start, are tested on their own)."""
    from atout.server.store import Store

    folder = tempfile.mkdtemp(prefix="atout-migrated-")
    atexit.register(shutil.rmtree, folder, True)
    path = Path(folder) / "atout.db"
    store = Store(f"sqlite:///{path}")
    store.migrate()
    store.close()
    return path
