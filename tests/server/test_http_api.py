"""The HTTP API as an outside client meets it: every parameter checked and refused in the site's words,
and no request at all, however odd, that makes the server fail (a property test over every route)."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from urllib.parse import quote

import httpx
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.routing import Mount, Route

from .helpers import SQLITE_ONLY, running_server, site_page

EXAMPLES = 250
"""Requests per database: one request each on a running server, about 5 s for both databases."""

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def documented_codes() -> set[str]:
    """The error codes docs/protocol.md lists in its "Errors" table (one row per code)."""
    text = DOC.read_text()
    section = text[text.index("## Errors") :]
    section = section[: section.index("\n## ", 1)]
    return set(re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE))


async def test_leaderboard_parameters_are_refused_in_the_sites_words(db_url: str) -> None:
    """The cases a client found answered 500 or with Python's own words, and their neighbours."""
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        cases = [
            ({"players": 4, "page": 4611686018427387904}, "page"),
            ({"players": 4, "page": 10**30}, "page"),
            ({"players": 4, "page": 0}, "page"),
            ({"players": 4, "page": -1}, "page"),
            ({"players": 4, "page": "٣"}, "page"),  # a digit to int(), not to a client
            ({"players": 4, "page": " 2"}, "page"),
            ({"players": "abc"}, "players"),
            ({"players": 6}, "players"),
            ({"players": "04"}, "players"),
            ({"period": "year"}, "period"),
            ({"player": 3}, "'player'"),  # a misspelt parameter is not silently the default
        ]
        for params, named in cases:
            answer = await http.get("/api/leaderboard", params=params)
            assert answer.status_code == 400, (params, answer.text)
            error = answer.json()["error"]
            assert error["code"] == "bad_query" and named in error["message"], (params, error)
            assert "invalid literal" not in error["message"] and "int()" not in error["message"]
        ok = await http.get("/api/leaderboard", params={"players": 5, "period": "all", "page": 100_000})
        assert ok.status_code == 200 and ok.json()["rows"] == [] and ok.json()["page"] == 100_000
        # a name or a game id that cannot be one is nobody's, answered without asking the store (on
        # PostgreSQL a NUL in a query failed the request)
        for path, code in (
            ("/api/players/a%00b", "no_player"),
            ("/api/games/a%00b", "no_game"),
            ("/api/players/" + "x" * 300, "no_player"),
        ):
            answer = await http.get(path)
            assert answer.status_code == 404 and answer.json()["error"]["code"] == code, (path, answer.text)
        made = await http.post("/api/register", json={"name": "Nul_1", "password": "long enough secret"})
        assert made.status_code == 201
        answer = await http.post("/api/friends", json={"action": "request", "name": "a\x00b"})
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_player", answer.text
        # JSON nested deeper than a parser's stack is not JSON to the site
        answer = await http.post("/api/friends", content=b"[" * 3000)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed", answer.text


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
FIELDS = ("name", "password", "avatar", "action")
BODY = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {},
        optional={f: JSON | st.sampled_from(["Ann", "Bob_2", "request", "fox", "long enough secret"]) for f in FIELDS},
    ),
    JSON,
    st.binary(max_size=5000),
    st.just(b"[" * 2000),
)
QUERY_VALUE = st.one_of(
    st.integers(), st.integers(-2, 6), st.text(max_size=12), st.sampled_from(["week", "month", "all", "3", "4", "5"])
)
QUERY = st.dictionaries(
    st.sampled_from(["players", "period", "page", "x", "per_page"]) | st.text(max_size=8), QUERY_VALUE, max_size=4
)
PATH_PARAM = st.text(max_size=60) | st.sampled_from(["Ann", "ann", "0123456789abcdef", ""])


async def test_no_request_to_any_route_makes_the_server_fail(db_url: str) -> None:
    """Random methods, path parameters, query parameters, bodies and cookies on every route: the server
    answers each (never 500), and every refusal of the API is ``{"error": {code, message}}`` with a code
    the protocol's doc lists."""
    codes = documented_codes()
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        routes = [(r.path, sorted(r.methods or {"GET"})) for r in server.app.routes if isinstance(r, Route)]
        routes += [(f"{r.path}/{{file}}", ["GET"]) for r in server.app.routes if isinstance(r, Mount)]
        assert {"/api/leaderboard", "/api/register", "/api/friends", "/api/players/{name}"} <= {p for p, _ in routes}
        async with site_page(base) as http:
            made = await http.post("/api/register", json={"name": "Prop_1", "password": "long enough secret"})
            session = made.cookies["atout_session"]
            await http.post("/api/register", json={"name": "Ann", "password": "long enough secret"})
        seen: dict[int, int] = {}

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(
            route=st.sampled_from(routes),
            method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
            use_route_method=st.booleans(),
            path_param=PATH_PARAM,
            query=QUERY,
            body=BODY,
            cookie=st.sampled_from([None, "session", "junk"]),
        )
        @example(
            route=("/api/leaderboard", ["GET"]),
            method="GET",
            use_route_method=True,
            path_param="",
            query={"players": 4, "page": 4611686018427387904},
            body=None,
            cookie=None,
        )
        @example(
            route=("/api/leaderboard", ["GET"]),
            method="GET",
            use_route_method=True,
            path_param="",
            query={"players": "abc"},
            body=None,
            cookie=None,
        )
        @example(
            route=("/api/tournaments/{tid}", ["GET"]),
            method="GET",
            use_route_method=True,
            path_param="\x00",
            query={},
            body=None,
            cookie=None,
        )  # PostgreSQL refuses a NUL in a query: once a 500 (found so)
        @example(
            route=("/api/tournaments/{tid}/register", ["POST"]),
            method="POST",
            use_route_method=True,
            path_param="a\x00",
            query={},
            body=None,
            cookie="session",
        )
        def request_anything(route, method, use_route_method, path_param, query, body, cookie) -> None:
            path, methods = route
            if use_route_method:
                method = methods[0] if method not in methods else method
            url = re.sub(r"\{[^}]+\}", quote(path_param, safe="") or "x", path)
            headers = (
                {} if cookie is None else {"Cookie": f"atout_session={session if cookie == 'session' else 'a%01b'}"}
            )
            content = body if isinstance(body, bytes) else None
            json_body = None if isinstance(body, bytes) or body is None else body
            http.cookies.clear()  # only the cookie drawn: not one a register or login answer set
            answer = http.request(method, url, params=query, content=content, json=json_body, headers=headers)
            seen[answer.status_code] = seen.get(answer.status_code, 0) + 1
            assert answer.status_code < 500, (method, url, query, body, answer.status_code, answer.text[:500])
            if answer.status_code >= 400 and answer.headers.get("content-type", "").startswith("application/json"):
                error = answer.json()["error"]
                assert isinstance(error["message"], str) and error["message"], answer.text
                assert error["code"] in codes, f"{error['code']!r} is not in docs/protocol.md's error list"
                assert "Traceback" not in error["message"] and "invalid literal" not in error["message"]

        with httpx.Client(base_url=base, headers={"Origin": base}) as http:  # the site's own page
            started = time.perf_counter()
            await asyncio.to_thread(request_anything)
            print(f"{sum(seen.values())} requests in {time.perf_counter() - started:.1f} s: {sorted(seen.items())}")
        assert any(400 <= status < 500 for status in seen) and any(status < 300 for status in seen), seen


@SQLITE_ONLY
async def test_an_address_or_method_the_site_does_not_serve_is_refused_in_its_words(db_url: str) -> None:
    async with running_server(db_url) as server, httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}") as http:
        missing = await http.get("/no/such/page")
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "not_found" and "/no/such/page" in missing.json()["error"]["message"]
        wrong = await http.post("/api/options", json={})
        assert wrong.status_code == 405 and wrong.json()["error"]["code"] == "method_not_allowed"
        assert (await http.get("/static/nothing.js")).json()["error"]["code"] == "not_found"
