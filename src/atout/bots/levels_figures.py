"""The robots' levels on a person's scale: what each level's choices lose a deal against the expert.

Measured by ``benchmarks/level_accuracy.py`` exactly as a person's deals are (the site's analysis, the same
phases and the same rule for which deals a phase counts: ``accuracy.PHASE_ROLES``) and kept in
``level_accuracy.json`` beside this module; the profile's insights say which level a person's play is nearest,
phase by phase. Figures are by table size: a person's are compared with the robots' at the sizes the person
played, weighted by their deals at each.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path

FIGURES_PATH = Path(__file__).with_name("level_accuracy.json")
"""Written by ``benchmarks/level_accuracy.py --write``; its ``command`` says how."""


@cache
def level_figures() -> dict[str, dict[str, dict[str, list[float]]]]:
    """Each level's ``{players: {phase: [points lost a deal, deals measured]}}`` (``all`` for every deal);
    empty when the figures are missing (a robots' change that has not measured them again)."""
    if not FIGURES_PATH.exists():
        return {}
    levels: dict[str, dict[str, dict[str, list[float]]]] = json.loads(FIGURES_PATH.read_text())["levels"]
    return levels


def robots_beside(deals_by_size: Mapping[str, int], phase: str) -> dict[str, float]:
    """Each level's points lost a deal in ``phase`` (or ``all``), over the table sizes a person's
    ``deals_by_size`` played, weighted by them; a level measured at none of those sizes is left out."""
    out: dict[str, float] = {}
    for level, sizes in level_figures().items():
        weighed = [
            (n, sizes[size][phase][0]) for size, n in deals_by_size.items() if n and phase in sizes.get(size, {})
        ]
        total = sum(n for n, _ in weighed)
        if total:
            out[level] = round(sum(n * loss for n, loss in weighed) / total, 1)
    return out


def nearest(loss: float, robots: Mapping[str, float]) -> str | None:
    """The level whose figure is nearest ``loss`` (the stronger on a tie: the one losing less); None without any."""
    if not robots:
        return None
    return min(robots, key=lambda level: (abs(robots[level] - loss), robots[level]))


__all__ = ["FIGURES_PATH", "level_figures", "nearest", "robots_beside"]
