"""What a room uses of a connection that follows its table: who it speaks for, the frames it is sent and the
state it was last sent. The site's connections (``site/connection.py``) are such; a room names nothing else
of the site, so the site's wing sits above the rooms with no import back, not even for the type checker."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..player import Player
    from ..table.observer import Parts
    from ..told import Told


class Follower(Protocol):
    """A page following a table (this process's socket, or another process's through the bus)."""

    player: Player | None
    patches: bool  # it asked for patches instead of whole states
    views: dict[str, Parts]  # table -> the last state it was sent or patched to
    tables: set[str]  # the tables it follows here

    @property
    def who(self) -> Player:
        """The player it speaks for (a refusal if it never said hello)."""
        ...

    def send(self, message: Told | str) -> None:
        """One frame to it, in order."""
        ...
