"""The watchdog (issue 48): a table that stopped moving, whatever stopped it, is found by the process that runs it
once its promise is broken — a robot's move not made, a clock not run out, a memory ahead of its store —, logged
once with its state, counted on /health and /metrics, and run again from its store. Each test breaks a table on
purpose, as a bug would, on the server's fake clock."""

from __future__ import annotations

import asyncio
import json
import logging

import httpx
import pytest

from atout.server.room import Room, outage, watchdog
from atout.server.store.health import Cause, StoreHealth
from atout.server.table import Batch, play

from .helpers import SQLITE_ONLY, Client, Server, eventually, first_legal, quick_config, running_server
from .test_tables import table_with_robots


def config(**timing: float):
    """The watchdog counts a table overdue as stalled once it has not moved for a tenth of a real second more
    (15 s in production: the tests' fake clock moves by hand)."""
    settings = quick_config(**timing)
    settings.stall_seconds = 0.1
    return settings


pytestmark = SQLITE_ONLY  # the watchdog reads the rooms' memory; the store is only read back


def stalled_lines(caplog: pytest.LogCaptureFixture, event: str = "table_stalled") -> list[dict]:
    return [
        json.loads(r.getMessage())
        for r in caplog.records
        if r.getMessage().startswith("{") and f'"event":"{event}"' in r.getMessage()
    ]


async def at_ann_s_turn(server: Server, players: int, turn_seconds: int = 0) -> tuple[Client, str, Room]:
    """Ann at a table of robots (one deal), its game started, as her turn comes: her, the table and its room."""
    ann = await Client.connect(server.url, "Ann")
    table = await table_with_robots(ann, players, deals=1, turn_seconds=turn_seconds)
    await ann.request({"type": "start", "table": table})
    await until_to_act(ann, 0)
    return ann, table, server.hub.rooms[table]


async def paused_for_good(room: Room) -> None:
    """``room``'s table paused, its own resumption gone, as a bug would leave it: nobody resumes it."""
    outage.pause(room, "the store is unavailable")
    [resumption] = [t for t in room.tasks if t.get_name().startswith("resumption")]
    resumption.cancel()
    await asyncio.gather(resumption, return_exceptions=True)


async def until_to_act(client: Client, seat: int) -> None:
    while not (client.state["deal"] and client.state["deal"]["to_act"] == seat and client.state["deal"]["legal"]):
        await client.recv()


async def test_a_robot_s_move_nobody_makes_is_found_logged_once_counted_and_made(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with (
        running_server(db_url, config(robot_pace=1.0)) as server,
        httpx.AsyncClient(base_url=server.url.replace("ws://", "http://").removesuffix("/ws")) as http,
    ):
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, deals=1, turn_seconds=0)
        await ann.request({"type": "start", "table": table})
        room = server.hub.rooms[table]
        await eventually(lambda: room.table.robot_turn() is not None or room.table.to_act() == 0, "no turn came")
        while room.table.robot_turn() is None:  # Ann passes until a robot is to play
            await until_to_act(ann, 0)
            await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        seq = room.table.seq
        robot = next(t for t in room.tasks if "robot" in t.get_name() and not t.done())
        robot.cancel()  # the robot's task is gone, its turn still marked as thought of: nobody will play it
        await asyncio.gather(robot, return_exceptions=True)
        server.clock.advance(watchdog.THINKING / 2)
        await asyncio.sleep(0)
        assert room.table.seq == seq  # within its promise: not yet stalled
        assert server.hub.watchdog.found == 0

        server.clock.advance(watchdog.THINKING)

        def looked_again() -> bool:  # found at two looks in a row
            server.clock.advance(watchdog.EVERY)
            return room.table.seq > seq

        await eventually(looked_again, "the watchdog did not make the robot play")
        lines = stalled_lines(caplog)
        assert len(lines) == 1 and lines[0]["table"] == table and "robot has not played" in lines[0]["why"], lines
        assert lines[0]["seq"] == seq and lines[0]["to_act"] != 0, lines[0]
        health = (await http.get("/health")).json()
        assert health["tables_stalled_total"] == 1 and health["tables_restarted"] == 1, health
        metrics = (await http.get("/metrics")).text
        assert "atout_tables_stalled_found_total 1.0" in metrics and "atout_tables_stalled 0.0" in metrics, metrics
        assert stalled_lines(caplog, "table_restarted")


async def test_a_turn_clock_whose_timer_died_still_runs_out(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with running_server(db_url, config()) as server:
        ann, _, room = await at_ann_s_turn(server, 3, turn_seconds=15)
        timer = room.timer.task
        assert timer is not None
        timer.cancel()  # the table's clock is gone: Ann's fifteen seconds would never run out
        await asyncio.gather(timer, return_exceptions=True)
        seq = room.table.seq
        server.clock.advance(16)
        await asyncio.sleep(0)
        assert room.table.seq == seq
        server.clock.advance(watchdog.CLOCK_GRACE)

        def restarted() -> bool:
            server.clock.advance(watchdog.EVERY)
            return bool(stalled_lines(caplog, "table_restarted"))

        await eventually(restarted, "the watchdog did not restart the table")
        assert not room.timer.task.done()  # a timer of its own again
        server.clock.advance(16)  # read again from its store, the table's clocks start afresh (state.rebuilt)
        await eventually(lambda: room.table.seq > seq, "Ann's clock never ran out")
        # told once stored, which may be after the table moved in memory (and after the answer to a ping sent now:
        # seen once in a loaded run): read until it comes
        while not any(f.get("type") == "event" and f.get("seq") == seq + 1 for f in ann.frames):
            await ann.recv()
        assert [f["event"]["type"] for f in ann.frames if f.get("type") == "event" and f.get("seq") == seq + 1] == [
            "timeout"
        ]
        [line] = stalled_lines(caplog)
        assert "timeout was due" in line["why"], line


async def test_a_memory_ahead_of_its_store_goes_back_to_the_store(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with running_server(db_url, config()) as server:
        ann, table, room = await at_ann_s_turn(server, 4)
        seq = room.table.seq
        batch = Batch(room.table, server.clock.now())  # an event made and never stored, as a bug would leave it
        play.play(batch, 0, first_legal(ann.state), by="person")
        ahead = room.table.seq
        assert ahead > seq and room.stored_seq == seq

        def read_again() -> bool:
            server.clock.advance(watchdog.EVERY)
            return room.table.seq == seq

        await eventually(read_again, "the table was not read again from its store")
        [line] = stalled_lines(caplog)
        assert f"memory stands at seq {ahead}, its store at {seq}" in line["why"], line
        answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        assert answer["type"] == "event" and answer["seq"] == seq + 1, answer  # the same number, stored this time
        stored = [e.seq for e in await asyncio.to_thread(server.hub.store.events_after, table, 0)]
        assert stored == list(range(1, stored[-1] + 1))


async def test_a_table_whose_resumption_is_gone_is_found_through_an_outage_that_comes_again_and_again(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The chaos run's case: the store fails every few seconds, so it is never up for long; a paused table whose
    resumption is gone must still be found, by the time the store was up in all while it stayed paused, and run
    again from its store. A look that finds the store away neither finds it stalled nor forgets its wait."""
    caplog.set_level(logging.INFO)
    async with running_server(db_url, config()) as server:
        ann, table, room = await at_ann_s_turn(server, 3)
        seq = room.table.seq
        await paused_for_good(room)

        real = [1000.0]
        health = StoreHealth(clock=lambda: real[0])  # the store as this watchdog sees it, failing on our word
        dog = watchdog.Watchdog(lambda: [room], server.clock, health, real_grace=4.0, monotonic=lambda: real[0])

        def look(after: float, store_up: bool) -> None:
            """The store up (or away) for the ``after`` seconds before the next look."""
            if store_up:
                health.back()
            else:
                health.down(Cause.UNREACHABLE)
            real[0] += after
            dog.check()

        look(0.0, True)  # paused, first seen
        for _ in range(3):  # up 3 s, then away 3 s: 3 s up in each round, never 15 s in a row
            look(3.0, False)
            look(3.0, True)
        assert dog.found == 0
        assert room.table.paused is not None
        for _ in range(3):
            look(3.0, False)
            look(3.0, True)
        assert dog.found == 0  # overdue at 18 s up in all; stalled once it stays so for real_grace more
        look(3.0, False)  # away at this look: not judged, its wait kept
        look(3.0, True)
        assert dog.found == 1

        await eventually(lambda: room.table.paused is None, "the table was not run again from its store")
        assert room.table.seq == seq and dog.restarted == 1
        [line] = stalled_lines(caplog)
        assert line["table"] == table and "paused while its store took writes for 2" in line["why"], line
        assert "resumption" not in line["tasks"], line
        await ann.settle()
        assert ann.state["paused"] is None
        answer = await ann.request({"type": "act", "table": table, "action": first_legal(ann.state)})
        assert answer["type"] == "event" and answer["seq"] == seq + 1, answer


async def test_a_restart_that_meets_the_store_away_leaves_a_resumption_waiting_for_it(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watchdog's restart of a paused table whose resumption is gone, as the store fails again: the table
    waits for the store with a resumption of its own again, and resumes once the store answers, without
    waiting for the watchdog's next try."""
    async with running_server(db_url, config()) as server:
        ann, _, room = await at_ann_s_turn(server, 3)
        await paused_for_good(room)

        store = server.hub.store
        read = store.table

        def away(table_id: str) -> object:
            monkeypatch.setattr(store, "table", read)  # away for this read only: the probe finds it back
            raise ConnectionError("the store went away again")

        monkeypatch.setattr(store, "table", away)
        assert await outage.restart(room) is False
        assert room.table.paused is not None
        await eventually(lambda: room.table.paused is None, "the table waited for nobody to resume it")
        await ann.settle()
        assert ann.state["paused"] is None
