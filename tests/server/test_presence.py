"""Friends' presence: offline, online, at a table or playing, with the table to join when it admits the
one who asks (GET /api/friends)."""

from __future__ import annotations

from .helpers import Client, eventually, running_server, site_page
from .test_accounts import register


async def test_friends_are_seen_online_at_a_table_and_playing(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as ann_http, site_page(base) as bob_http, site_page(base) as dan_http:
            await register(ann_http, "Ann")
            bob_cookie = await register(bob_http, "Bob")
            dan_cookie = await register(dan_http, "Dan")
            await ann_http.post("/api/friends", json={"action": "request", "name": "Bob"})
            await bob_http.post("/api/friends", json={"action": "accept", "name": "Ann"})

            async def bob_seen() -> dict:
                return (await ann_http.get("/api/friends")).json()["presence"]["Bob"]

            assert await bob_seen() == {"status": "offline", "table": None}
            assert "Dan" not in (await ann_http.get("/api/friends")).json()["presence"]  # not a friend
            bob = await Client.connect(server.url, "x", cookie=bob_cookie)
            assert await bob_seen() == {"status": "online", "table": None}
            await bob.send({"type": "create", "players": 3, "options": {"deals": 1}})
            table = (await bob.expect("master"))["table"]
            await bob.settle()
            assert await bob_seen() == {"status": "table", "table": table}
            for seat in (1, 2):
                await bob.request({"type": "robot", "table": table, "seat": seat, "level": "random"})
            await bob.request({"type": "start", "table": table})
            assert await bob_seen() == {"status": "playing", "table": table}
            # at a private table that does not admit Ann, she learns he plays, not where
            dan = await Client.connect(server.url, "x", cookie=dan_cookie)
            await dan.send({"type": "create", "players": 3, "options": {"deals": 1, "private": True}})
            private = (await dan.expect("master"))["table"]
            await dan.settle()
            await dan.request({"type": "invite", "table": private, "name": "Bob"})
            await bob.send({"type": "join", "table": private})
            await bob.expect("table")
            await bob.request({"type": "leave", "table": table})  # an abandonment: he plays there no more
            assert (await bob.request({"type": "sit", "table": private, "seat": 1}))["event"]["type"] == "sat"
            assert await bob_seen() == {"status": "table", "table": None}
            await bob.close()

            await eventually(lambda: not server.hub.identity.connected_here(bob.id), "Bob's connection never closed")
            assert await bob_seen() == {"status": "table", "table": None}  # his seat waits for him a while
