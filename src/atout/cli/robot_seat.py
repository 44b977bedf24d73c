"""The engine behind ``atout robot``'s seat: an engine process (``cmd:COMMAND``, spoken to through the arena's
host, ``protocol.host.EngineBot``) or one of Atout's levels in process, with the arena's policy when an engine
fails: the heuristic plays the seat's decisions for the rest of the deal, and the failure is said."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..arena.duplicate import FALLBACK
from ..arena.engines import engine_seed
from ..bots import LEVELS, RETIRED_LEVELS, make_bot
from ..bots.streams import PerDecision
from ..engine import Action, Observation, RuleSet
from ..protocol import EngineFault
from ..protocol.host import EngineBot

COMMAND = "cmd:"


def check_spec(spec: str) -> str | None:
    """What is wrong with an ``--engine`` (``cmd:COMMAND`` or a level), or None."""
    if spec.startswith(COMMAND):
        return None if spec[len(COMMAND) :].strip() else 'cmd: needs a command, as cmd:"node my_engine.js"'
    if spec in RETIRED_LEVELS:
        return f"robot level {spec!r} left the package; its yardstick is {RETIRED_LEVELS[spec].yardstick}"
    if spec not in LEVELS:
        return f"unknown engine {spec!r}: cmd:COMMAND, or a level: {', '.join(LEVELS)}"
    return None


class SeatEngine:
    """One seat's engine across the deals of a site's tables.  ``start`` it for a table's rules and seat,
    ``deal`` at each deal, ``choose`` per decision (never fails: a fault is said on ``say`` and the
    heuristic chooses), ``deal_end`` after; ``close`` at the end."""

    def __init__(
        self,
        spec: str,
        timeout: float,
        budget: float | None,
        log: Path | None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.spec = spec
        self.timeout = timeout
        self.budget = budget
        self.log = log
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.faults: list[dict[str, Any]] = []
        self._bot: EngineBot | None = None
        self._key: tuple[RuleSet, int] | None = None
        self._own: Any = None  # a level's robot, in process
        self._fallback: Any = None  # the heuristic, once the engine failed in this deal
        self._deal: tuple[int, int, str] | None = None  # (number, dealer, seed) of the deal under way
        self._told = False  # the engine process heard this deal's ``deal``

    @property
    def is_process(self) -> bool:
        return self.spec.startswith(COMMAND)

    @property
    def fallen(self) -> bool:
        """Whether the heuristic plays the seat for the rest of the deal (the engine failed in it)."""
        return self._fallback is not None

    def start(self, rules: RuleSet, seat: int, timeout: float | None = None) -> None:
        """Seat the engine at ``seat`` of a table of ``rules`` (a new process only when one of them, or the
        ``timeout`` per decision, changed)."""
        timeout = self.timeout if timeout is None else timeout
        if self._key == (rules, seat) and timeout == self.timeout:
            return
        self._close_bot()
        self._key, self.timeout = (rules, seat), timeout

    def deal(self, number: int, dealer: int, commitment: str) -> None:
        """A deal begins; the engine's seed is the arena's ``engine_seed`` of the deal's public commitment."""
        assert self._key is not None, "start before a deal"
        seed = engine_seed(commitment, self._key[1])
        self._deal = (number, dealer, seed)
        self._fallback, self._told = None, False
        if not self.is_process:
            self._own = PerDecision(make_bot(self.spec, seed), seed)

    def _engine(self) -> EngineBot:
        """The process, started (again, after a fault) and told of the deal under way: EngineFault else."""
        assert self._key is not None and self._deal is not None
        if self._bot is None or not self._bot.alive:
            self._close_bot()
            rules, seat = self._key
            self._bot = EngineBot(
                self.spec[len(COMMAND) :], rules, seat, self.budget, self.timeout, self.log, name=f"site seat {seat}"
            )
            self.say(f"engine {self._bot.engine_name!r} ready at seat {seat}")
        if not self._told:
            self._told = True
            self._bot.new_deal(*self._deal)
        return self._bot

    def choose(self, obs: Observation) -> Action:
        """The engine's action, or the heuristic's once the engine failed in this deal."""
        if self._fallback is None:
            if not self.is_process:
                action: Action = self._own.choose(obs, self.budget)
                return action
            try:
                return self._engine().choose(obs, self.budget)
            except EngineFault as fault:
                self.fault(fault)
        action = self._fallback.choose(obs, self.budget)
        return action

    def fault(self, fault: EngineFault) -> None:
        """The engine failed (here, or the site refused its action as illegal): the heuristic plays the
        seat's decisions for the rest of the deal, as in the arena."""
        assert self._deal is not None
        number, _, seed = self._deal
        self.faults.append({"deal": number, **fault.to_json()})
        self.say(
            f"engine fault in deal {number}: {fault.kind}: {fault.message}; the {FALLBACK} plays this seat "
            f"until the deal ends"
        )
        self._fallback = PerDecision(make_bot(FALLBACK, seed), seed)

    def deal_end(self, result: dict[str, Any], record: dict[str, Any] | None) -> None:
        """Tell the engine the deal's end, if it heard the deal and is still running."""
        if self._bot is not None and self._told and self._bot.alive and self._deal is not None:
            try:
                self._bot.deal_end(self._deal[0], result, record)
            except EngineFault as fault:
                self.say(f"engine fault at the end of deal {self._deal[0]}: {fault.kind}: {fault.message}")
        self._deal = None

    def _close_bot(self) -> None:
        if self._bot is not None:
            self._bot.close()
            self._bot = None

    def close(self) -> None:
        self._close_bot()
