"""A game's end (and its start's bets) as frozen values, made from the table as it stands when the event
that ends (or starts) the game is emitted: the ledger and the games row read these, never event dicts
(``finisher.py`` turns a ``GameOver`` into the rows the store writes with the events)."""

from __future__ import annotations

from typing import Any

from ..kinds import EventType, Outcome, SeatKind, TableStatus
from ..results import Bets, GameOver, SeatOver
from .fields import TableFields

CONCLUDING = frozenset({EventType.GAME_START, EventType.GAME_END, EventType.CANCEL_END, EventType.CLOSED})
"""The events that may start or end a game: only these make bets or a game's end."""


def concluded(table: TableFields, kind: str, fields: dict[str, Any], now: float) -> Bets | GameOver | None:
    """The GameOver an event about to be emitted makes if it ends a game, or the Bets of a game it starts."""
    if kind == EventType.GAME_START:
        stakes = tuple((table.seats[i].player or "", bet) for i, bet in enumerate(fields["stakes"]) if bet)
        return Bets(fields["game"], stakes, now) if stakes else None
    if table.game is None or table.game_id is None:
        return None
    if kind == EventType.GAME_END:
        return game_over(table, Outcome.FINISHED, now)
    if kind == EventType.CANCEL_END and fields["cancelled"]:
        return game_over(table, Outcome.CANCELLED, now)
    if kind == EventType.CLOSED and table.status == TableStatus.PLAYING:
        return game_over(table, Outcome.DESERTED, now)
    return None


def game_over(table: TableFields, outcome: Outcome, now: float) -> GameOver:
    """The game's end from the table as it stands (every abandoner still in its seat)."""
    game = table.game
    assert game is not None and table.game_id is not None
    totals = game.totals
    counted = game.counted
    abandoned = set(table.abandoned)
    ranking = None
    places: dict[int, int] = {}
    if outcome == Outcome.FINISHED:
        ranking = tuple({"place": p, "seat": s, "total": t} for p, s, t in game.ranking())
        stayed = [r for r in ranking if r["seat"] not in abandoned]  # an abandoner is ranked last
        for k, r in enumerate(stayed):
            tied = k and r["total"] == stayed[k - 1]["total"]
            places[r["seat"]] = places[stayed[k - 1]["seat"]] if tied else k + 1
    seats = []
    for i, s in enumerate(table.seats):
        person = s.kind == SeatKind.PERSON
        place = (
            None if outcome == Outcome.CANCELLED or not person else table.players if i in abandoned else places.get(i)
        )  # deserted: every person abandoned
        seats.append(
            SeatOver(
                seat=i,
                kind=s.kind,
                player=s.player if person else None,
                name=s.name,
                level=s.level,
                total=totals[i],
                abandoned=i in abandoned,
                stake=table.stakes[i],
                place=place,
                taker_deals=sum(1 for line in counted if line.taker == i),
                taker_made=sum(1 for line in counted if line.taker == i and line.made),
            )
        )
    single = None
    if game.deals == 1 and counted:
        line = counted[0]
        single = {"taker": line.taker, "partner": line.partner, "made": line.made}
    daily = table.daily
    return GameOver(
        game_id=table.game_id,
        table_id=table.id,
        players=table.players,
        outcome=outcome,
        ranked=table.game_ranked,
        unranked=table.game_unranked,
        competitive=table.options.competitive,
        started_at=table.game_started_at or now,
        ended_at=now,
        deals=game.deals,
        counted=len(counted),
        seats=tuple(seats),
        options=table.options.to_json(),
        sheet=tuple(_stored_line(table, line.to_json()) for line in game.sheet),
        records=tuple(table.records),
        commitments=tuple(table.commitments),
        ranking=ranking,
        abandoners=tuple(dict(a) for a in table.abandoners),
        single=single,
        daily=None
        if daily is None
        else {
            "day": str(daily["day"]),
            "absent": [i for i, s in enumerate(table.seats) if s.absent],
            **({"tournament": daily["tournament"]} if "tournament" in daily else {}),
        },
    )


def _stored_line(table: TableFields, line: dict[str, Any]) -> dict[str, Any]:
    """A sheet line as the games row keeps it: at a daily deal's table, without its seed (docs/daily.md)."""
    if table.daily is not None:
        line.pop("seed", None)
    return line


__all__ = ["CONCLUDING", "concluded", "game_over"]
