"""Tables through real WebSocket clients on a real server and store (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import hashlib

import pytest

from atout.engine.fairness import verify
from atout.server.clock import FakeClock

from .helpers import SQLITE_ONLY, Client, eventually, first_legal, quick_config, running_server


async def play_until(client: Client, done, limit: int = 2000, choose=first_legal) -> None:
    """Answer every turn of ``client``'s seat with ``choose(state)`` (a legal action) until ``done(client)``."""
    for _ in range(limit):
        if done(client):
            return
        state = client.state
        deal = state and state["deal"]
        if deal and deal["to_act"] == state["you"] and deal["legal"] and state["vote"] is None:
            answer = await client.request({"type": "act", "table": state["id"], "action": choose(state)})
            assert answer["type"] != "error", answer
        else:
            await client.recv()
    raise AssertionError("the game did not end")


def game_over(client: Client) -> bool:
    return any(f.get("event", {}).get("type") == "game_end" for f in client.frames)


async def table_with_robots(client: Client, players: int = 4, level: str = "heuristic", **options) -> str:
    await client.send({"type": "create", "players": players, "options": options})
    created = await client.expect("master")
    table = created["table"]
    await client.settle()
    for seat in range(1, players):
        answer = await client.request({"type": "robot", "table": table, "seat": seat, "level": level})
        assert answer["event"]["type"] == "robot", answer
    return table


@pytest.mark.parametrize(
    ("db_url", "players"), [("sqlite", 3), ("sqlite", 4), ("sqlite", 5), ("postgresql", 4)], indirect=["db_url"]
)  # the table size changes no SQL: PostgreSQL stores one size's game
async def test_a_whole_game_against_robots(db_url: str, players: int) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, players, deals=2)
        await ann.request({"type": "start", "table": table})
        await play_until(ann, game_over)
        end = next(f for f in ann.frames if f.get("event", {}).get("type") == "game_end")["event"]
        sheet = ann.state["game"]["sheet"]
        counted = [line for line in sheet if not line["void"]]
        assert len(counted) == 2
        assert sum(end["totals"]) == 0
        assert end["totals"] == [sum(line["scores"][s] for line in counted) for s in range(players)]
        assert ann.state["status"] == "waiting" and ann.state["game"]["outcome"] == "finished"
        # every deal was committed to before it was dealt, and its revealed seed checks out
        starts = [f["event"] for f in ann.frames if f.get("event", {}).get("type") == "deal_start"]
        ends = [f["event"] for f in ann.frames if f.get("event", {}).get("type") == "deal_end"]
        assert len(starts) == len(ends) == len(sheet)
        for start, finish in zip(starts, ends, strict=True):
            assert "seed" not in start and "_seed" not in start
            assert hashlib.sha256(finish["seed"].encode()).hexdigest() == start["commitment"]
            assert verify(finish["record"], start["commitment"]).passed
        # and the game is stored once, finished
        games = server.hub.store.games(table)
        assert [g.status for g in games] == ["finished"]
        # another game may start at the same table
        answer = await ann.request({"type": "start", "table": table})
        assert answer["event"]["type"] == "game_start"


class EarlyClock(FakeClock):
    """A clock whose sleepers wake a little before their time, as an event loop's timers may."""

    async def sleep_until(self, when: float) -> None:
        await super().sleep_until(when - 0.01)


@SQLITE_ONLY
async def test_a_clock_that_wakes_early_still_starts_the_next_deal(db_url: str) -> None:
    config = quick_config(deal_pause=5.0)
    async with running_server(db_url, config, clock=EarlyClock()) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, level="random", deals=2, turn_seconds=0)
        await ann.request({"type": "start", "table": table})
        await play_until(ann, lambda c: any(f.get("event", {}).get("type") == "deal_end" for f in c.frames))
        await ann.settle()

        def starts() -> int:
            return sum(1 for f in ann.frames if f.get("event", {}).get("type") == "deal_start")

        before = starts()
        server.clock.advance(4.995)  # the timer wakes (early) and finds nothing due yet
        await ann.settle()
        assert starts() == before
        server.clock.advance(0.01)  # now the pause is over: the timer must still be watching
        await ann.expect("deal_start", timeout=10.0)


@SQLITE_ONLY
async def test_stale_and_repeated_actions_are_refused(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, level="random")
        await ann.request({"type": "start", "table": table})
        await ann.until_seat_acts(0)
        await ann.settle()
        seq = ann.seq
        action = first_legal(ann.state)
        before = server.hub.rooms[table].table.snapshot()
        stale = await ann.request({"type": "act", "table": table, "action": action, "seq": seq - 1})
        assert stale["type"] == "error" and stale["code"] == "stale" and stale["seq"] == seq
        assert server.hub.rooms[table].table.snapshot() == before
        ok = await ann.request({"type": "act", "table": table, "action": action, "seq": seq})
        assert ok["type"] == "event" and ok["event"]["type"] == "action" and ok["seq"] == seq + 1
        again = await ann.request({"type": "act", "table": table, "action": action, "seq": seq})
        assert again["type"] == "error" and again["code"] == "stale"


@SQLITE_ONLY
async def test_illegal_card_named_and_nothing_changes(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, level="random")
        await ann.request({"type": "start", "table": table})
        while not (ann.state["deal"]["to_act"] == 0 and ann.state["deal"]["phase"] == "play"):
            if ann.state["deal"]["to_act"] == 0:
                await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
            else:
                await ann.recv()
            if game_over(ann):
                pytest.skip("the deal ended before the person played a card")
        await ann.settle()
        # the cards she may play (her first card may also be offered a poignée to show, with no "play")
        legal = {c["play"] for c in ann.state["deal"]["legal"] if "play" in c}
        held = set(ann.state["deal"]["hand"])
        before = server.hub.rooms[table].table.snapshot()
        not_mine = next(c for c in ("KS", "KH", "KD", "KC", "T21", "T1", "EX", "1S", "1C") if c not in held)
        answer = await ann.request({"type": "act", "table": table, "action": {"play": not_mine}})
        assert answer["type"] == "error" and answer["code"] == "illegal" and answer["rule"]
        assert not_mine in answer["message"] or "hand" in answer["message"]
        if held - legal:
            refused = sorted(held - legal)[0]
            answer = await ann.request({"type": "act", "table": table, "action": {"play": refused}})
            assert answer["type"] == "error" and answer["code"] == "illegal"
        assert server.hub.rooms[table].table.snapshot() == before


async def test_reconnection_gets_what_was_missed(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, level="random")
        bob = await Client.connect(server.url, "Bob")
        await bob.send({"type": "join", "table": table})
        await bob.expect("table")
        last = bob.seq
        token = bob.token
        await bob.close()
        await ann.request({"type": "start", "table": table})
        await ann.until_a_person_acts()  # the robots' moves up to Ann's turn: what Bob will have missed
        bob = await Client.connect(server.url, "Bob", token=token)
        await bob.send({"type": "join", "table": table, "last_seq": last})
        await bob.expect("table")
        missed = [f["seq"] for f in bob.frames if f["type"] == "event"]
        # every event from the last Bob saw to the state he is given, none twice, none skipped: the state's
        # number, not Ann's, bounds them (under load a robot's move can land between Ann's read and Bob's join)
        assert missed == list(range(last + 1, bob.state["seq"] + 1))
        assert bob.state["seq"] >= ann.seq > last
        assert bob.state["deal"]["hand"] == []  # a spectator holds no hand


@SQLITE_ONLY
async def test_master_succession_and_seats(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 3})
        table = (await ann.expect("master"))["table"]
        await ann.settle()
        bob = await Client.connect(server.url, "Bob")
        await bob.send({"type": "join", "table": table})
        await bob.expect("table")
        answer = await bob.request({"type": "sit", "table": table, "seat": 0})
        assert answer["type"] == "error" and answer["code"] == "seat_taken"
        answer = await bob.request({"type": "sit", "table": table, "seat": 2})
        assert answer["event"]["type"] == "sat"
        answer = await bob.request({"type": "robot", "table": table, "seat": 1, "level": "random"})
        assert answer["type"] == "error" and answer["code"] == "not_master"
        await ann.settle()
        await ann.request({"type": "leave", "table": table})
        await bob.expect("master", seat=2)
        assert bob.state["master"] == 2


@SQLITE_ONLY
async def test_options_checked_and_marked_changed(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 4, "options": {"turn_seconds": 7}})
        error = await ann.expect("error")
        assert error["code"] == "bad_option" and "turn_seconds" in error["message"]
        await ann.send({"type": "create", "players": 4})
        table = (await ann.expect("master"))["table"]
        await ann.settle()
        answer = await ann.request(
            {"type": "options", "table": table, "options": {"deals": 3, "rules": {"petit_sec": "holder_may_play"}}}
        )
        assert answer["event"]["changed"] == ["deals", "rules"]
        await ann.settle()
        assert ann.state["changed"] == [] and ann.state["options"]["deals"] == 3  # her own change: no news to her
        await ann.send({"type": "seen", "table": table})
        state = await ann.expect("table")
        assert state["state"]["changed"] == []
        for bad in ({"deals": 0}, {"bet": 5, "competitive": False}, {"rules": {"petit_sec": "never"}}, {"colour": 1}):
            answer = await ann.request({"type": "options", "table": table, "options": bad})
            assert answer["type"] == "error" and answer["code"] == "bad_option", bad


@SQLITE_ONLY
async def test_turn_clock_plays_for_the_seat_and_automatic_mode(db_url: str) -> None:
    async with running_server(db_url, quick_config(robot_pace=1.0)) as server:  # robots wait for the clock
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, level="random", turn_seconds=15)
        await ann.request({"type": "start", "table": table})
        while ann.state["deal"]["to_act"] != 0:
            before = ann.seq
            server.clock.advance(1)  # the robot's pace is over: its move comes (read it, however late)
            while ann.seq == before:
                await ann.recv()
        assert ann.state["clock"]["seat"] == 0 and ann.state["clock"]["turn_seconds"] == 15
        seq = ann.seq
        server.clock.advance(14)
        await ann.settle()
        assert ann.seq == seq  # not yet
        server.clock.advance(2)
        await ann.expect("timeout", seat=0)
        await ann.expect("automatic", seat=0, on=True)
        seen = ann.seq  # the page's last event when the person reaches for "I'm back"
        server.clock.advance(1)
        await ann.expect("action", seat=0, by="robot")
        assert ann.state["seats"][0]["automatic"]
        await ann.settle()
        # back carries seq as every table request (the page adds it to each); fields it does not take
        # are refused, and so is a seq the table has not reached
        for wrong, code, says in [
            ({}, "malformed", "seq: Field required"),
            ({"seq": seen, "seat": 0}, "malformed", "seat: Extra inputs"),
            ({"seq": ann.seq + 1}, "stale", ""),
        ]:
            await ann.send({"type": "back", "table": table, **wrong})
            refused = await ann.expect("error")
            assert refused["code"] == code and says in refused["message"], refused
        assert ann.state["seats"][0]["automatic"]
        answer = await ann.request({"type": "back", "table": table, "seq": seen})  # the robot played since: not stale
        assert answer["type"] == "event" and answer["event"] == {
            "type": "automatic",
            "at": answer["event"]["at"],
            "seat": 0,
            "on": False,
        }


async def test_absence_robot_then_return_then_abandonment(db_url: str) -> None:
    config = quick_config(absent_after=10, abandon_after=180, robot_pace=1.0)  # robots wait for the clock
    async with running_server(db_url, config) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, level="random", turn_seconds=0)
        await ann.request({"type": "start", "table": table})
        await ann.settle()
        token = ann.token
        await ann.close()
        watcher = await Client.connect(server.url, "Watcher")
        await watcher.send({"type": "join", "table": table})
        await watcher.expect("table")
        server.clock.advance(9)
        await watcher.settle()
        assert watcher.state["seats"][0]["present"] and not watcher.state["seats"][0]["connected"]
        server.clock.advance(2)
        await watcher.expect("absent", seat=0)
        await watcher.settle()
        assert not watcher.state["seats"][0]["present"]
        ann = await Client.connect(server.url, "Ann", token=token)
        await ann.send({"type": "join", "table": table, "last_seq": 0})
        await ann.expect("present", seat=0)
        assert ann.state["you"] == 0 and ann.state["seats"][0]["present"] and ann.state["seats"][0]["connected"]
        await ann.close()
        server.clock.advance(181)
        await watcher.expect("abandon", seat=0)
        await watcher.settle()


@SQLITE_ONLY
async def test_a_lost_connection_is_seen_at_once_and_its_return_too(db_url: str) -> None:
    """Before the absence clock runs out, the others see the seat's person disconnected, then back."""
    config = quick_config(absent_after=10, abandon_after=180, robot_pace=1.0)
    async with running_server(db_url, config) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, level="random", turn_seconds=0)
        watcher = await Client.connect(server.url, "Watcher")
        await watcher.send({"type": "join", "table": table})
        await watcher.expect("table")
        assert watcher.state["seats"][0]["connected"]
        token = ann.token
        await ann.close()
        await watcher.expect("table")  # no clock advanced: the news is immediate
        assert not watcher.state["seats"][0]["connected"] and watcher.state["seats"][0]["present"]
        ann = await Client.connect(server.url, "Ann", token=token)
        await ann.send({"type": "join", "table": table})
        await watcher.expect("table")
        assert watcher.state["seats"][0]["connected"]
        await ann.expect("table")
        assert ann.state["you"] == 0
        await ann.close()


async def test_amicable_cancel(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann, bob, table = await two_people_and_a_robot(server)
        # a refusal ends the vote
        answer = await ann.request({"type": "cancel", "table": table})
        assert answer["event"]["type"] == "cancel_proposed"
        await bob.settle()
        answer = await bob.request({"type": "vote", "table": table, "accept": False})
        assert answer["event"]["type"] == "vote"
        await ann.expect("cancel_end", cancelled=False)
        # the same person may not propose again in the same deal; the other may; time runs out after 60 s
        await ann.until_a_person_acts()
        again = await ann.request({"type": "cancel", "table": table})
        assert again["type"] == "error" and again["code"] == "vote_again"
        await bob.until_a_person_acts()
        await bob.request({"type": "cancel", "table": table})
        server.clock.advance(61)
        await ann.expect("cancel_end", cancelled=False)
        # Bob too must wait for the next deal
        await bob.until_a_person_acts()
        answer = await bob.request({"type": "cancel", "table": table})
        assert answer["type"] == "error" and answer["code"] == "vote_again"


async def test_alone_with_robots_a_cancel_is_refused_and_leaving_is_an_abandonment(db_url: str) -> None:
    """Robots do not vote: one person alone with them could erase a lost game at will. The proposal is
    refused and changes nothing; the way out is to leave, recorded as an abandonment (issue 34)."""
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, level="random", turn_seconds=0, deals=3)
        await ann.request({"type": "start", "table": table})
        await ann.until_a_person_acts()
        seq = ann.seqs[table]
        answer = await ann.request({"type": "cancel", "table": table})
        assert answer["type"] == "error" and answer["code"] == "needs_two_people", answer
        assert "two people" in answer["message"] and "abandonment" in answer["message"]
        await ann.settle()
        assert ann.seqs[table] == seq and ann.state["status"] == "playing" and ann.state["vote"] is None
        left = await ann.request({"type": "leave", "table": table})
        assert left["event"]["type"] == "abandon" and left["event"]["seat"] == 0
        assert [f["event"]["type"] for f in ann.batch][-1] == "closed"  # deserted, as any game every person left
        assert [g.status for g in server.hub.store.games(table)] == ["deserted"]  # no cancelled game: an abandonment


async def test_two_people_agreeing_record_a_cancelled_game(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann, bob, table = await two_people_and_a_robot(server)
        answer = await ann.request({"type": "cancel", "table": table})
        assert answer["event"]["type"] == "cancel_proposed" and answer["event"]["voters"] == [0, 1]
        await bob.settle()
        accepted = await bob.request({"type": "vote", "table": table, "accept": True})
        assert accepted["event"]["type"] == "vote"
        assert [f["event"]["type"] for f in bob.batch] == ["vote", "cancel_end"]
        end = bob.batch[-1]["event"]
        assert end["cancelled"]
        # the deal being played: the last one dealt (a petit sec voids a deal as it is dealt, and it is dealt again)
        start = [f["event"] for f in bob.frames if f.get("event", {}).get("type") == "deal_start"][-1]
        assert verify(end["record"], start["commitment"]).passed  # the unfinished deal's seed is revealed
        assert bob.state["status"] == "waiting" and bob.state["game"]["outcome"] == "cancelled"
        assert [g.status for g in server.hub.store.games(table)] == ["cancelled"]


@SQLITE_ONLY
async def test_a_vote_left_by_the_other_person_fails(db_url: str) -> None:
    """Two people and a robot: Ann proposes, Bob leaves before voting. One person is left: the vote
    fails (it does not pass on Ann's vote alone), and the game goes on."""
    async with running_server(db_url) as server:
        ann, bob, table = await two_people_and_a_robot(server)
        await ann.request({"type": "cancel", "table": table})
        await bob.settle()
        await bob.request({"type": "leave", "table": table})
        end = await ann.expect("cancel_end")
        assert end["event"]["cancelled"] is False and end["event"]["why"] == "fewer than two people present"
        assert ann.state["status"] == "playing" and ann.state["vote"] is None
        again = {"code": "stale"}
        while again.get("code") == "stale":  # the robot plays Bob's seat meanwhile
            await ann.settle()
            again = await ann.request({"type": "cancel", "table": table})
        assert again["type"] == "error" and again["code"] in ("needs_two_people", "vote_again"), again


@SQLITE_ONLY
async def test_a_vote_fails_when_the_other_person_goes_away(db_url: str) -> None:
    """Bob's connection drops during the vote: once he is counted absent, one person is left and the
    vote fails at once (no waiting for the minute to run out)."""
    async with running_server(db_url) as server:
        ann, bob, table = await two_people_and_a_robot(server)
        await ann.request({"type": "cancel", "table": table})
        await bob.close()
        await ann.expect("table")  # the news of his lost connection
        server.clock.advance(11)  # past ABSENT_AFTER, well before the vote's minute
        end = await ann.expect("cancel_end")
        assert end["event"]["cancelled"] is False and end["event"]["why"] == "fewer than two people present"


async def two_people_and_a_robot(server) -> tuple[Client, Client, str]:
    """Ann and Bob at a 3-player table with a robot, playing, the table waiting for one of them."""
    ann = await Client.connect(server.url, "Ann")
    await ann.send({"type": "create", "players": 3, "options": {"turn_seconds": 0, "deals": 3}})
    table = (await ann.expect("master"))["table"]
    await ann.settle()
    bob = await Client.connect(server.url, "Bob")
    await bob.send({"type": "join", "table": table})
    await bob.expect("table")
    await bob.request({"type": "sit", "table": table, "seat": 1})
    await ann.settle()
    await ann.request({"type": "robot", "table": table, "seat": 2, "level": "random"})
    await ann.request({"type": "start", "table": table})
    await ann.until_a_person_acts()
    await bob.until_a_person_acts()
    return ann, bob, table


@SQLITE_ONLY
async def test_chat_is_text_and_rate_limited(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 4})
        table = (await ann.expect("master"))["table"]
        await ann.settle()
        await ann.send({"type": "chat", "table": table, "text": "<b>hi</b> & <script>x()</script>"})
        said = await ann.expect("chat")
        assert said["event"]["text"] == "<b>hi</b> & <script>x()</script>"
        for _ in range(4):
            await ann.send({"type": "chat", "table": table, "text": "again"})
            await ann.expect("chat")
        await ann.send({"type": "chat", "table": table, "text": "one too many"})
        error = await ann.expect("error")
        assert error["code"] == "rate_limited"
        await ann.send({"type": "chat", "table": table, "text": "x" * 301})
        error = await ann.expect("error")
        assert error["code"] == "malformed" and "text" in error["message"]


async def test_private_tables_and_invitations(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        bob = await Client.connect(server.url, "Bob")
        eve = await Client.connect(server.url, "Eve")
        for c in (bob, eve):
            await c.send({"type": "lobby"})
            await c.expect("lobby")
        await ann.send({"type": "create", "players": 3, "options": {"private": True}})
        table = (await ann.expect("master"))["table"]
        await ann.settle()
        await eve.settle()
        assert not any(f.get("table", {}).get("id") == table for f in eve.frames if f["type"] == "lobby_table")
        await eve.send({"type": "join", "table": table})
        assert (await eve.expect("error"))["code"] == "private"
        await ann.send({"type": "invite", "table": table, "name": "bob"})
        invitation = await bob.expect("invitation")
        assert invitation == {"type": "invitation", "table": table, "from": "Ann"}
        await bob.send({"type": "join", "table": table})
        await bob.expect("table")
        answer = await bob.request({"type": "sit", "table": table, "seat": 1})
        assert answer["event"]["type"] == "sat"
        await eve.send({"type": "join", "table": table})
        assert (await eve.expect("error"))["code"] == "private"
        # the invitation went to that Bob: another guest taking the name once he has gone is not admitted
        await bob.close()
        await eventually(lambda: not server.hub.identity.guests_here("Bob"), "Bob's connection did not close")
        impostor = await Client.connect(server.url, "bob")
        await impostor.send({"type": "join", "table": table})
        assert (await impostor.expect("error"))["code"] == "private"
        await ann.send({"type": "invite", "table": table, "name": "Nobody_here"})
        assert (await ann.expect("error"))["code"] == "no_player"


@SQLITE_ONLY
async def test_a_chat_line_does_not_make_a_card_on_its_way_stale(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, level="random", turn_seconds=0)
        await ann.request({"type": "start", "table": table})
        await ann.until_seat_acts(0)
        await ann.settle()
        seq = ann.seq
        eve = await Client.connect(server.url, "Eve")
        await eve.send({"type": "join", "table": table})
        await eve.expect("table")
        await eve.send({"type": "chat", "table": table, "text": "hello all"})
        await ann.expect("chat")
        answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state), "seq": seq})
        assert answer["type"] == "event" and answer["event"]["type"] == "action"


@SQLITE_ONLY
async def test_spectators_may_be_refused(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 3, "options": {"spectators": False}})
        table = (await ann.expect("master"))["table"]
        eve = await Client.connect(server.url, "Eve")
        await eve.send({"type": "join", "table": table})
        assert (await eve.expect("error"))["code"] == "no_spectators"


@SQLITE_ONLY
async def test_the_lobby_is_live(db_url: str) -> None:
    async with running_server(db_url) as server:
        eve = await Client.connect(server.url, "Eve")
        await eve.send({"type": "lobby"})
        assert (await eve.expect("lobby"))["tables"] == []
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 5, "options": {"deals": 3}})
        table = (await ann.expect("master"))["table"]
        line = await eve.expect("lobby_table")
        assert line["table"]["id"] == table and line["table"]["players"] == 5
        assert line["table"]["options"]["deals"] == 3 and line["table"]["seats"][0] == "Ann"
        await ann.settle()
        await ann.request({"type": "robot", "table": table, "seat": 3, "level": "random"})
        while True:
            line = await eve.expect("lobby_table")
            if line["table"]["robots"] == 1:
                break
        assert line["table"]["free"] == 3
        await ann.settle()
        await ann.request({"type": "leave", "table": table})
        removed = await eve.expect("lobby_remove")
        assert removed["table"] == table


async def test_a_failing_robot_is_replaced_by_a_legal_move_and_logged(db_url: str, monkeypatch, caplog) -> None:
    from atout.bots.heuristic import HeuristicBot

    def broken(self, observation, budget=None):
        raise RuntimeError("robot crashed")

    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, level="heuristic", deals=1)
        monkeypatch.setattr(HeuristicBot, "choose", broken)
        caplog.set_level("INFO", logger="atout.server")
        await ann.request({"type": "start", "table": table})
        await play_until(ann, game_over)
        assert any('"robot_failed"' in r.getMessage() and "robot crashed" in r.getMessage() for r in caplog.records)
        assert ann.state["game"]["outcome"] == "finished"


def scrape(port: int) -> dict[str, float]:
    """A server's /metrics, read with prometheus_client's own parser: every sample by name and labels."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as answer:
        assert answer.headers["Content-Type"].startswith("text/plain")
        text = answer.read().decode()
    return {
        s.name + "".join(f"{{{k}={v}}}" for k, v in sorted(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_health_and_metrics_count_what_happened(db_url: str) -> None:
    import json
    import urllib.request

    # two servers in one process: each counts only what happened to it (a registry per app)
    async with running_server(db_url) as server, running_server(db_url) as other:
        base = f"http://127.0.0.1:{server.port}"

        def get(path: str) -> str:
            with urllib.request.urlopen(base + path, timeout=30) as answer:
                return answer.read().decode()

        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, deals=1)
        await ann.request({"type": "start", "table": table})
        await play_until(ann, game_over)
        health = json.loads(await asyncio.to_thread(get, "/health"))
        assert health["status"] == "ok" and health["tables"] == 1 and health["connections"] == 1
        assert health["actions"] == server.hub.actions > 0
        lines = await asyncio.to_thread(scrape, server.port)
        assert lines["atout_actions_total"] == server.hub.actions
        assert lines["atout_tables"] == 1 and lines["atout_connections"] == 1
        acts = sum(1 for f in ann.frames if f.get("ref") and f["type"] == "event" and f["event"]["type"] == "action")
        assert lines["atout_act_seconds_bucket{le=+Inf}"] == lines["atout_act_seconds_count"] == acts
        assert lines["atout_act_seconds_bucket{le=0.001}"] <= lines["atout_act_seconds_bucket{le=1.0}"] <= acts
        assert lines["atout_act_seconds_sum"] > 0
        assert lines["atout_store_commits_total"] > 0 and lines["atout_store_items_total"] > 0
        assert "atout_bus_up" not in lines  # one process: no bus
        quiet = await asyncio.to_thread(scrape, other.port)
        assert quiet["atout_actions_total"] == quiet["atout_act_seconds_count"] == quiet["atout_tables"] == 0


async def test_a_refused_write_reloads_the_table_and_the_people_keep_their_seats(db_url: str) -> None:
    """The store refuses a write (here: another writer stored an event of that number first): the action
    is refused, the table goes back to what is stored, the person connected all along gets no absence
    clock, and the game goes on from the stored state."""

    from atout.server.store.db import table_events

    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, level="random")
        await ann.request({"type": "start", "table": table})
        while not (ann.state["deal"] and ann.state["deal"]["to_act"] == 0 and ann.state["deal"]["legal"]):
            await ann.recv()
        await ann.settle()
        seq = server.hub.rooms[table].table.seq
        foreign = {"type": "chat", "seq": seq + 1, "at": 1.0, "name": "Zed", "seat": None, "text": "first"}
        with server.hub.store.engine.begin() as conn:
            conn.execute(table_events.insert().values(table_id=table, seq=seq + 1, at=1.0, kind="chat", data=foreign))
        refused = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state), "seq": seq})
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused
        reloaded = server.hub.rooms[table].table
        assert reloaded.seq == seq + 1 and reloaded.chat[-1]["text"] == "first"
        assert 0 not in reloaded.gone_since  # Ann never left: no absence clock, no robot for her
        ok = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state), "seq": seq + 1})
        assert ok["type"] == "event" and ok["event"]["type"] == "action" and ok["seq"] == seq + 2
        # the robots play on at once after Ann: the events stored and kept run on without a gap past hers
        events = server.hub.store.events_after(table, 0)
        stored = [e.seq for e in events]
        assert stored == list(range(1, len(stored) + 1)) and len(stored) >= seq + 2
        assert events[seq].kind == "chat" and events[seq + 1].kind == "action"
        kept = [e["seq"] for e in server.hub.rooms[table].history]  # what a reconnecting client catches up from
        assert seq + 1 in kept and seq + 2 in kept and kept == list(range(kept[0], kept[0] + len(kept)))
