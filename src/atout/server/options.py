"""A table's options (the platform's table settings), checked one by one with errors that name them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any

from ..bots import LEVELS, current_level
from ..engine.rules import OPTIONS as RULE_OPTIONS
from ..engine.rules import RuleError, RuleSet

TURN_SECONDS = (30, 15, 20, 45, 60, 90, 0)
"""Time per turn, the default first; 0 is unlimited."""
MAX_DEALS = 20
MAX_BET = 1_000_000


class OptionError(ValueError):
    """An option name or value that does not exist; the message names it and the allowed values."""


def default_robot_level() -> str:
    """The robots a table, quick play, the daily deal and a tournament get unless told otherwise: the
    one place that says so, by the name people read (``club``, the heuristic robot)."""
    return "club" if "club" in LEVELS else next(iter(LEVELS))


@dataclass(frozen=True)
class TableOptions:
    """What the master sets before a game: defaults first, as the platform lists them."""

    turn_seconds: int = 30
    deals: int = 5
    competitive: bool = True
    bet: int = 0
    private: bool = False
    spectators: bool = True
    robot_level: str = field(default_factory=default_robot_level)
    rules: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Every option with its value (the rules in full); computed once, to be read, not changed."""
        return self._json

    @cached_property
    def _json(self) -> dict[str, Any]:
        out = asdict(self)
        out["rules"] = {**{k: v[0] for k, v in RULE_OPTIONS.items()}, **self.rules}
        return out

    def ruleset(self, players: int) -> RuleSet:
        return RuleSet.make(players, **self.rules)

    def changed(self, /, **values: Any) -> TableOptions:
        """A copy with ``values`` checked and set; OptionError names the first bad one."""
        checked: dict[str, Any] = {}
        for name, value in values.items():
            check = _CHECKS.get(name)
            if check is None:
                raise OptionError(f"no table option {name!r}; options are {', '.join(_CHECKS)}")
            checked[name] = check(value)
        out = replace(self, **checked)
        if out.bet and not out.competitive:
            raise OptionError("bet: a practice table (competitive: false) takes no bet; set bet to 0")
        return out

    @classmethod
    def from_json(cls, data: Any) -> TableOptions:
        if not isinstance(data, dict):
            raise OptionError("options are a JSON object of name: value")
        return cls().changed(**data)


def _choice(name: str, values: tuple[Any, ...]) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is not type(values[0]) or value not in values:
            raise OptionError(f"{name}: {value!r} is not one of {', '.join(map(repr, values))}")
        return value

    return check


def _whole(name: str, low: int, high: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if type(value) is not int or not low <= value <= high:
            raise OptionError(f"{name}: {value!r} is not a whole number from {low} to {high}")
        return value

    return check


def _level(value: Any) -> str:
    """A level of ``LEVELS``; a retired one (``expert-2``, a stored table's) is read as its successor."""
    if isinstance(value, str):
        value = current_level(value)
    if not isinstance(value, str) or value not in LEVELS:
        raise OptionError(f"robot_level: {value!r} is not one of {', '.join(LEVELS)}")
    return value


def _rules(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        raise OptionError("rules: a JSON object of rule option: value")
    try:
        RuleSet(4, MappingProxyType(value))  # not make(4, **value): a rule named "players" would clash with its argument
    except RuleError as err:
        raise OptionError(f"rules: {err}") from None
    defaults = {k: v[0] for k, v in RULE_OPTIONS.items()}
    return {k: v for k, v in value.items() if defaults[k] != v}


_CHECKS = {
    "turn_seconds": _choice("turn_seconds", TURN_SECONDS),
    "deals": _whole("deals", 1, MAX_DEALS),
    "competitive": _choice("competitive", (True, False)),
    "bet": _whole("bet", 0, MAX_BET),
    "private": _choice("private", (False, True)),
    "spectators": _choice("spectators", (True, False)),
    "robot_level": _level,
    "rules": _rules,
}

OPTION_VALUES: dict[str, Any] = {
    "turn_seconds": list(TURN_SECONDS),
    "deals": [1, MAX_DEALS],
    "competitive": [True, False],
    "bet": [0, MAX_BET],
    "private": [False, True],
    "spectators": [True, False],
    "robot_level": list(LEVELS),
    "rules": {k: list(v) for k, v in RULE_OPTIONS.items()},
}
"""Each option's values (default first; a [low, high] pair for whole numbers), for clients' forms."""

__all__ = ["OPTION_VALUES", "TURN_SECONDS", "OptionError", "TableOptions"]
