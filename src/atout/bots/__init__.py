"""Computer players.  ``make_bot(level, seed)`` builds one by name."""

from __future__ import annotations

from .base import Bot
from .expert import ExpertBot
from .expert1 import Expert1Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

LEVELS: dict[str, type] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "expert": ExpertBot,
    "expert-1": Expert1Bot,  # the expert before issue 12, frozen: the yardstick for later changes
}


def make_bot(level: str, seed: int | str | None = None) -> Bot:
    """A robot of ``level`` (see ``LEVELS``), deterministic for a given seed."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown robot level {level!r}; levels are {', '.join(LEVELS)}") from None
    return cls(seed)


__all__ = ["LEVELS", "Bot", "Expert1Bot", "ExpertBot", "HeuristicBot", "RandomBot", "make_bot"]
