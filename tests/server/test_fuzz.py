"""Bad input never breaks the server: 10,000 bad messages, each refused by name, nothing changed.

A seeded generator writes malformed, oversized, out-of-turn, stale,
wrong-table and illegal messages, and messages from people who may not send
them, each with the error code it must get and words its message must say.
They go to a real server from five connections while a game waits for its
person to act; afterwards the table and its stored events are as they were,
every connection still answers, and the game plays on.  Rate limits and the
frame-size limits have their own tests.
"""

from __future__ import annotations

import asyncio
import json
import random
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import websockets

from atout.engine import IllegalAction
from atout.engine.cards import FULL_DECK, codes
from atout.engine.record import RecordError, parse_action
from atout.server.features.limits import RULES, Budget, Rule, Scope
from atout.server.http.app import MAX_FRAME
from atout.server.protocol import MAX_CHAT, MAX_MESSAGE_BYTES, MESSAGE_TYPES
from atout.server.site import connection as connection_module
from atout.server.site.config import Config
from atout.server.table import Timing

from .helpers import SQLITE_ONLY, Client, Server, eventually, first_legal, quick_config, running_server

MESSAGES = 10_000
PIPELINE = 50
"""Messages a connection sends before reading their answers (answers come back in order)."""
CARDS = codes(FULL_DECK)
BIDS = ("pass", "prise", "garde", "garde_sans", "garde_contre")
KINDS = (
    "hello", "lobby", "create", "join", "sit", "leave", "robot", "unrobot", "options", "start", "act", "back",
    "seen", "chat", "cancel", "vote", "invite", "ping",
)  # fmt: skip
"""The message types this generator knows how to write well (and so badly)."""


@dataclass
class Case:
    """One bad message: who sends it, the frame, the error it must get, and words that answer must say."""

    sender: str
    frame: str | bytes
    code: str | tuple[str, ...]
    says: tuple[str, ...] = ()
    ref: str | None = None
    what: str = ""
    kind: str = ""  # the generator's kind of bad message

    def codes(self) -> tuple[str, ...]:
        return (self.code,) if isinstance(self.code, str) else self.code


@dataclass
class Scene:
    """The tables the bad messages aim at, as they stand while the game waits for Ann."""

    table: str  # a game in progress, Ann (seat 0, master) to act, Bob in seat 1, Eve watching
    seq: int
    game_seq: int  # the event that started its game: a proposal to cancel is stale only from before it
    waiting: str  # Bob's own table, waiting, that Ann neither sits at nor follows
    waiting_seq: int
    hand: list[str]
    legal: list[dict[str, Any]]
    players: int
    deal: Any  # the engine's deal, to make sure no "illegal" action is in fact legal
    counter: list[int] = field(default_factory=lambda: [0])

    def ref(self) -> str:
        self.counter[0] += 1
        return f"r{self.counter[0]}"


class Generator:
    """A seeded stream of bad messages for a scene."""

    def __init__(self, scene: Scene, seed: int) -> None:
        self.scene = scene
        self.rng = random.Random(seed)
        self.makers = [
            (self.malformed_json, 8),
            (self.not_an_object, 4),
            (self.unknown_type, 6),
            (self.bad_fields, 16),
            (self.oversized, 2),
            (self.stale, 10),
            (self.out_of_turn, 6),
            (self.illegal, 14),
            (self.wrong_table, 8),
            (self.spectator, 8),
            (self.not_master, 8),
            (self.stranger, 6),
            (self.misc, 6),
        ]

    def __iter__(self) -> Iterator[Case]:
        makers, weights = zip(*self.makers, strict=True)
        while True:
            maker = self.rng.choices(makers, weights)[0]
            case = maker()
            case.kind = maker.__name__
            yield case

    # ------------------------------------------------------------ helpers
    def sender(self) -> str:
        return self.rng.choice(["ann", "bob", "eve", "zed"])

    def word(self, low: int = 1, high: int = 12) -> str:
        return "".join(self.rng.choices(string.ascii_letters + string.digits, k=self.rng.randint(low, high)))

    def stale_seq(self, kind: str) -> int:
        seq = self.scene.seq
        since = self.scene.game_seq if kind == "cancel" else seq  # a cancel answers the game, not its last card
        return self.rng.choice([self.rng.randrange(0, since), seq + self.rng.randint(1, 10_000)])

    def good(self, kind: str, table: str | None = None, seq: int | None = None) -> dict[str, Any]:
        """A well-formed message of ``kind`` aimed at the game's table (the handler may still refuse it)."""
        s = self.scene
        t = table or s.table
        q = s.seq if seq is None else seq
        return {
            "hello": {"type": "hello", "protocol": 1, "name": "Someone"},
            "lobby": {"type": "lobby"},
            "create": {"type": "create", "players": 4},
            "join": {"type": "join", "table": t},
            "sit": {"type": "sit", "table": t, "seat": 2, "seq": q},
            "leave": {"type": "leave", "table": t, "seq": q},
            "robot": {"type": "robot", "table": t, "seat": 2, "level": "random", "seq": q},
            "unrobot": {"type": "unrobot", "table": t, "seat": 2, "seq": q},
            "options": {"type": "options", "table": t, "options": {"deals": 3}, "seq": q},
            "start": {"type": "start", "table": t, "seq": q},
            "act": {"type": "act", "table": t, "seq": q, "action": first_legal({"deal": {"legal": s.legal}})},
            "back": {"type": "back", "table": t, "seq": q},
            "seen": {"type": "seen", "table": t},
            "chat": {"type": "chat", "table": t, "text": "hello"},
            "cancel": {"type": "cancel", "table": t, "seq": q},
            "vote": {"type": "vote", "table": t, "accept": True, "seq": q},
            "invite": {"type": "invite", "table": t, "name": "Someone"},
            "ping": {"type": "ping"},
        }[kind]

    def case(
        self,
        sender: str,
        message: dict[str, Any],
        code: str | tuple[str, ...],
        *says: str,
        ref: bool = True,
        what: str = "",
    ) -> Case:
        message = dict(message)
        tag = None
        if ref:
            tag = message["ref"] = self.scene.ref()
        return Case(sender, json.dumps(message), code, says, tag, what or message.get("type", ""))

    # ------------------------------------------------------------ kinds of bad message
    def malformed_json(self) -> Case:
        text = json.dumps(self.good(self.rng.choice(KINDS)))
        how = self.rng.randrange(6)
        if how == 0:
            frame: str | bytes = text[: self.rng.randrange(0, len(text) - 1)]  # cut short
        elif how == 1:
            frame = text.replace('"', "'")
        elif how == 2:
            frame = "".join(self.rng.choices(string.printable, k=self.rng.randint(1, 200)))
            if frame.strip().lstrip("-").isdigit():
                frame = "{" + frame
        elif how == 3:
            frame = bytes(self.rng.randrange(128, 256) for _ in range(self.rng.randint(1, 64)))  # not UTF-8
        elif how == 4:
            depth = self.rng.randint(1_500, 4_000)
            frame = '{"type": "ping", "x": ' + "[" * depth + "]" * depth + "}"  # deeper than json may go
        else:
            frame = text + self.rng.choice([",", "}", "]", " x", "\x00"])
        return Case(self.sender(), frame, "malformed", ("JSON",), what="malformed JSON")

    def not_an_object(self) -> Case:
        frame = self.rng.choice(["[]", "1", '"ping"', "null", "true", "-3.5", '[{"type": "ping"}]', '"{}"'])
        return Case(self.sender(), frame, "malformed", ("object",), what="not an object")

    def unknown_type(self) -> Case:
        kind = self.rng.choice(
            [
                self.word(),
                "PING",
                "pong",
                "welcome",
                "event",
                "error",
                5,
                None,
                ["ping"],
                {"type": "ping"},
                "",
                " ping",
            ]
        )
        if kind in MESSAGE_TYPES:  # a random word may be a real type
            kind = "no-such-type"
        message: dict[str, Any] = {"table": self.scene.table}
        if kind is not None or self.rng.random() < 0.5:
            message["type"] = kind
        return self.case(self.sender(), message, "unknown_type", "type", ref=False, what="unknown type")

    def bad_fields(self) -> Case:
        """A message of a real type with a field missing, added, or of the wrong type: named in the error."""
        kind = self.rng.choice([k for k in KINDS if k not in ("lobby", "ping")])
        message = self.good(kind)
        fields = [k for k in message if k != "type"]
        how = self.rng.randrange(3)
        if how == 0:
            required = [k for k in fields if k not in ("name", "level", "options", "protocol")]
            if required:
                name = self.rng.choice(required)
                del message[name]
                return self.case(self.sender(), message, "malformed", name, "required", what="missing field")
            how = 1
        if how == 1:
            name = self.rng.choice(["seat", "colour", "x", "players", "text", "cards", "seats"])
            if name in message:
                name = "extra_" + name
            message[name] = self.rng.choice([1, "x", None, [], {}])
            return self.case(self.sender(), message, "malformed", name, what="extra field")
        name = self.rng.choice(fields)
        message[name] = self.wrong_value(name)
        return self.case(self.sender(), message, "malformed", name, what="wrong-typed field")

    def wrong_value(self, name: str) -> Any:
        if name in ("seq", "seat", "players", "protocol", "last_seq"):
            wrong: list[Any] = ["1", "x", 1.5, True, [], {}, "0" if name == "last_seq" else None]
            if name != "protocol":  # any whole number is a protocol version (refused as such, not malformed)
                wrong.append(-1)
            return self.rng.choice(wrong)
        if name in ("table",):
            return self.rng.choice([5, None, [], {}, "", "bad id!", "x" * 33, "é"])
        if name == "accept":
            return self.rng.choice(["yes", 1, 0, None, [], "true"])
        if name in ("options", "action"):
            return self.rng.choice(["x", 1, [], None, True])
        if name == "text":
            return self.rng.choice([5, None, [], "", "x" * (MAX_CHAT + 1)])
        if name in ("name", "token", "level"):
            return self.rng.choice([5, [], {}, True, "x" * 300])
        return self.rng.choice([5, [], {}])

    def oversized(self) -> Case:
        size = self.rng.randint(MAX_MESSAGE_BYTES + 1, 3 * MAX_MESSAGE_BYTES)
        filler = self.rng.choice(["x", "é", "€"])
        text = filler * (size // len(filler.encode()) + 1)
        frame = json.dumps({"type": "chat", "table": self.scene.table, "text": text}, ensure_ascii=False)
        return Case(self.sender(), frame, "too_large", (str(MAX_MESSAGE_BYTES),), what="oversized")

    def stale(self) -> Case:
        kind = self.rng.choice(["sit", "leave", "robot", "unrobot", "options", "start", "act", "cancel", "vote"])
        seq = self.stale_seq(kind)
        return self.case("ann", self.good(kind, seq=seq), "stale", str(seq), str(self.scene.seq))

    def out_of_turn(self) -> Case:
        action = self.rng.choice(
            [
                first_legal({"deal": {"legal": self.scene.legal}}),
                {"bid": "pass"},
                {"play": self.rng.choice(CARDS)},
            ]
        )
        message = {**self.good("act"), "action": action}
        return self.case("bob", message, "not_your_turn", "turn", "seat 1")

    def illegal(self) -> Case:
        """Ann's own turn, with an action the rules refuse (never one that is in fact legal)."""
        rng = self.rng
        while True:
            how = rng.randrange(9)
            action: dict[str, Any]
            if how == 0:
                action = {"play": rng.choice(CARDS)}
            elif how == 1:
                action = {"bid": rng.choice(BIDS)}
            elif how == 2:
                action = {"discard": rng.sample(CARDS, rng.choice([3, 6]))}
            elif how == 3:
                action = {"call": rng.choice(CARDS)}
            elif how == 4:
                action = {"chelem": rng.choice([True, False])}
            elif how == 5:
                action = {"poignee": rng.sample([c for c in CARDS if c.startswith("T")], rng.choice([8, 10, 13]))}
            elif how == 6:
                action = {"petit_sec": rng.choice(["play", "redeal"])}
            elif how == 7:  # shapes the record refuses
                return self.case(
                    "ann",
                    {
                        **self.good("act"),
                        "action": rng.choice(
                            [
                                {},
                                {"play": "ZZ"},
                                {"play": 5},
                                {"bid": "everything"},
                                {"play": "KS", "bid": "pass"},
                                {"seat": 0, "play": "KS"},
                                {"discard": "KS"},
                                {"chelem": "yes"},
                                {"petit_sec": "maybe"},
                                {"poignee": ["T1", "T1"]},
                                {"jump": 1},
                            ]
                        ),
                    },
                    "malformed",
                    what="unreadable action",
                )
            else:
                return self.case(
                    "ann",
                    {**self.good("act"), "action": rng.choice([[], "KS", 5])},
                    "malformed",
                    "action",
                    what="action not an object",
                )
            try:
                seat, parsed = parse_action({"seat": 0, **action}, 0, self.scene.players)
                self.scene.deal.clone().apply(parsed, seat)
            except (IllegalAction, RecordError):
                return self.case("ann", {**self.good("act"), "action": action}, "illegal", what="illegal action")

    def wrong_table(self) -> Case:
        s, rng = self.scene, self.rng
        how = rng.randrange(5)
        if how == 0:  # a table that does not exist
            ghost = self.word(4, 12)
            kind = rng.choice(["join", "sit", "act", "start", "chat", "seen", "vote", "cancel", "back", "robot"])
            return self.case(self.sender(), self.good(kind, table=ghost), "no_table", ghost)
        if how == 1:
            return self.case(
                "ann",
                self.good("act", table=s.waiting, seq=s.waiting_seq),
                "not_seated",
                what="act at a table one does not sit at",
            )
        if how == 2:
            kind = rng.choice(["start", "robot", "options", "unrobot"])
            return self.case("ann", self.good(kind, table=s.waiting, seq=s.waiting_seq), "not_master", "master")
        if how == 3:
            kind = rng.choice(["chat", "seen"])
            return self.case("ann", self.good(kind, table=s.waiting), "not_here", "join")
        return self.case("ann", self.good("act", table=s.waiting, seq=s.waiting_seq + 1), "stale")

    def spectator(self) -> Case:
        """Eve watches: she may not act, leave, cancel or come back; Zed does not even follow the table."""
        kind = self.rng.choice(["act", "leave", "back", "cancel", "act-zed", "chat-zed", "seen-zed", "sit-zed"])
        if kind == "act-zed":
            return self.case("zed", self.good("act"), "not_seated")
        if kind == "chat-zed":
            return self.case("zed", self.good("chat"), "not_here", "join")
        if kind == "seen-zed":
            return self.case("zed", self.good("seen"), "not_here", "join")
        if kind == "sit-zed":
            return self.case("zed", self.good("sit"), "game_running")
        return self.case("eve", self.good(kind), "not_seated")

    def not_master(self) -> Case:
        kind = self.rng.choice(["robot", "unrobot", "options", "start", "invite"])
        sender = self.rng.choice(["bob", "eve", "zed"])
        return self.case(sender, self.good(kind), "not_master", "master")

    def stranger(self) -> Case:
        """A connection that never said hello, and hellos that are refused."""
        rng = self.rng
        how = rng.randrange(5)
        if how == 0:
            return self.case(
                "stranger",
                self.good(rng.choice([k for k in KINDS if k != "hello"])),
                "hello_first",
                "hello",
            )
        if how == 1:
            version = rng.choice([0, 2, 99, -1])
            return self.case("stranger", {"type": "hello", "protocol": version}, "protocol", str(version))
        if how == 2:
            name = rng.choice(["x", "no spaces", "a/b", "<b>", "ab"])
            return self.case("stranger", {"type": "hello", "protocol": 1, "name": name}, "bad_name", "name")
        if how == 3:
            token = rng.choice(["abc", "g123.456", "é.x", "." * 20, self.word(5, 60)])
            return self.case("stranger", {"type": "hello", "protocol": 1, "token": token}, "bad_token", "token")
        return self.case(rng.choice(["ann", "bob", "eve", "zed"]), self.good("hello"), "hello_again", "hello")

    def misc(self) -> Case:
        """Refusals that depend on the table's state: no vote to answer, options and seats during a game."""
        rng = self.rng
        how = rng.randrange(7)
        if how == 0:
            return self.case(rng.choice(["ann", "bob", "eve"]), self.good("vote"), "no_vote", "vote")
        if how == 5:
            return self.case(rng.choice(["ann", "bob"]), self.good("back"), "not_automatic", "automatic")
        if how == 1:
            kind = rng.choice(["options", "robot", "unrobot", "start", "sit"])
            return self.case("ann", self.good(kind), "game_running", "game")
        if how == 2:
            return self.case(
                rng.choice(["ann", "eve"]),
                {**self.good("chat"), "text": rng.choice([" ", "\n\t "])},
                "malformed",
                "chat",
            )
        if how == 3:
            bad = rng.choice([{"deals": 0}, {"colour": "red"}, {"self": 1}, {"rules": {"players": 3}}])
            return self.case("ann", {"type": "create", "players": 4, "options": bad}, "bad_option")
        if how == 4:
            return self.case(
                rng.choice(["ann", "bob", "eve", "zed"]),
                {"type": "create", "players": rng.choice([0, 2, 6, "4"])},
                "malformed",
                "players",
            )
        return self.case("eve", self.good("join", table="bad id!"), "malformed", "table")


# ---------------------------------------------------------------- the scene
async def make_scene(server: Server) -> tuple[Scene, dict[str, Client], Any]:
    """A four-seat game (Ann master in seat 0, Bob in seat 1, two robots) waiting for Ann to act."""
    ann = await Client.connect(server.url, "Ann")
    bob = await Client.connect(server.url, "Bob")
    eve = await Client.connect(server.url, "Eve")
    zed = await Client.connect(server.url, "Zed")
    await ann.send({"type": "create", "players": 4, "options": {"turn_seconds": 0, "deals": 2}})
    table = (await ann.expect("master"))["table"]
    for client in (bob, eve):
        await client.send({"type": "join", "table": table})
        await client.expect("table")
    await bob.request({"type": "sit", "table": table, "seat": 1})
    await ann.settle()
    for seat in (2, 3):
        answer = await ann.request({"type": "robot", "table": table, "seat": seat, "level": "random"})
        assert answer["type"] == "event", answer
    await bob.send({"type": "create", "players": 3})
    waiting = (await bob.expect("master"))["table"]
    await bob.settle()
    await ann.request({"type": "start", "table": table})
    # Bob plays his turns until it is Ann's turn with something to decide
    while True:
        for client in (ann, bob):
            await client.settle()
        state = bob.state
        if state["deal"]["to_act"] == 1 and state["deal"]["legal"]:
            await bob.request({"type": "act", "table": table, "action": first_legal(state)})
            continue
        if ann.state["deal"]["to_act"] == 0 and ann.state["deal"]["legal"]:
            break
    for client in (eve, zed):
        await client.settle()
    room = server.hub.rooms[table]
    stranger = await websockets.connect(server.url, max_size=None)
    scene = Scene(
        table,
        room.table.seq,
        room.table.game_seq,
        waiting,
        server.hub.rooms[waiting].table.seq,
        ann.state["deal"]["hand"],
        ann.state["deal"]["legal"],
        4,
        room.table.deal,
    )
    return scene, {"ann": ann, "bob": bob, "eve": eve, "zed": zed}, stranger


def stored(server: Server, table: str) -> list[dict[str, Any]]:
    return [e.data for e in server.hub.store.events_after(table, 0, 1_000_000)]


async def answers(ws: Any, count: int) -> list[dict[str, Any]]:
    return [json.loads(await asyncio.wait_for(ws.recv(), 10)) for _ in range(count)]


def fuzz_config() -> Config:
    """No rate limit to speak of: the fuzz test sends as fast as the server answers."""
    return Config(
        secret=b"test-secret",
        timing=Timing(robot_pace=0.0, deal_pause=0.0),
        rate=1e9,
        burst=1e9,
        limit_factor=1_000_000,
    )


@SQLITE_ONLY
async def test_ten_thousand_bad_messages_change_nothing(db_url: str) -> None:
    async with running_server(db_url, fuzz_config()) as server:
        scene, people, stranger = await make_scene(server)
        sockets = {name: c.ws for name, c in people.items()} | {"stranger": stranger}
        room = server.hub.rooms[scene.table]
        before = room.table.snapshot()
        events_before = stored(server, scene.table)
        waiting_before = server.hub.rooms[scene.waiting].table.snapshot()
        tables_before = set(server.hub.rooms)
        stored_tables = sorted(t.table_id for t in server.hub.store.open_tables())
        games_before = server.hub.store.games()

        cases = Generator(scene, seed=20261122)
        sent: dict[str, int] = dict.fromkeys(sockets, 0)
        kinds: dict[str, int] = {}
        wrong: list[str] = []
        total = 0
        stream = iter(cases)
        while total < MESSAGES:
            batch: dict[str, list[Case]] = {name: [] for name in sockets}
            for _ in range(min(PIPELINE * len(sockets), MESSAGES - total)):
                case = next(stream)
                batch[case.sender].append(case)
                total += 1
            for name, items in batch.items():
                for case in items:
                    await sockets[name].send(case.frame)
            for name, items in batch.items():
                for case, answer in zip(items, await answers(sockets[name], len(items)), strict=True):
                    sent[name] += 1
                    kinds[case.kind] = kinds.get(case.kind, 0) + 1
                    problem = judge(case, answer)
                    if problem:
                        wrong.append(f"{case.what} from {name}: {case.frame[:200]!r} -> {answer}: {problem}")
        assert not wrong, f"{len(wrong)} of {total} answers were wrong, e.g.:\n" + "\n".join(wrong[:15])
        assert total == MESSAGES and sum(sent.values()) == MESSAGES
        assert len(kinds) == len(cases.makers) and min(kinds.values()) >= 100, kinds  # every kind, often

        # nothing changed: the tables, what is stored, the tables there are
        assert room.table.snapshot() == before
        assert stored(server, scene.table) == events_before
        assert sorted(t.table_id for t in server.hub.store.open_tables()) == stored_tables
        assert server.hub.store.games() == games_before
        assert server.hub.rooms[scene.waiting].table.snapshot() == waiting_before
        assert set(server.hub.rooms) == tables_before
        # every connection is still open and answers
        for ws in sockets.values():
            await ws.send(json.dumps({"type": "ping"}))
        for name, ws in sockets.items():
            answer = (await answers(ws, 1))[0]
            expected = "pong" if name != "stranger" else "error"
            assert answer["type"] == expected, (name, answer)
        # and the game plays on to its end: Ann's legal action is taken, then everyone's
        ann = people["ann"]
        answer = await ann.request({"type": "act", "table": scene.table, "action": first_legal(ann.state)})
        assert answer["type"] == "event" and answer["event"]["type"] == "action", answer
        await asyncio.gather(*(play_on(people[name], scene.table) for name in ("ann", "bob")))
        assert room.table.game_outcome == "finished" and room.table.game.deals_played == 2
        await stranger.close()


async def play_on(client: Client, table: str) -> None:
    """Answer each of ``client``'s turns with a legal action until the game ends."""
    acted_at = -1
    while not any(f.get("type") == "event" and f["event"]["type"] == "game_end" for f in client.frames):
        state = client.state
        deal = state["deal"]
        if deal and deal["to_act"] == state["you"] and deal["legal"] and state["seq"] == client.seq != acted_at:
            acted_at = client.seq
            action = first_legal(state)
            await client.send({"type": "act", "table": table, "seq": client.seq, "action": action})
        frame = await client.recv()
        assert frame["type"] != "error", frame


def judge(case: Case, answer: dict[str, Any]) -> str | None:
    """What is wrong with ``answer`` to ``case``, if anything."""
    if answer.get("type") != "error":
        return "not an error"
    if answer.get("code") not in case.codes():
        return f"code {answer.get('code')!r}, expected {case.codes()}"
    message = answer.get("message")
    if not isinstance(message, str) or len(message) < 10:
        return "no message saying what was wrong"
    missing = [w for w in case.says if w.lower() not in message.lower()]
    if missing:
        return f"the message does not say {missing}"
    if case.ref is not None and answer.get("ref") != case.ref:
        return f"ref {answer.get('ref')!r} instead of {case.ref!r}"
    if answer["code"] == "illegal" and not answer.get("rule"):
        return "an illegal action without the rule it breaks"
    if answer["code"] == "stale" and not isinstance(answer.get("seq"), int):
        return "a stale answer without the table's seq"
    return None


# ---------------------------------------------------------------- limits
class FakeMonotonic:
    """Stands in for the hub's ``time`` module: the rate limits' clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@SQLITE_ONLY
async def test_a_burst_is_rate_limited_then_served_again(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeMonotonic()
    monkeypatch.setattr(connection_module, "time", clock)
    config = quick_config()
    config.rate, config.burst = 5.0, 10.0
    async with running_server(db_url, config) as server:
        ann = await Client.connect(server.url, "Ann")  # the hello took one token
        for i in range(30):
            await ann.send({"type": "ping", "ref": f"p{i}"})
        got = [await ann.recv() for _ in range(30)]
        assert [g["type"] for g in got[:9]] == ["pong"] * 9
        limited = got[9:]
        assert all(
            g["type"] == "error" and g["code"] == "rate_limited" and "slow down" in g["message"] for g in limited
        ), limited
        clock.now += 0.5  # two and a half tokens come back
        for _ in range(3):
            await ann.send({"type": "ping"})
        got = [await ann.recv() for _ in range(3)]
        assert [g["type"] for g in got] == ["pong", "pong", "error"]
        clock.now += 10  # a full bucket again
        for _ in range(10):
            await ann.send({"type": "ping"})
        assert [(await ann.recv())["type"] for _ in range(10)] == ["pong"] * 10
        # another connection was never limited
        bob = await Client.connect(server.url, "Bob")
        await bob.send({"type": "ping"})
        assert (await bob.recv())["type"] == "pong"


@SQLITE_ONLY
async def test_a_chat_flood_is_cut_to_five_in_ten_seconds(db_url: str) -> None:
    async with running_server(db_url) as server:  # its clock moves only when the test says
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 3})
        table = (await ann.expect("master"))["table"]
        await ann.settle()
        eve = await Client.connect(server.url, "Eve")
        await eve.send({"type": "join", "table": table})
        await eve.expect("table")
        seq = server.hub.rooms[table].table.seq
        for i in range(100):
            await eve.send({"type": "chat", "table": table, "text": f"spam {i}", "ref": f"c{i}"})
        got = [await eve.recv() for _ in range(100)]
        said = [g for g in got if g["type"] == "event"]
        refused = [g for g in got if g["type"] == "error"]
        assert [g["event"]["text"] for g in said] == [f"spam {i}" for i in range(5)]
        assert len(refused) == 95 and all(g["code"] == "rate_limited" and "chat" in g["message"] for g in refused)
        assert [g["ref"] for g in refused] == [f"c{i}" for i in range(5, 100)]
        # the others heard five messages, and the table keeps five
        await ann.settle()
        heard = [f for f in ann.frames if f["type"] == "event" and f["event"]["type"] == "chat"]
        assert len(heard) == 5 and server.hub.rooms[table].table.seq == seq + 5
        assert len(server.hub.rooms[table].table.chat) == 5
        # Eve still may do everything else at once, and chat again ten seconds later
        await eve.send({"type": "ping"})
        assert (await eve.recv())["type"] == "pong"
        server.clock.advance(10.5)
        await eve.send({"type": "chat", "table": table, "text": "sorry"})
        assert (await eve.expect("chat"))["event"]["text"] == "sorry"


@SQLITE_ONLY
async def test_frame_size_limits(db_url: str) -> None:
    """Above 8 KB: too_large and the connection stays; above 64 KB: the connection is closed with 1009."""
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 3})
        table = (await ann.expect("master"))["table"]
        await ann.settle()
        before = server.hub.rooms[table].table.snapshot()
        for size in (MAX_MESSAGE_BYTES + 1, 20_000, 64 * 1024 - 100):
            await ann.send(json.dumps({"type": "chat", "table": table, "text": "x" * size}))
            error = await ann.expect("error")
            assert error["code"] == "too_large" and str(MAX_MESSAGE_BYTES) in error["message"]
        await ann.send({"type": "ping"})
        assert (await ann.recv())["type"] == "pong"
        name = "x" * (MAX_MESSAGE_BYTES - len(json.dumps({"type": "create", "players": 3, "options": {"": 1}})))
        exactly = {"type": "create", "players": 3, "options": {name: 1}}
        assert len(json.dumps(exactly)) == MAX_MESSAGE_BYTES
        await ann.send(exactly)  # at the limit: read, and answered on its merits
        assert (await ann.expect("error"))["code"] == "bad_option"

        eve = await Client.connect(server.url, "Eve")
        await eve.send("x" * (64 * 1024 + 1))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await eve.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        # the server is fine, and so is everyone else
        await ann.send({"type": "ping"})
        assert (await ann.recv())["type"] == "pong"
        assert server.hub.rooms[table].table.snapshot() == before


@SQLITE_ONLY
async def test_a_refused_sit_hears_nothing_of_a_private_table(db_url: str) -> None:
    """A sit that is refused must not have made its sender a follower, even while it waited for the table."""
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 3, "options": {"private": True}})
        table = (await ann.expect("master"))["table"]
        await ann.settle()
        eve = await Client.connect(server.url, "Eve")
        room = server.hub.rooms[table]
        async with room.lock:  # the table is busy: both requests wait for it, Ann's chat first
            await ann.send({"type": "chat", "table": table, "text": "a secret"})
            await eventually(lambda: len(room.lock._waiters or ()) == 1, "Ann's chat never waited for the table")
            await eve.send({"type": "sit", "table": table, "seat": 1, "seq": room.table.seq + 1})  # after the chat
            await eventually(lambda: len(room.lock._waiters or ()) == 2, "Eve's sit never waited for the table")
        await ann.expect("chat")
        refused = await eve.recv()
        assert refused["type"] == "error" and refused["code"] == "private", refused
        await eve.settle()
        assert [f for f in eve.frames if f["type"] != "welcome"] == [refused]


@SQLITE_ONLY
async def test_during_a_cancel_vote_actions_are_refused_and_change_nothing(db_url: str) -> None:
    async with running_server(db_url, fuzz_config()) as server:
        scene, people, stranger = await make_scene(server)
        await stranger.close()
        ann, bob, eve = people["ann"], people["bob"], people["eve"]
        proposed = await bob.request({"type": "cancel", "table": scene.table})
        assert proposed["type"] == "event" and proposed["event"]["type"] == "cancel_proposed", proposed
        for client in (ann, bob, eve):
            await client.settle()
        room = server.hub.rooms[scene.table]
        before, events_before = room.table.snapshot(), stored(server, scene.table)
        refusals = [
            (ann, {"type": "act", "action": first_legal(ann.state)}, "vote_running"),
            (ann, {"type": "cancel"}, "vote_running"),
            (bob, {"type": "vote", "accept": True}, "voted"),
            (bob, {"type": "vote", "accept": False}, "voted"),
            (eve, {"type": "vote", "accept": False}, "not_voter"),
            (ann, {"type": "vote", "accept": True, "seq": ann.seq - 1}, "stale"),
        ]
        for client, message, code in refusals:
            answer = await client.request({"table": scene.table, **message})
            assert answer["type"] == "error" and answer["code"] == code, (message, answer)
        server.clock.advance(30)  # robots do not play while the vote runs, nor does a clock run out
        await ann.settle()
        assert room.table.snapshot() == before and stored(server, scene.table) == events_before
        answer = await ann.request({"type": "vote", "table": scene.table, "accept": False})
        assert answer["type"] == "event" and answer["event"]["type"] == "vote", answer
        assert [f["event"]["type"] for f in ann.batch] == ["vote", "cancel_end"]
        assert ann.batch[-1]["event"]["cancelled"] is False
        answer = await ann.request({"type": "act", "table": scene.table, "action": first_legal(ann.state)})
        assert answer["type"] == "event" and answer["event"]["type"] == "action", answer


def test_the_documented_limits() -> None:
    """The limits docs/protocol.md gives: 8 and 64 KB frames, 20 a second in bursts of 40, 5 chats in 10
    seconds on a connection (every other budget: tests/server/test_limits.py against docs/server.md)."""
    config = Config()
    assert (MAX_MESSAGE_BYTES, MAX_FRAME) == (8192, 65536)
    assert (config.rate, config.burst, config.limit_factor) == (20.0, 40.0, 1.0)
    assert Rule(Budget.CHAT, Scope.CONNECTION, 5, 10) in RULES
    assert MAX_CHAT == 300
