"""Patches: a client that asks for them (hello ``patches``) rebuilds exactly the states a client that
asked for whole states receives, event after event, through whole games and a reconnection."""

from __future__ import annotations

import json

import pytest

from .helpers import SQLITE_ONLY, Client, running_server
from .test_table_log import taker_first
from .test_tables import game_over, play_until, table_with_robots


def states_by_seq(client: Client) -> dict[int, dict]:
    """The state the client held after each numbered event or table message, by number."""
    out: dict[int, dict] = {}
    state = None
    for frame in client.frames:
        if frame["type"] not in ("event", "table"):
            continue
        if "state" in frame:
            state = frame["state"]
        elif "patch" in frame:
            state = {**state, **frame["patch"]}
            if "deal_patch" in frame:
                state = {**state, "deal": {**state["deal"], **frame["deal_patch"]}}
        else:
            continue
        out[frame["seq"]] = state
    return out


@SQLITE_ONLY
@pytest.mark.parametrize("players", [3, 4, 5])
async def test_patched_states_equal_whole_states(db_url: str, players: int) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, players, deals=2, turn_seconds=0)
        ann_patched = await Client.connect(server.url, "Ann", token=ann.token, patches=True)
        watcher = await Client.connect(server.url, "Watcher")
        watcher_patched = await Client.connect(server.url, "WatcherP", patches=True)
        for client in (ann_patched, watcher, watcher_patched):
            await client.send({"type": "join", "table": table})
            await client.expect("table")
        await ann.request({"type": "start", "table": table})

        # halfway through the first deal the patched watcher loses its line and comes back
        await play_until(
            ann,
            lambda c: (
                c.state["deal"] is not None
                and c.state["deal"]["phase"] == "play"
                and len(c.state["deal"]["trick"]) == 1
            ),
        )
        await watcher_patched.until_a_person_acts()  # the line is lost while the table waits for Ann
        last_seq = watcher_patched.seq
        await watcher_patched.close()
        again = await Client.connect(server.url, "WatcherP2", patches=True)
        await again.send({"type": "join", "table": table, "last_seq": last_seq})
        await again.expect("table")

        await play_until(ann, game_over)
        for client in (ann_patched, watcher, again):
            await client.settle()

        patched_frames = [f for c in (ann_patched, again) for f in c.frames if f["type"] == "event"]
        assert any("patch" in f for f in patched_frames) and not any("state" in f for f in patched_frames)
        assert not any("patch" in f for f in ann.frames + watcher.frames)

        for whole, patched in ((ann, ann_patched), (watcher, again)):
            expected, rebuilt = states_by_seq(whole), states_by_seq(patched)
            assert len(rebuilt) > 50
            for seq, state in rebuilt.items():
                if patched is again:  # a different person: its own name aside, it sees what the watcher sees
                    assert state["you"] is None
                assert state == expected[seq], f"seq {seq}: the patched state differs"
        # and a patch is smaller than the state it stands for
        sizes = [len(json.dumps(f)) for f in ann_patched.frames if "patch" in f]
        wholes = [len(json.dumps(f)) for f in ann.frames if "state" in f and f["type"] == "event"]
        assert sum(sizes) / len(sizes) < sum(wholes) / len(wholes) / 3


@SQLITE_ONLY
async def test_every_seats_patched_states_equal_its_whole_states(db_url: str) -> None:
    """Four people, each with a connection that asked for patches and one that did not, and a spectator
    of each kind, through a whole game: each patched state rebuilt equals the whole state its twin got,
    after every event. A seat's own fields move with its cards and turns while the others' stay, and a
    frame made once for the clients whose patch holds nothing of their own must reach no other (the
    first speaker takes with a garde, so the écart is laid, which each viewer sees its own way)."""
    async with running_server(db_url) as server:
        patched = [await Client.connect(server.url, name, patches=True) for name in ("Ann", "Bob", "Cyd", "Dan")]
        ann = patched[0]
        await ann.send(
            {"type": "create", "players": 4, "options": {"deals": 1, "turn_seconds": 0, "competitive": False}}
        )
        table = (await ann.expect("master"))["table"]
        for seat, client in enumerate(patched[1:], start=1):
            await client.send({"type": "join", "table": table})
            await client.expect("table")
            answer = await client.request({"type": "sit", "table": table, "seat": seat})
            assert answer["type"] != "error", answer
        others = []
        for client in patched:  # the same people again, with whole states
            twin = await Client.connect(server.url, client.name, token=client.token)
            await twin.send({"type": "join", "table": table})
            await twin.expect("table")
            others.append((client, twin))
        watchers = []
        for name, patches in (("WatcherP", True), ("WatcherW", False)):
            watcher = await Client.connect(server.url, name, patches=patches)
            await watcher.send({"type": "join", "table": table})
            await watcher.expect("table")
            watchers.append(watcher)
        others.append((watchers[0], watchers[1]))
        for client in patched:
            await client.settle()
        since = ann.seq  # everyone follows from here: the states before differ by who had joined yet
        started = await ann.request({"type": "start", "table": table})
        assert started["type"] != "error", started
        for _ in range(1000):
            for client in patched:
                await client.settle()
            if game_over(ann):
                break
            for client in patched:
                state = client.state
                deal = state and state["deal"]
                if deal and deal["to_act"] == state["you"] and deal["legal"]:
                    answer = await client.request({"type": "act", "table": table, "action": taker_first(state)})
                    assert answer["type"] != "error", answer
                    break
        assert game_over(ann)
        for client, twin in others:
            await client.settle()
            await twin.settle()
            rebuilt, expected = states_by_seq(client), states_by_seq(twin)
            compared = [seq for seq in rebuilt if seq > since]
            assert len(compared) > 50 and all(seq in expected for seq in compared)
            for seq in compared:
                assert rebuilt[seq] == expected[seq], f"{client.name}, seq {seq}: the patched state differs"


@SQLITE_ONLY
async def test_a_bad_patches_flag_is_refused(db_url: str) -> None:
    async with running_server(db_url) as server:
        client = await Client.connect(server.url, "Ann")
        import websockets

        ws = await websockets.connect(server.url)
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "Bob", "patches": "yes"}))
        answer = json.loads(await ws.recv())
        assert answer["type"] == "error" and answer["code"] == "malformed" and "patches" in answer["message"]
        await ws.close()
        await client.close()
