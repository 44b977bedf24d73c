"""A guest who registers (or logs in) at the browser that holds their seat keeps it (issue 34, defect 3):
the seat passes to the account, the game goes on, and it is recorded under the account; the refusals
(a login mid-game, one person with two seats) change nothing."""

from __future__ import annotations

from pathlib import Path

from atout.server.features import ledger
from atout.server.room import rebuilt
from atout.server.table import Timing

from .helpers import Client, running_server, site_page
from .test_cluster import Process, RedisServer, ready, redis  # noqa: F401 -- the redis fixture
from .test_tables import game_over, play_until, table_with_robots


def acted(client: Client, seat: int) -> int:
    return sum(
        1
        for f in client.frames
        if f.get("type") == "event"
        and f["event"]["type"] == "action"
        and f["event"]["seat"] == seat
        and f["event"]["by"] == "person"
    )


async def test_a_guest_who_registers_mid_game_keeps_the_seat_to_the_games_end(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        guest = await Client.connect(server.url, "Gus")
        table = await table_with_robots(guest, 3, level="random", deals=2, turn_seconds=0)
        await guest.request({"type": "start", "table": table})
        await play_until(guest, lambda c: acted(c, 0) >= 3)  # a few actions as a guest
        watcher = await Client.connect(server.url, "Wanda")
        await watcher.send({"type": "join", "table": table})
        await watcher.expect("table")
        await guest.until_a_person_acts()  # the robots wait for the guest: the table stands still
        guard = server.hub.rooms[table].table.guard_seq  # what a request must answer to not be stale
        async with site_page(base) as http:
            made = await http.post(
                "/api/register", json={"name": "Gus", "password": "a good password", "guest": guest.token}
            )
            assert made.status_code == 201, made.text
            account = made.json()["id"]
            handed = (await watcher.expect("handed", seat=0))["event"]
            assert handed["name"] == "Gus" and "player" not in handed  # nobody learns an id
            await guest.expect("handed", seat=0)
            await guest.settle()
            assert server.hub.rooms[table].table.guard_seq == guard  # an aside: no card on its way is made stale
            assert guest.state["you"] is None  # the guest's page watches until it reloads as the account
            item = server.hub.store.table(table)  # as a restarted server would load it
            assert item is not None
            again = rebuilt(item.snapshot, [e.data for e in item.events], Timing(), server.clock.now())
            assert again.seat_of(account) == 0 and again.seat_of(guest.id) is None
            gus = await Client.connect(server.url, "Gus", cookie=made.cookies["atout_session"])
            await gus.send({"type": "join", "table": table, "last_seq": guest.seq})
            await gus.expect("table")
            seat = gus.state["seats"][0]
            assert gus.state["you"] == 0 and seat["name"] == "Gus" and seat["connected"] and seat["present"]
            assert not seat["automatic"] and not seat["abandoned"]
            await play_until(gus, game_over)  # the account plays the seat on to the game's end
            [game] = server.hub.store.games(table)
            assert game.status == "finished" and game.data["seats"][0]["player"] == account
            profile = (await http.get("/api/players/Gus")).json()
            assert [g["game"] for g in profile["recent"]] == [game.game_id]
        with server.hub.store.engine.connect() as conn:
            totals = ledger.totals(conn)
        assert totals["players"] + totals["bank"] + totals["pots"] == totals["granted"]  # conserved


async def test_a_login_hands_seats_over_between_games_and_refuses_what_would_make_two_seats(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as http:
            made = await http.post("/api/register", json={"name": "Lia", "password": "a good password"})
            cookie = made.cookies["atout_session"]
            http.cookies.clear()
        lia = await Client.connect(server.url, "Lia", cookie=cookie)

        # a guest playing a game: a login would hand an account a game it did not start
        player = await Client.connect(server.url, "Gia")
        running = await table_with_robots(player, 3, level="random", turn_seconds=0)
        await player.request({"type": "start", "table": running})
        async with site_page(base) as http:
            refused = await http.post(
                "/api/login", json={"name": "Lia", "password": "a good password", "guest": player.token}
            )
            assert refused.status_code == 409 and refused.json()["error"]["code"] == "guest_playing", refused.text
            assert "atout_session" not in refused.cookies and (await http.get("/api/me")).status_code == 401
        await player.settle()
        assert player.state["you"] == 0 and player.state["seats"][0]["name"] == "Gia"

        # a waiting table where the account sits already: one person, one seat
        waiter = await Client.connect(server.url, "Wes")
        await waiter.send({"type": "create", "players": 3})
        table = (await waiter.expect("master"))["table"]
        await waiter.settle()
        await lia.send({"type": "join", "table": table})
        await lia.expect("table")
        assert (await lia.request({"type": "sit", "table": table, "seat": 1}))["event"]["type"] == "sat"
        async with site_page(base) as http:
            refused = await http.post(
                "/api/login", json={"name": "Lia", "password": "a good password", "guest": waiter.token}
            )
            assert refused.status_code == 409 and refused.json()["error"]["code"] == "seated", refused.text
            assert "atout_session" not in refused.cookies
        await waiter.settle()
        assert [s["name"] for s in waiter.state["seats"]] == ["Wes", "Lia", None]

        # once the account has left that table, the login hands the guest's seat over
        assert (await lia.request({"type": "leave", "table": table}))["event"]["type"] == "left"
        async with site_page(base) as http:
            login = await http.post(
                "/api/login", json={"name": "Lia", "password": "a good password", "guest": waiter.token}
            )
            assert login.status_code == 200, login.text
        await waiter.expect("handed", seat=0)
        await lia.settle()
        assert lia.state["you"] == 0 and lia.state["master"] == 0 and lia.state["seats"][0]["name"] == "Lia"

        # a token this server did not give hands nothing over, and the registration goes on
        async with site_page(base) as http:
            made = await http.post(
                "/api/register", json={"name": "Nemo", "password": "a good password", "guest": "g123.forged"}
            )
            assert made.status_code == 201, made.text
        await player.settle()
        assert player.state["seats"][0]["name"] == "Gia"


async def test_a_guest_registering_through_one_process_keeps_a_seat_another_runs(
    pg_url: str,
    redis: RedisServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Two processes of one site over Redis: the guest's table runs on B, the registration comes to A;
    the seat passes to the account where the table runs, and the account's socket on A plays it."""
    with ready([Process(pg_url, redis.url, tmp_path, name) for name in ("A", "B")]) as (a, b):
        guest = await Client.connect(b.url, "Gil")
        table = await table_with_robots(guest, 3, level="random", turn_seconds=0)
        await guest.request({"type": "start", "table": table})
        async with site_page(f"http://127.0.0.1:{a.port}") as http:
            made = await http.post(
                "/api/register", json={"name": "Gil", "password": "a good password", "guest": guest.token}
            )
            assert made.status_code == 201, made.text
        await guest.expect("handed", seat=0)
        gil = await Client.connect(a.url, "Gil", cookie=made.cookies["atout_session"])
        await gil.send({"type": "join", "table": table})
        await gil.expect("table")
        assert gil.state["you"] == 0 and gil.state["seats"][0]["name"] == "Gil"
        await play_until(gil, lambda c: acted(c, 0) >= 1)  # the account's own action, through A to B
