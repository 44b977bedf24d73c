"""A deserted game (every person left mid-game) is recorded as their abandonment: leaving must not erase a
ranked loss the way a cancel would (issue 34). Over a real server, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa

from atout.server.store.db import game_players, rating_history, ratings

from .helpers import Client, running_server, site_page
from .test_ledger import register
from .test_tables import play_until, table_with_robots


def deals_ended(client: Client) -> int:
    return sum(1 for f in client.frames if f.get("event", {}).get("type") == "deal_end")


async def play_a_deal_and_leave(client: Client, table: str) -> None:
    """Play the first deal to its end, then leave (an abandonment), retrying while robots make it stale."""
    await play_until(client, lambda c: deals_ended(c) >= 1)
    answer = {"code": "stale"}
    while answer.get("code") == "stale":
        await client.settle()
        answer = await client.request({"type": "leave", "table": table})
    assert answer["event"]["type"] == "abandon", answer


def counted(client: Client) -> list[dict]:
    return [line for line in client.state["game"]["sheet"] if not line["void"]]


async def test_alone_at_a_ranked_table_leaving_is_recorded_as_an_abandonment(db_url: str) -> None:
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        ann = await Client.connect(server.url, "x", cookie=await register(http, "Ann"))
        table = await table_with_robots(ann, 4, level="random", turn_seconds=0, deals=3)
        await ann.request({"type": "start", "table": table})
        game_id = ann.state["game"]["id"]
        assert ann.state["game"]["ranked"]
        await play_until(ann, lambda c: deals_ended(c) >= 1)
        await ann.settle()
        played = counted(ann)  # the deals played to their end: a deal begun after them does not count
        total = sum(line["scores"][0] for line in played)
        await play_a_deal_and_leave(ann, table)
        assert [f["event"]["type"] for f in ann.batch][-1] == "closed"  # deserted: the table closes
        store = server.hub.store
        (row,) = store.games(table)
        assert (row.game_id, row.status, row.data["ranking"]) == (game_id, "deserted", None)
        assert [a["player"] for a in row.data["abandoners"]] == [ann.id] and row.data["abandoned"] == [0]
        with store.engine.connect() as conn:
            (line,) = conn.execute(sa.select(game_players)).all()
            assert conn.execute(sa.select(ratings)).all() == []  # one person among robots: nobody's rating moves
        assert (line.player_id, line.place, line.abandoned, line.won, line.competitive) == (
            ann.id,
            4,
            True,
            False,
            True,
        )
        assert (line.total, line.deals) == (total, len(played))
        profile = (await http.get("/api/players/Ann")).json()
        assert {k: profile["stats"]["all"][k] for k in ("games", "wins", "abandoned")} == {
            "games": 1,
            "wins": 0,
            "abandoned": 1,
        }
        (recent,) = profile["recent"]
        assert (recent["game"], recent["place"], recent["abandoned"], recent["total"]) == (game_id, 4, True, total)
        assert profile["xp"] == 0  # an abandoner earns none
        (board,) = (await http.get("/api/leaderboard", params={"players": 4, "period": "all"})).json()["rows"]
        assert (board["name"], board["games"], board["wins"], board["points"]) == ("Ann", 1, 0, total)
        shown = (await http.get(f"/api/games/{game_id}")).json()  # the game's page reads it as any stored game
        assert (shown["status"], shown["ranking"], len(shown["sheet"])) == (
            "deserted",
            None,
            len(ann.state["game"]["sheet"]),
        )


async def test_two_people_who_both_leave_are_both_ranked_last_and_rated(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as http_a, site_page(base) as http_b:
            ann = await Client.connect(server.url, "x", cookie=await register(http_a, "Ann"))
            bob = await Client.connect(server.url, "x", cookie=await register(http_b, "Bob"))
            table = await table_with_robots(ann, 3, level="random", turn_seconds=0, deals=3)
            await ann.request({"type": "unrobot", "table": table, "seat": 1})
            await bob.send({"type": "join", "table": table})
            await bob.expect("table")
            await bob.request({"type": "sit", "table": table, "seat": 1})
            await ann.settle()
            started = await ann.request({"type": "start", "table": table})
            assert started["event"]["type"] == "game_start" and started["event"]["ranked"], started
            await bob.settle()
            await asyncio.gather(
                play_until(ann, lambda c: deals_ended(c) >= 1), play_until(bob, lambda c: deals_ended(c) >= 1)
            )
            await play_a_deal_and_leave(bob, table)  # Bob first: a robot plays his seat on
            await play_a_deal_and_leave(ann, table)  # then Ann: nobody is left, the game is deserted
            store = server.hub.store
            (row,) = store.games(table)
            assert row.status == "deserted"
            with store.engine.connect() as conn:
                lines = conn.execute(sa.select(game_players).order_by(game_players.c.seat)).all()
                rated = conn.execute(sa.select(ratings.c.player_id, ratings.c.games)).all()
                history = conn.execute(sa.select(rating_history.c.game_id)).all()
            assert [(x.player_id, x.place, x.abandoned, x.won) for x in lines] == [
                (ann.id, 3, True, False),
                (bob.id, 3, True, False),
            ]
            assert sorted(rated) == sorted([(ann.id, 1), (bob.id, 1)])  # rated, as abandoners of a finished game
            assert history == [(row.game_id,), (row.game_id,)]


async def test_a_deserted_practice_game_is_stored_unranked(db_url: str) -> None:
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        ann = await Client.connect(server.url, "x", cookie=await register(http, "Ann"))
        table = await table_with_robots(ann, 3, level="random", turn_seconds=0, deals=3, competitive=False)
        await ann.request({"type": "start", "table": table})
        assert not ann.state["game"]["ranked"]
        await play_a_deal_and_leave(ann, table)
        (row,) = server.hub.store.games(table)
        assert (row.status, row.data["ranked"]) == ("deserted", False)
        profile = (await http.get("/api/players/Ann")).json()
        (recent,) = profile["recent"]  # on the profile, as a practice game finished with an abandonment is
        assert (recent["abandoned"], recent["competitive"], profile["stats"]["all"]["abandoned"]) == (True, False, 1)
        assert (await http.get("/api/leaderboard", params={"players": 3, "period": "all"})).json()["rows"] == []
        with server.hub.store.engine.connect() as conn:
            assert conn.execute(sa.select(ratings)).all() == []
