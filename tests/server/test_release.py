"""A table nobody is at leaves memory after a while (issue 40): a night of tables opened and left must not
keep every one of them. Released tables are collected whole (no holder left anywhere: the hub, the pages
that followed them, their timers and robots), ``/health`` counts only those in memory, and an open table
released comes back from the store, as it stood, for whoever returns. On SQLite and PostgreSQL."""

from __future__ import annotations

import gc
import weakref

import httpx

from atout.server.kinds import EventType

from .helpers import Client, eventually, quick_config, running_server
from .test_cluster import RedisServer, redis  # noqa: F401 -- the redis fixture
from .test_tables import game_over, play_until, table_with_robots

IDLE = 120.0


def config():
    """Robots at once, tables released after IDLE seconds of nobody."""
    made = quick_config()
    made.idle_release = IDLE
    return made


async def health(server) -> dict:
    async with httpx.AsyncClient() as http:
        return (await http.get(f"http://127.0.0.1:{server.port}/health")).json()


async def finished_and_left(client: Client) -> str:
    """A table of ``client``'s, its one-deal game against robots played to its end, then left: closed."""
    table = await table_with_robots(client, 3, level="random", turn_seconds=0, deals=1)
    await client.request({"type": "start", "table": table})
    await play_until(client, game_over)
    answer = {"code": "stale"}
    while answer.get("code") == "stale":  # a robot's last move may cross the request
        await client.settle()
        answer = await client.request({"type": "leave", "table": table})
    assert answer["type"] == "event" and client.batch[-1]["event"]["type"] == EventType.CLOSED, answer
    return table


async def test_closed_tables_are_collected_after_the_idle_time(db_url: str) -> None:
    async with running_server(db_url, config()) as server:
        hub = server.hub
        ann = await Client.connect(server.url, "Ann", patches=True)  # a page that keeps its views of each table
        bob = await Client.connect(server.url, "Bob")
        tables = [await finished_and_left(ann) for _ in range(3)]
        left_early = await table_with_robots(bob, 4, level="random")  # left before any game: closed at once
        await bob.request({"type": "leave", "table": left_early})
        tables.append(left_early)
        watched = await table_with_robots(bob, 3, level="random")  # open, its master at it: stays
        rooms = [weakref.ref(hub.rooms[t]) for t in tables]
        held = [weakref.ref(hub.rooms[t].table) for t in tables]
        assert (await health(server))["tables"] == 5
        server.clock.advance(IDLE - 1)  # not yet
        await ann.settle()
        assert set(tables) <= set(hub.rooms)
        gc.disable()  # freed by reference counting alone, as soon as released: a tuned server's collector
        try:  # runs seldom (cli/serve.py), and a night's released rooms would pile up waiting for it
            server.clock.advance(2)
            await eventually(lambda: not set(tables) & set(hub.rooms), "the closed tables were not released")
            await ann.settle()
            held_on = [r() for r in rooms + held if r() is not None]
            assert not held_on, [type(x).__name__ for o in held_on for x in gc.get_referrers(o)]
        finally:
            gc.enable()
        assert (await health(server))["tables"] == 1 and watched in hub.rooms
        # the pages that followed them are still open, and hold nothing of them
        assert not any(t in c.tables or t in c.views for c in hub.connections for t in tables)
        await ann.send({"type": "join", "table": tables[0]})  # as before it was released: a closed table is gone
        assert (await ann.expect("error"))["code"] == "no_table"


async def test_an_open_table_nobody_is_at_comes_back_from_the_store(db_url: str) -> None:
    async with running_server(db_url, config()) as server:
        hub = server.hub
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, level="random", deals=2)
        await ann.request({"type": "unrobot", "table": table, "seat": 3})
        room = hub.rooms[table]

        def emptied(b) -> None:  # its person gone and the table left open, as none of today's requests leaves one
            b.emit(EventType.LEFT, seat=0)
            b.emit(EventType.MASTER, seat=None)

        await room.request(None, emptied)
        await ann.settle()
        seats, seq, options = room.table.seats, room.table.seq, room.table.options.to_json()
        await ann.close()
        followers = room.followers  # (not the room: the lambda must not hold it)
        await eventually(lambda: not followers, "the page did not go")
        gone = weakref.ref(room)
        del room
        server.clock.advance(IDLE + 1)
        await eventually(lambda: table not in hub.rooms, "the open table nobody is at was not released")
        await eventually(lambda: gc.collect() >= 0 and gone() is None, "the released room is still held")
        assert (await health(server))["tables"] == 0

        bob = await Client.connect(server.url, "Bob")  # by its link: it comes back as it stood
        await bob.send({"type": "join", "table": table})
        state = (await bob.expect("table"))["state"]
        assert state["seq"] == seq and state["status"] == "waiting"
        assert [s.get("kind") for s in state["seats"]] == [s.kind for s in seats]
        assert state["options"]["deals"] == options["deals"] == 2
        sat = await bob.request({"type": "sit", "table": table, "seat": 0})  # its events go on from there
        assert sat["event"]["type"] == "sat" and sat["seq"] == seq + 1
        assert bob.state["master"] == 0 and hub.rooms[table].table.seq >= seq + 1
        assert (await health(server))["tables"] == 1


async def test_with_several_processes_a_closed_table_is_released_with_its_lease(
    pg_url: str,
    redis: RedisServer,  # noqa: F811
) -> None:
    """With Redis only closed tables leave memory (an open one released would be nobody's, and the scan for
    unowned tables would take it back); the lease goes with the room, so nobody renews or takes it."""
    async with running_server(pg_url, config(), redis_url=redis.url) as server:
        hub = server.hub
        leases = hub.site.leases
        ann = await Client.connect(server.url, "Ann")
        closed = await table_with_robots(ann, 3, level="random")
        await ann.request({"type": "leave", "table": closed})
        vacant_open = await table_with_robots(ann, 3, level="random")
        room = hub.rooms[vacant_open]

        def emptied(b) -> None:
            b.emit(EventType.LEFT, seat=0)
            b.emit(EventType.MASTER, seat=None)

        await room.request(None, emptied)
        assert closed in leases.tokens and vacant_open in leases.tokens
        gone = weakref.ref(hub.rooms[closed])
        await ann.close()
        await eventually(lambda: not hub.connections, "the page did not go")
        server.clock.advance(IDLE + 1)
        await eventually(lambda: closed not in hub.rooms, "the closed table was not released")
        await eventually(lambda: gc.collect() >= 0 and gone() is None, "the released room is still held")
        assert closed not in leases.tokens
        # given back in the store by a write of its own, which may come after the room has gone (seen in CI)
        await eventually(lambda: hub.store.lease(closed).expires_at == 0.0, "the closed table's lease was kept")
        assert vacant_open in hub.rooms and vacant_open in leases.tokens  # open: it stays, leased
        assert (await health(server))["tables"] == 1
        bob = await Client.connect(server.url, "Bob")
        await bob.send({"type": "join", "table": closed})
        assert (await bob.expect("error"))["code"] == "no_table"  # as its owner answered before the release


def test_a_process_keeps_the_friends_of_recent_players_only() -> None:
    """Weeks of registered players who came by once do not stay in memory: the friends of the most
    recently asked FRIENDS_KEPT are kept, an older one is read again from the store when next asked."""
    from types import SimpleNamespace

    from atout.server.site.identity import FRIENDS_KEPT, Identity

    reads: list[str] = []

    def ids(player_id: str) -> set[str]:
        reads.append(player_id)
        return {f"friend-of-{player_id}"}

    identity = Identity(SimpleNamespace(friends=SimpleNamespace(ids=ids)))  # type: ignore[arg-type]
    assert identity.friends_of("r-regular") == {"friend-of-r-regular"}
    for i in range(3 * FRIENDS_KEPT):
        identity.friends_of(f"r{i}")
        if i % 100 == 0:
            identity.friends_of("r-regular")  # a regular, asked now and then, stays
    assert len(identity.friend_ids) == FRIENDS_KEPT
    assert reads.count("r-regular") == 1
    assert identity.friends_of("r0") == {"friend-of-r0"} and reads.count("r0") == 2  # gone, read again


def test_a_process_remembers_the_addresses_of_recent_people_only() -> None:
    """The addresses people connect from (two registered people from one address make a game unranked)
    are kept for the most recently connected PEOPLE_KEPT: a person who connects again is kept, one who came
    by long ago forgotten, and each is kept to ADDRESSES_KEPT addresses."""
    from atout.server.addresses import ADDRESSES_KEPT, PEOPLE_KEPT, AddressBook

    book = AddressBook()
    for i in range(2 * PEOPLE_KEPT):
        book.saw(f"r{i}", f"192.0.2.{i % 250}")
        if i % 1000 == 0:
            book.saw("r-regular", "198.51.100.7")
    assert len(book._seen) == PEOPLE_KEPT
    assert "r-regular" in book._seen and "r0" not in book._seen
    for n in range(2 * ADDRESSES_KEPT):
        book.saw("r-roaming", f"203.0.113.{n}")
    assert len(book._seen["r-roaming"]) == ADDRESSES_KEPT
