"""A table's options (the platform's table settings), checked one by one with errors that name them.

Each option is declared once, as a field of ``TableOptions`` with its default and its kind (``_choice``,
``_whole``...): the checks, the values the clients' forms offer (``OPTION_FIELDS``, served by ``GET
/api/options``) and the page's controls follow from it. A new option is that one field and its words
(``options.NAME`` in the page's catalogues); docs/protocol.md lists it (a test holds the list whole)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
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
class Kind:
    """How one option is checked and offered: ``check`` refuses a bad value naming it; ``offer`` is what a
    client's form shows (``choice``: its values, ``whole``: [low, high], ``flag``, ``level``, ``rules``)."""

    check: Callable[[str, Any], Any]
    offer: dict[str, Any]


def _choice(values: tuple[Any, ...]) -> dict[str, Any]:
    def check(name: str, value: Any) -> Any:
        if type(value) is not type(values[0]) or value not in values:
            raise OptionError(f"{name}: {value!r} is not one of {', '.join(map(repr, values))}")
        return value

    flag = set(values) == {True, False}
    return {"kind": Kind(check, {"kind": "flag" if flag else "choice", "values": list(values)})}


def _whole(low: int, high: int) -> dict[str, Any]:
    def check(name: str, value: Any) -> int:
        if type(value) is not int or not low <= value <= high:
            raise OptionError(f"{name}: {value!r} is not a whole number from {low} to {high}")
        return value

    return {"kind": Kind(check, {"kind": "whole", "values": [low, high]})}


def _level_check(name: str, value: Any) -> str:
    """A level of ``LEVELS``; a retired one (``expert-2``, a stored table's) is read as its successor."""
    if isinstance(value, str):
        value = current_level(value)
    if not isinstance(value, str) or value not in LEVELS:
        raise OptionError(f"{name}: {value!r} is not one of {', '.join(LEVELS)}")
    return value


def _rules_check(name: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        raise OptionError(f"{name}: a JSON object of rule option: value")
    try:
        RuleSet(
            4, MappingProxyType(value)
        )  # not make(4, **value): a rule named "players" would clash with its argument
    except RuleError as err:
        raise OptionError(f"{name}: {err}") from None
    defaults = {k: v[0] for k, v in RULE_OPTIONS.items()}
    return {k: v for k, v in value.items() if defaults[k] != v}


_LEVEL = {"kind": Kind(_level_check, {"kind": "level", "values": list(LEVELS)})}
_RULES = {"kind": Kind(_rules_check, {"kind": "rules", "values": {k: list(v) for k, v in RULE_OPTIONS.items()}})}


@dataclass(frozen=True)
class TableOptions:
    """What the master sets before a game: defaults first, as the platform lists them; each option's kind in
    its field's metadata (the one place an option is declared)."""

    turn_seconds: int = field(default=TURN_SECONDS[0], metadata=_choice(TURN_SECONDS))
    deals: int = field(default=5, metadata=_whole(1, MAX_DEALS))
    competitive: bool = field(default=True, metadata=_choice((True, False)))
    bet: int = field(default=0, metadata=_whole(0, MAX_BET))
    private: bool = field(default=False, metadata=_choice((False, True)))
    spectators: bool = field(default=True, metadata=_choice((True, False)))
    robot_level: str = field(default_factory=default_robot_level, metadata=_LEVEL)
    rules: dict[str, str] = field(default_factory=dict, metadata=_RULES)

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
            kind = _KINDS.get(name)
            if kind is None:
                raise OptionError(f"no table option {name!r}; options are {', '.join(_KINDS)}")
            checked[name] = kind.check(name, value)
        out = replace(self, **checked)
        if out.bet and not out.competitive:
            raise OptionError("bet: a practice table (competitive: false) takes no bet; set bet to 0")
        return out

    @classmethod
    def from_json(cls, data: Any) -> TableOptions:
        """A person's options (a request): the first bad name or value refused, naming it."""
        if not isinstance(data, dict):
            raise OptionError("options are a JSON object of name: value")
        return cls().changed(**data)

    @classmethod
    def stored(cls, data: Any) -> TableOptions:
        """Options read back from the store, written by this or an earlier version: an option since retired,
        or a value no longer offered, falls back to today's (its successor, else its default), logged once a
        name, so that an upgrade which drops an option never stops the site from reading its tables."""
        if not isinstance(data, dict):
            _forget("options", data)
            return cls()
        data = {RETIRED.get(name, name): value for name, value in data.items()}
        try:
            return cls.from_json({k: v for k, v in data.items() if k is not None})
        except OptionError:
            pass  # one by one: keep every option still good
        out = cls()
        for name, value in data.items():
            if name is None:
                continue
            if name == "rules" and isinstance(value, dict):
                value = {k: v for k, v in value.items() if k in RULE_OPTIONS and v in RULE_OPTIONS[k]}
            try:
                out = out.changed(**{name: value})
            except OptionError:
                _forget(name, value)
        return out


RETIRED: dict[str, str | None] = {}
"""A retired option's name -> its successor's (``None``: dropped). A name neither known nor here is dropped
too (``TableOptions.stored``); this map says where one went."""

_log = logging.getLogger("atout.options")
_forgotten: set[str] = set()


def _forget(name: str, value: Any) -> None:
    if name not in _forgotten:
        _forgotten.add(name)
        _log.warning(
            "a stored table option no longer offered was read as today's default",
            extra={"option": name, "value": repr(value)[:200]},
        )


_KINDS: dict[str, Kind] = {f.name: f.metadata["kind"] for f in fields(TableOptions)}

OPTION_FIELDS: list[dict[str, Any]] = [{"name": name, **kind.offer} for name, kind in _KINDS.items()]
"""Every option in the order a form shows it, with its kind and values (default first; a [low, high] pair
for whole numbers): what a client builds its controls from."""

OPTION_VALUES: dict[str, Any] = {f["name"]: f["values"] for f in OPTION_FIELDS}
"""Each option's values by name, default first."""

__all__ = ["OPTION_FIELDS", "OPTION_VALUES", "RETIRED", "TURN_SECONDS", "OptionError", "TableOptions"]
