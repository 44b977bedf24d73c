"""A person's insights over HTTP (features/insights.py): the points lost a deal by phase and table size over the
last 50 deals and over all, the phase that cost most, the trend and the costliest habits with a deal that shows
each, from their stored accuracies; private unless the person shows them."""

from __future__ import annotations

import httpx
import sqlalchemy as sa

from atout.bots.analysis import VERSION
from atout.bots.levels_figures import level_figures
from atout.server.store.db import accuracy, players

from .helpers import running_server


def _row(player: str, n: int, size: int, role: str, at: float, **phases: float) -> dict:
    costs = {p: phases.get(p, 0.0) for p in ("bid", "ecart", "taker", "partner", "defence")}
    habits = {
        "bid": "bid_high",
        "ecart": "ecart",
        "taker": "taker_follow",
        "partner": "partner_follow",
        "defence": "defence_lead",
    }
    return {
        "game_id": f"g{n}",
        "deal": 0,
        "seat": 1,
        "version": VERSION,
        "player_id": player,
        "players": size,
        "role": role,
        "loss": sum(costs.values()),
        **costs,
        "decisions": 10,
        "costly": sum(1 for v in costs.values() if v),
        "created_at": at,
        "habits": {habits[p]: [v, 1] for p, v in costs.items() if v},
    }


async def test_a_persons_insights_name_the_phase_and_the_habits_and_are_private_unless_shown(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with (
            httpx.AsyncClient(base_url=base, headers={"Origin": base}) as ann,
            httpx.AsyncClient(base_url=base, headers={"Origin": base}) as bob,
        ):
            for client, name in ((ann, "Ann"), (bob, "Bob")):
                made = await client.post("/api/register", json={"name": name, "password": "correct horse battery"})
                assert made.status_code == 201, made.text
            engine = server.hub.store.engine
            with engine.begin() as conn:
                ann_id = conn.execute(sa.select(players.c.id).where(players.c.name == "Ann")).scalar_one()
                # 20 old deals at 3 players, taking, the écart costing 6 a deal; then 50 at 4 in defence, 2 a deal
                # (the leads), one of them 9 (g55: the deal that shows the habit worst)
                rows = [_row(ann_id, n, 3, "taker", 1000.0 + n, ecart=6.0) for n in range(20)]
                rows += [
                    _row(ann_id, n, 4, "defence", 1000.0 + n, defence=9.0 if n == 55 else 2.0, bid=0.5 if n % 2 else 0)
                    for n in range(20, 70)
                ]
                conn.execute(accuracy.insert(), rows)

            mine = await ann.get("/api/players/Ann/insights")
            assert mine.status_code == 200, mine.text
            found = mine.json()
            assert found["own"] is True and found["public"] is False
            recent, overall = found["recent"], found["all"]
            assert recent["deals"] == 50 and overall["deals"] == 70
            assert found["main"] == "defence"  # the last 50 deals lost most in defence
            assert recent["phases"]["defence"] == {
                "deals": 50,
                "loss": round((49 * 2 + 9) / 50, 1),
                "total": 107.0,
                "sizes": {"4": 50},
            }
            assert recent["phases"]["ecart"]["deals"] == 0 and recent["phases"]["ecart"]["loss"] is None
            assert overall["phases"]["ecart"] == {"deals": 20, "loss": 6.0, "total": 120.0, "sizes": {"3": 20}}
            assert overall["phases"]["bid"]["deals"] == 70 and overall["phases"]["bid"]["total"] == 12.5
            assert overall["sizes"] == {"3": {"deals": 20, "loss": 6.0}, "4": {"deals": 50, "loss": 2.4}}
            assert recent["sizes"] == {"4": {"deals": 50, "loss": 2.4}}
            # beside each phase played lately, the robots' levels at four players (the committed benchmark's
            # figures) and the one nearest Ann's; none beside the écart, which she did not play lately
            figures = level_figures()
            assert set(figures) >= {"beginner", "club", "expert"}
            robots = found["robots"]
            assert set(robots) == {"bid", "defence", "all"}
            for phase, mine_lost in (("defence", recent["phases"]["defence"]["loss"]), ("all", recent["loss"])):
                levels = {level: round(sizes["4"][phase][0], 1) for level, sizes in figures.items()}
                assert robots[phase]["levels"] == levels
                assert robots[phase]["near"] == min(levels, key=lambda x: (abs(levels[x] - mine_lost), levels[x]))
            # the trend: the last deals in time order, each the average of up to 10
            assert len(found["trend"]) == 70 and found["trend"][0] == [1000.0, 6.0] and found["trend"][-1][1] == 2.2
            # the habits over all 70 deals: the écart (120), the leads in defence (107), the bids (12.5)
            habits = found["habits"]
            assert [h["habit"] for h in habits] == ["ecart", "defence_lead", "bid_high"]
            assert habits[1]["worst"] == {"game": "g55", "deal": 1, "seat": 1, "loss": 9.0}
            assert habits[1]["decisions"] == habits[1]["deals"] == 50 and habits[1]["loss"] == 107.0

            # private: Bob, or anyone logged out, is refused; Ann shows them, then everyone sees them
            assert (await bob.get("/api/players/Ann/insights")).json()["error"]["code"] == "insights_private"
            async with httpx.AsyncClient(base_url=base, headers={"Origin": base}) as nobody:
                assert (await nobody.get("/api/players/Ann/insights")).status_code == 403
                assert (await nobody.post("/api/insights", json={"public": True})).status_code == 401
                assert (await ann.post("/api/insights", json={"public": "yes"})).status_code == 400
                assert (await ann.post("/api/insights", json={"public": True})).json() == {"public": True}
                seen = (await nobody.get("/api/players/Ann/insights")).json()
                assert seen["own"] is False and seen["public"] is True and seen["main"] == "defence"
                assert (await bob.get("/api/players/Ann/insights")).status_code == 200
                assert (await ann.post("/api/insights", json={"public": False})).status_code == 200
                assert (await bob.get("/api/players/Ann/insights")).status_code == 403
            # Bob has none yet: his own insights say so; nobody of that name: 404
            empty = (await bob.get("/api/players/Bob/insights")).json()
            assert (
                empty["all"]["deals"] == 0 and empty["main"] is None and empty["habits"] == [] and empty["trend"] == []
            )
            assert (await bob.get("/api/players/Nobody/insights")).status_code == 404
