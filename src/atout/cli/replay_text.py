"""``atout replay FILE`` without --json: a plain step-through (the terminal viewer replaces it)."""

from __future__ import annotations

import json

from ..engine.cards import french_name
from ..engine.record import RecordError, outcome_json, replay
from .records import _read


def replay_text(path: str) -> int:
    try:
        deal = replay(_read(path)).deal
    except RecordError as err:
        print(f"error at action {err.action}: {err.rule}: {err.message}")
        return 2
    for trick in deal.tricks:
        print("  ".join(f"{s}:{french_name(c)}" for s, c in trick.plays), f"→ seat {trick.winner}")
    print(json.dumps(outcome_json(deal), ensure_ascii=False))
    return 0
