"""Patches: a client that asks for them (hello ``patches``) rebuilds exactly the states a client that
asked for whole states receives, event after event, through whole games and a reconnection."""

from __future__ import annotations

import json

import pytest

from .helpers import Client, running_server
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
        await play_until(ann, lambda c: c.state["deal"] is not None and c.state["deal"]["phase"] == "play"
                         and len(c.state["deal"]["trick"]) == 1)
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
