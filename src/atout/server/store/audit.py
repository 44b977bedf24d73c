"""A table's stored log checked whole: its numbers run from 1 without a hole, every deal's record holds exactly
the actions stored between its start and its end and replays by the rules, every game's row carries the records
its deals ended with. The store promises each of these (an event is stored before anyone hears of it, a record
is made from the stored actions); the outage tests and the chaos benchmark hold it to them after faults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from ...engine.record import RecordError, replay
from ..kinds import EventType
from .rows import StoredEvent
from .store import Store


@dataclass(frozen=True)
class Finding:
    """One broken promise of a table's stored log: where (the event's number, if one) and what."""

    table: str
    seq: int | None
    what: str

    def __str__(self) -> str:
        return f"table {self.table}" + (f" seq {self.seq}" if self.seq is not None else "") + f": {self.what}"


def audit_events(table: str, events: list[StoredEvent]) -> list[Finding]:
    """What is wrong with ``events``, a table's whole stored log in order (none: nothing)."""
    found: list[Finding] = []
    expected = 1
    for e in events:
        if e.seq != expected:
            found.append(Finding(table, e.seq, f"the log jumps from {expected - 1} to {e.seq}"))
        expected = e.seq + 1
    actions: list[dict[str, Any]] | None = None  # the deal's stored actions, as its record writes them
    for e in events:
        if e.kind == EventType.DEAL_START:
            actions = []
        elif e.kind == EventType.ACTION and actions is not None:
            actions.append({"seat": e.data["seat"], **e.data["action"]})
        elif e.kind == EventType.DEAL_END:
            found += _deal_end(table, e, actions)
            actions = None
    return found


def _deal_end(table: str, e: StoredEvent, actions: list[dict[str, Any]] | None) -> list[Finding]:
    record = e.data.get("record")
    if not isinstance(record, dict):
        return [Finding(table, e.seq, "a deal's end without its record")]
    if actions is None:
        return [Finding(table, e.seq, "a deal's end without its start")]
    found = []
    if record.get("actions") != actions:
        recorded = record.get("actions") or []
        extra = [a for a in recorded if a not in actions]
        found.append(
            Finding(
                table,
                e.seq,
                f"the deal's record holds {len(recorded)} actions, its stored events "
                f"{len(actions)} (not in the events: {extra[:3]})",
            )
        )
    try:
        replay(record)
    except RecordError as err:
        found.append(Finding(table, e.seq, f"the deal's record does not replay: {err}"))
    return found


def audit_table(store: Store, table: str) -> list[Finding]:
    """``audit_events`` on what ``store`` holds of ``table``, and its games' rows against its deals' ends."""
    events = store.events_after(table, 0)
    found = audit_events(table, events)
    ended = {orjson_key(e.data["record"]) for e in events if e.kind == EventType.DEAL_END and "record" in e.data}
    for game in store.games(table):
        for record in game.data.get("records", []):
            if orjson_key(record) not in ended:
                found.append(Finding(table, None, f"game {game.game_id} holds a record no stored deal ended with"))
    return found


def orjson_key(record: Any) -> str:
    """A record as one comparable text (its keys sorted)."""
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS).decode()


__all__ = ["Finding", "audit_events", "audit_table"]
