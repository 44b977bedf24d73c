"""Deleting one's account, over real HTTP and sockets, on SQLite and PostgreSQL: the password asked;
every session and socket ended; the seat at a running table left to the robot at once; friendships and
requests gone; the name free again and shown nowhere (games say ``deleted player``); and the chip ledger
whole — every row kept, the sum over it unchanged."""

from __future__ import annotations

import httpx
import sqlalchemy as sa

from atout.server.features import ledger
from atout.server.features.erasure import DELETED_NAME
from atout.server.store.db import friendships, game_players, players, ratings, sessions, standings
from atout.server.store.db import ledger as ledger_rows

from .helpers import Client, running_server, site_page
from .test_ledger import register
from .test_sessions import ended
from .test_tables import play_until, table_with_robots


def game_over(client: Client) -> bool:
    """A game ended at the client's table (its ``friend`` frames have an ``event`` too: a word)."""
    return any(f["type"] == "event" and f["event"]["type"] == "game_end" for f in client.frames)


def ledger_sum(server) -> tuple[int, int]:
    """The sum over every row of the ledger (chips and XP), and the number of rows."""
    with server.hub.store.engine.connect() as conn:
        total, count = conn.execute(sa.select(sa.func.sum(ledger_rows.c.amount), sa.func.count())).one()
        return int(total), int(count)


def rows_of(server, holder: str) -> list[tuple]:
    with server.hub.store.engine.connect() as conn:
        return [
            tuple(r)
            for r in conn.execute(
                sa.select(ledger_rows).where(ledger_rows.c.holder == holder).order_by(ledger_rows.c.id)
            )
        ]


async def test_deleting_an_account(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as ann_http, site_page(base) as bob_http, site_page(base) as carl_http:
            ann = await Client.connect(server.url, "x", cookie=await register(ann_http, "Ann"))
            bob = await Client.connect(server.url, "x", cookie=await register(bob_http, "Bob"))
            carl = await Client.connect(server.url, "x", cookie=await register(carl_http, "Carl"))
            await bob_http.post("/api/friends", json={"action": "request", "name": "Ann"})
            assert (await ann_http.post("/api/friends", json={"action": "accept", "name": "Bob"})).status_code == 200
            await carl_http.post("/api/friends", json={"action": "request", "name": "Ann"})
            # Ann's past: a finished betting game against robots (stored, ranked) and a cancelled one
            done = await table_with_robots(ann, 3, level="random", deals=1, bet=100)
            await ann.request({"type": "start", "table": done})
            await play_until(ann, game_over)
            finished = ann.state["game"]["id"]
            await ann.send({"type": "create", "players": 3, "options": {"deals": 2, "turn_seconds": 0}})
            gave_up = (await ann.expect("master"))["table"]
            await ann.settle()
            await carl.send({"type": "join", "table": gave_up})
            await carl.expect("table")
            assert (await carl.request({"type": "sit", "table": gave_up, "seat": 1}))["type"] == "event"
            await ann.settle()
            await ann.request({"type": "robot", "table": gave_up, "seat": 2, "level": "random"})
            await ann.request({"type": "start", "table": gave_up})
            answer = {"code": "stale"}
            while answer.get("code") == "stale":  # robots may play meanwhile
                await ann.settle()
                answer = await ann.request({"type": "cancel", "table": gave_up})
            assert answer["type"] == "event", answer
            await carl.expect("cancel_proposed")
            assert (await carl.request({"type": "vote", "table": gave_up, "accept": True}))["type"] == "event"
            await ann.expect("cancel_end", cancelled=True)  # two people agree: an amicable end
            assert ann.state["game"]["outcome"] == "cancelled"
            cancelled = ann.state["game"]["id"]
            # and now: Ann sits at Bob's betting table, in a game under way
            await bob.send({"type": "create", "players": 3, "options": {"bet": 50, "deals": 2, "turn_seconds": 0}})
            running = (await bob.expect("master"))["table"]
            await bob.settle()
            await ann.send({"type": "join", "table": running})
            await ann.expect("table")
            assert (await ann.request({"type": "sit", "table": running, "seat": 1}))["type"] == "event"
            await bob.settle()
            await bob.request({"type": "robot", "table": running, "seat": 2, "level": "random"})
            assert (await bob.request({"type": "start", "table": running}))["event"]["type"] == "game_start"
            ann_id, bob_id = ann.id, bob.id
            assert ann_id is not None and bob_id is not None
            before = ledger_sum(server)
            ann_rows = rows_of(server, ann_id)
            assert len(ann_rows) >= 3  # the grant, two bets, and whatever the finished game gave her

            wrong = await ann_http.post("/api/account/delete", json={"password": "not hers"})
            assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "wrong")
            assert (await ann_http.get("/api/me")).status_code == 200  # a refusal changes nothing
            answer = await ann_http.post("/api/account/delete", json={"password": "a good password"})
            assert answer.status_code == 200 and answer.json() == {"deleted": True, "name": "Ann"}

            assert await ended(ann) == "account_deleted"  # her socket, at once
            left = await bob.expect("abandon", seat=1)  # her seat: left at once, the robot plays on
            assert left["event"]["why"] == "deleted their account"
            assert bob.state["seats"][1]["abandoned"] is True

            # the ledger: not a row less, the same sum; her rows as they were (they name her id, no name)
            assert ledger_sum(server) == before
            assert rows_of(server, ann_id) == ann_rows
            with server.hub.store.engine.connect() as conn:
                totals = ledger.totals(conn)
                assert totals["players"] + totals["bank"] + totals["pots"] == totals["granted"]
                row = conn.execute(sa.select(players).where(players.c.id == ann_id)).one()
                assert (row.name, row.deleted_at is not None) == (DELETED_NAME, True)
                for table in (sessions, ratings, standings):
                    assert (
                        conn.execute(
                            sa.select(sa.func.count()).select_from(table).where(table.c.player_id == ann_id)
                        ).scalar_one()
                        == 0
                    )
                assert (
                    conn.execute(
                        sa.select(sa.func.count())
                        .select_from(friendships)
                        .where(sa.or_(friendships.c.requester == ann_id, friendships.c.addressee == ann_id))
                    ).scalar_one()
                    == 0
                )
                assert {
                    r.name
                    for r in conn.execute(sa.select(game_players.c.name).where(game_players.c.player_id == ann_id))
                } == {DELETED_NAME}

            # the name: nobody's any more, nowhere shown, free to take
            async with httpx.AsyncClient(base_url=base) as anyone:
                login = await anyone.post("/api/login", json={"name": "Ann", "password": "a good password"})
                assert (login.status_code, login.json()["error"]["code"]) == (401, "wrong")
                assert (await anyone.get("/api/players/Ann")).status_code == 404
                for game_id in (finished, cancelled):
                    seats = (await anyone.get(f"/api/games/{game_id}")).json()["seats"]
                    assert seats[0] == {
                        "seat": 0,
                        "name": DELETED_NAME,
                        "kind": "person",
                        "level": None,
                        "deleted": True,
                    }, seats
                board = (await anyone.get("/api/leaderboard", params={"players": 3, "period": "all"})).json()
                assert [r["name"] for r in board["rows"]] == []
            assert (await bob_http.get("/api/friends")).json() == {
                "friends": [],
                "incoming": [],
                "outgoing": [],
                "presence": {},
            }
            assert (await carl_http.get("/api/friends")).json()["outgoing"] == []
            async with site_page(base) as newcomer:
                made = await newcomer.post("/api/register", json={"name": "ann", "password": "a new person"})
                assert made.status_code == 201 and made.json()["id"] != ann_id

            # the game she left ends with her seat's robot: stored as "deleted player", ranked for Bob only
            await play_until(bob, game_over)
            game_id = bob.state["game"]["id"]
            seats = (await bob_http.get(f"/api/games/{game_id}")).json()["seats"]
            assert [s["name"] for s in seats][:2] == ["Bob", DELETED_NAME]
            with server.hub.store.engine.connect() as conn:
                assert (
                    conn.execute(
                        sa.select(game_players.c.name).where(
                            game_players.c.game_id == game_id, game_players.c.player_id == ann_id
                        )
                    ).scalar_one()
                    == DELETED_NAME
                )
                assert (
                    conn.execute(
                        sa.select(sa.func.count()).select_from(standings).where(standings.c.player_id == ann_id)
                    ).scalar_one()
                    == 0
                )
                assert (
                    conn.execute(
                        sa.select(sa.func.count()).select_from(standings).where(standings.c.player_id == bob_id)
                    ).scalar_one()
                    > 0
                )
                totals = ledger.totals(conn)
                assert totals["players"] + totals["bank"] + totals["pots"] == totals["granted"]
                assert totals["pots"] == 0 and ledger.balance(conn, ann_id) == ann_rows_balance(ann_rows)


def ann_rows_balance(rows: list[tuple]) -> int:
    """Her chips as her rows sum them: the deletion took nothing (a bet she left is the bank's, as any
    abandoner's, by a row of the pot's, not of hers)."""
    return sum(r[3] for r in rows if r[2] == "chips")
