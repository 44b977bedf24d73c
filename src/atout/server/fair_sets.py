"""The daily deal's and duplicate tournaments' sets of preset deals (docs/daily.md, docs/tournaments.md):
each deal's seed drawn from the set's, its dealer, and the check of a published set (``atout verify``).
The site's formats, built on the engine's fair shuffle (``engine.fairness``)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from ..engine.deal import draw_first_dealer
from ..engine.fairness import Check, Verification, commitment, normalize_commitment, verify
from ..engine.record import RecordError

# ---------------------------------------------------------------- the daily deal (docs/daily.md)
DAILY_FORMAT = "atout-daily"


def daily_deal_seed(day_seed: str, index: int) -> str:
    """The seed of deal ``index`` (from 0) of a day's set: a hash of the day's seed, so that a deal's seed,
    once known, tells nothing of the day's seed nor of any other deal of that day."""
    return hashlib.sha256(f"atout-daily/1/{day_seed}/{index}".encode()).hexdigest()[:32]


def daily_dealer(day_seed: str, players: int, index: int) -> int:
    """Who deals deal ``index`` of the day: the first dealer drawn by lot from the day's seed, then the
    next seat to the right at each deal (a void deal included), as at any table."""
    return (draw_first_dealer(day_seed, players) + index) % players


def verify_daily(published: Any) -> Verification:
    """Check a day's published set (``GET /api/daily/DATE/deals`` once the day is over): the revealed day's
    seed against the commitment published before the day, then every deal of every play of it: its seed
    is the day's ``index``-th, its dealer the day's, and the deal verifies as any (``verify``).

    ``published``: ``{"format": "atout-daily", "date", "commitment", "seed", "players", "deals",
    "plays": [{"name", "records": [record, ...]}]}``; RecordError when it is not of that form."""
    if not isinstance(published, Mapping) or published.get("format") != DAILY_FORMAT:
        raise RecordError(None, "record", f"a day's set is a JSON object whose format is {DAILY_FORMAT!r}")
    day_seed, plays = published.get("seed"), published.get("plays")
    players, deals = published.get("players"), published.get("deals")
    if not isinstance(day_seed, str):
        raise RecordError(None, "record", "the day's seed is revealed once the day is over: this set has none yet")
    if not isinstance(plays, list) or not isinstance(players, int) or not isinstance(deals, int):
        raise RecordError(None, "record", "a day's set gives players, deals and plays (a list)")
    day_commitment = normalize_commitment(published.get("commitment"), "the day's")
    digest = commitment(day_seed)
    checks = [
        Check(
            "day",
            digest == day_commitment,
            f"sha256 of the day's seed is {digest}"
            + ("" if digest == day_commitment else f", not the commitment {day_commitment}"),
        )
    ]
    for play in plays:
        name = play.get("name", "?") if isinstance(play, Mapping) else "?"
        records = play.get("records") if isinstance(play, Mapping) else None
        checks += _preset_checks(str(name), "daily", "day", day_seed, players, deals, records)
    return Verification(tuple(checks), day_seed, day_commitment)


def _preset_checks(
    name: str, check_name: str, what: str, set_seed: str, players: int, deals: int, records: Any
) -> list[Check]:
    """The checks of one play of a preset set of deals (a day's, a tournament round's): deal ``k``'s seed is
    ``daily_deal_seed(set_seed, k)``, its dealer the set's, and it verifies as any deal (``verify``)."""
    if not isinstance(records, list) or len(records) > deals:
        raise RecordError(None, "record", f"{name}: records is a list of at most {deals} deal records")
    checks = []
    for k, record in enumerate(records):
        if not isinstance(record, Mapping):
            raise RecordError(None, "record", f"{name}, deal {k + 1}: not a deal record")
        seed = daily_deal_seed(set_seed, k)
        dealer = daily_dealer(set_seed, players, k)
        where = f"{name}, deal {k + 1}"
        if record.get("seed") != seed:
            checks.append(
                Check(
                    check_name,
                    False,
                    f"{where}: the seed {record.get('seed')!r} is not the {what}'s deal {k + 1} ({seed})",
                )
            )
            continue
        if record.get("dealer") != dealer or record.get("players") != players:
            checks.append(
                Check(
                    check_name,
                    False,
                    f"{where}: dealt by seat {record.get('dealer')!r} at "
                    f"{record.get('players')!r}, not by seat {dealer} at {players}",
                )
            )
            continue
        checks.append(Check(check_name, True, f"{where}: the {what}'s deal {k + 1}, dealt by seat {dealer}"))
        for check in verify(dict(record), commitment(seed)).checks:
            checks.append(Check(check.name, check.ok, f"{where}: {check.message}", check.seat))
    return checks


# ---------------------------------------------------------------- duplicate tournaments (docs/tournaments.md)
TOURNAMENT_FORMAT = "atout-tournament"


def tournament_round_seed(seed: str, round_: int) -> str:
    """Round ``round_``'s seed: every table of the round deals its deals from it (``daily_deal_seed``, the
    dealer ``daily_dealer``). A hash of the tournament's seed, not a part of it."""
    return hashlib.sha256(f"atout-tournament/1/{seed}/{round_}".encode()).hexdigest()[:32]


def verify_tournament(published: Any) -> Verification:
    """Check a finished tournament's published deals (``GET /api/tournaments/ID/deals``): the revealed seed
    against the commitment published at its creation, then every deal of every table: its seed is its
    round's ``index``-th, its dealer the round's, and the deal verifies as any (``verify``).

    ``published``: ``{"format": "atout-tournament", "id", "commitment", "seed", "players", "deals", "rounds",
    "tables": [{"round", "number", "records": [record, ...]}]}``; RecordError when it is not of that form."""
    if not isinstance(published, Mapping) or published.get("format") != TOURNAMENT_FORMAT:
        raise RecordError(
            None, "record", f"a tournament's deals are a JSON object whose format is {TOURNAMENT_FORMAT!r}"
        )
    seed, tables = published.get("seed"), published.get("tables")
    players, deals, rounds = published.get("players"), published.get("deals"), published.get("rounds")
    if not isinstance(seed, str):
        raise RecordError(
            None, "record", "the tournament's seed is revealed once it is over: these deals have none yet"
        )
    if (
        not isinstance(tables, list)
        or not isinstance(players, int)
        or not isinstance(deals, int)
        or not isinstance(rounds, int)
    ):
        raise RecordError(None, "record", "a tournament's deals give players, deals, rounds and tables (a list)")
    promised = normalize_commitment(published.get("commitment"), "the tournament's")
    digest = commitment(seed)
    checks = [
        Check(
            "tournament",
            digest == promised,
            f"sha256 of the tournament's seed is {digest}"
            + ("" if digest == promised else f", not the commitment {promised}"),
        )
    ]
    for table in tables:
        round_ = table.get("round") if isinstance(table, Mapping) else None
        if not isinstance(round_, int) or not 0 <= round_ < rounds:
            raise RecordError(None, "record", f"a table's round is a whole number from 0 to {rounds - 1}")
        number = table.get("number")
        name = f"round {round_ + 1}, table {number + 1 if isinstance(number, int) else '?'}"
        checks += _preset_checks(
            name, "round", "round", tournament_round_seed(seed, round_), players, deals, table.get("records")
        )
    return Verification(tuple(checks), seed, promised)
