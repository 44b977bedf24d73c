"""docs/protocol.md against the server, point by point, as a client written from the doc alone meets it:
over a real socket, with nothing but JSON frames and HTTP requests. So the two cannot drift apart."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest
import websockets

from atout.server.site import connection as connection_module

from .helpers import SQLITE_ONLY, Client, quick_config, running_server, site_page
from .test_fuzz import FakeMonotonic
from .test_http_api import documented_codes
from .test_tables import table_with_robots

SERVER = Path(__file__).resolve().parents[2] / "src" / "atout" / "server"
ERRORS = {
    "ProtocolError": 0,
    "AccountError": 0,
    "LedgerError": 0,
    "_error": 1,
    "error_answer": 1,
    "AnalysisError": 1,
    "DailyError": 1,
    "TournamentError": 1,
}
"""The calls that make an error a client receives, and which argument is its code."""


def sent_codes() -> set[str]:
    """Every error code the server's source can send, read from the calls that make errors (a code that
    is not a literal there is relayed from one that is: ``err.code``)."""
    codes: set[str] = set()
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name not in ERRORS or len(node.args) <= ERRORS[name]:
                continue
            code = node.args[ERRORS[name]]
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                codes.add(code.value)
            else:  # only a relay of another error's code may be anything but a literal
                assert isinstance(code, ast.Attribute) and code.attr == "code", (
                    f"{path.name}:{node.lineno}: an error code this test cannot read ({ast.unparse(code)})"
                )
    return codes


def test_every_error_code_the_server_sends_is_in_the_doc_and_no_other() -> None:
    sent, documented = sent_codes(), documented_codes()
    assert {"stale", "rate_limited", "bad_query", "internal", "not_logged_in"} <= sent  # the reading works
    assert not sent - documented, f"sent but not in docs/protocol.md's Errors: {sorted(sent - documented)}"
    assert not documented - sent, f"in docs/protocol.md's Errors but never sent: {sorted(documented - sent)}"


@SQLITE_ONLY
async def test_rate_limited_errors_echo_their_ref(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every error answer echoes the request's ``ref``: a refused burst too (a client matching answers by
    ``ref`` waited for ever)."""
    monkeypatch.setattr(connection_module, "time", FakeMonotonic())  # no token comes back while the test runs
    config = dataclasses.replace(quick_config(), rate=5.0, burst=4.0)
    async with running_server(db_url, config) as server:
        ann = await Client.connect(server.url, "Ann")  # the hello took one token: three left
        for i in range(12):
            await ann.send({"type": "ping", "ref": f"p{i}"})
        got = [await ann.recv() for _ in range(12)]
        assert [g["type"] for g in got] == ["pong"] * 3 + ["error"] * 9, got
        assert [(g["code"], g.get("ref")) for g in got[3:]] == [("rate_limited", f"p{i}") for i in range(3, 12)]
        await ann.send('{"type": "ping", "ref": 7}')  # a ref that is not a string is not echoed
        assert "ref" not in await ann.recv()
        await ann.send("not json")
        assert (await ann.recv())["code"] == "rate_limited"


@SQLITE_ONLY
@pytest.mark.parametrize("patches", [False, True])
async def test_join_after_absence_gives_the_missed_events_then_a_table_message(db_url: str, patches: bool) -> None:
    """ "With ``last_seq``, you get the events you missed and then a table state": once the seat was marked
    absent too, whose return is a ``present`` event."""
    config = quick_config(absent_after=10, abandon_after=180, robot_pace=1.0)  # robots wait for the clock
    async with running_server(db_url, config) as server:
        ann = await Client.connect(server.url, "Ann", patches=patches)
        table = await table_with_robots(ann, 3, level="random", turn_seconds=0)
        await ann.request({"type": "start", "table": table})
        await ann.settle()
        last, token = ann.seqs[table], ann.token
        await ann.close()
        watcher = await Client.connect(server.url, "Watcher")
        await watcher.send({"type": "join", "table": table})
        await watcher.expect("table")
        server.clock.advance(11)
        await watcher.expect("absent", seat=0)
        await watcher.settle()
        ann = await Client.connect(server.url, "Ann", token=token, patches=patches)
        await ann.send({"type": "join", "table": table, "last_seq": last})
        await ann.expect("table")
        kinds = [(f["type"], f.get("event", {}).get("type")) for f in ann.frames if f["type"] in ("event", "table")]
        events = [f["seq"] for f in ann.frames if f["type"] == "event"]
        assert kinds[-2:] == [("event", "present"), ("table", None)], kinds
        assert events == list(range(last + 1, events[-1] + 1)) and ("event", "absent") in kinds
        table_message = ann.frames[-1]
        assert table_message["seq"] == events[-1] and table_message["state"]["seats"][0]["present"]
        await watcher.settle()
        assert ann.state["seq"] == watcher.state["seq"] and ann.state["seats"] == watcher.state["seats"]


@SQLITE_ONLY
async def test_what_the_doc_says_of_fields_and_ranges(db_url: str) -> None:
    """A negative ``seq`` or an empty table id is ``malformed`` (not ``stale``, not ``no_table``); so is
    a field the message does not have; a table id of the right form that no table has is ``no_table``."""
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 3})
        table = (await ann.expect("master"))["table"]
        await ann.settle()
        before = server.hub.rooms[table].table.snapshot()
        cases = [
            ({"type": "sit", "table": table, "seat": 1, "seq": -1}, "malformed", "seq"),
            ({"type": "sit", "table": table, "seat": 1, "seq": 0}, "stale", "event"),
            ({"type": "sit", "table": "", "seat": 1, "seq": 3}, "malformed", "table"),
            ({"type": "sit", "table": "a b", "seat": 1, "seq": 3}, "malformed", "table"),
            ({"type": "sit", "table": "x" * 33, "seat": 1, "seq": 3}, "malformed", "table"),
            ({"type": "sit", "table": "nosuchtable", "seat": 1, "seq": 3}, "no_table", "nosuchtable"),
            ({"type": "sit", "table": table, "seat": 1, "seq": 3, "colour": "red"}, "malformed", "colour"),
            ({"type": "sit", "table": table, "seat": 5, "seq": 3}, "malformed", "seat"),
            ({"type": "sit", "table": table, "seat": 4, "seq": 3}, "no_seat", "seat 4"),
            ({"type": "sit", "table": table, "seat": "1", "seq": 3}, "malformed", "seat"),
            ({"type": "join", "table": table, "last_seq": -2}, "malformed", "last_seq"),
            ({"type": "hello", "protocol": 1}, "hello_again", "hello"),
        ]
        for i, (message, code, named) in enumerate(cases):
            await ann.send({**message, "ref": f"c{i}"})
            answer = await ann.expect("error")
            assert (answer["code"], answer["ref"]) == (code, f"c{i}"), (message, answer)
            assert named in answer["message"], (message, answer)
        assert server.hub.rooms[table].table.snapshot() == before
        async with websockets.connect(server.url) as ws:  # before hello, and a hello of another version
            await ws.send('{"type": "ping", "ref": "before"}')
            first = json.loads(await ws.recv())
            assert (first["code"], first["ref"]) == ("hello_first", "before")
            await ws.send('{"type": "hello", "protocol": 2, "ref": "v2"}')
            assert json.loads(await ws.recv()) == {
                "type": "error",
                "code": "protocol",
                "ref": "v2",
                "message": "this server speaks protocol 1, not 2",
            }


@SQLITE_ONLY
async def test_the_http_limits_the_doc_gives(db_url: str) -> None:
    """A body of 4,096 bytes is read, one more is ``too_large``; ten registrations an hour from one address
    (refused ones count), then 429."""
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        body = b'{"name": "Reg_0", "password": "long enough secret", "x": "' + b"y" * 4096
        fits = body[: 4096 - 2] + b'"}'
        assert len(fits) == 4096
        made = await http.post("/api/register", content=fits)
        assert made.status_code == 201, made.text
        over = body[: 4097 - 2] + b'"}'
        answer = await http.post("/api/register", content=over)
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, "too_large")
        assert "4096" in answer.json()["error"]["message"]
        answers = []
        for i in range(1, 11):  # the first counted; one refused by name; then new names
            name = "x" if i == 1 else f"Reg_{i}"
            answers.append(
                (await http.post("/api/register", json={"name": name, "password": "long enough secret"})).status_code
            )
        assert answers == [400] + [201] * 8 + [429], answers
        refused = await http.post("/api/register", json={"name": "Reg_99", "password": "long enough secret"})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert "address" in refused.json()["error"]["message"]
        # behind a proxy of the site's (--behind-proxy), the address is the one the proxy forwards
        elsewhere = await http.post(
            "/api/register",
            json={"name": "Reg_100", "password": "long enough secret"},
            headers={"X-Forwarded-For": "203.0.113.9"},
        )
        assert elsewhere.status_code == 201, elsewhere.text


def test_every_message_the_server_tells_is_typed_and_in_the_doc_and_no_other() -> None:
    """``server/told.py`` types each outgoing message (mypy checks every place that builds one); the doc's
    "Server → client" table lists the same kinds."""
    from atout.server.told import KINDS

    text = (SERVER.parents[2] / "docs" / "protocol.md").read_text()
    section = text.split("## Server → client", 1)[1].split("\n\n", 2)[1]
    documented = {line.split("`")[1] for line in section.splitlines() if line.startswith("| `")}
    assert {"welcome", "table", "event", "error", "pong"} <= documented  # the reading works
    assert set(KINDS) == documented, (sorted(set(KINDS) - documented), sorted(documented - set(KINDS)))
    assert len(KINDS) == len(set(KINDS))
