"""A real server in the test's event loop (uvicorn on a free loopback port) and WebSocket clients for it."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest
import uvicorn
import websockets
from argon2 import PasswordHasher

from atout.server.clock import FakeClock
from atout.server.http.app import MAX_FRAME, create_app
from atout.server.http.edge import AtoutHTTPProtocol
from atout.server.http.wsprotocol import AtoutWebSocketProtocol
from atout.server.site.config import Config
from atout.server.site.hub import Hub
from atout.server.table import Timing, deadlines
from served import TLS

SQLITE_ONLY = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
"""For a test of what goes over the socket (headers, origins, frames, patches, the protocol's refusals) that the
store only serves: its PostgreSQL half ran the same requests against the same code above the SQL, a server and a
fresh database more (the SQL's differences are tested where they matter: the store, the ledger, accounts...)."""

WITHIN = 120.0
"""How long a wait for something to happen may last before the test calls it a hang: only an upper
bound, never a guess of how fast it happens (a loaded machine takes many times what an idle one does)."""
RECV_TIMEOUT = WITHIN
"""A client's wait for a frame that must come (``recv``, ``expect``): the same bound. 10 s was a guess that a
fresh clone's run missed once (a refusal of test_review's not read within it, PostgreSQL, four workers)."""
LIGHT_ARGON2 = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
"""Real argon2id (its hashes and their check are the site's), at costs that keep the tests quick: 64 KiB, 0.05 ms of
CPU a hash. At 8 MiB (3.5 ms a hash) the server's tests spent 9 s of the suite's CPU hashing and checking their
accounts' passwords (py-spy over the suite). The costs the site uses are tested at those costs (test_accounts.py)."""


def quick_config(**timing: float) -> Config:
    """Robots play at once and deals follow each other at once, unless a test says otherwise."""
    values = {"robot_pace": 0.0, "deal_pause": 0.0, **timing}
    return Config(
        secret=b"test-secret",
        timing=Timing(**values),
        rate=1000.0,
        burst=1000.0,
        hasher=LIGHT_ARGON2,
        trusted_proxy=True,  # every test client comes from 127.0.0.1: X-Forwarded-For tells them apart
        analysis_warm=False,
    )  # no analysis worker until asked: a second of CPU a server otherwise


class Server:
    """A running server: its URL, its hub (to look at tables directly) and its fake clock."""

    def __init__(self, server: uvicorn.Server, app, clock: FakeClock) -> None:
        self._server = server
        self.app = app
        self.clock = clock

    @property
    def port(self) -> int:
        return self._server.servers[0].sockets[0].getsockname()[1]

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def hub(self) -> Hub:
        return self.app.state.hub


@contextlib.asynccontextmanager
async def running_server(
    db_url: str,
    config: Config | None = None,
    clock: FakeClock | None = None,
    redis_url: str | None = None,
    **uvicorn_settings: Any,
) -> AsyncIterator[Server]:
    """``redis_url``: one process of a site of several (cluster.RedisSite), in this test's process;
    ``uvicorn_settings``: uvicorn's own (``http=`` a protocol class, ``limit_concurrency``...)."""
    clock = clock or FakeClock()
    app = create_app(db_url, config or quick_config(), clock, redis_url)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=0,
            log_level="warning",
            ws_max_size=MAX_FRAME,
            ws_per_message_deflate=False,
            lifespan="on",
            ws=AtoutWebSocketProtocol,
            proxy_headers=False,  # as atout serve: the app's trusted_proxy decides
            **{"http": AtoutHTTPProtocol, **uvicorn_settings},
        )
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    try:
        yield Server(server, app, clock)
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, WITHIN)  # a bound on a hang: a loaded machine's shutdown took more than 10 s (CI)


def wait_until(done: Callable[[], bool], what: str, within: float = WITHIN, every: float = 0.05) -> None:
    """Poll ``done()`` until it holds; fail saying ``what`` did not happen within ``within`` seconds."""
    end = time.monotonic() + within
    while not done():
        if time.monotonic() > end:
            raise AssertionError(f"{what} (not within {within:.0f} s)")
        time.sleep(every)


async def eventually(
    done: Callable[[], bool | Awaitable[bool]], what: str, within: float = WITHIN, every: float = 0.05
) -> None:
    """``wait_until`` in the event loop; ``done`` may be a coroutine function."""
    end = time.monotonic() + within
    while True:
        result = done()
        if not isinstance(result, bool):
            result = await result
        if result:
            return
        if time.monotonic() > end:
            raise AssertionError(f"{what} (not within {within:.0f} s)")
        await asyncio.sleep(every)


def site_page(base: str, **kwargs: Any) -> httpx.AsyncClient:
    """HTTP as the site's own page sends it: with the ``Origin`` a browser adds to every POST (a request
    with the session cookie and no Origin is refused)."""
    kwargs.setdefault("verify", TLS)
    kwargs.setdefault("timeout", 120.0)  # an upper bound on a hang, not httpx's 5 s guess of a loaded machine
    return httpx.AsyncClient(base_url=base, headers={"Origin": base, **kwargs.pop("headers", {})}, **kwargs)


def origin_of(url: str) -> str:
    """The page's origin for a WebSocket URL: ``ws://127.0.0.1:8000/ws`` → ``http://127.0.0.1:8000``."""
    scheme, rest = url.split("://", 1)
    return ("https" if scheme == "wss" else "http") + "://" + rest.split("/", 1)[0]


_addresses = itertools.count(1)


def _next_address() -> str:
    n = next(_addresses)
    return f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"


def apply_patch(state: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """The state after an event that carries a patch (docs/protocol.md, "Patches")."""
    assert state is not None, "a patch came before any whole state"
    state = {**state, **message["patch"]}
    if "deal_patch" in message:
        state["deal"] = {**state["deal"], **message["deal_patch"]}
    return state


class Client:
    """One WebSocket client that remembers every frame it received and the latest table state."""

    def __init__(self, ws, name: str) -> None:
        self.ws = ws
        self.name = name
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.seq = 0
        self.token: str | None = None
        self.id: str | None = None
        self._refs = 0
        self.seqs: dict[str, int] = {}  # the last event number seen, per table
        self.batch: list[dict[str, Any]] = []  # the event frames of the last request's batch
        self.patches = False  # asked for patches instead of whole states

    @classmethod
    async def connect(
        cls,
        url: str,
        name: str,
        token: str | None = None,
        cookie: str | None = None,
        address: str | None = None,
        patches: bool = False,
        browser: str | None = None,
    ) -> Client:
        """``address``: the client's IP address as the server sees it (X-Forwarded-For); each client its own
        unless a test gives two the same. ``browser``: the browser's mark cookie (``daily_marks``), if any."""
        headers = {"X-Forwarded-For": address or _next_address()}
        if cookie:  # a browser's page: its cookie and its Origin
            headers["Cookie"] = f"atout_session={cookie}" + (f"; atout_browser={browser}" if browser else "")
            headers["Origin"] = origin_of(url)
        # max_queue=None: a test reads what it needs, and a client left with more than websockets' 16 unread
        # messages stops reading its socket, so its close() never hears the server's answer (10 s lost)
        ws = await websockets.connect(url, max_size=None, max_queue=None, additional_headers=headers)
        client = cls(ws, name)
        client.patches = patches
        hello: dict[str, Any] = {"type": "hello", "protocol": 1, "name": name}
        if token:
            hello["token"] = token
        if patches:
            hello["patches"] = True
        await client.send(hello)
        welcome = await client.expect("welcome")
        client.token = welcome.get("token")
        client.id = welcome["you"]["id"]
        return client

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text)
        message = json.loads(text)
        self.frames.append(message)
        if message.get("type") in ("table", "event"):
            self.seqs[message["table"]] = max(self.seqs.get(message["table"], 0), message["seq"])
            self.seq = self.seqs[message["table"]]
            if "state" in message:
                self.state = message["state"]
            elif "patch" in message:
                self.state = apply_patch(self.state, message)
        return message

    async def expect(self, kind: str, timeout: float = RECV_TIMEOUT, **match: Any) -> dict[str, Any]:
        """Read until a message of ``kind`` (an event type for events) whose fields match."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.recv(max(0.01, end - loop.time()))
            body = message.get("event", message) if message["type"] == "event" else message
            if (message["type"] == kind or (message["type"] == "event" and body.get("type") == kind)) and all(
                body.get(k) == v for k, v in match.items()
            ):
                return message
            if message["type"] == "error" and kind != "error":
                raise AssertionError(f"{self.name} got an error while waiting for {kind}: {message}")

    async def settle(self) -> None:
        """Read every frame the server had sent this client when it answered a ping: the answers to this
        client's requests, and what the others' requests that were answered before made it send here (a
        connection's frames go out in order). Not "until the line is quiet", which guesses how fast the
        server is. Robots and clocks acting later are not waited for: wait for their frames by name."""
        await self.send({"type": "ping"})
        while (await self.recv(WITHIN))["type"] != "pong":
            pass
        self.frames.pop()  # the barrier's own answer is no frame of the game
        self.raw.pop()

    def waits_for_a_person(self) -> bool:
        """Whether the table, as this client last heard it, waits for a person (or for nobody): robots act
        at once in the tests, so until then more frames are coming."""
        state = self.state
        deal = state and state.get("deal")
        if not deal or deal.get("to_act") is None:
            return True
        return state["seats"][deal["to_act"]].get("kind") != "robot"

    async def until_a_person_acts(self) -> None:
        """Read until the table waits for a person: the robots' moves before that have all arrived."""
        await self.settle()
        while not self.waits_for_a_person():
            await self.recv()

    async def until_seat_acts(self, seat: int) -> None:
        """Read until the deal, as this client hears it, waits for ``seat``: not only until no robot is to act (a
        deal the robots void ends with nobody to act, and the next deal's frames may follow a ``settle``'s ping)."""
        while ((self.state or {}).get("deal") or {}).get("to_act") != seat:
            await self.recv()

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a table request answering the latest event; return the error, or the first event it made
        (having read on to the last, which carries the new state)."""
        self._refs += 1
        ref = f"r{self._refs}"
        message = {**message, "ref": ref}
        if message["type"] not in ("seen", "chat", "invite", "quick", "claim", "review", "daily"):
            message.setdefault("seq", self.seqs.get(message.get("table"), self.seq))
        await self.send(message)
        first = None
        self.batch = []
        while True:
            answer = await self.recv()
            if answer.get("ref") == ref:
                if answer["type"] == "error":
                    return answer
                first = answer
            if first is not None and answer["type"] == "event":
                self.batch.append(answer)
                if "state" in answer or "patch" in answer:
                    return first

    async def close(self) -> None:
        await self.ws.close()


def concrete(choice: dict[str, Any]) -> dict[str, Any]:
    """A playable action from a legal choice: the first cards of a discard or poignée, the first bid."""
    if "discard_from" in choice:
        return {"discard": choice["discard_from"][: choice["count"]]}
    if "poignee_from" in choice:
        size = min(choice["sizes"].values())
        return {"poignee": choice["poignee_from"][:size]}
    key, value = next(iter(choice.items()))
    return {key: value}


def first_legal(state: dict[str, Any]) -> dict[str, Any]:
    """A legal action for the viewer to act, preferring to pass and to skip the poignée (short deals)."""
    legal = state["deal"]["legal"]
    for choice in legal:
        if choice.get("bid") == "pass":
            return {"bid": "pass"}
    plays = [c for c in legal if "play" in c]
    if plays:
        return plays[0]
    return concrete(legal[0])


def when_next_deal(table) -> float:
    """When ``table`` (its deal over) deals again: the end of the pause after that deal. Not a fixed "much
    later": a deal can be over the moment it is dealt (a petit sec under petit_sec=redeal), at the very
    time of the tick that dealt it, and its own pause runs from then."""
    return next(when for when, what, _ in deadlines(table) if what == "next_deal")
