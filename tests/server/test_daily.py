"""The daily deal (docs/daily.md): a day's set committed to before anyone plays it, played once by each
registered person against robots that answer the same play the same way, ranked; the others' play shown
to nobody before the day is over (test_daily_fairness.py); the seeds never sent before the day is over, then
revealed and verified."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import httpx

from atout.cli.main import main
from atout.engine.fairness import commitment
from atout.server.clock import FakeClock
from atout.server.fair_sets import daily_deal_seed, daily_dealer, verify_daily

from .helpers import Client, concrete, eventually, quick_config, running_server, site_page
from .test_tables import game_over

START = 1_700_000_000.0  # 2023-11-14 22:13:20 UTC
DAY = "2023-11-14"
TO_MIDNIGHT = 6400.0


async def _account(http: httpx.AsyncClient, name: str) -> str:
    made = await http.post("/api/register", json={"name": name, "password": "a long password"})
    assert made.status_code == 201, made.text
    return made.cookies["atout_session"]


async def _get(http: httpx.AsyncClient, path: str, cookie: str | None = None) -> httpx.Response:
    http.cookies.clear()
    return await http.get(path, headers={"Cookie": f"atout_session={cookie}"} if cookie else {})


def _taking(state: dict[str, Any]) -> dict[str, Any]:
    """A legal action that takes when it may (a prise: so the cards are played, and the robots answer them)."""
    legal = state["deal"]["legal"]
    for bid in ("prise", "garde", "pass"):
        if {"bid": bid} in legal:
            return {"bid": bid}
    plays = [c for c in legal if "play" in c]
    return plays[0] if plays else concrete(legal[0])


async def _play_daily(server, name: str, cookie: str) -> tuple[Client, str]:
    """``name`` plays the day's deal through, the same way whoever plays it."""
    client = await Client.connect(server.url, name, cookie=cookie)
    answer = await client.request({"type": "daily"})
    assert answer["type"] == "event", answer
    table = answer["table"]
    await _play_on(client, table)
    return client, table


async def _play_on(client: Client, table: str, actions: int | None = None) -> None:
    """Play ``client``'s turns at ``table`` until the game is over (and the table closed), or ``actions`` of
    them are played."""
    for _ in range(2000):
        if game_over(client) or actions == 0:
            break
        state = client.state
        deal = state and state["deal"]
        if deal and deal["to_act"] == state["you"] and deal["legal"]:
            done = await client.request({"type": "act", "table": table, "action": _taking(state)})
            assert done["type"] != "error", done
            actions = None if actions is None else actions - 1
        else:
            await client.recv()
    if actions is None and not _closed(client):  # the table closes with the game's end (the same batch, or next)
        await client.expect("closed")


def _closed(client: Client) -> bool:
    return any(f.get("event", {}).get("type") == "closed" for f in client.frames)


def _text(client: Client) -> str:
    return "\n".join(client.raw) + json.dumps(client.frames)


async def test_a_day_is_played_once_ranked_hidden_until_its_end_then_verified(db_url: str, tmp_path: Path) -> None:
    clock = FakeClock(START)
    # beginners slip at random: the same answers to the same play show that the robots are seeded by it
    config = dataclasses.replace(quick_config(), daily_deals=2, daily_level="beginner")
    async with running_server(db_url, config, clock) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        today = (await _get(http, "/api/daily")).json()
        assert {k: today[k] for k in ("day", "players", "deals", "played", "registered")} == {
            "day": DAY,
            "players": 4,
            "deals": 2,
            "played": None,
            "registered": False,
        }
        assert today["next"]["day"] == "2023-11-15" and today["next"]["commitment"] != today["commitment"]
        seed = server.hub.opening.daily_day(DAY).seed
        assert commitment(seed) == today["commitment"]  # committed to before anyone played
        secrets_of_the_day = [seed] + [daily_deal_seed(seed, k) for k in range(2)]
        ann_cookie, bob_cookie, cy_cookie = [await _account(http, n) for n in ("Ann", "Bob", "Cyd")]

        # a guest may not play it; nobody sees anybody's play before the day is over
        guest = await Client.connect(server.url, "Guesty")
        refused = await guest.request({"type": "daily"})
        assert refused["code"] == "registered_only"
        assert (await _get(http, f"/api/daily/{DAY}/plays", bob_cookie)).json()["error"]["code"] == "daily_not_over"

        ann, table = await _play_daily(server, "Ann", ann_cookie)
        assert server.hub.rooms[table].table.status == "closed"
        deals = [f["event"] for f in ann.frames if f.get("event", {}).get("type") == "deal_start"]
        assert [d["dealer"] for d in deals] == [daily_dealer(seed, 4, k) for k in range(len(deals))]
        assert [d["commitment"] for d in deals] == [commitment(daily_deal_seed(seed, k)) for k in range(len(deals))]
        ann_game = next(f["event"]["game"] for f in ann.frames if f.get("event", {}).get("type") == "game_end")

        # once a day: a second start is refused and makes no table
        rooms = set(server.hub.rooms)
        again = await ann.request({"type": "daily"})
        assert again["type"] == "error" and again["code"] == "daily_played" and set(server.hub.rooms) == rooms

        # Bob plays the same cards: the robots answer as they answered Ann, deal for deal
        bob, _ = await _play_daily(server, "Bob", bob_cookie)
        before = await _get(http, f"/api/daily/{DAY}/plays", cy_cookie)  # Cy has not played: refused
        assert (before.status_code, before.json()["error"]["code"]) == (403, "daily_not_over")
        locked = await _get(http, f"/api/games/{ann_game}", cy_cookie)  # nor through the stored game
        assert (locked.status_code, locked.json()["error"]["code"]) == (403, "daily_not_over")
        assert (await _get(http, f"/api/games/{ann_game}/deals/1", cy_cookie)).status_code == 403

        day = (await _get(http, f"/api/daily/{DAY}", ann_cookie)).json()
        assert day["over"] is False and day["seed"] is None
        ranking = day["ranking"]
        assert [r["name"] for r in ranking] == ["Ann", "Bob"], ranking  # equal totals: who finished first
        assert {r["status"] for r in ranking} == {"finished"}, ranking
        assert ranking[0]["total"] == ranking[1]["total"] and ranking[0]["place"] == ranking[1]["place"] == 1, ranking
        assert day["you"]["status"] == "finished" and day["you"]["game"] == ann_game
        # who has played sees no play either, their own included, before the day is over (issue 37)
        assert (await _get(http, f"/api/daily/{DAY}/plays", ann_cookie)).json()["error"]["code"] == "daily_not_over"
        assert (await _get(http, f"/api/games/{ann_game}", ann_cookie)).status_code == 403
        assert (await _get(http, f"/api/games/{ann_game}", bob_cookie)).status_code == 403
        assert (await _get(http, f"/api/daily/{DAY}/deals")).json()["error"]["code"] == "daily_not_over"

        # hidden until the day's end: no seed of the day in any frame or answer so far
        answers = [
            (await _get(http, path, ann_cookie)).text
            for path in (
                "/api/daily",
                f"/api/daily/{DAY}",
                f"/api/daily/{DAY}/plays",
                f"/api/games/{ann_game}",
                f"/api/games/{ann_game}/deals/1",
                "/api/daily/days",
            )
        ]
        for secret in secrets_of_the_day:
            for client in (ann, bob):
                assert secret not in _text(client)
            assert not any(secret in a for a in answers)

        # the day ends: its seed is revealed, and atout verify checks every deal of every play
        clock.advance(TO_MIDNIGHT + 1)
        day = (await _get(http, f"/api/daily/{DAY}")).json()
        assert day["over"] is True and day["seed"] == seed
        shown = await _get(http, f"/api/daily/{DAY}/plays")  # anyone, now
        assert shown.status_code == 200 and shown.json()["over"] is True
        plays = shown.json()["plays"]
        records = {
            p["name"]: [{k: v for k, v in r.items() if k not in ("names", "seed")} for r in p["records"]] for p in plays
        }
        assert records["Ann"] == records["Bob"]  # the same cards, the robots' same answers
        assert {p["name"]: p["records"][0]["names"][0] for p in plays} == {"Ann": "Ann", "Bob": "Bob"}
        assert (await _get(http, f"/api/games/{ann_game}", cy_cookie)).status_code == 200
        assert [d["day"] for d in (await _get(http, "/api/daily/days")).json()["days"]] == [DAY]
        published: dict[str, Any] = (await _get(http, f"/api/daily/{DAY}/deals")).json()
        assert published["seed"] == seed and len(published["plays"]) == 2
        result = verify_daily(published)
        assert result.passed, [c.message for c in result.failures]
        path = tmp_path / "day.json"
        path.write_text(json.dumps(published))
        assert main(["verify", str(path)]) == 0
        tampered = json.loads(json.dumps(published))
        # a card of a deal that was played (a deal where everyone passed, or voided by a petit sec, has none)
        action = next(a for r in tampered["plays"][0]["records"] for a in r["actions"] if "play" in a)
        action["play"] = "EX" if action["play"] != "EX" else "T21"
        path.write_text(json.dumps(tampered))
        assert main(["verify", str(path)]) == 1
        swapped = json.loads(json.dumps(published))
        swapped["plays"][0]["records"].reverse()  # deal 2 shown as deal 1: not the day's deal 1
        path.write_text(json.dumps(swapped))
        assert main(["verify", str(path)]) == 1
        await ann.close()
        await bob.close()
        await guest.close()


async def test_leaving_is_an_abandonment_ranked_last_and_never_a_second_try(db_url: str) -> None:
    clock = FakeClock(START)
    config = dataclasses.replace(quick_config(), daily_deals=2)
    async with running_server(db_url, config, clock) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        ann_cookie, dan_cookie = await _account(http, "Ann"), await _account(http, "Dan")
        ann, _ = await _play_daily(server, "Ann", ann_cookie)
        dan = await Client.connect(server.url, "Dan", cookie=dan_cookie)
        answer = await dan.request({"type": "daily"})
        table = answer["table"]
        await dan.settle()
        refused = await dan.request({"type": "cancel", "table": table, "seq": dan.seqs[table]})
        assert refused["code"] == "daily_table"  # no amicable way out: a cancel would reveal the seed
        for _ in range(100):  # the robots play on meanwhile: a leave answering an older state is stale
            left = await dan.request({"type": "leave", "table": table, "seq": dan.seqs[table]})
            if left.get("code") != "stale":
                break
        assert left["type"] == "event", left
        if not _closed(dan):
            await dan.expect("closed")
        ranking = (await _get(http, f"/api/daily/{DAY}")).json()["ranking"]
        assert [(r["name"], r["status"], r["place"]) for r in ranking] == [
            ("Ann", "finished", 1),
            ("Dan", "abandoned", None),
        ]
        again = await dan.request({"type": "daily"})
        assert again["code"] == "daily_played"
        # having abandoned, the play is over, but the others' play is shown once the day is over only
        assert (await _get(http, f"/api/daily/{DAY}/plays", dan_cookie)).status_code == 403
        # Ann deletes her account: her play stays in the day, under no name
        http.cookies.clear()
        deleted = await http.post(
            "/api/account/delete",
            json={"password": "a long password"},
            headers={"Cookie": f"atout_session={ann_cookie}"},
        )
        assert deleted.status_code == 200, deleted.text
        clock.advance(TO_MIDNIGHT + 1)
        shown = (await _get(http, f"/api/daily/{DAY}/plays", dan_cookie)).text
        assert "Ann" not in shown and "deleted player" in shown
        assert "Ann" not in (await _get(http, f"/api/daily/{DAY}")).text
        await ann.close()
        await dan.close()


async def test_closing_the_tab_is_an_abandonment_even_when_the_robot_finishes_the_game(db_url: str) -> None:
    """The tab closed: 10 s later a robot plays for the seat, as at any table; the game it finishes while the
    person is away counts as abandoned (docs/daily.md, "Abandonment")."""
    clock = FakeClock(START)
    config = dataclasses.replace(quick_config(absent_after=10, abandon_after=180), daily_deals=1)
    async with running_server(db_url, config, clock) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        eve_cookie = await _account(http, "Eve")
        eve = await Client.connect(server.url, "Eve", cookie=eve_cookie)
        table = (await eve.request({"type": "daily"}))["table"]
        await eve.settle()
        await eve.close()

        async def gone() -> bool:
            return not server.hub.rooms[table].followers

        await eventually(gone, "the closed tab was never noticed")
        clock.advance(11)

        async def ended() -> bool:
            mine = (await _get(http, "/api/daily", eve_cookie)).json()["played"]
            return mine["status"] != "playing"

        await eventually(ended, "the robot never finished the game")
        played = (await _get(http, "/api/daily", eve_cookie)).json()["played"]
        assert played["status"] == "abandoned" and played["deals_done"] == 1
        ranking = (await _get(http, f"/api/daily/{DAY}")).json()["ranking"]
        assert [(r["name"], r["status"], r["place"]) for r in ranking] == [("Eve", "abandoned", None)]


async def test_a_daily_deal_resumes_after_a_restart_with_the_days_deals(db_url: str) -> None:
    """The table's day and its secret seed are stored with it: a restarted server deals the day's next deal
    (the same dealer, the same commitment as anyone's), and the day still verifies."""
    clock = FakeClock(START)
    config = dataclasses.replace(quick_config(), daily_deals=2)
    async with running_server(db_url, config, clock) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        cookie = await _account(http, "Ann")
        seed = server.hub.opening.daily_day(DAY).seed
        ann = await Client.connect(server.url, "Ann", cookie=cookie)
        table = (await ann.request({"type": "daily"}))["table"]
        await _play_on(ann, table, actions=3)
        await ann.close()
    async with running_server(db_url, config, clock) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        ann = await Client.connect(server.url, "Ann", cookie=cookie)
        await ann.send({"type": "join", "table": table})
        await ann.expect("table")
        await _play_on(ann, table)
        # each deal's start as it was told: an event, or in a whole state's log (a page behind is sent the state)
        told = [f["event"] for f in ann.frames if f.get("type") == "event"]
        told += [e["event"] for f in ann.frames if f.get("type") == "table" for e in f.get("log") or []]
        starts = [e for e in told if e.get("type") == "deal_start"]
        assert starts, [(f["type"], f.get("event", {}).get("type")) for f in ann.frames]
        days = [commitment(daily_deal_seed(seed, k)) for k in range(2)]
        assert {e["commitment"] for e in starts} <= set(days) and days[1] in {e["commitment"] for e in starts}
        assert seed not in _text(ann) and daily_deal_seed(seed, 1) not in _text(ann)
        assert (await _get(http, "/api/daily", cookie)).json()["played"]["status"] == "finished"
        clock.advance(TO_MIDNIGHT + 1)
        published = (await _get(http, f"/api/daily/{DAY}/deals")).json()
        assert len(published["plays"][0]["records"]) == 2
        result = verify_daily(published)
        assert result.passed, [c.message for c in result.failures]
        await ann.close()
