"""The walk of a played card that docs/server.md tells (issue 49, item 7): the server's files whose code runs,
on the event loop, from a person's card sent until its event reaches them (a coroutine resumed counts: the
layers the socket's handler runs within). Traced for real (``sys.setprofile`` over one played card at a table of
robots), against the list the document gives, so that the document cannot drift from the code."""

from __future__ import annotations

import contextlib
import re
import sys
from pathlib import Path

from .helpers import SQLITE_ONLY, Client, quick_config, running_server
from .test_tables import table_with_robots

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "atout" / "server"


def documented() -> list[str]:
    """The files the document says a card crosses, in its order."""
    text = (ROOT / "docs" / "server.md").read_text()
    found = re.search(r"Once parsed, the card crosses (\d+) files of the server(.*?)\(a game's last card", text, re.S)
    assert found is not None, "docs/server.md no longer tells the walk of a played card"
    files = re.findall(r"`([\w/]+)`", found.group(2))
    assert int(found.group(1)) == len(files), found.group(0)
    return files


@SQLITE_ONLY
async def test_a_played_card_crosses_the_files_the_document_names(db_url: str) -> None:
    # The robots take a minute of the fake clock a move, given them while the person waits: none moves while the
    # card is traced, whose walk is then the same at every run.
    async with running_server(db_url, quick_config(robot_pace=60.0)) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 3, deals=1)
        await ann.request({"type": "start", "table": table})
        room = server.hub.rooms[table]
        crossed: set[str] = set()
        while not crossed:
            state = ann.state
            deal = state and state["deal"]
            if not (deal and deal["to_act"] == state["you"] and deal["legal"]):
                if ann.seqs.get(table, 0) < room.table.seq:  # frames on their way: read them before moving time
                    await ann.recv()
                    continue
                if room.table.robot_turn() is not None:  # only a robot's minute: a minute more on Ann's own turn
                    server.clock.advance(61.0)  # (her page not told yet on a loaded machine) would time her out
                with contextlib.suppress(TimeoutError):
                    await ann.recv(0.2)
                continue
            choice = deal["legal"][0]
            if "play" not in choice:  # the bids and the écart: any legal answer
                action = {k: v for k, v in choice.items() if k != "discard_from"}
                if "discard_from" in choice:
                    action = {"ecart": [c for c in choice["discard_from"] if not c.startswith("T")][: choice["count"]]}
                await ann.request({"type": "act", "table": table, "action": action})
                continue
            seen: set[str] = set()

            def profile(frame, event, arg, seen=seen):  # type: ignore[no-untyped-def]
                if event == "call":
                    seen.add(frame.f_code.co_filename)

            sys.setprofile(profile)
            try:  # from the card sent to its event heard: the robots' turns after it are not this card's walk
                await ann.send(
                    {"type": "act", "table": table, "action": {"play": choice["play"]}, "seq": ann.seqs[table]}
                )
                while True:
                    frame = await ann.recv()
                    assert frame["type"] != "error", frame
                    if frame["type"] == "event" and frame["event"].get("seat") == state["you"]:
                        break
            finally:
                sys.setprofile(None)
            crossed = {str(Path(f).relative_to(SERVER).with_suffix("")) for f in seen if f.startswith(str(SERVER))}
        print(f"a played card runs code in {len(crossed)} files of the server: {sorted(crossed)}")
        assert sorted(crossed) == sorted(documented())
