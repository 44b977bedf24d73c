"""How fast a leaderboard page is served with 100,000 stored games.

    python benchmarks/leaderboard.py [--games 100000] [--players 2000] [--db URL]

Fills a fresh store (SQLite in a temporary folder unless --db names an empty
database) with registered players and finished competitive 4-player games,
written as the server writes them (game rows, game_players, standings and
ratings in each game's transaction), then times leaderboard pages and a
profile, and prints the query plan. Results: benchmarks/results/leaderboard.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

from atout.server.features.accounts import Accounts
from atout.server.features.profiles import profile
from atout.server.features.standings import PERIODS, leaderboard, period_start
from atout.server.store import Append, GameRow, Store, StoredEvent
from atout.server.store.db import game_players, players, standings
from atout.server.store.db import games as games_table


def fill(store: Store, games: int, people: int, seed: int = 1) -> float:
    """Store ``games`` finished 4-player games; the first 1,000 through the server's own path
    (``Store.append``: game row, game_players, standings and ratings in each game's transaction),
    the rest in bulk with the same sums, so that filling takes seconds, not an hour."""
    rng = random.Random(seed)
    with store.engine.begin() as conn:
        conn.execute(
            players.insert(),
            [
                {
                    "id": f"p{i:08d}",
                    "name": f"player{i}",
                    "name_key": f"player{i}",
                    "password_hash": "-",
                    "avatar": "fox",
                    "created_at": 0.0,
                }
                for i in range(people)
            ],
        )
    store.create_table("bench", 0.0, {"seq": 0}, 4)
    start = time.perf_counter()
    now = time.time() - 90 * 86400
    through_server = min(games, 1000)
    rows, lines = [], []
    sums: dict[tuple, list[int]] = {}
    for g in range(games):
        ended = now + g * (90 * 86400 / games)
        seats = rng.sample(range(people), 4)
        totals = [rng.randrange(-300, 301) for _ in range(3)]
        totals.append(-sum(totals))
        order = sorted(range(4), key=lambda s: -totals[s])
        places = {s: order.index(s) + 1 for s in range(4)}
        participants = tuple(
            {
                "seat": s,
                "player_id": f"p{p:08d}",
                "name": f"player{p}",
                "total": totals[s],
                "place": places[s],
                "won": places[s] == 1,
                "abandoned": False,
                "deals": 5,
                "taker_deals": rng.randrange(0, 3),
                "taker_made": 0,
                "competitive": True,
            }
            for s, p in enumerate(seats)
        )
        if g < through_server:
            store.append(
                [
                    Append(
                        "bench",
                        [StoredEvent(g + 1, ended, "game_end", {})],
                        game=GameRow(f"g{g:08d}", "bench", 4, "finished", ended - 600, ended, {}, participants),
                    )
                ]
            )
            continue
        rows.append(
            {
                "id": f"g{g:08d}",
                "table_id": "bench",
                "players": 4,
                "status": "finished",
                "started_at": ended - 600,
                "ended_at": ended,
                "data": {},
            }
        )
        for p in participants:
            lines.append({**p, "game_id": f"g{g:08d}", "players": 4, "ended_at": ended})
            for period in PERIODS:
                key = (p["player_id"], period, period_start(period, ended))
                entry = sums.setdefault(key, [0, 0, 0])
                entry[0] += p["total"]
                entry[1] += 1
                entry[2] += int(p["won"])
    with store.engine.begin() as conn:
        existing = {(r.player_id, r.period, r.period_start): r for r in conn.execute(sa.select(standings))}
        conn.execute(standings.delete())
        for key, r in existing.items():
            entry = sums.setdefault(key, [0, 0, 0])
            entry[0] += r.points
            entry[1] += r.games
            entry[2] += r.wins
        for chunk in range(0, len(rows), 5000):
            conn.execute(games_table.insert(), rows[chunk : chunk + 5000])
        for chunk in range(0, len(lines), 5000):
            conn.execute(game_players.insert(), lines[chunk : chunk + 5000])
        conn.execute(
            standings.insert(),
            [
                {
                    "player_id": pid,
                    "players": 4,
                    "period": period,
                    "period_start": since,
                    "points": v[0],
                    "games": v[1],
                    "wins": v[2],
                }
                for (pid, period, since), v in sums.items()
            ],
        )
    return time.perf_counter() - start


def timed(fn, runs: int = 50) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), max(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    url = args.db or f"sqlite:///{Path(tempfile.mkdtemp()) / 'board.db'}"
    store = Store(url)
    store.migrate()
    took = fill(store, args.games, args.players)
    with store.engine.begin() as conn:  # fresh statistics, as PostgreSQL's autovacuum would soon have
        conn.execute(sa.text("ANALYZE"))
    accounts = Accounts(store)
    now = time.time()
    print(
        f"store: {'SQLite' if url.startswith('sqlite') else 'PostgreSQL'}; {args.games:,} games of 4, {args.players:,} "
        f"players; "
        f"filled in {took:.0f} s"
    )
    with store.engine.connect() as conn:
        counts = {
            t: conn.execute(sa.select(sa.func.count()).select_from(sa.table(t))).scalar_one()
            for t in ("games", "game_players", "standings", "ratings")
        }
    print("rows: " + ", ".join(f"{t} {n:,}" for t, n in counts.items()))
    for period in ("week", "month", "all"):
        median, worst = timed(lambda p=period: leaderboard(store.engine, 4, p, now, 1))
        deep, _ = timed(lambda p=period: leaderboard(store.engine, 4, p, now, 50))
        print(
            f"leaderboard 4 players, {period:5}: page 1 median {median:.2f} ms (max {worst:.2f}), page 50 {deep:.2f} ms"
        )
    median, worst = timed(lambda: profile(store, accounts, "player7"))
    print(f"profile of one player: median {median:.2f} ms (max {worst:.2f})")
    if url.startswith("sqlite"):
        with store.engine.connect() as conn:
            plan = conn.execute(
                sa.text(
                    "EXPLAIN QUERY PLAN SELECT player_id FROM standings WHERE players=4 AND period='all' "
                    "AND period_start=0 ORDER BY points DESC LIMIT 20"
                )
            ).all()
        print("plan:", "; ".join(row[-1] for row in plan))
    return 0


if __name__ == "__main__":
    sys.exit(main())
