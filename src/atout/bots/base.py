"""The one robot interface: an observation and a time budget in, a legal action out."""

from __future__ import annotations

from typing import Protocol

from ..engine import Action, Observation


class Bot(Protocol):
    """A computer player.  It sees only ``Observation``s, never a ``Deal``."""

    name: str

    def choose(self, observation: Observation, budget: float | None = None) -> Action:
        """A legal action for ``observation.seat``; ``budget`` is seconds (None: the bot's default)."""
        ...
