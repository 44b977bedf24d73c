"""The daily deal (docs/daily.md): each UTC day, one set of deals that every registered person may play
once, against robots that answer the same play the same way, then a ranking of the day.

A day's seed is drawn from the operating system's cryptographic source the first time the day is asked
for, and its commitment (SHA-256) published from then on (``GET /api/daily``, and the next day's a day
ahead); deal ``k`` of the day is dealt from ``daily_deal_seed(seed, k)`` by the day's dealer
(``server/fair_sets.py``). The seed is revealed when the day is over and no play of it is going on (at the
latest ``REVEAL_GRACE`` after its end), and ``atout verify`` checks the whole day's set with it.

A play is a table of the site's normal kind (``table.py``: ``daily``), the person at seat 0 and robots in
the others, started at once. The play is stored when it starts (``daily_plays``, one per person and day:
no second try), and written again, in the transaction that stores the game's end, when it ends: finished,
or abandoned (the person left, or did not come back: as at any table, the game is then deserted).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...engine.fairness import commitment
from ..fair_sets import daily_deal_seed
from ..kinds import Outcome, SeatKind
from ..options import TableOptions
from ..protocol import ProtocolError
from ..results import DailyEnd, GameOver
from ..store.db import daily_days, daily_plays, players
from .daily_marks import Unranked, reason_text, unranked

PLAYERS = 4
"""The daily deal is played at four: the person and three robots."""
DEALS = 5
"""Deals in a day's set (``atout serve --daily-deals``)."""
DAY = 86400.0
REVEAL_GRACE = 6 * 3600.0
"""A day's seed is revealed once the day is over and nobody plays it any more, and at the latest this long
after its end (a play started at 23:59 has this long to finish before its deals are public)."""
PAST_DAYS = 60
"""How many past days ``GET /api/daily/days`` lists."""
_DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


class DailyError(Exception):
    """A refusal: HTTP ``status``, error ``code`` and a message naming what was wrong."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


# ------------------------------------------------------------------------------ the days
def day_of(t: float) -> str:
    """The UTC date of time ``t`` (seconds since 1970): ``2026-11-25``."""
    return dt.datetime.fromtimestamp(t, dt.UTC).date().isoformat()


def day_start(day: str) -> float:
    return dt.datetime.fromisoformat(day).replace(tzinfo=dt.UTC).timestamp()


def next_day(day: str) -> str:
    return (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat()


def valid_day(day: str) -> bool:
    if not _DAY.match(day):
        return False
    try:
        dt.date.fromisoformat(day)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Day:
    """A day's set: its secret seed and what is published of it."""

    day: str
    seed: str
    commitment: str
    players: int
    deals: int
    level: str
    salt: str | None = None  # the day's own salt of the plays' address and browser marks: never published

    @property
    def ends_at(self) -> float:
        return day_start(self.day) + DAY

    def public(self) -> dict[str, Any]:
        """What anyone may know of the day before it is over: never its seed."""
        return {
            "day": self.day,
            "commitment": self.commitment,
            "players": self.players,
            "deals": self.deals,
            "level": self.level,
            "ends_at": self.ends_at,
        }

    def options(self) -> TableOptions:
        """The table a play of this day is: private, nobody watching, unranked (the day has its own
        ranking), the day's number of deals and robots."""
        return TableOptions().changed(
            deals=self.deals, competitive=False, private=True, spectators=False, robot_level=self.level
        )


def _day_row(conn: sa.Connection, day: str) -> Day | None:
    row = conn.execute(sa.select(daily_days).where(daily_days.c.day == day)).first()
    return None if row is None else Day(row.day, row.seed, row.commitment, row.players, row.deals, row.level, row.salt)


def ensure_day(engine: sa.Engine, day: str, deals: int, level: str, now: float) -> Day:
    """The day's set, drawn and committed to the first time it is asked for (by any process: the first
    insert wins, the others read it)."""
    with engine.connect() as conn:
        found = _day_row(conn, day)
    if found is not None:
        return found
    seed = secrets.token_hex(16)
    try:
        with engine.begin() as conn:
            conn.execute(
                daily_days.insert().values(
                    day=day,
                    seed=seed,
                    commitment=commitment(seed),
                    players=PLAYERS,
                    deals=deals,
                    level=level,
                    created_at=now,
                    salt=secrets.token_hex(16),
                )
            )
    except IntegrityError:  # another process drew it first: theirs is the day's
        pass
    with engine.connect() as conn:
        found = _day_row(conn, day)
    assert found is not None
    return found


def stored_day(engine: sa.Engine, day: str) -> Day | None:
    with engine.connect() as conn:
        return _day_row(conn, day)


def is_over(engine: sa.Engine, day: Day, now: float) -> bool:
    """Whether the day's seed may be revealed: the day has ended and nobody plays it any more (at the
    latest ``REVEAL_GRACE`` after its end)."""
    if now < day.ends_at:
        return False
    if now >= day.ends_at + REVEAL_GRACE:
        return True
    with engine.connect() as conn:
        playing = conn.execute(
            sa.select(sa.func.count())
            .select_from(daily_plays)
            .where(daily_plays.c.day == day.day, daily_plays.c.status == "playing")
        ).scalar_one()
    return playing == 0


def robot_seed(day_seed: str, index: int, seat: int, actions: list[dict[str, Any]]) -> str:
    """A robot's seed for one decision at a daily deal: the day's seed, the deal, the seat and every action
    so far, so that the same play meets the same answer whoever plays it."""
    history = json.dumps(actions, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(f"atout-daily-robot/1/{day_seed}/{index}/{seat}/{history}".encode()).hexdigest()


# ------------------------------------------------------------------------------ the plays
def begin(
    engine: sa.Engine,
    day: str,
    player_id: str,
    table_id: str,
    now: float,
    address: str | None = None,
    browser: str | None = None,
) -> None:
    """The person's play of the day, stored as it starts with its marks (``daily_marks.mark``: whether it
    is ranked is the day's ranking's to say); ProtocolError ``daily_played`` when they have one."""
    try:
        with engine.begin() as conn:
            conn.execute(
                daily_plays.insert().values(
                    day=day,
                    player_id=player_id,
                    table_id=table_id,
                    status="playing",
                    deals_done=0,
                    started_at=now,
                    address=address,
                    browser=browser,
                )
            )
    except IntegrityError:
        raise ProtocolError("daily_played", f"you have played the daily deal of {day} already: once a day") from None


def _unranked(conn: sa.Connection, day: str) -> dict[str, Unranked]:
    return unranked(
        conn.execute(
            sa.select(
                daily_plays.c.player_id, daily_plays.c.started_at, daily_plays.c.address, daily_plays.c.browser
            ).where(daily_plays.c.day == day)
        ).all()
    )


def play_of(engine: sa.Engine, day: str, player_id: str | None) -> dict[str, Any] | None:
    """The person's play of the day; ``unranked``: why it is not in the day's ranking (or None)."""
    if player_id is None:
        return None
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(daily_plays).where(daily_plays.c.day == day, daily_plays.c.player_id == player_id)
        ).first()
        if row is None:
            return None
        reason = _unranked(conn, day).get(player_id)
    return {
        "status": row.status,
        "table": row.table_id,
        "game": row.game_id,
        "total": row.total,
        "deals_done": row.deals_done,
        "started_at": row.started_at,
        "ended_at": row.ended_at,
        "unranked": reason,
        "unranked_reason": reason_text(reason),
    }


def unranked_if_played(engine: sa.Engine, day: str, address: str | None, browser: str | None) -> Unranked | None:
    """Whether a play started now with these marks would be unranked (told before the person plays)."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(daily_plays.c.address, daily_plays.c.browser).where(daily_plays.c.day == day)
        ).all()
    if address is not None and any(r.address == address for r in rows):
        return Unranked.SAME_ADDRESS
    if browser is not None and any(r.browser == browser for r in rows):
        return Unranked.SAME_BROWSER
    return None


def daily_end(over: GameOver) -> DailyEnd | None:
    """The daily play a game's end closes, if it was a daily deal's."""
    if over.daily is None or "tournament" in over.daily:  # a tournament's table: tournaments.py
        return None
    person = next((s for s in over.seats if s.kind == SeatKind.PERSON and s.player is not None), None)
    if person is None or person.player is None:
        return None
    # away when it ended (the tab closed: a robot played for the seat meanwhile) is an abandonment too
    away = person.seat in over.daily.get("absent", [])
    finished = over.outcome == Outcome.FINISHED and not person.abandoned and not away
    names = [s.name for s in over.seats]
    data = {"seat": person.seat, "names": names, "records": list(over.records), "commitments": list(over.commitments)}
    return DailyEnd(
        str(over.daily["day"]),
        person.player,
        over.game_id,
        "finished" if finished else "abandoned",
        person.total,
        len(over.records),
        over.ended_at,
        data,
    )


def finish(conn: sa.Connection, end: DailyEnd) -> None:
    """Write a play's end (in the transaction of the game's end: store.py)."""
    conn.execute(
        daily_plays.update()
        .where(daily_plays.c.day == end.day, daily_plays.c.player_id == end.player_id)
        .values(
            status=end.status,
            total=end.total,
            game_id=end.game_id,
            deals_done=end.deals_done,
            ended_at=end.at,
            data=end.data,
        )
    )


_ORDER = (
    sa.case((daily_plays.c.status == "finished", 0), (daily_plays.c.status == "abandoned", 1), else_=2),
    daily_plays.c.total.desc(),
    daily_plays.c.ended_at,
    players.c.name,
)
"""Best first: finished plays by total, then abandoned ones (an abandoner ranks after everyone who played to
the end, as at a table), then the plays going on."""


def ranking(engine: sa.Engine, day: str) -> list[dict[str, Any]]:
    """The day's plays, best first, with places (equal totals share one): the ranked finished plays, then
    the finished plays not ranked (a second account's of an address or browser: ``daily_marks``, with the
    reason), then abandoned and unfinished plays, none of them with a place."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(
                daily_plays.c.player_id,
                daily_plays.c.status,
                daily_plays.c.total,
                daily_plays.c.deals_done,
                daily_plays.c.game_id,
                players.c.name,
            )
            .select_from(daily_plays.join(players, players.c.id == daily_plays.c.player_id))
            .where(daily_plays.c.day == day)
            .order_by(*_ORDER)
        ).all()
        why = _unranked(conn, day)
    group = {"finished": 0, "abandoned": 2}
    rows = sorted(rows, key=lambda r: group.get(r.status, 3) + (r.status == "finished" and r.player_id in why))
    out: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        place = None
        reason = why.get(row.player_id)
        if row.status == "finished" and reason is None:
            tied = out and out[-1]["place"] is not None and out[-1]["total"] == row.total
            place = out[-1]["place"] if tied else i + 1
        out.append(
            {
                "place": place,
                "name": row.name,
                "status": row.status,
                "total": row.total if row.status != "playing" else None,
                "deals": row.deals_done,
                "game": row.game_id if row.status == "finished" else None,  # an abandoned play's game is not linked
                "unranked": reason,
            }
        )
    return out


def plays(engine: sa.Engine, day: Day, revealed: bool) -> list[dict[str, Any]]:
    """Every ended play of the day, best first, with its deal records; ``revealed``: each record by its
    seed (the day being over), for ``atout verify``."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(
                daily_plays.c.status, daily_plays.c.total, daily_plays.c.game_id, daily_plays.c.data, players.c.name
            )
            .select_from(daily_plays.join(players, players.c.id == daily_plays.c.player_id))
            .where(daily_plays.c.day == day.day, daily_plays.c.status != "playing")
            .order_by(*_ORDER)
        ).all()
    out = []
    for row in rows:
        data = row.data or {}
        records = list(data.get("records", []))
        if revealed:
            records = [with_seed(r, daily_deal_seed(day.seed, k)) for k, r in enumerate(records)]
        out.append(
            {
                "name": row.name,
                "status": row.status,
                "total": row.total,
                "game": row.game_id if row.status == "finished" else None,
                "seat": data.get("seat", 0),
                "names": data.get("names"),
                "records": records,
                "commitments": data.get("commitments", []),
            }
        )
    return out


def with_seed(record: dict[str, Any], seed: str) -> dict[str, Any]:
    """A record by its hands given by its seed instead (what ``atout verify`` checks against a commitment)."""
    out = {k: v for k, v in record.items() if k not in ("hands", "dog")}
    out["seed"] = seed
    return {k: out[k] for k in sorted(out, key=lambda k: (k == "actions", k == "names"))}


def past_days(engine: sa.Engine, before: str, limit: int = PAST_DAYS) -> list[dict[str, Any]]:
    """The days before ``before`` that have a set, newest first, with how many played each."""
    count = (
        sa.select(sa.func.count())
        .select_from(daily_plays)
        .where(daily_plays.c.day == daily_days.c.day)
        .scalar_subquery()
    )
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(daily_days.c.day, daily_days.c.commitment, daily_days.c.deals, count.label("plays"))
            .where(daily_days.c.day < before)
            .order_by(daily_days.c.day.desc())
            .limit(limit)
        ).all()
    return [{"day": r.day, "commitment": r.commitment, "deals": r.deals, "plays": r.plays} for r in rows]


def locked_game(engine: sa.Engine, game_id: str, now: float) -> str | None:
    """A daily deal's game (its records, its deals' review and analysis) is shown to nobody before its
    day is over, not even to who played it (issue 37: a second account would play the day knowing every
    card): the day it belongs to while it is locked, else None."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(daily_plays.c.day).where(daily_plays.c.game_id == game_id)).first()
    return None if row is None else locked_day(engine, row.day, now)


def locked_day(engine: sa.Engine, day: str | None, now: float) -> str | None:
    """``day`` while its deals are locked (not over), else None."""
    found = None if day is None else stored_day(engine, day)
    return None if found is None or is_over(engine, found, now) else found.day


def locked_games_of(engine: sa.Engine, player_id: str, now: float) -> set[str]:
    """Every daily play of ``player_id``'s whose day is not over: their games count on the profile only after it
    (its statistics would tell how the day's deals went: taken or not, the points a deal)."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(daily_plays.c.game_id, daily_plays.c.day).where(
                daily_plays.c.player_id == player_id, daily_plays.c.game_id.is_not(None)
            )
        ).all()
    locked = {day for day in {r.day for r in rows} if locked_day(engine, day, now) is not None}
    return {r.game_id for r in rows if r.day in locked}


# ------------------------------------------------------------------------------ the routes


__all__ = [
    "DEALS",
    "PLAYERS",
    "DailyEnd",
    "DailyError",
    "Day",
    "begin",
    "daily_end",
    "day_of",
    "ensure_day",
    "finish",
    "is_over",
    "locked_day",
    "locked_game",
    "locked_games_of",
    "plays",
    "ranking",
    "robot_seed",
    "unranked_if_played",
]
