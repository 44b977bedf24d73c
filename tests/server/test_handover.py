"""Slots across a failure: a dead slot's tables go to the next slot (where the proxy sends their people),
and come back to their own slot's process when it returns (docs/scaling.md, "Affinity")."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets

from .helpers import Client
from .test_cluster import Process, RedisServer, ready, redis  # noqa: F401 -- the redis fixture

pytestmark = pytest.mark.slow


@pytest.fixture
def slots(pg_url: str, redis: RedisServer, tmp_path: Path) -> Iterator[list[Process]]:  # noqa: F811
    with ready(
        [Process(pg_url, redis.url, tmp_path, f"S{k}", "--slot", str(k), "--slots", "3") for k in (1, 2, 3)]
    ) as processes:
        yield processes


async def until(condition, what: str, bound: float = 60.0) -> None:
    """Until ``condition()``; the bound only stops a hang (a lease expires in 6 s, a scan each second)."""
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {bound} s"
        await asyncio.sleep(0.1)


async def test_a_dead_slot_s_tables_go_to_the_next_slot_and_come_home_with_its_process(
    slots: list[Process],
    pg_url: str,
    redis: RedisServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    one, two, three = slots
    ann = await Client.connect(one.url, "Ann")
    await ann.send({"type": "create", "players": 4, "options": {"deals": 1}})
    await ann.expect("master")
    table = ann.state["id"]
    assert table.startswith("1-") and table in one.health()["table_ids"]
    one.kill()
    await until(lambda: table in two.health()["table_ids"], "slot 2 took the table over")
    assert table not in three.health()["table_ids"]  # slot 3 waits for slot 1's successor
    # Ann comes back where the proxy sends slot 1's people meanwhile: slot 2, which runs the table
    ann = await Client.connect(two.url, "Ann", token=ann.token)
    await ann.send({"type": "join", "table": table, "last_seq": ann.seq})
    reply = await ann.expect("table")
    assert reply["state"]["seats"][0]["name"] == "Ann"
    # slot 1's process comes back on its port: its table is handed back, and Ann's page is closed by slot 2
    back = Process(pg_url, redis.url, tmp_path, "S1", "--slot", "1", "--slots", "3", port=one.port)
    slots[0] = back
    back.wait_ready()
    await until(lambda: table in back.health()["table_ids"], "the table came back to slot 1")
    assert table not in two.health()["table_ids"]
    with pytest.raises(websockets.ConnectionClosed):  # closed: its page reconnects through the proxy, to slot 1
        while True:
            await ann.recv(30)
    ann = await Client.connect(back.url, "Ann", token=ann.token)
    await ann.send({"type": "join", "table": table, "last_seq": ann.seq})
    reply = await ann.expect("table")
    assert reply["state"]["you"] == 0 and reply["seq"] >= 3
    assert sum(p.health()["frames_crossed"] for p in (back, two, three)) == 0
