"""Whether a room may leave memory (issue 40): nobody is at its table and nothing will happen there by itself.

A night of tables opened and left must not keep every one of them: the site releases a room that has been
vacant for a while (``site/release.py``), and an open one comes back from the store when someone asks for it."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import TYPE_CHECKING, Protocol

from ..kinds import TableStatus
from ..table import deadlines

if TYPE_CHECKING:
    from ..table import Table
    from .follower import Follower


class RestingRoom(Protocol):
    """What resting looks at in a room (``Room`` is one): its table, its followers, its turn."""

    @property
    def table(self) -> Table: ...
    @property
    def followers(self) -> Collection[Follower]: ...
    @property
    def lock(self) -> asyncio.Lock: ...


def vacant(room: RestingRoom) -> bool:
    """No page follows the table, no request is in its turn, and the store answers; then either it is
    closed, or it waits with no person seated (nor claiming a seat), no deadline to come and no robot to
    play: nothing would change it until someone comes."""
    table = room.table
    if room.followers or room.lock.locked() or table.paused is not None:
        return False
    if table.status == TableStatus.CLOSED:
        return True
    return (
        table.status == TableStatus.WAITING
        and not any(table.people())
        and not deadlines(table)
        and table.robot_turn() is None
    )


__all__ = ["RestingRoom", "vacant"]
