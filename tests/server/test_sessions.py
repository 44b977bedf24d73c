"""Sessions a person controls, over real HTTP and WebSocket: see them, change the password (the old one
asked; every other session ends), log out everywhere; and a session unused for two weeks is over."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
import websockets

from atout.server.features.accounts import INACTIVE_DAYS, AccountError, Accounts, session_key
from atout.server.store.db import sessions

from .helpers import LIGHT_ARGON2, Client, running_server, site_page
from .test_cluster import Process, RedisServer, ready, redis  # noqa: F401 -- the redis fixture

DAY = 86400.0


@contextlib.asynccontextmanager
async def two_browsers(base: str) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    """Ann registered in one browser and logged in from another (another address, another browser)."""
    async with (
        site_page(base, headers={"X-Forwarded-For": "192.0.2.1", "User-Agent": "Home browser"}) as home,
        site_page(base, headers={"X-Forwarded-For": "198.51.100.7", "User-Agent": "Phone"}) as phone,
    ):
        assert (await home.post("/api/register", json={"name": "Ann", "password": "first secret"})).status_code == 201
        assert (await phone.post("/api/login", json={"name": "Ann", "password": "first secret"})).status_code == 200
        yield home, phone


async def test_a_password_change_asks_the_old_one_and_ends_every_other_session(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with two_browsers(base) as (home, phone):
            listed = (await home.get("/api/sessions")).json()["sessions"]
            assert sorted((s["address"], s["agent"], s["current"]) for s in listed) == [
                ("192.0.2.1", "Home browser", True),
                ("198.51.100.7", "Phone", False),
            ]
            wrong = await home.post("/api/password", json={"old": "not it", "new": "second secret"})
            assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "wrong")
            weak = await home.post("/api/password", json={"old": "first secret", "new": "short"})
            assert (weak.status_code, weak.json()["error"]["code"]) == (400, "weak_password")
            assert (await phone.get("/api/me")).status_code == 200  # refusals changed nothing
            changed = await home.post("/api/password", json={"old": "first secret", "new": "second secret"})
            assert changed.status_code == 200 and changed.json() == {"changed": True, "sessions_ended": 1}
            assert (await phone.get("/api/me")).status_code == 401
            assert (await home.get("/api/me")).json()["name"] == "Ann"  # the browser that changed it stays
            assert len((await home.get("/api/sessions")).json()["sessions"]) == 1
            phone_ws = await Client.connect(server.url, "Guest", cookie=phone.cookies["atout_session"])
            assert phone_ws.frames[-1]["you"]["registered"] is False  # the socket too: a guest now
            await phone_ws.close()
            async with httpx.AsyncClient(base_url=base) as fresh:  # (the 5th attempt a minute for Ann)
                assert (
                    await fresh.post("/api/login", json={"name": "Ann", "password": "second secret"})
                ).status_code == 200
            with pytest.raises(AccountError):
                await asyncio.to_thread(server.hub.accounts.login, "Ann", "first secret")


async def test_log_out_everywhere_ends_every_session_of_the_account(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with two_browsers(base) as (home, phone):
            cookies = [home.cookies["atout_session"], phone.cookies["atout_session"]]
            answer = await phone.post("/api/logout", json={"everywhere": True})
            assert answer.status_code == 204
            for cookie in cookies:
                async with httpx.AsyncClient(base_url=base, cookies={"atout_session": cookie}) as old:
                    assert (await old.get("/api/me")).status_code == 401
                    assert (await old.get("/api/sessions")).status_code == 401
            assert (await home.post("/api/logout", json={"everywhere": True})).status_code == 401


def test_a_session_unused_for_two_weeks_is_over_one_in_use_lasts(store) -> None:
    now = [1_000_000.0]
    accounts = Accounts(store, LIGHT_ARGON2, clock=lambda: now[0])
    accounts.register("Eve", "a good password")
    _, used = accounts.login("Eve", "a good password", "192.0.2.9", "Browser")
    _, idle = accounts.login("Eve", "a good password")
    for _ in range(2):  # used every INACTIVE_DAYS - 1 days: still in force after more than INACTIVE_DAYS
        now[0] += (INACTIVE_DAYS - 1) * DAY
        assert accounts.session(used) is not None
    assert accounts.session(idle) is None
    assert [s["address"] for s in accounts.sessions_of(accounts.find("Eve").id, used)] == ["192.0.2.9"]
    now[0] += INACTIVE_DAYS * DAY + 1
    assert accounts.session(used) is None


# ---------------------------------------------------------------- open sockets of a session that ends
async def ended(client: Client) -> str:
    """Read until the server says this socket's session ended; then the server closes it. The reason."""
    while (frame := await client.recv())["type"] != "session_ended":
        pass
    with pytest.raises(websockets.ConnectionClosed):
        await client.recv()
    return frame["why"]


async def still_open(client: Client) -> bool:
    await client.send({"type": "ping"})
    return (await client.expect("pong"))["type"] == "pong"


async def test_one_session_ended_from_the_list_closes_its_sockets_at_once(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with two_browsers(base) as (home, phone), site_page(base) as bob:
            assert (
                await bob.post("/api/register", json={"name": "Bob", "password": "my own secret"})
            ).status_code == 201
            bob_id = (await bob.get("/api/sessions")).json()["sessions"][0]["id"]
            home_ws = await Client.connect(server.url, "x", cookie=home.cookies["atout_session"])
            phone_ws = await Client.connect(server.url, "x", cookie=phone.cookies["atout_session"])
            guest = await Client.connect(server.url, "Guest")
            listed = {s["agent"]: s for s in (await home.get("/api/sessions")).json()["sessions"]}
            for wrong in (bob_id, "0" * 16, "not an id", 7):  # another's session is no different from none
                answer = await home.post("/api/sessions/end", json={"id": wrong})
                assert (answer.status_code, answer.json()["error"]["code"]) == (404, "no_session"), wrong
            assert (await bob.get("/api/me")).status_code == 200
            answer = await home.post("/api/sessions/end", json={"id": listed["Phone"]["id"]})
            assert answer.status_code == 200 and answer.json() == {"ended": listed["Phone"]["id"], "current": False}
            assert await ended(phone_ws) == "ended"  # at once: not when it next connects
            assert (await phone.get("/api/me")).status_code == 401
            assert await still_open(home_ws) and await still_open(guest)
            answer = await home.post("/api/sessions/end", json={"id": listed["Home browser"]["id"]})
            assert answer.json() == {"ended": listed["Home browser"]["id"], "current": True}
            assert await ended(home_ws) == "logout"
            assert "atout_session" not in home.cookies and (await home.get("/api/me")).status_code == 401


async def test_a_password_change_and_a_logout_everywhere_close_the_sockets_they_end(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with two_browsers(base) as (home, phone):
            home_tabs = [await Client.connect(server.url, "x", cookie=home.cookies["atout_session"]) for _ in range(2)]
            phone_ws = await Client.connect(server.url, "x", cookie=phone.cookies["atout_session"])
            changed = await home.post("/api/password", json={"old": "first secret", "new": "second secret"})
            assert changed.json() == {"changed": True, "sessions_ended": 1}
            assert await ended(phone_ws) == "password_changed"
            assert all([await still_open(tab) for tab in home_tabs])  # the browser that changed it stays
            assert (await home.post("/api/logout", json={"everywhere": True})).status_code == 204
            assert [await ended(tab) for tab in home_tabs] == ["logout_everywhere"] * 2
        async with site_page(base) as again:  # a plain logout closes the other tabs of that browser
            assert (
                await again.post("/api/login", json={"name": "Ann", "password": "second secret"})
            ).status_code == 200
            tab = await Client.connect(server.url, "x", cookie=again.cookies["atout_session"])
            assert (await again.post("/api/logout")).status_code == 204
            assert await ended(tab) == "logout"


async def test_a_socket_whose_handshake_crossed_the_notice_is_closed(db_url: str) -> None:
    """The notice of a session ended came while a socket's handshake, which had found the session good,
    was under way: the socket is closed as it joins the hub."""
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with two_browsers(base) as (_, phone):
            token = phone.cookies["atout_session"]
            account = server.hub.accounts.session(token)
            server.hub.sessions.close(account.id, [session_key(token)], "password_changed", site=False)  # the row stays
            async with websockets.connect(
                server.url, additional_headers={"Cookie": f"atout_session={token}", "Origin": base}
            ) as ws:
                assert json.loads(await ws.recv()) == {"type": "session_ended", "why": "ended"}
                with pytest.raises(websockets.ConnectionClosed):
                    await ws.recv()


async def test_the_minutely_check_closes_a_socket_whose_notice_was_lost_and_keeps_used_ones_alive(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with two_browsers(base) as (home, phone):
            home_ws = await Client.connect(server.url, "x", cookie=home.cookies["atout_session"])
            phone_ws = await Client.connect(server.url, "x", cookie=phone.cookies["atout_session"])
            kept, lost = (session_key(c.cookies["atout_session"]) for c in (home, phone))
            long_ago = time.time() - 2 * 3600
            with server.hub.store.engine.begin() as conn:  # ended with no notice (a bus outage); used long ago
                conn.execute(sessions.delete().where(sessions.c.token_hash == lost))
                conn.execute(sessions.update().where(sessions.c.token_hash == kept).values(last_seen_at=long_ago))
            assert await still_open(phone_ws)
            server.clock.advance(server.hub.sessions.SWEEP_SECONDS)
            assert await ended(phone_ws) == "ended"
            assert await still_open(home_ws)
            with server.hub.store.engine.connect() as conn:  # an open page is a session in use
                seen = conn.execute(
                    sa.select(sessions.c.last_seen_at).where(sessions.c.token_hash == kept)
                ).scalar_one()
            assert seen > long_ago + 3600


async def test_a_session_ended_on_one_process_closes_its_sockets_on_another(
    pg_url: str,
    redis: RedisServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Two processes of one site over Redis: the password changed, then the account deleted, through A;
    the sockets those sessions opened on B hear it at once, and the seat held at a table B runs is left."""
    with ready([Process(pg_url, redis.url, tmp_path, name) for name in ("A", "B")]) as (a, b):
        async with two_browsers(f"http://127.0.0.1:{a.port}") as (home, phone):
            home_ws = await Client.connect(b.url, "x", cookie=home.cookies["atout_session"])
            phone_ws = await Client.connect(b.url, "x", cookie=phone.cookies["atout_session"])
            bob = await Client.connect(b.url, "Bob")  # a guest whose table B runs; Ann sits there from A
            await bob.send({"type": "create", "players": 3, "options": {"turn_seconds": 0, "deals": 2}})
            table = (await bob.expect("master"))["table"]
            await bob.settle()
            ann = await Client.connect(a.url, "x", cookie=home.cookies["atout_session"])
            await ann.send({"type": "join", "table": table})
            await ann.expect("table")
            assert (await ann.request({"type": "sit", "table": table, "seat": 1}))["type"] == "event"
            await bob.settle()
            await bob.request({"type": "robot", "table": table, "seat": 2, "level": "random"})
            assert (await bob.request({"type": "start", "table": table}))["type"] == "event"

            changed = await home.post("/api/password", json={"old": "first secret", "new": "second secret"})
            assert changed.json() == {"changed": True, "sessions_ended": 1}
            assert await ended(phone_ws) == "password_changed"
            assert await still_open(home_ws)
            deleted = await home.post("/api/account/delete", json={"password": "second secret"})
            assert deleted.status_code == 200, deleted.text
            assert await ended(home_ws) == "account_deleted"  # on B
            assert await ended(ann) == "account_deleted"  # on A
            left = await bob.expect("abandon", seat=1)  # left at once where the table runs
            assert left["event"]["why"] == "deleted their account"
