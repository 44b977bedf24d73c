"""Quick play: which table a person who asks for a game of N seats is sent to.

From the lobby's lines (this process's tables and the other processes', alike), the first that fits:
the table the person was just looking at (``near``: a friend's, say, private or not) when it has a seat
for them, a free one before a game or a robot's they may take (``Table.claimable``); then
a quick table where a robot's seat may be taken (a game is going on, the person plays from the next
deal), then a table waiting for people with a free seat (not one whose game is over); none, and a new quick table opens
with
robots. Never a private table, a betting one, nor one where the person sits already.
"""

from __future__ import annotations

from typing import Any

from ..kinds import TableStatus
from ..options import TableOptions

QUICK_OPTIONS = TableOptions().changed(competitive=False)
"""A quick table's options: the defaults, as practice (a person who takes a robot's seat between deals
plays on from its score: such a game ranks nobody)."""


def _open_to(x: dict[str, Any], players: int) -> bool:
    """A table of that size, not a betting one, where the viewer does not sit already."""
    return (
        x["players"] == players
        and x.get("you") is None
        and not (x.get("options") or {}).get("bet")
        and x.get("status") != TableStatus.CLOSED
    )


def pick(lines: list[dict[str, Any]], players: int, near: str | None = None) -> str | None:
    """The id of the table quick play seats the viewer at (``lines`` as the lobby shows them to that
    person: a private one only where they are admitted), or None: open a new one. ``near``, the table
    the page was just looking at, comes first when it has a seat for them: a person watching a friend's
    game who asks for a game means that one, not a new table of robots."""
    looked = next((x for x in lines if x["id"] == near), None) if near else None
    if (
        looked is not None
        and _open_to(looked, players)
        and (
            looked.get("claimable", 0) > 0
            or (looked.get("status") == TableStatus.WAITING and looked.get("free", 0) > 0)
        )
    ):
        return near
    fit = [x for x in lines if _open_to(x, players) and not x.get("private")]
    robots = [x for x in fit if x.get("quick") and x.get("claimable", 0) > 0]
    if robots:  # most people first: that is where the game is
        chosen: str = min(robots, key=lambda x: (x["robots"], x["id"]))["id"]
        return chosen
    waiting = [x for x in fit if x.get("status") == TableStatus.WAITING and x.get("free", 0) > 0 and not x.get("over")]
    if waiting:  # the nearest to full first: one more person may be all it waits for
        nearest: str = min(waiting, key=lambda x: (x["free"], x["id"]))["id"]
        return nearest
    return None


__all__ = ["QUICK_OPTIONS", "pick"]
