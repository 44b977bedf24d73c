"""Computer players.  ``make_bot(level, seed)`` builds one by name.

``LEVELS`` holds every level a table, a game or the arena may name (``random``,
``heuristic`` and ``expert`` are kept forever).  ``OFFERED_LEVELS`` are the ones to
show people, by names they understand, each measured against the next (see
benchmarks/results/).  ``RETIRED_LEVELS`` left the package: the frozen yardsticks
``expert-1`` and ``expert-2`` are earlier commits now (``arena.yardsticks``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from .base import Bot
from .beginner import BeginnerBot
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

LEVELS: dict[str, type] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "expert": ExpertBot,
    "beginner": BeginnerBot,
    "club": HeuristicBot,  # the same robot as "heuristic", by a name people understand
}

OFFERED_LEVELS: dict[str, str] = {
    "beginner": "misjudges its hand now and then, and one card in three is a slip",
    "club": "a sound club player: counts its hand, follows the rules of thumb",
    "expert": "searches each decision over the deals the cards seen allow",
}
"""The levels to offer people (terminal game, online tables), weakest first, with a line each."""

SHOWN_AS: dict[str, str] = {"heuristic": "club", "expert-1": "expert", "expert-2": "expert"}
"""A level that people know by an offered one's name: every page says ``club`` for the heuristic (the same
robot), and ``expert`` for a retired level a stored table names (the robot that plays it now)."""


@dataclass(frozen=True, slots=True)
class Retired:
    """A level that left the package: what a stored table or game naming it plays now, and the
    yardstick (an earlier commit's robot, ``arena.yardsticks``) that is the level itself."""

    successor: str
    yardstick: str


YARDSTICK_COMMIT = "ad2d964a9212"
"""The last commit with the frozen copies in ``src/`` (benchmarks/results/strength.md names it too)."""

RETIRED_LEVELS: dict[str, Retired] = {
    # the expert before issue 12, frozen in bots/expert1/ until issue 39
    "expert-1": Retired("expert", f"commit:{YARDSTICK_COMMIT}:expert-1"),
    # the expert issue 12 left, frozen in bots/expert2/ until issue 39: issue 25's yardstick
    "expert-2": Retired("expert", f"commit:{YARDSTICK_COMMIT}:expert-2"),
}
"""Levels that left the package.  A stored table, seat or game naming one loads and plays its successor
(``make_bot``, the table options, the terminal's saved games; shown by the successor's name, ``SHOWN_AS``);
the arena refuses one and names its yardstick, which is the level itself."""


def level_shown(level: str) -> str:
    """The name people read for ``level``: an offered level's own, ``club`` for ``heuristic``."""
    return SHOWN_AS.get(level, level)


def current_level(level: str) -> str:
    """The level that plays ``level`` now: itself, or a retired level's successor (said once in the log)."""
    retired = RETIRED_LEVELS.get(level)
    if retired is None:
        return level
    if level not in _said:
        _said.add(level)
        logging.getLogger(__name__).info(
            "robot level %s left the package (issue 39): %s plays it; the level itself is the yardstick %s",
            level,
            retired.successor,
            retired.yardstick,
        )
    return retired.successor


_said: set[str] = set()


def make_bot(level: str, seed: int | str | None = None) -> Bot:
    """A robot of ``level`` (see ``LEVELS``; a retired one gets its successor), deterministic for a given seed."""
    try:
        cls = LEVELS[current_level(level)]
    except KeyError:
        raise ValueError(f"unknown robot level {level!r}; levels are {', '.join(LEVELS)}") from None
    return cls(seed)


__all__ = [
    "LEVELS",
    "OFFERED_LEVELS",
    "RETIRED_LEVELS",
    "SHOWN_AS",
    "YARDSTICK_COMMIT",
    "BeginnerBot",
    "Bot",
    "ExpertBot",
    "HeuristicBot",
    "RandomBot",
    "Retired",
    "current_level",
    "level_shown",
    "make_bot",
]
