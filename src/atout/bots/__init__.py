"""Computer players.  ``make_bot(level, seed)`` builds one by name.

``LEVELS`` holds every level a saved game or a table may name (``random``,
``heuristic`` and ``expert`` are kept forever; ``expert-1`` and ``expert-2`` are
frozen yardsticks).  ``OFFERED_LEVELS`` are the ones to show people, by names they
understand, each measured against the next (see benchmarks/results/).
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Bot
from .beginner import BeginnerBot
from .expert import ExpertBot
from .expert1 import Expert1Bot
from .expert2 import Expert2Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

LEVELS: dict[str, type] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "expert": ExpertBot,
    "expert-1": Expert1Bot,  # the expert before issue 12, frozen: the yardstick for later changes
    "expert-2": Expert2Bot,  # the expert issue 12 left, frozen: the yardstick for issue 25's robot
    "beginner": BeginnerBot,
    "club": HeuristicBot,  # the same robot as "heuristic", by a name people understand
}

OFFERED_LEVELS: dict[str, str] = {
    "beginner": "misjudges its hand now and then, and one card in three is a slip",
    "club": "a sound club player: counts its hand, follows the rules of thumb",
    "expert": "searches each decision over the deals the cards seen allow",
}
"""The levels to offer people (terminal game, online tables), weakest first, with a line each."""

SHOWN_AS: dict[str, str] = {"heuristic": "club"}
"""A kept level that people know by an offered one's name (the same robot): every page says ``club``."""


@dataclass(frozen=True, slots=True)
class Retired:
    """A level that left the package: what a stored table or game naming it plays now, and the
    yardstick (an earlier commit's robot, ``arena.yardsticks``) that is the level itself."""

    successor: str
    yardstick: str


RETIRED_LEVELS: dict[str, Retired] = {}


def level_shown(level: str) -> str:
    """The name people read for ``level``: an offered level's own, ``club`` for ``heuristic``."""
    return SHOWN_AS.get(level, level)


def make_bot(level: str, seed: int | str | None = None) -> Bot:
    """A robot of ``level`` (see ``LEVELS``), deterministic for a given seed."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown robot level {level!r}; levels are {', '.join(LEVELS)}") from None
    return cls(seed)


from .explain import explain  # noqa: E402  (it builds robots with make_bot)

__all__ = ["LEVELS", "OFFERED_LEVELS", "SHOWN_AS", "BeginnerBot", "Bot", "Expert1Bot", "Expert2Bot", "ExpertBot",
           "HeuristicBot", "RandomBot", "explain", "level_shown", "make_bot"]
