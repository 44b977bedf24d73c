"""A finished deal told whole for its review: at the table (``review``), for anyone who may watch it,
and over HTTP once its game is stored; never a deal still being played. What the page downloads is
checked by ``atout verify FILE`` alone."""

from __future__ import annotations

import json

from atout.engine.fairness import verify

from .helpers import Client, running_server, site_page
from .test_tables import game_over, play_until, table_with_robots


def events(client: Client, kind: str) -> list[dict]:
    return [f["event"] for f in client.frames if f.get("type") == "event" and f["event"]["type"] == kind]


async def test_a_deal_is_reviewed_once_it_has_ended_and_never_before(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, level="random", deals=2)
        await ann.request({"type": "start", "table": table})
        await ann.until_a_person_acts()
        game = ann.state["game"]["id"]
        spy = await Client.connect(server.url, "Spy")  # a spectator, at the table's first deal
        await spy.send({"type": "join", "table": table})
        await spy.expect("table")
        for asker in (ann, spy):  # the deal being played: not even its player sees the other hands
            await asker.send({"type": "review", "table": table, "deal": 1, "ref": "x"})
            refused = await asker.expect("error")
            assert refused["code"] == "no_deal" and refused["ref"] == "x", refused
            assert not any(f["type"] == "review" for f in asker.frames)
        async with site_page(f"http://127.0.0.1:{server.port}") as http:
            answer = await http.get(f"/api/games/{game}/deals/1")  # not stored while the game goes on
            assert (answer.status_code, answer.json()["error"]["code"]) == (404, "no_deal")

        await play_until(ann, lambda c: len(events(c, "deal_end")) >= 1)
        first_end = events(ann, "deal_end")[0]
        await spy.send({"type": "review", "table": table, "deal": 1})
        told = await spy.expect("review")
        assert told["game"] == game and told["deal"] == 1 and told["record"] == first_end["record"]
        assert told["commitment"] == events(ann, "deal_start")[0]["commitment"] and len(told["commitment"]) == 64
        review = told["review"]
        assert sum(len(hand) for hand in review["hands"]) + len(review["dog"]) == 78  # every card, the deal over
        assert told["names"][0] == "Ann" and told["names"][1].startswith("Robot")
        if not review["result"]["void"]:
            plays = [p for trick in review["tricks"] for p in trick["plays"]]
            assert len(review["tricks"]) == 18 and len(plays) == 72
            assert [p["card"] for p in plays] == [a["play"] for a in first_end["record"]["actions"] if "play" in a]
            assert all(
                trick["winner"] == nxt["leader"]
                for trick, nxt in zip(review["tricks"][:-1], review["tricks"][1:], strict=True)
            )
        # the download, alone, is checked: the commitment published when the deal began is in it
        download = {"commitment": told["commitment"], "seed": told["seed"], "record": told["record"]}
        assert verify(json.loads(json.dumps(download))).passed
        if ann.state["status"] == "playing" and ann.state["deal"] and ann.state["deal"]["phase"] != "end":
            await ann.send({"type": "review", "table": table, "deal": 2})  # the next deal, going on
            assert (await ann.expect("error"))["code"] == "no_deal"

        await play_until(ann, game_over)
        deals = len(ann.state["game"]["sheet"])
        async with site_page(f"http://127.0.0.1:{server.port}") as http:
            stored = (await http.get(f"/api/games/{game}")).json()
            assert stored["commitments"] == [e["commitment"] for e in events(ann, "deal_start")]
            for number in range(1, deals + 1):
                answer = (await http.get(f"/api/games/{game}/deals/{number}")).json()
                assert answer["deal"] == number and answer["deals"] == deals
                assert answer["record"] == stored["records"][number - 1]
                assert verify({k: answer[k] for k in ("commitment", "seed", "record")}).passed
            for bad in (0, deals + 1, "x", "1.5"):
                answer = await http.get(f"/api/games/{game}/deals/{bad}")
                assert (answer.status_code, answer.json()["error"]["code"]) == (404, "no_deal"), bad


async def test_a_private_table_reviews_only_for_those_it_admits(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, level="random", deals=2, private=True)
        await ann.request({"type": "start", "table": table})
        await play_until(ann, lambda c: len(events(c, "deal_end")) >= 1)
        await ann.send({"type": "review", "table": table, "deal": 1})
        assert (await ann.expect("review"))["deal"] == 1
        stranger = await Client.connect(server.url, "Stranger")
        await stranger.send({"type": "review", "table": table, "deal": 1})
        assert (await stranger.expect("error"))["code"] == "private"
