"""A new game fetches its people (issue 47; docs/server.md, "A new game fetches its people"): a person whose
page is elsewhere on the site when a game starts (``away``), or who has no page at the table at all (a
tournament's round), is told wherever they are (``called``, ``tournament``) and has ``ARRIVE_WITHIN`` to come
before their turn's clock runs out or a robot plays for them; their page at the table gives them a whole turn
from then; one who never comes abandons at the game's end, ranked last, not as if they had played."""

from __future__ import annotations

import contextlib

import pytest

from atout.server.clock import FakeClock
from atout.server.table.seats import ARRIVE_WITHIN

from .helpers import Client, eventually, first_legal, quick_config, running_server, site_page
from .test_daily import _account
from .test_tournaments import START, _get, _post, _status, _waiting, dealt_in_full, fixed_seed

TURN = 15


async def _two_at_a_table(server) -> tuple[Client, Client, str]:
    """Ann's table of three (Bob sat, a robot in the last seat), a turn clock of ``TURN``, one deal."""
    ann = await Client.connect(server.url, "Ann")
    bob = await Client.connect(server.url, "Bob")
    await ann.send({"type": "create", "players": 3, "options": {"turn_seconds": TURN, "deals": 1}})
    table = (await ann.expect("master"))["table"]
    await ann.settle()
    await bob.send({"type": "join", "table": table})
    await bob.expect("table")
    sat = await bob.request({"type": "sit", "table": table, "seat": 1})
    assert sat["type"] == "event", sat
    await ann.settle()
    answer = await ann.request({"type": "robot", "table": table, "seat": 2, "level": "random"})
    assert answer["type"] == "event", answer
    await bob.settle()
    return ann, bob, table


async def _until_bobs_turn(server, ann: Client, table: str) -> None:
    """Ann plays her turns, the robot's pace passes, until the deal waits for Bob (seat 1)."""
    await ann.settle()
    while ann.state["deal"]["to_act"] != 1:
        before = ann.seq
        if ann.state["deal"]["to_act"] == 0:
            await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        else:
            server.clock.advance(1)  # the robot's pace
        while ann.seq == before:
            await ann.recv()


async def test_a_game_started_while_a_person_is_elsewhere_calls_them_and_waits_for_them(db_url: str) -> None:
    async with running_server(db_url, quick_config(robot_pace=1.0)) as server:
        ann, bob, table = await _two_at_a_table(server)
        await bob.send({"type": "away", "table": table})  # Bob opened his profile: his page still hears the table
        await bob.settle()
        await ann.request({"type": "start", "table": table})
        called = await bob.expect("called")
        assert called == {"type": "called", "table": table}
        assert not [f for f in ann.frames if f["type"] == "called"]  # the one who started it is there
        await _until_bobs_turn(server, ann, table)
        clock = ann.state["clock"]
        assert clock["seat"] == 1 and clock["seconds_left"] > TURN  # his turn waits for him to arrive
        seq = ann.seq
        server.clock.advance(TURN + 1)
        await ann.settle()
        assert ann.seq == seq and not ann.state["seats"][1]["automatic"]  # the table's own clock would have run out
        await bob.send({"type": "join", "table": table, "last_seq": bob.seq})  # back at the table
        await bob.expect("table")
        await ann.expect("table")  # everyone sees his clock start afresh
        assert ann.state["clock"]["seat"] == 1 and ann.state["clock"]["seconds_left"] == TURN
        server.clock.advance(TURN + 1)  # now it runs as anyone's
        await ann.expect("timeout", seat=1)
        await ann.expect("automatic", seat=1, on=True)


async def test_a_person_who_never_comes_times_out_after_the_arrival_time_and_abandons_at_the_end(db_url: str) -> None:
    async with running_server(db_url, quick_config(robot_pace=1.0)) as server:
        ann, bob, table = await _two_at_a_table(server)
        await bob.send({"type": "away", "table": table})
        await bob.settle()
        await ann.request({"type": "start", "table": table})
        await _until_bobs_turn(server, ann, table)
        server.clock.advance(ARRIVE_WITHIN)
        await ann.expect("timeout", seat=1)  # given his minute, never came: automatic
        while not (ann.state["game"] and ann.state["game"]["over"]):
            before = ann.seq
            if ann.state["deal"] and ann.state["deal"]["to_act"] == 0 and ann.state["status"] == "playing":
                await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
            else:
                server.clock.advance(1)
            while ann.seq == before:
                await ann.recv()
        kinds = [f["event"] for f in ann.frames if f["type"] == "event"]
        left = [e for e in kinds if e["type"] == "abandon"]
        assert [(e["seat"], e["why"]) for e in left] == [(1, "never came")]
        end = next(e for e in kinds if e["type"] == "game_end")
        assert end["abandoned"] == [1]


async def test_a_person_at_the_table_plays_on_the_tables_own_clock(db_url: str) -> None:
    async with running_server(db_url, quick_config(robot_pace=1.0)) as server:
        ann, bob, table = await _two_at_a_table(server)
        await ann.request({"type": "start", "table": table})  # Bob's page shows the table: nobody is called
        await _until_bobs_turn(server, ann, table)
        assert ann.state["clock"]["seconds_left"] <= TURN
        await bob.settle()
        assert not [f for f in bob.frames if f["type"] == "called"]
        server.clock.advance(TURN + 1)
        await ann.expect("timeout", seat=1)


async def test_a_tournaments_people_have_their_minute_to_come_and_who_never_comes_is_ranked_absent(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_seed(monkeypatch, dealt_in_full(4, rounds=1))  # its deal played, not voided as dealt
    clock = FakeClock(START)
    async with (
        running_server(db_url, quick_config(), clock) as server,
        site_page(f"http://127.0.0.1:{server.port}") as http,
    ):
        names = ["Ann", "Bob", "Cyd", "Dan", "Eve"]
        cookies = {n: await _account(http, n) for n in names}
        made = await _post(http, "/api/tournaments", cookies["Ann"], {"deals": 1, "players": 4, "size": 5})
        tid = made.json()["id"]
        eve = await Client.connect(server.url, "Eve", cookie=cookies["Eve"])  # on the site (any page)
        for n in names:
            answer = await _post(http, f"/api/tournaments/{tid}/register", cookies[n])
        assert answer.json()["status"] == "running", answer.json()
        told = await eve.expect("tournament")
        ids = [t["table"] for t in answer.json()["tables"]]
        await eventually(lambda: all(_waiting(server, i) for i in ids), "round 0's tables are open")
        first = server.hub.rooms[ids[0]].table
        seq = first.seq
        clock.advance(11)  # the old absence's time: nobody is absent yet, no robot plays for anyone
        await eve.settle()
        assert not any(s.absent for s in first.seats) and first.seq == seq  # nothing moved at the table
        await eve.send({"type": "join", "table": told["table"]})  # Eve comes (her page took her there)
        await eve.expect("table")
        assert eve.state["you"] == 0 and eve.state["seats"][0]["present"]
        clock.advance(ARRIVE_WITHIN)  # the four others never come: robots play for them
        # robots play for the four (their seats emptied as the game ends: who never came abandons)
        await eventually(lambda: first.status == "closed", "the away's table is played through after their minute")

        async def eve_plays_until_the_end() -> bool:
            """Eve plays her turns as they come (her turn may have come before the minute passed, her clock
            then ran out and a robot plays for her; or after it, with her whole turn ahead: the robots'
            thinking decides which), until the tournament ends."""
            if await _status(http, tid, "finished"):
                return True
            state = eve.state
            deal = state["deal"] if state else None
            if state and state["status"] == "playing" and deal and deal["to_act"] == state["you"] and deal["legal"]:
                await eve.request({"type": "act", "table": told["table"], "action": first_legal(state)})
            else:
                with contextlib.suppress(TimeoutError):
                    await eve.recv(timeout=0.2)  # the next frame, or look at the tournament again
            return False

        await eventually(eve_plays_until_the_end, "the tournament ends", within=240)  # a hang's bound
        final = await _get(http, f"/api/tournaments/{tid}")
        absent = {p["name"]: p["abandoned"] for p in final["ranking"]}
        assert absent == {"Ann": True, "Bob": True, "Cyd": True, "Dan": True, "Eve": False}
        assert final["ranking"][0]["name"] == "Eve"  # the one who came is ranked first; the others after her
        await eve.close()
