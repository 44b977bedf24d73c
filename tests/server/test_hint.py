"""The hint at a table (issue 46, item 4): the expert's choice for the asker's seat and why, at practice tables
only, rate-limited, from what the asking seat may know and nothing else."""

from __future__ import annotations

import dataclasses

from atout.bots.hint import hint
from atout.engine import Deal
from atout.server.features.analysis import SEED

from .helpers import SQLITE_ONLY, Client, quick_config, running_server
from .test_tables import table_with_robots

FACTOR = 1  # the tests' hints search the expert's own worlds: the same code, a quarter of a second less each


def config(**changes):
    return dataclasses.replace(quick_config(), analysis_worlds=FACTOR, **changes)


async def ask(client: Client, table: str, seq: int | None = None) -> dict:
    """A hint asked at the table as this client last saw it: its answer, or the error."""
    ref = f"hint{len(client.frames)}"
    await client.send(
        {"type": "hint", "table": table, "seq": client.seqs.get(table, 0) if seq is None else seq, "ref": ref}
    )
    while True:
        answer = await client.recv()
        if answer.get("ref") == ref:
            return answer


async def to_my_turn(client: Client, table: str) -> None:
    await client.request({"type": "start", "table": table})
    await client.until_a_person_acts()
    await client.until_seat_acts(0)  # Ann's: a deal the robots void ends with nobody to act (seen once, to_act 3)


@SQLITE_ONLY
async def test_a_hint_at_a_practice_table_is_a_legal_choice_with_its_reasons(db_url: str) -> None:
    async with running_server(db_url, config()) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, competitive=False)
        await to_my_turn(ann, table)
        for _turn in range(6):  # bids and cards: every answer legal, and the one the search of that seat gives
            room = server.hub.rooms[table]
            deal = room.table.deal
            expected = hint(deal.observation(0), len(deal.history), SEED, FACTOR).to_json()
            answer = await ask(ann, table)
            assert answer["type"] == "hint", answer
            assert answer["seq"] == ann.seq and answer["table"] == table
            assert {k: answer[k] for k in expected} == expected
            assert answer["reasons"] and all(
                r["kind"] in ("gain", "noise", "even", "petit", "wins", "voids", "only") for r in answer["reasons"]
            )
            action = answer["action"]
            legal = ann.state["deal"]["legal"]
            assert action in legal or "discard" in action or "poignee" in action, (action, legal)
            await ann.request({"type": "act", "table": table, "action": action})
            await ann.until_a_person_acts()
            if ann.state["deal"] is None or ann.state["deal"]["to_act"] != 0:
                break


@SQLITE_ONLY
async def test_no_hint_at_a_competitive_table_nor_out_of_turn_nor_for_a_spectator(db_url: str) -> None:
    async with running_server(db_url, config()) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann)  # competitive by default
        await to_my_turn(ann, table)
        refused = await ask(ann, table)
        assert refused["type"] == "error" and refused["code"] == "hint_refused"
        assert "competitive" in refused["message"]

        practice = await table_with_robots(ann, competitive=False)
        await to_my_turn(ann, practice)
        stale = await ask(ann, practice, ann.seq - 1)
        assert stale["code"] == "not_your_turn" and stale["seq"] == ann.seq
        bob = await Client.connect(server.url, "Bob")
        await bob.send({"type": "join", "table": practice})
        await bob.expect("table")
        watching = await ask(bob, practice, bob.seq)
        assert watching["code"] == "not_seated"


@SQLITE_ONLY
async def test_no_hint_at_a_daily_deal_or_a_tournament_table(db_url: str) -> None:
    async with running_server(db_url, config()) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, competitive=False)
        await to_my_turn(ann, table)
        room = server.hub.rooms[table]
        room.table.daily = {"day": "2026-12-02", "deals": 1}  # what a daily deal's table carries
        daily = await ask(ann, table)
        assert daily["code"] == "hint_refused" and "daily deal" in daily["message"]
        room.table.daily = {"tournament": "t1", "round": 1, "deals": 1}  # and a tournament round's
        tournament = await ask(ann, table)
        assert tournament["code"] == "hint_refused" and "tournament" in tournament["message"]


@SQLITE_ONLY
async def test_hints_are_limited_per_person_per_minute(db_url: str) -> None:
    async with running_server(db_url, config()) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, competitive=False)
        await to_my_turn(ann, table)
        answers = [await ask(ann, table) for _ in range(11)]
        assert [a["type"] for a in answers[:10]] == ["hint"] * 10
        assert answers[10]["code"] == "rate_limited" and answers[10]["budget"] == "hint"
        server.clock.advance(60)
        assert (await ask(ann, table))["type"] == "hint"


@SQLITE_ONLY
async def test_the_hint_knows_only_what_the_asking_seat_may_know(db_url: str) -> None:
    """The same answer whatever the others hold: the hint at Ann's first bid is the hint of a deal where two
    other seats' hands are swapped (Ann sees the same), so no hidden card went into it."""
    async with running_server(db_url, config()) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, competitive=False)
        await to_my_turn(ann, table)
        deal = server.hub.rooms[table].table.deal
        assert deal.phase == "bidding" and deal.to_act == 0
        answer = await ask(ann, table)
        hands = list(deal.initial_hands)
        hands[1], hands[2] = hands[2], hands[1]
        swapped = Deal(deal.rules, deal.dealer, hands, deal.initial_dog)
        for seat, action in deal.history:  # the robots' bids before Ann's: legal whatever they hold
            swapped.apply(action, seat=seat)
        assert swapped.observation(0) == deal.observation(0) and swapped.initial_hands != deal.initial_hands
        assert hint(swapped.observation(0), len(swapped.history), SEED, FACTOR).to_json() == {
            k: answer[k] for k in ("action", "reasons", "worlds", "poignee_hidden")
        }
