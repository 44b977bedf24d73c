"""The web application: the WebSocket at ``/ws``, the browser client's files, ``/health``."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import sqlite3
from collections.abc import AsyncIterator, Awaitable
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy.exc import DBAPIError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...bots import OFFERED_LEVELS, SHOWN_AS
from ...engine.kinds import Contract
from ...engine.rules import SETTINGS
from ..clock import Clock, SteppedClock
from ..features.accounts import Accounts, session_key
from ..features.analysis import AnalysisPool
from ..features.background import Background
from ..features.bookkeeping import book
from ..features.daily_marks import BROWSER_COOKIE
from ..features.robot_accounts import token_key
from ..logs import log
from ..options import OPTION_FIELDS, OPTION_VALUES, TableOptions
from ..protocol import MAX_MESSAGE_BYTES
from ..site.cluster import RedisSite  # redis itself is imported only by a site of several processes (bus.py)
from ..site.config import Config
from ..site.hub import Hub
from ..site.local import LocalSite, Site
from ..store import Store, StoreError
from .accounts import AccountRoutes
from .analysis import AnalysisRoutes
from .assets import REVALIDATE, ClientFiles, revalidated_answer
from .daily import DailyRoutes
from .hosts import HostGuard
from .learn import LearnRoutes
from .origins import OriginGuard
from .requests import COOKIES, client_address, error_answer, session_token, with_browser_mark
from .robots import RobotRoutes
from .rules import RulesRoutes
from .security import SecurityHeaders, content_policy
from .tournaments import TournamentRoutes
from .wsprotocol import WRITE_TEXT

TRY_AGAIN_LATER = 1013
"""The close code of a socket refused for its address's count, or while the store is away (RFC 6455's "try again
later"): the page says so, and waits longer before it tries again."""

MAX_FRAME = 64 * 1024
"""Frames above this close the connection (1009); between MAX_MESSAGE_BYTES and this, an error answers."""


def static_dir() -> Path | None:
    """The browser client's files (``atout.web``), when installed."""
    try:
        folder = Path(str(resources.files("atout.web") / "static"))
    except ModuleNotFoundError:
        return None
    return folder if folder.is_dir() else None


class WebSocketEndpoint:
    """``/ws``: an ASGI application of its own, not a Starlette endpoint function, so that each frame goes
    to the server's ``send`` and comes from its ``receive`` as it is, without the WebSocket object's state
    checks and coroutines around every one (five frames an action at a four-seat table); that object
    serves the rest: the cookie, the accept, the close."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        websocket = WebSocket(scope, receive=receive, send=send)
        hub: Hub = websocket.app.state.hub
        token = session_token(websocket)
        try:
            account = await asyncio.to_thread(hub.accounts.session, token) if hub.accounts else None
            session = session_key(token) if account is not None and token else None
            bearer = robot_bearer(websocket)
            if bearer is not None and hub.robots is not None:  # a robot account's program: its token says who
                account = await asyncio.to_thread(hub.robots.by_token, bearer)
                if account is None:  # refused before the handshake: HTTP 403
                    await websocket.close(
                        code=1008, reason="that robot token is not in force (revoked, or never given)"
                    )
                    return
                session = token_key(bearer)
        except Exception as err:
            if hub.store.health.report(err) is None:
                raise
            await websocket.close(code=TRY_AGAIN_LATER)  # the store away: the page connects again later
            return
        await websocket.accept()
        address = client_address(websocket, hub.config.trusted_proxy)
        if refusal := too_many_sockets(hub, address):  # counted with no wait before hub.connect: a burst counts whole
            await websocket.close(TRY_AGAIN_LATER, refusal)
            return

        async def send_text(text: str) -> None:
            await send({"type": "websocket.send", "text": text})

        conn = hub.connect(
            send_text,
            websocket.close,
            account,
            address,
            session=session,
            write=scope.get("extensions", {}).get(WRITE_TEXT),
        )
        conn.browser = websocket.cookies.get(BROWSER_COOKIE)
        pump = asyncio.create_task(conn.pump())
        try:
            while not conn.closed:
                frame = await receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    text = frame.get("bytes") or b""
                await hub.receive(conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            await hub.disconnect(conn)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(pump, 1.0)


def too_many_sockets(hub: Hub, address: str | None) -> str | None:
    """Why a new socket from ``address`` is refused (``Config.sockets_per_address`` of this process's are
    open from it already), or None."""
    cap = hub.config.sockets_per_address
    if cap is None or address is None:
        return None
    held = sum(1 for c in hub.connections if c.address == address and not c.remote)
    return f"at most {cap} connections at once from one address" if held >= cap else None


def robot_bearer(websocket: WebSocket) -> str | None:
    """A robot account's token in ``Authorization: Bearer atr_…``, if the client sent one."""
    scheme, _, token = websocket.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def health(request: Request) -> Response:
    """Whether this process serves: 200 ``ok``, or 503 ``degraded`` while its store takes no writes or its
    bus is down (each part's state, and how many outages each had)."""
    hub: Hub = request.app.state.hub
    store = hub.store.health
    body = {
        "status": "ok",
        "store": "up" if store.up else "down",
        "store_outages": store.outages,
        "tables": len(hub.rooms),
        "resting": len(hub.release.resting),
        "released": hub.stats.released,
        "connections": len(hub.connections),
        "actions": hub.actions,
        "store_commits": hub.writer.commits,
        "store_items": hub.writer.items,
        "frames": hub.stats.frames,
        "frames_crossed": hub.stats.crossed,
        "tables_stalled": len(hub.watchdog.stalled),
        "tables_stalled_total": hub.watchdog.found,
        "tables_restarted": hub.watchdog.restarted,
        "room_tasks_failed": hub.stats.tasks_failed,
        **hub.site.health(),
    }
    if store.cause is not None:
        body["store_cause"] = str(store.cause)
    if body.get("bus") == "down" or store.cause is not None:
        body["status"] = "degraded"
    headers = {} if body["status"] == "ok" else {"Retry-After": str(RETRY_AFTER)}
    return JSONResponse(body, status_code=200 if body["status"] == "ok" else 503, headers=headers)


RETRY_AFTER = 5
"""Seconds a client is asked to wait before trying again while the store is away (an outage lasts seconds
at least: a restart of PostgreSQL, a disk to clear)."""


async def store_error(request: Request, exc: Exception) -> Response:
    """A route that met the store away: 503 ``unavailable`` with ``Retry-After``, logged once (by the
    store's health) without a traceback; any other database error is a bug: 500 ``internal``, logged whole."""
    cause = request.app.state.hub.store.health.report(exc)
    if cause is None:
        log.error("request failed: %s %s", request.method, request.url.path, exc_info=exc)
        return error_answer(500, "internal", "the server failed on this request")
    answer = error_answer(503, "unavailable", f"{cause.why}: try again in a moment")
    answer.headers["Retry-After"] = str(RETRY_AFTER)
    return answer


async def advance_clock(request: Request) -> Response:
    """``POST /test/clock`` ``{"advance": SECONDS}``: a test moves the server's clock on (served only with
    ``atout serve --test-clock``, and only to this machine), so a turn clock runs out without waiting."""
    clock = request.app.state.hub.clock
    client = request.client.host if request.client else ""
    if not isinstance(clock, SteppedClock) or client not in ("127.0.0.1", "::1"):
        return error_answer(404, "not_found", "nothing is served at '/test/clock'")
    try:
        body = await request.json()
        seconds = float(body["advance"])
    except (ValueError, KeyError, TypeError):
        return error_answer(400, "malformed", 'give {"advance": SECONDS}, a number of seconds of 0 or more')
    if not 0 <= seconds <= 86_400:
        return error_answer(400, "malformed", f"advance is 0 to 86400 seconds, not {seconds}")
    clock.advance(seconds)
    return JSONResponse({"now": clock.now()})


async def metrics(request: Request) -> Response:
    """Prometheus' text format (``server/site/metrics.py``): tables, connections, actions, store commits,
    request latency, and the bus and takeovers when several processes share the site."""
    hub: Hub = request.app.state.hub
    body, content_type = hub.metrics.exposition()
    return Response(body, media_type=content_type)


async def table_options(request: Request) -> Response:
    """Every table option with its values (default first), the robot levels to offer, and the poignée
    sizes per player count: what a client needs to build its forms without repeating the server's rules.
    Asked again at each visit and answered 304 while it is the same: a page upgraded with the server never
    builds its forms from an older catalogue its browser kept."""
    body, tag = _catalogue_answer()
    return revalidated_answer(request.scope, body, None, "application/json", REVALIDATE, tag)


@functools.cache
def _catalogue_answer() -> tuple[bytes, str]:
    body = json.dumps(options_catalogue(), separators=(",", ":")).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:16]}"'


def options_catalogue() -> dict[str, Any]:
    return {
        "fields": OPTION_FIELDS,  # every option in a form's order, with its kind: the page's controls follow it
        "values": OPTION_VALUES,
        "defaults": TableOptions().to_json(),
        "levels": OFFERED_LEVELS,
        "level_aliases": SHOWN_AS,
        "poignees": {n: {name: size for name, size, _ in s.poignees} for n, s in SETTINGS.items()},
        # Every bid in rising order with its multiplier: clients name and count contracts from here.
        "contracts": [{"name": c.value, "multiplier": c.multiplier} for c in Contract],
    }


async def index(request: Request) -> Response:
    """The page, never cached, naming the client's files by their hashes (assets.py)."""
    files: ClientFiles | None = request.app.state.client_files
    assets = files.current() if files is not None else None
    page = assets.page_answer(request.scope) if assets is not None else None
    if assets is None or page is None:
        return PlainTextResponse("Atout server: the browser client is not installed; the WebSocket is at /ws.\n")
    trusted_proxy = request.app.state.hub.config.trusted_proxy
    page.headers["Content-Security-Policy"] = content_policy(request.scope, trusted_proxy, assets.script_source)
    return with_browser_mark(page, request)  # before the page's WebSocket, which carries it to a daily play


STOP_WITHIN = 15.0
"""How long each part of the server may take to stop (real seconds) before the server stops without it."""


async def stopped(part: str, stopping: Awaitable[None]) -> None:
    """One part's stop, bounded: a part that does not stop in ``STOP_WITHIN`` is said (at error level, by name) and left
    behind, so that the process still ends (seen once in CI, cause not found: a server of a two-process Redis site
    whose shutdown had not ended after 120 s, and an ``atout serve`` so stopped never exits)."""
    task = asyncio.ensure_future(stopping)
    await asyncio.wait({task}, timeout=STOP_WITHIN)  # not wait_for: it waits for a cancelled stop to end, however long
    if not task.done():
        task.cancel()  # left behind, not waited for
        log.error('{"event":"stop_hung","part":"%s","seconds":%s}', part, STOP_WITHIN)
    elif not task.cancelled() and (err := task.exception()) is not None:
        raise err


def create_app(
    db_url: str, config: Config | None = None, clock: Clock | None = None, redis_url: str | None = None
) -> Starlette:
    """The application on the store at ``db_url`` (migrated on start-up); with ``redis_url``, one process
    of several that share the site."""

    config = config or Config()
    store = Store(db_url, book=book)
    accounts = Accounts(store, config.hasher)
    analysis = AnalysisPool(
        store.engine,
        config.analysis_workers,
        config.analysis_queue,
        config.analysis_per_person,
        config.analysis_worlds,
        config.analysis_warm,
    )
    background = Background(store.engine, config.insights_budget, config.insights_jobs, config.analysis_worlds)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(store.migrate)
        site: Site = LocalSite()
        if redis_url:
            site = RedisSite(redis_url, config)
        hub = Hub(store, config, clock, accounts, site)
        await hub.start()
        app.state.hub = hub
        app.state.analysis = analysis
        app.state.background = background
        await analysis.start()
        background.now = hub.clock.now
        background.start()
        try:
            yield
        finally:
            for part, stop in (("background", background.stop), ("analysis", analysis.stop), ("hub", hub.stop)):
                await stopped(part, stop())
            store.close()

    routes = [
        *AccountRoutes(accounts).routes(),
        *AnalysisRoutes(analysis).routes(),
        *DailyRoutes().routes(),
        *LearnRoutes(accounts).routes(),
        *RobotRoutes(accounts).routes(),
        *RulesRoutes().routes(),
        *TournamentRoutes().routes(),
        Route("/", index),
        Route("/health", health),
        Route("/metrics", metrics),
        Route("/api/options", table_options),
        WebSocketRoute("/ws", WebSocketEndpoint()),
    ]
    if isinstance(clock, SteppedClock):
        routes.append(Route("/test/clock", advance_clock, methods=["POST"]))
    folder = static_dir()
    files = ClientFiles(folder) if folder is not None else None
    if files is not None:
        routes += files.routes()
    hosts = Middleware(HostGuard, hosts=config.hosts, trusted_proxy=config.trusted_proxy)
    guard = Middleware(OriginGuard, origins=config.origins, trusted_proxy=config.trusted_proxy, cookies=COOKIES)
    headers = Middleware(SecurityHeaders, trusted_proxy=config.trusted_proxy)  # outermost: on refusals too
    # Pages, files and API answers gzipped (the client's files are so already, once); the WebSocket is not
    # HTTP and passes by it untouched.
    compress = Middleware(GZipMiddleware, minimum_size=500)
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            HTTPException: http_error,
            DBAPIError: store_error,
            StoreError: store_error,
            sqlite3.Error: store_error,
        },
        middleware=[headers, hosts, compress, guard],
    )
    app.state.client_files = files
    return app


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such address, a method a route does not take) in the site's words."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status == 404:
        return error_answer(404, "not_found", f"nothing is served at {request.url.path[:80]!r}")
    if status == 405:
        return error_answer(405, "method_not_allowed", f"{request.method} is not how {request.url.path[:80]!r} is used")
    if status < 500:
        return error_answer(status, "malformed", "the request could not be served")
    return error_answer(status, "internal", "the server failed on this request")


__all__ = ["MAX_FRAME", "MAX_MESSAGE_BYTES", "create_app", "static_dir"]
