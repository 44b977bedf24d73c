"""Quick play: one request seats a person at a game of the size they ask for: a robot's seat at a quick
table (taken between deals), a free seat at a table waiting for people, or a new quick table with
robots started at once. The lobby tells each person the seat they play (``you``)."""

from __future__ import annotations

from .helpers import Client, running_server
from .test_tables import play_until, table_with_robots


def events(client: Client, kind: str) -> list[dict]:
    return [f["event"] for f in client.frames if f.get("type") == "event" and f["event"]["type"] == kind]


def line(client: Client, table: str) -> dict:
    """The last lobby line the client heard of ``table``."""
    for frame in reversed(client.frames):
        if frame.get("type") == "lobby_table" and frame["table"]["id"] == table:
            return frame["table"]
        if frame.get("type") == "lobby":
            return next(x for x in frame["tables"] if x["id"] == table)
    raise AssertionError(f"no lobby line for {table}")


async def test_quick_play_opens_a_game_with_robots_and_a_later_person_takes_a_robots_seat_between_deals(
    db_url: str,
) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        answer = await ann.request({"type": "quick", "players": 4})
        assert answer["type"] == "event" and answer["event"]["type"] == "created" and answer["event"]["quick"], answer
        table = answer["table"]
        await ann.until_a_person_acts()
        assert ann.state["status"] == "playing" and ann.state["you"] == 0 and ann.state["master"] == 0
        assert [s["kind"] for s in ann.state["seats"]] == ["person", "robot", "robot", "robot"]
        assert ann.state["options"]["competitive"] is False  # seats change hands: a practice game

        watcher = await Client.connect(server.url, "Watcher")
        await watcher.send({"type": "lobby"})
        await watcher.expect("lobby")
        assert line(watcher, table)["quick"] and line(watcher, table)["claimable"] == 3
        assert line(watcher, table)["you"] is None

        bob = await Client.connect(server.url, "Bob")
        await bob.send({"type": "lobby"})
        await bob.expect("lobby")
        answer = await bob.request({"type": "quick", "players": 4})  # the deal is going on: at the next one
        assert answer["type"] == "event" and answer["event"]["type"] == "claimed", answer
        seat = answer["event"]["seat"]
        assert "player" not in answer["event"]
        assert bob.state["you"] is None and bob.state["seats"][seat]["taking"] == "Bob"
        assert bob.state["deal"]["hand"] == []  # until then Bob watches: no hand of anyone's
        await bob.settle()
        assert line(bob, table)["you"] == seat and line(bob, table)["claimable"] == 2
        again = await bob.request({"type": "claim", "table": table})  # twice: he has his seat coming
        assert again["type"] == "error" and again["code"] == "seated", again

        await play_until(ann, lambda c: bool(events(c, "replaced")))
        await ann.settle()  # the rest of the batch: the next deal's start
        replaced = events(ann, "replaced")[0]
        assert replaced == {**replaced, "seat": seat, "name": "Bob"} and "player" not in replaced
        starts = [f["seq"] for f in ann.frames if f.get("type") == "event" and f["event"]["type"] == "deal_start"]
        swap = next(f["seq"] for f in ann.frames if f.get("type") == "event" and f["event"]["type"] == "replaced")
        assert len(starts) >= 2 and starts[-1] > swap > starts[-2]  # between two deals
        assert ends_before(ann, swap)
        await bob.settle()
        while bob.state["you"] != seat:
            await bob.recv()
        assert bob.state["seats"][seat]["kind"] == "person" and len(bob.state["deal"]["hand"]) == 18


def ends_before(client: Client, seq: int) -> bool:
    """Whether a deal ended just before event ``seq`` (no card of a deal in between)."""
    frames = [f for f in client.frames if f.get("type") == "event" and f["seq"] < seq]
    kinds = [f["event"]["type"] for f in frames]
    return "deal_end" in kinds and "action" not in kinds[len(kinds) - 1 - kinds[::-1].index("deal_end") :]


async def test_quick_play_fills_a_waiting_table_first_and_never_a_private_or_betting_one(db_url: str) -> None:
    async with running_server(db_url) as server:
        dan = await Client.connect(server.url, "Dan")
        private = await table_with_robots(dan, 3, level="random", private=True)
        carl = await Client.connect(server.url, "Carl")
        await carl.send({"type": "create", "players": 3, "options": {"deals": 1}})
        waiting = (await carl.expect("master"))["table"]
        await carl.settle()
        eve = await Client.connect(server.url, "Eve")
        answer = await eve.request({"type": "quick", "players": 3})
        assert answer["type"] == "event" and answer["event"]["type"] == "sat" and answer["table"] == waiting, answer
        assert answer["table"] != private
        five = await eve.request({"type": "quick", "players": 5})  # no table of five: a new quick one
        assert five["event"]["type"] == "created" and five["event"]["quick"] and five["table"] not in (waiting, private)
        leave = await eve.request({"type": "leave", "table": waiting})  # changed her mind: the seat is free again
        assert leave["event"]["type"] == "left"


async def test_a_person_who_changes_their_mind_gives_the_robots_seat_back(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = (await ann.request({"type": "quick", "players": 3}))["table"]
        await ann.until_a_person_acts()
        bob = await Client.connect(server.url, "Bob")
        claimed = await bob.request({"type": "claim", "table": table})
        assert claimed["event"]["type"] == "claimed"
        gone = await bob.request({"type": "leave", "table": table})
        assert gone["event"] == {**gone["event"], "type": "unclaimed", "seat": claimed["event"]["seat"]}
        assert bob.state["seats"][claimed["event"]["seat"]]["taking"] is None
        full = await Client.connect(server.url, "Carl")
        for name in ("Dora", "Edna"):
            other = await Client.connect(server.url, name)
            assert (await other.request({"type": "claim", "table": table}))["event"]["type"] == "claimed"
        refused = await full.request({"type": "claim", "table": table})  # every robot's seat is promised
        assert refused["type"] == "error" and refused["code"] == "no_seat_free", refused


async def test_quick_play_robots_are_the_level_the_lobby_says_by_the_same_name(db_url: str) -> None:
    """The lobby says robots default to the catalogue's default level, by its offered name (club): a quick
    table's robots are that level, and their names say it the same way (never "heuristic")."""
    from atout.bots import level_shown
    from atout.server.http.app import options_catalogue

    catalogue = options_catalogue()
    default = catalogue["defaults"]["robot_level"]
    assert default in catalogue["levels"]  # an offered level, named as the lobby names it
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        answer = await ann.request({"type": "quick", "players": 4})
        assert answer["type"] == "event", answer
        await ann.until_a_person_acts()
        assert ann.state["options"]["robot_level"] == default
        robots = [s for s in ann.state["seats"] if s["kind"] == "robot"]
        assert len(robots) == 3
        assert all(level_shown(s["level"] or default) == default for s in robots)
        assert [s["name"] for s in robots] == [f"Robot {i} ({default})" for i in (2, 3, 4)]
        assert level_shown("heuristic") == "club"  # a table that asks for it by its old name reads club too


async def test_quick_play_takes_the_robots_seat_at_the_friends_table_the_person_was_looking_at(db_url: str) -> None:
    """Issue 47, item 5: Bob watches Ann's private practice game (invited), then asks for a quick game of
    its size: he gets its robot's seat (from the next deal), not a new table of robots. Without the table
    he looked at, or at a competitive game, it is a new quick table as before."""
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        bob = await Client.connect(server.url, "Bob")
        table = await table_with_robots(ann, 3, level="random", private=True, competitive=False, deals=3)
        assert (await ann.request({"type": "invite", "table": table, "name": "Bob"}))["type"] == "event"
        ranked = await table_with_robots(ann, 3, level="random", deals=3)  # competitive: its seats are its own
        for started in (table, ranked):
            assert (await ann.request({"type": "start", "table": started}))["type"] == "event"
        await bob.send({"type": "join", "table": table})
        await bob.expect("table")
        elsewhere = await bob.request({"type": "quick", "players": 3, "near": ranked})
        assert elsewhere["event"]["type"] == "created" and elsewhere["table"] not in (table, ranked), elsewhere
        await bob.request({"type": "leave", "table": elsewhere["table"]})
        answer = await bob.request({"type": "quick", "players": 3, "near": table})
        assert answer["table"] == table and answer["event"]["type"] == "claimed", answer
        assert answer["event"]["seat"] in (1, 2)
        carl = await Client.connect(server.url, "Carl")  # not invited: the private table is not his to look at
        other = await carl.request({"type": "quick", "players": 3, "near": table})
        assert other["table"] != table, other
