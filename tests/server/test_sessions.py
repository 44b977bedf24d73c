"""Sessions a person controls, over real HTTP and WebSocket: see them, change the password (the old one
asked; every other session ends), log out everywhere; and a session unused for two weeks is over."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import httpx
import pytest

from atout.server.accounts import INACTIVE_DAYS, AccountError, Accounts

from .helpers import LIGHT_ARGON2, Client, running_server, site_page

DAY = 86400.0


@contextlib.asynccontextmanager
async def two_browsers(base: str) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    """Ann registered in one browser and logged in from another (another address, another browser)."""
    async with site_page(base, headers={"X-Forwarded-For": "192.0.2.1", "User-Agent": "Home browser"}) as home, \
            site_page(base, headers={"X-Forwarded-For": "198.51.100.7", "User-Agent": "Phone"}) as phone:
        assert (await home.post("/api/register", json={"name": "Ann", "password": "first secret"})).status_code == 201
        assert (await phone.post("/api/login", json={"name": "Ann", "password": "first secret"})).status_code == 200
        yield home, phone


async def test_a_password_change_asks_the_old_one_and_ends_every_other_session(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with two_browsers(base) as (home, phone):
            listed = (await home.get("/api/sessions")).json()["sessions"]
            assert sorted((s["address"], s["agent"], s["current"]) for s in listed) == [
                ("192.0.2.1", "Home browser", True), ("198.51.100.7", "Phone", False)]
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
                assert (await fresh.post("/api/login", json={"name": "Ann", "password": "second secret"})).status_code == 200
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
