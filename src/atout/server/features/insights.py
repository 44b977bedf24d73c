"""A person's insights (issue 50, docs/analysis.md "Insights"): how well they play, from their deals' accuracy.

Read from the table ``accuracy`` (one row a seat analysed: the points its choices cost against the expert's, in all,
by phase and by habit), for the analysis's current version (an older version's figures are another yardstick): the
points lost a deal over the last ``WINDOW`` deals and over all, by phase and by table size; the phase that cost most
lately; the trend (the average of the last ``SMOOTH`` deals, deal by deal, over the last ``RECENT`` deals); the
robots' levels on the same scale beside each phase (``robots``); and the three habits that cost most over those
``RECENT`` deals, each with the deal where it cost most. A phase's figure is a deal in which the seat decided there:
the bid every deal, the écart and the play as taker the deals taken, the play as partner or in defence the deals in
that side.

Private by default: the person sees them on their profile, others only once the person shows them
(``players.insights_public``, migration 0021). A daily deal's play counts only once its day is over, as on the
profile.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from ...bots.accuracy import PHASE_ROLES, PHASES
from ...bots.analysis import VERSION
from ...bots.levels_figures import nearest, robots_beside
from ..store.db import accuracy, players
from . import daily

WINDOW = 50
"""The latest deals the page's first column sums (the second: all of them)."""
RECENT = 200
"""The latest deals the trend draws and the habits are found in."""
SMOOTH = 10
"""The trend's point for a deal: the average of that deal and the ones before it, this many at most."""
HABITS_SHOWN = 3


def is_public(engine: sa.Engine, player_id: str) -> bool:
    with engine.connect() as conn:
        return bool(conn.execute(sa.select(players.c.insights_public).where(players.c.id == player_id)).scalar())


def set_public(engine: sa.Engine, player_id: str, public: bool) -> None:
    with engine.begin() as conn:
        conn.execute(players.update().where(players.c.id == player_id).values(insights_public=public))


def _summary(groups: Iterable[tuple[int, str | None, int, float, dict[str, float]]]) -> dict[str, Any]:
    """The figures of some deals given as groups (table size, role, deals, points lost, points by phase): the
    deals, the points lost a deal, and per phase the deals it applies to and the points lost a deal there; by
    table size, the deals and the points lost a deal."""
    deals = 0
    loss = 0.0
    phases = {p: [0, 0.0] for p in PHASES}
    phase_sizes: dict[str, dict[str, int]] = {p: {} for p in PHASES}  # a phase's deals at each table size
    sizes: dict[str, list[float]] = {}
    for size, role, count, lost, by_phase in groups:
        deals += count
        loss += lost
        size_sums = sizes.setdefault(str(size), [0, 0.0])
        size_sums[0] += count
        size_sums[1] += lost
        for phase in PHASES:
            roles = PHASE_ROLES[phase]
            if roles is None or role in roles:
                phases[phase][0] += count
                phases[phase][1] += by_phase[phase]
                phase_sizes[phase][str(size)] = phase_sizes[phase].get(str(size), 0) + count
    return {
        "deals": deals,
        "loss": round(loss / deals, 1) if deals else None,
        "total": round(loss, 1),
        "phases": {
            p: {
                "deals": int(n),
                "loss": round(v / n, 1) if n else None,
                "total": round(v, 1),
                "sizes": dict(sorted(phase_sizes[p].items())),
            }
            for p, (n, v) in phases.items()
        },
        "sizes": {k: {"deals": int(n), "loss": round(v / n, 1)} for k, (n, v) in sorted(sizes.items()) if n},
    }


def _main(summary: dict[str, Any]) -> str | None:
    """The phase that cost most points in all (the first in PHASES on a tie); None when nothing cost anything."""
    totals = {p: summary["phases"][p]["total"] for p in PHASES}
    best = max(PHASES, key=lambda p: (totals[p], -PHASES.index(p)))
    return best if totals[best] > 0 else None


def insights(engine: sa.Engine, player_id: str, now: float) -> dict[str, Any]:
    """What the profile's insights show of ``player_id`` (see the module docstring)."""
    hidden = daily.locked_games_of(engine, player_id, now)
    mine = sa.and_(accuracy.c.player_id == player_id, accuracy.c.version == VERSION)
    if hidden:
        mine = sa.and_(mine, accuracy.c.game_id.not_in(hidden))
    sums = [sa.func.sum(accuracy.c[p]).label(p) for p in PHASES]
    with engine.connect() as conn:
        latest = conn.execute(
            sa.select(accuracy)
            .where(mine)
            .order_by(accuracy.c.created_at.desc(), accuracy.c.game_id, accuracy.c.deal)
            .limit(RECENT)
        ).all()
        grouped = conn.execute(
            sa.select(
                accuracy.c.players,
                accuracy.c.role,
                sa.func.count().label("n"),
                sa.func.sum(accuracy.c.loss).label("loss"),
                *sums,
            )
            .where(mine)
            .group_by(accuracy.c.players, accuracy.c.role)
        ).all()
    overall = _summary(
        (r.players, r.role, int(r.n), float(r.loss or 0), {p: float(getattr(r, p) or 0) for p in PHASES})
        for r in grouped
    )
    recent = _summary(
        (r.players, r.role, 1, float(r.loss), {p: float(getattr(r, p)) for p in PHASES}) for r in latest[:WINDOW]
    )
    in_order = latest[::-1]
    trend = []
    for i, row in enumerate(in_order):
        last = in_order[max(0, i - SMOOTH + 1) : i + 1]
        trend.append([row.created_at, round(sum(float(r.loss) for r in last) / len(last), 1)])
    return {
        "window": WINDOW,
        "recent": recent,
        "all": overall,
        "main": _main(recent),
        "robots": robots(recent),
        "trend": trend,
        "smooth": SMOOTH,
        "habits": _habits(latest)[:HABITS_SHOWN],
        "habit_deals": len(latest),
    }


def robots(summary: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Beside each phase of ``summary`` (and ``all``: every deal) that has deals, the robots' levels' points lost a
    deal on the same scale, at the table sizes of those deals (``bots.levels_figures``), and the level nearest."""
    out: dict[str, dict[str, Any]] = {}
    for phase in (*PHASES, "all"):
        part = summary if phase == "all" else summary["phases"][phase]
        if not part["deals"] or part["loss"] is None:
            continue
        by_size = {k: v["deals"] for k, v in summary["sizes"].items()} if phase == "all" else part["sizes"]
        levels = robots_beside(by_size, phase)
        if levels:
            out[phase] = {"levels": levels, "near": nearest(part["loss"], levels)}
    return out


def _habits(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """The habits that cost something in ``rows``, costliest first: the points lost in all, the decisions and
    deals, and the deal where it cost most (its game, its place in the game from 1 as its review's address
    numbers it, the seat, the points lost there). Rows kept before habits were (migration 0021) count in none."""
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        for habit, (points, count) in (row.habits or {}).items():
            item = found.setdefault(habit, {"habit": habit, "loss": 0.0, "decisions": 0, "deals": 0, "worst": None})
            item["loss"] += float(points)
            item["decisions"] += int(count)
            item["deals"] += 1
            if item["worst"] is None or float(points) > item["worst"]["loss"]:
                item["worst"] = {"game": row.game_id, "deal": row.deal + 1, "seat": row.seat, "loss": float(points)}
    out = sorted(found.values(), key=lambda h: (-h["loss"], h["habit"]))
    for item in out:
        item["loss"] = round(item["loss"], 1)
    return out


__all__ = ["RECENT", "WINDOW", "insights", "is_public", "robots", "set_public"]
