"""The host's side: an engine process run as a robot (``choose(observation, budget) -> action``).

Each process holds one seat.  Its stderr goes to a log file; what it writes on stdout is read by a
thread, so a request can time out without blocking on a silent process.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
import time
from pathlib import Path
from typing import IO, Any

from ..engine import Action, Observation, RuleSet
from .faults import EngineFault
from .messages import QUIT, deal_end, decide, dumps, hello, new_deal, read_answer

START_SECONDS = 120.0
"""How long an engine may take to answer the hello (loading a large robot, compiling it)."""


class EngineProcess:
    """One running engine: lines out, lines in with a timeout; any failure is an ``EngineFault``."""

    def __init__(self, command: str, log: Path | None = None) -> None:
        self.command = command
        self._log: IO[bytes] | None = None
        if log is not None:
            log.parent.mkdir(parents=True, exist_ok=True)
            self._log = open(log, "ab")  # noqa: SIM115  (closed in close())
            self._log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} starting {command}\n".encode())
            self._log.flush()
        self._lines: queue.Queue[str | None] = queue.Queue()
        try:
            self.proc = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._log if self._log is not None else subprocess.DEVNULL,
                text=True, encoding="utf-8", errors="replace", bufsize=1,
            )  # fmt: skip
        except (OSError, ValueError) as err:
            self._close_log()
            raise EngineFault("crash", f"could not start {command!r}: {err}") from None
        threading.Thread(target=self._read, daemon=True, name=f"engine {self.proc.pid}").start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        with contextlib.suppress(OSError, ValueError):
            for line in self.proc.stdout:
                self._lines.put(line)
        self._lines.put(None)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def _ended(self) -> EngineFault:
        try:
            code = self.proc.wait(2)
        except subprocess.TimeoutExpired:
            return EngineFault("crash", "the engine closed its output")
        return EngineFault("crash", f"the engine exited with code {code}")

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(dumps(message) + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise self._ended() from None

    def receive(self, timeout: float) -> str:
        """The engine's next line; EngineFault ``timeout`` or ``crash``."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineFault("timeout", f"no answer in {timeout:g} s") from None
        if line is None:
            self._lines.put(None)  # every later read sees the end too
            raise self._ended()
        return line

    def close(self, gently: bool = True) -> None:
        """Say quit and let it go (gently), or end it at once; either way it is gone after."""
        if gently and self.alive:
            with contextlib.suppress(EngineFault):
                self.send(QUIT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(2)
        if self.alive:
            self.proc.kill()
            self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if pipe is not None:
                    pipe.close()
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


class EngineBot:
    """An engine process seated at ``seat`` of a table of ``rules``, as a robot.

    ``choose`` raises ``EngineFault``; after any fault but ``illegal`` the process is ended (``alive``
    False): what it would say next could answer a request it was no longer asked."""

    def __init__(
        self,
        command: str,
        rules: RuleSet,
        seat: int,
        budget: float | None = None,
        timeout: float = 30.0,
        log: Path | None = None,
        name: str | None = None,
    ) -> None:
        self.command = command
        self.rules = rules
        self.seat = seat
        self.budget = budget
        self.timeout = timeout
        self.name = name or command
        self._request = 0
        self.process = EngineProcess(command, log)
        try:
            self.process.send(hello(rules, seat, budget, timeout, name))
            line = self.process.receive(max(timeout, START_SECONDS))
        except EngineFault:
            self.process.close(gently=False)
            raise
        try:
            ready = json.loads(line)
        except ValueError:
            ready = None
        if not isinstance(ready, dict) or ready.get("type") != "ready":
            self.process.close(gently=False)
            raise EngineFault("malformed", f"the engine answered the hello with {line[:200]!r}")
        self.engine_name = str(ready.get("name") or command)

    @property
    def alive(self) -> bool:
        return self.process.alive

    def _guard(self, call: Any) -> Any:
        try:
            return call()
        except EngineFault as fault:
            if fault.kind != "illegal":
                self.process.close(gently=False)
            raise

    def new_deal(self, number: int, dealer: int, seed: str) -> None:
        self._guard(lambda: self.process.send(new_deal(number, dealer, seed)))

    def choose(self, observation: Observation, budget: float | None = None) -> Action:
        self._request += 1
        request = self._request
        budget = self.budget if budget is None else budget

        def ask() -> Action:
            self.process.send(decide(request, observation, budget))
            return read_answer(self.process.receive(self.timeout), request, observation)

        action: Action = self._guard(ask)
        return action

    def deal_end(self, number: int, result: dict[str, Any], record: dict[str, Any] | None) -> None:
        self._guard(lambda: self.process.send(deal_end(number, result, record)))

    def close(self) -> None:
        self.process.close()
