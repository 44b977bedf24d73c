"""The daily ranking fair against a second account (issue 37, item 3; ASVS 11.1.5). Everyone meets the same
cards and robots that answer the same play the same way, so whoever knows the day's cards could play them
perfectly from a second account: no deal of the day is shown to anyone (its player included) by any route
before the day closes, and of the plays from one address or one browser only the first is ranked."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import httpx

from atout.server.clock import FakeClock

from .helpers import Client, quick_config, running_server, site_page
from .test_daily import DAY, START, TO_MIDNIGHT, _account, _play_daily, _play_on, _taking

HOME, AWAY = "10.37.0.1", "10.37.0.2"
BROWSER = "b" * 24


async def _ask(
    http: httpx.AsyncClient, method: str, path: str, cookie: str | None, address: str = AWAY, **kwargs
) -> httpx.Response:
    http.cookies.clear()
    headers = {"X-Forwarded-For": address, **({"Cookie": f"atout_session={cookie}"} if cookie else {})}
    return await http.request(method, path, headers=headers, **kwargs)


def test_the_first_play_of_an_address_or_a_browser_is_ranked_the_later_ones_not() -> None:
    from atout.server.features.daily_marks import Unranked, mark, unranked  # (here: the old code had none)

    def play(who: str, at: float, address: str | None, browser: str | None) -> SimpleNamespace:
        return SimpleNamespace(player_id=who, started_at=at, address=address, browser=browser)

    plays = [
        play("cy", 3, "a2", "b1"),
        play("ann", 1, "a1", "b1"),
        play("bob", 2, "a1", None),
        play("dan", 4, "a3", None),
        play("eve", 5, None, None),
        play("fay", 6, "a3", "b9"),
    ]
    assert unranked(plays) == {"bob": Unranked.SAME_ADDRESS, "cy": Unranked.SAME_BROWSER, "fay": Unranked.SAME_ADDRESS}
    assert mark("salt", "address", "1.2.3.4") != mark("other day", "address", "1.2.3.4")  # a day's marks are its own
    assert "1.2.3.4" not in (mark("salt", "address", "1.2.3.4") or "")
    assert mark("salt", "browser", "<script>") is None and mark("salt", "address", None) is None


async def _play_one_deal(client: Client, table: str) -> None:
    """``client``'s turns at ``table`` until its first deal has ended."""
    for _ in range(2000):
        if any(f.get("event", {}).get("type") == "deal_end" for f in client.frames):
            return
        state = client.state
        deal = state and state["deal"]
        if deal and deal["to_act"] == state["you"] and deal["legal"]:
            done = await client.request({"type": "act", "table": table, "action": _taking(state)})
            assert done["type"] != "error", done
        else:
            await client.recv()
    raise AssertionError("no deal ended")


async def test_todays_deals_are_shown_to_nobody_before_the_day_closes_then_to_everyone(db_url: str) -> None:
    clock = FakeClock(START)
    config = dataclasses.replace(quick_config(), daily_deals=2)
    async with running_server(db_url, config, clock) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        ann_cookie, bob_cookie = await _account(http, "Ann"), await _account(http, "Bob")
        ann = await Client.connect(server.url, "Ann", cookie=ann_cookie)
        table = (await ann.request({"type": "daily"}))["table"]
        await _play_one_deal(ann, table)
        game = server.hub.rooms[table].table.game_id
        # the analysis of the first deal while the game goes on: refused (its day is not over)
        running = await _ask(http, "POST", "/api/analysis", ann_cookie, json={"game": game, "deal": 0, "table": table})
        assert (running.status_code, running.json()["error"]["code"]) == (403, "daily_not_over"), running.text
        await _play_on(ann, table)

        def paths() -> list[tuple[str, str, dict]]:
            return [
                ("GET", f"/api/daily/{DAY}/plays", {}),
                ("GET", f"/api/games/{game}", {}),
                ("GET", f"/api/games/{game}/deals/1", {}),
                ("GET", f"/api/daily/{DAY}/deals", {}),
                ("POST", "/api/analysis", {"json": {"game": game, "deal": 0}}),
                ("GET", f"/api/analysis?game={game}&deal=0", {}),
            ]

        for who in (ann_cookie, bob_cookie, None):  # the player, another account, a guest
            for method, path, kwargs in paths():
                answer = await _ask(http, method, path, who, **kwargs)
                if who is None and "analysis" in path:  # a guest analyses nothing of anyone's
                    assert answer.status_code == 401, answer.text
                    continue
                assert (answer.status_code, answer.json()["error"]["code"]) == (403, "daily_not_over"), (
                    who,
                    path,
                    answer.text,
                )
        profile = (await _ask(http, "GET", "/api/players/Ann", None)).json()
        assert game not in [r["game"] for r in profile["recent"]]  # the profile's games: not before the day closes
        assert profile["stats"]["all"]["games"] == 0 and profile["stats"]["all"]["taker_deals"] == 0  # nor its figures
        assert profile["stats"]["all"]["average_per_deal"] is None and "4" not in profile["stats"], profile["stats"]
        day = (await _ask(http, "GET", f"/api/daily/{DAY}", ann_cookie)).json()
        assert day["ranking"][0]["name"] == "Ann" and day["ranking"][0]["game"] == game  # the ranking: no cards

        clock.advance(TO_MIDNIGHT + 1)  # the day closes: everything is everyone's
        for who in (bob_cookie, None):
            for method, path, kwargs in paths()[:4]:
                answer = await _ask(http, method, path, who, **kwargs)
                assert answer.status_code == 200, (path, answer.text)
        asked = await _ask(http, "GET", f"/api/analysis?game={game}&deal=0", ann_cookie)  # open: nobody asked yet
        assert (asked.status_code, asked.json()["status"]) == (200, "not_requested"), asked.text
        profile = (await _ask(http, "GET", "/api/players/Ann", None)).json()
        assert game in [r["game"] for r in profile["recent"]]
        assert profile["stats"]["all"]["games"] == 1 and profile["stats"]["4"]["deals"] >= 1, profile["stats"]
        await ann.close()


async def test_a_second_account_from_the_same_address_or_browser_is_shown_unranked(db_url: str) -> None:
    clock = FakeClock(START)
    config = dataclasses.replace(quick_config(), daily_deals=1)
    async with running_server(db_url, config, clock) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        cookies = {n: await _account(http, n) for n in ("Ann", "Bob", "Cyd", "Dan")}
        before = (await _ask(http, "GET", "/api/daily", cookies["Bob"], address=HOME)).json()
        assert before["unranked_if_played"] is None
        ann = await Client.connect(server.url, "Ann", cookie=cookies["Ann"], address=HOME, browser=BROWSER)
        first = (await ann.request({"type": "daily"}))["table"]
        await _play_on(ann, first)
        clock.advance(1)  # a moment later (plays started at the same instant are ordered by account)
        # Bob, a moment later from the same address: told before he plays, and after
        told = (await _ask(http, "GET", "/api/daily", cookies["Bob"], address=HOME)).json()
        assert told["unranked_if_played"] == "same_address" and "same address" in told["unranked_reason"]
        bob, _ = await _play_daily_from(server, "Bob", cookies["Bob"], HOME, None)
        clock.advance(1)
        # Cyd from another address, in Ann's browser; Dan from elsewhere altogether
        cyd = await Client.connect(server.url, "Cyd", cookie=cookies["Cyd"], address=AWAY, browser=BROWSER)
        await cyd.request({"type": "daily"})
        clock.advance(1)
        dan, _ = await _play_daily(server, "Dan", cookies["Dan"])

        day = (await _ask(http, "GET", f"/api/daily/{DAY}", cookies["Bob"], address=HOME)).json()
        rows = {r["name"]: r for r in day["ranking"]}
        assert [r["name"] for r in day["ranking"]] == ["Ann", "Dan", "Bob", "Cyd"], day["ranking"]
        assert rows["Ann"]["total"] == rows["Bob"]["total"] == rows["Dan"]["total"]  # the same cards, the same play
        assert (rows["Ann"]["place"], rows["Dan"]["place"]) == (1, 1) and rows["Ann"]["unranked"] is None
        assert (rows["Bob"]["place"], rows["Bob"]["unranked"]) == (None, "same_address")
        assert (rows["Cyd"]["place"], rows["Cyd"]["unranked"]) == (None, "same_browser")
        assert day["you"]["unranked"] == "same_address" and "not ranked" in day["you"]["unranked_reason"]
        mine = (await _ask(http, "GET", "/api/daily", cookies["Bob"], address=HOME)).json()["played"]
        assert mine["unranked"] == "same_address"
        for client in (ann, bob, cyd, dan):
            await client.close()


async def _play_daily_from(server, name: str, cookie: str, address: str, browser: str | None) -> tuple[Client, str]:
    client = await Client.connect(server.url, name, cookie=cookie, address=address, browser=browser)
    answer = await client.request({"type": "daily"})
    assert answer["type"] == "event", answer
    await _play_on(client, answer["table"])
    return client, answer["table"]


async def test_the_page_gives_a_browser_its_mark_once(db_url: str) -> None:
    async with (
        running_server(db_url, quick_config(), FakeClock(START)) as server,
        site_page(f"http://127.0.0.1:{server.port}") as http,
    ):
        first = await _ask(http, "GET", "/api/daily", None)
        given = first.cookies.get("atout_browser")
        assert given and len(given) >= 16 and "httponly" in first.headers["set-cookie"].lower()
        http.cookies.clear()
        again = await http.get("/api/daily", headers={"Cookie": f"atout_browser={given}"})
        assert "atout_browser" not in again.headers.get("set-cookie", "")
