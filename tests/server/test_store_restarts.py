"""PostgreSQL restarted and stopped for real under tables in play (issue 48): a fast restart, an immediate one
(a crash's), a stop of ten seconds, while robots play and a turn clock runs. Every table moves again (the robots
play on, the clock still runs out), memory and store agree at the end, the stored logs have no hole and every
deal's record holds exactly its stored actions, and no room's task dies unseen.

Each test runs a PostgreSQL of its own (``tests/pgserver.py``), never the machine's."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
from collections.abc import Iterator

import pytest
import websockets

from atout.server.clock import FakeClock
from atout.server.store.audit import audit_table
from pgserver import PostgresServer, binaries

from .helpers import Client, eventually, first_legal, quick_config, running_server
from .test_tables import table_with_robots


@pytest.fixture
def postgres() -> Iterator[PostgresServer]:
    if binaries() is None:
        message = "PostgreSQL's server programs (initdb, pg_ctl) are not installed: the restart tests did not run"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    server = PostgresServer()
    server.start()
    server.create_database()
    try:
        yield server
    finally:
        server.close()


class Person:
    """One of ours at a table: plays the moment their turn comes and starts the next game (``idle``: never plays,
    so that the table's turn clock is what moves it)."""

    def __init__(self, client: Client, table: str, idle: bool = False) -> None:
        self.client, self.table, self.idle = client, table, idle
        self.stop = False

    async def play(self) -> None:
        client, table = self.client, self.table
        while not self.stop:
            state = client.state
            deal = state and state.get("deal")
            try:
                if self.idle or state is None or state.get("paused"):
                    await client.recv(0.2)
                elif state["status"] == "waiting" and state["game"] and state["game"].get("outcome"):
                    answer = await client.request({"type": "start", "table": table})
                    assert answer["type"] == "event" or answer["code"] in (
                        "unavailable",
                        "unknown",
                        "paused",
                        "stale",
                    ), answer
                elif (
                    deal
                    and deal["to_act"] == state["you"]
                    and deal["legal"]
                    and state["vote"] is None
                    and state["seq"] == client.seqs.get(table)
                ):
                    answer = await client.request({"type": "act", "table": table, "action": first_legal(state)})
                    assert answer["type"] == "event" or answer["code"] in (
                        "unavailable",
                        "unknown",
                        "paused",
                        "stale",
                    ), answer
                else:
                    await client.recv(0.2)
            except TimeoutError:
                continue
            except websockets.ConnectionClosed:
                return


def stored_seq(server, table: str) -> int:
    events = server.hub.store.events_after(table, 0)
    return events[-1].seq if events else 0


async def tick(clock: FakeClock, running: asyncio.Event) -> None:
    """The tables' time runs at some five times the wall's: robots keep their production pace (each table writes
    now and then, as in production, so that a write lands in every moment of a restart), and a turn clock's
    fifteen seconds pass in three."""
    while running.is_set():
        clock.advance(0.05)
        await asyncio.sleep(0.01)


def timeouts(client: Client, table: str) -> int:
    return sum(1 for f in client.frames if f.get("table") == table and f.get("event", {}).get("type") == "timeout")


@pytest.mark.parametrize("fault", ["restart-fast", "restart-immediate", "stop-10s"])
async def test_tables_move_again_after_postgresql_restarts_and_lose_nothing(
    postgres: PostgresServer, fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    clock = FakeClock()
    config = quick_config(robot_pace=0.8, deal_pause=1.0)  # atout serve's pace (its deal pause is 5 s)
    config.commit_linger = 0.005  # as atout serve: the tables' writes share transactions
    running = asyncio.Event()
    running.set()
    async with running_server(postgres.url, config, clock=clock) as server:
        ticker = asyncio.create_task(tick(clock, running))
        people: list[Person] = []
        for i, players in enumerate((3, 4, 5, 4, 3)):
            client = await Client.connect(server.url, f"Person{i}")
            table = await table_with_robots(client, players, deals=2, turn_seconds=15 if i < 3 else 0)
            answer = await client.request({"type": "start", "table": table})
            assert answer["type"] == "event", answer
            people.append(Person(client, table))
        tasks = [asyncio.create_task(p.play()) for p in people]
        hub = server.hub

        def moved(since: dict[str, int], by: int) -> bool:
            return all(hub.rooms[p.table].table.seq >= since[p.table] + by for p in people)

        start = {p.table: hub.rooms[p.table].table.seq for p in people}
        await eventually(lambda: moved(start, 10), "the tables did not get going")
        clocked = people[0]  # from the fault on its person does not play: its turn clock must still run out
        clocked.idle = True
        if fault == "stop-10s":
            await asyncio.to_thread(postgres.stop, "fast")
            await asyncio.sleep(10)  # the fault itself: PostgreSQL away for ten seconds of real time
            await asyncio.to_thread(postgres.start)
        else:
            await asyncio.to_thread(postgres.restart, fault.removeprefix("restart-"))
        after = {p.table: hub.rooms[p.table].table.seq for p in people}
        timed_out = timeouts(clocked.client, clocked.table)
        try:
            await eventually(lambda: moved(after, 30), "a table froze after the fault")
        except AssertionError:
            raise AssertionError(
                "a table froze after the fault: "
                + "; ".join(
                    f"{p.table} from {after[p.table]} to {hub.rooms[p.table].table.seq} (paused: "
                    f"{hub.rooms[p.table].table.paused}, to act: {hub.rooms[p.table].table.to_act()})"
                    for p in people
                )
            ) from None
        await eventually(
            lambda: timeouts(clocked.client, clocked.table) > timed_out,
            "the idle person's turn clock never ran out after the fault",
        )

        for p in people:
            p.stop = True
        await asyncio.gather(*tasks)
        running.clear()
        await ticker
        for p in people:  # no clock moves now: the tables rest on a person's turn, memory and store agree
            await eventually(lambda p=p: not hub.rooms[p.table].table.paused, f"{p.table} stayed paused")
            await eventually(
                lambda p=p: hub.rooms[p.table].table.seq == stored_seq(server, p.table),
                f"table {p.table}'s memory and store disagree",
            )
        findings = [f for p in people for f in await asyncio.to_thread(audit_table, hub.store, p.table)]
        assert findings == [], "\n".join(map(str, findings))
        for p in people:
            with contextlib.suppress(Exception):
                await p.client.close()
    gc.collect()  # a task whose exception nobody retrieved is reported when it is collected
    unseen = [r.getMessage()[:300] for r in caplog.records if "never retrieved" in r.getMessage()]
    assert unseen == []
