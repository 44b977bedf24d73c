"""The browser's instructions on every response, over a real socket: what may run, who may frame the
page; and the session cookie Secure whenever the person came over https, through the proxy too."""

from __future__ import annotations

import dataclasses

import httpx

from .helpers import SQLITE_ONLY, quick_config, running_server, site_page


def policy(answer: httpx.Response) -> dict[str, list[str]]:
    """The Content-Security-Policy's directives, each with its sources."""
    directives = [part.split() for part in answer.headers["content-security-policy"].split(";") if part.strip()]
    return {d[0]: d[1:] for d in directives}


def assert_guarded(answer: httpx.Response, host: str) -> None:
    where = f"{answer.request.method} {answer.request.url.path} ({answer.status_code})"
    csp = policy(answer)
    if answer.headers.get("content-type", "").split(";")[0] in ("text/javascript", "text/css"):
        # a script or a style sheet opened by itself: inert (nothing allowed), never framed, its type kept;
        # the page's whole policy on each of them was 9 KB of a first visit
        assert csp == {"default-src": ["'none'"], "frame-ancestors": ["'none'"]}, where
        assert answer.headers["x-content-type-options"] == "nosniff", where
        assert "x-frame-options" not in answer.headers and "permissions-policy" not in answer.headers, where
        return
    assert csp["default-src"] == ["'none'"], where
    scripts = csp["script-src"]
    if answer.request.url.path == "/":  # the page's inline import map (assets.py), by its hash and only it
        scripts = [s for s in scripts if not (s.startswith("'sha256-") and len(scripts) == 2)]
    assert scripts == ["'self'"] and csp["style-src"] == ["'self'"], where  # nothing else inline
    assert csp["connect-src"] == ["'self'", f"ws://{host}"], where
    assert csp["frame-ancestors"] == ["'none'"], where
    assert answer.headers["x-frame-options"] == "DENY", where
    assert answer.headers["x-content-type-options"] == "nosniff", where
    assert answer.headers["referrer-policy"] in ("same-origin", "no-referrer", "strict-origin"), where
    assert "strict-transport-security" not in answer.headers, where  # plain http: no promise of https


@SQLITE_ONLY
async def test_every_kind_of_response_carries_the_security_headers(db_url: str) -> None:
    async with running_server(db_url) as server:
        host = f"127.0.0.1:{server.port}"
        async with site_page(f"http://{host}") as page:
            answers = [
                await page.get(path)
                for path in (
                    "/",
                    "/static/main.js",
                    "/static/style.css",
                    "/static/nothing.js",
                    "/api/options",
                    "/api/me",
                    "/api/players/Nobody",
                    "/health",
                )
            ]
            answers.append(await page.post("/api/register", json={"name": "Ann", "password": "long enough secret"}))
            answers.append(await page.post("/api/login", json={}, headers={"Origin": "http://evil.example"}))
        assert [a.status_code for a in answers] == [200, 200, 200, 404, 200, 401, 404, 200, 201, 403]
        assert "<script" in answers[0].text and answers[1].headers["content-type"].startswith("text/javascript")
        for answer in answers:
            assert_guarded(answer, host)
        assert (
            "default-src 'none'; script-src" in answers[0].headers["content-security-policy"]
        )  # the page's whole policy
        assert "secure" not in answers[8].headers["set-cookie"].lower()  # plain http: a Secure cookie would be lost


def cookie_attributes(header: str) -> tuple[str, dict[str, str]]:
    """A Set-Cookie header's name and its attributes, named in lower case (a flag's value is ``""``)."""
    first, *rest = [part.strip() for part in header.split(";")]
    attributes = {}
    for part in rest:
        key, _, value = part.partition("=")
        attributes[key.lower()] = value
    return first.partition("=")[0], attributes


@SQLITE_ONLY
async def test_the_session_cookie_is_secure_when_the_proxy_says_https_and_only_then(db_url: str) -> None:
    """Over https the cookie is ``__Host-atout_session``: Secure, HttpOnly, SameSite, for / and no Domain
    (a browser takes it from this very host only); over plain http it keeps its plain name and no Secure."""
    tls = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "tarot.example.org", "Origin": "https://tarot.example.org"}
    config = dataclasses.replace(quick_config(), hosts=("tarot.example.org",))
    async with (
        running_server(db_url, config) as server,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}", headers=tls) as http,
    ):  # behind the proxy
        made = await http.post("/api/register", json={"name": "Ann", "password": "long enough secret"})
        assert made.status_code == 201
        name, attributes = cookie_attributes(made.headers["set-cookie"])
        assert name == "__Host-atout_session", made.headers["set-cookie"]
        assert {"secure", "httponly"} <= set(attributes) and attributes["samesite"].lower() == "lax"
        assert attributes["path"] == "/" and "domain" not in attributes
        assert policy(made)["connect-src"] == ["'self'", "wss://tarot.example.org"]
        assert made.headers["strict-transport-security"].startswith("max-age=")
        # (httpx keeps a Secure cookie from a plain http:// URL: each request names it, as the browser would)
        session = {"Cookie": f"__Host-atout_session={made.cookies['__Host-atout_session']}"}
        http.cookies.clear()
        assert (await http.get("/api/me", headers=session)).json()["name"] == "Ann"  # the __Host- cookie is read
        logged = await http.post("/api/login", json={"name": "Ann", "password": "long enough secret"})
        assert cookie_attributes(logged.headers["set-cookie"])[0] == "__Host-atout_session"
        http.cookies.clear()
        out = await http.post("/api/logout", headers=session)
        gone = {cookie_attributes(h)[0]: cookie_attributes(h)[1] for h in out.headers.get_list("set-cookie")}
        assert out.status_code == 204 and set(gone) == {"atout_session", "__Host-atout_session"}
        assert all("secure" in a for a in gone.values())
    async with (
        running_server(db_url, config) as server,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}", headers=tls) as http,
    ):
        # a session set before the prefix, under the plain name over https: still read, and renamed
        logged = await http.post("/api/login", json={"name": "Ann", "password": "long enough secret"})
        token = logged.cookies["__Host-atout_session"]
        http.cookies.clear()
        me = await http.get("/api/me", headers={"Cookie": f"atout_session={token}"})
        assert me.status_code == 200 and me.json()["name"] == "Ann"
        renamed = {cookie_attributes(h)[0]: h for h in me.headers.get_list("set-cookie")}
        assert set(renamed) == {"__Host-atout_session", "atout_session"}, renamed
        assert token in renamed["__Host-atout_session"] and "max-age=0" in renamed["atout_session"].lower()
    direct = dataclasses.replace(quick_config(), trusted_proxy=False)
    async with running_server(db_url, direct) as server:  # reached directly: anyone may send the header
        base = f"http://127.0.0.1:{server.port}"
        async with httpx.AsyncClient(base_url=base, headers={"X-Forwarded-Proto": "https", "Origin": base}) as http:
            made = await http.post("/api/register", json={"name": "Bob", "password": "long enough secret"})
            assert made.status_code == 201 and "secure" not in made.headers["set-cookie"].lower(), made.text
            assert cookie_attributes(made.headers["set-cookie"])[0] == "atout_session"
            assert "strict-transport-security" not in made.headers


async def test_the_opener_policy_goes_only_where_a_browser_heeds_it(tmp_path) -> None:
    """Over plain http at a network address (a friend's browser at http://192.168.1.20:8000/) Chromium
    ignores Cross-Origin-Opener-Policy and logs an error on every page; on this machine and over https it holds."""
    config = dataclasses.replace(quick_config(), hosts=("192.168.1.20", "tarot.example.org"))
    async with (
        running_server(f"sqlite:///{tmp_path / 'atout.db'}", config) as server,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}") as http,
    ):
        here = await http.get("/health")
        assert here.headers["cross-origin-opener-policy"] == "same-origin"
        named = await http.get("/health", headers={"Host": f"localhost:{server.port}"})
        assert named.headers["cross-origin-opener-policy"] == "same-origin"
        friend = await http.get("/", headers={"Host": f"192.168.1.20:{server.port}"})
        assert friend.status_code == 200 and "cross-origin-opener-policy" not in friend.headers
        assert_guarded(friend, f"192.168.1.20:{server.port}")  # every other header still there
        tls = await http.get("/health", headers={"Host": "tarot.example.org", "X-Forwarded-Proto": "https"})
        assert (
            tls.status_code == 200 and tls.headers["cross-origin-opener-policy"] == "same-origin"
        )  # quick_config is behind a proxy
