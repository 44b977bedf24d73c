"""Outside engines in the arena: ``cmd:COMMAND`` entrants, and the yardsticks of earlier commits
(``commit:HASH:LEVEL``, ``yardsticks``), one process per seat for the whole run.

A process is started at its seat's first deal and kept; one that failed (anything but an illegal action)
is started again at the next deal.  Stderr goes to ``LOGS/ROLE-seatN.log``.
"""

from __future__ import annotations

import atexit
import hashlib
import multiprocessing
import multiprocessing.util
import os
from dataclasses import dataclass
from pathlib import Path

from ..engine import RuleSet
from ..protocol.host import EngineBot
from . import yardsticks

PREFIX = "cmd:"


def command_of(spec: str) -> str | None:
    """The command that runs entrant ``spec`` as an engine, or None for a robot level played in process.
    A yardstick (``commit:HASH:LEVEL``) is built here if it is not yet (``yardsticks.build``)."""
    if spec.startswith(PREFIX):
        return spec[len(PREFIX) :]
    if yardsticks.is_yardstick(spec):
        return yardsticks.command(spec)
    return None


def is_engine(spec: str) -> bool:
    """Whether an entrant runs as a process (``cmd:COMMAND``, ``commit:HASH:LEVEL``) rather than in process."""
    return spec.startswith(PREFIX) or yardsticks.is_yardstick(spec)


def engine_seed(deal_seed: str, seat: int, spec: str | None = None) -> str:
    """The seed an engine gets for its own random choices: fixed by the deal and the seat, but no way
    back to the deal's seed (which would deal it every hand).  ``spec`` None: the seat's alone, the
    same for every entrant (the arena's common seeding); else the entrant's command is in it too."""
    tail = "" if spec is None else f"/{spec}"
    return hashlib.sha256(f"{deal_seed}/seat/{seat}{tail}".encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class EngineSettings:
    """How the arena runs engines (sent to every worker process, so plain values only)."""

    timeout: float = 30.0  # seconds an engine may take to answer a decision request
    logs: str | None = None  # the folder of their stderr logs (None: stderr is dropped)


_seated: dict[tuple[str, str, int, RuleSet, float | None, EngineSettings], EngineBot] = {}


def log_path(settings: EngineSettings, role: str, seat: int) -> Path | None:
    if settings.logs is None:
        return None
    worker = "" if multiprocessing.parent_process() is None else f"-worker{os.getpid()}"
    return Path(settings.logs) / f"{role}-seat{seat}{worker}.log"


def seated_engine(
    spec: str, role: str, seat: int, rules: RuleSet, budget: float | None, settings: EngineSettings
) -> EngineBot:
    """The process holding ``seat`` for ``role``, started (again) if it is not running.
    EngineFault when it cannot be started or fails its hello."""
    key = (spec, role, seat, rules, budget, settings)
    bot = _seated.get(key)
    if bot is not None and bot.alive:
        return bot
    if bot is not None:
        bot.close()
    _seated.pop(key, None)
    command = command_of(spec)
    assert command is not None, spec
    bot = EngineBot(
        command, rules, seat, budget, settings.timeout, log_path(settings, role, seat), name=f"{role} seat {seat}"
    )
    _seated[key] = bot
    return bot


def close_engines() -> None:
    """Say quit to every engine of this process (at the end of a run, and at exit)."""
    while _seated:
        _, bot = _seated.popitem()
        bot.close()


atexit.register(close_engines)
multiprocessing.util.Finalize(None, close_engines, exitpriority=10)  # a pool's worker skips atexit
