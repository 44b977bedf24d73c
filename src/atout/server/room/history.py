"""A room's recent events as a page catches up: the events it missed, or the current deal's log from its start."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import TYPE_CHECKING, Any, Protocol, Self

from ..kinds import EventType

if TYPE_CHECKING:
    from ..table import Observer, Table
    from .services import Services

HISTORY_KEPT = 2000
"""The most events a room keeps in memory, to catch a page up (further back: its state alone)."""
LOG_KEPT = 300
"""The most events a joining page's log gets (a five-seat deal is about 100)."""
LOG_REACH = 600
"""How far back the store is read for the deal's start when the memory does not reach it."""


class HistoryRoom(Protocol):
    """What a page's catching up uses of a room (``Room`` is one): its table, its recent events, its observer
    (to show each event as the viewer may see it) and its store."""

    @property
    def table(self) -> Table: ...
    @property
    def history(self) -> deque[dict[str, Any]]: ...
    @property
    def observer(self) -> Observer: ...
    @property
    def services(self) -> Services[Self]: ...


async def events_after(room: HistoryRoom, seq: int) -> list[dict[str, Any]]:
    """The events after ``seq`` as stored, from memory when it reaches back (none: too far behind, the state alone)."""
    history = room.history
    if history and history[0]["seq"] <= seq + 1:
        return [e for e in history if e["seq"] > seq]
    stored = await asyncio.to_thread(room.services.store.events_after, room.table.id, seq, HISTORY_KEPT)
    if len(stored) == HISTORY_KEPT:
        return []  # too far behind: the state alone
    return [e.data for e in stored]


async def deal_log(room: HistoryRoom, seat: int | None) -> list[dict[str, Any]]:
    """The table's log so far as ``seat`` (None: a spectator) may see it, for a page that arrives: the
    current deal's events from its start (its game's start too, for the first deal), or the table's
    last events before any deal; each as that viewer would have received it (``public_event``: an
    écart is its trumps and its size to all but the taker). Chat lines are in the state already."""
    table = room.table
    events: list[dict[str, Any]] = list(room.history)
    starts = (EventType.DEAL_START, EventType.GAME_START)
    if table.game is not None and not any(e["type"] in starts for e in events):
        since = max(0, table.seq - LOG_REACH)  # loaded from the store mid-deal: the store has the rest
        stored = await asyncio.to_thread(room.services.store.events_after, table.id, since, LOG_REACH)
        events = [e.data for e in stored]
    begin = next((i for i in range(len(events) - 1, -1, -1) if events[i]["type"] == EventType.DEAL_START), None)
    if begin is None:
        begin = max(0, len(events) - LOG_KEPT)
    else:
        while begin and events[begin - 1]["type"] in (EventType.GAME_START, EventType.GAME_DEALER):
            begin -= 1
    kept = [e for e in events[begin:] if e["type"] != EventType.CHAT][-LOG_KEPT:]
    return [{"seq": e["seq"], "event": room.observer.public_event(e, seat)} for e in kept]


__all__ = ["HISTORY_KEPT", "LOG_KEPT", "HistoryRoom", "deal_log", "events_after"]
