"""Cross-site requests over real sockets: a page of another site may not open the WebSocket nor post in a
logged-in person's name; the site's own page, the addresses `--origin` names and cookieless scripts may."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from atout.server.http.origins import normal_origin

from .helpers import SQLITE_ONLY, Client, quick_config, running_server, site_page

EVIL = "http://evil.example"


async def refused_handshake(url: str, headers: dict[str, str]) -> int:
    """The HTTP status the WebSocket handshake was refused with (fails if it was accepted)."""
    with pytest.raises(InvalidStatus) as refused:
        async with websockets.connect(url, additional_headers=headers):
            pass
    return refused.value.response.status_code


@SQLITE_ONLY
async def test_a_foreign_page_can_neither_open_the_socket_nor_post_with_the_cookie(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as page:
            cookie = (await page.post("/api/register", json={"name": "Ann", "password": "long enough secret"})).cookies[
                "atout_session"
            ]
        session = {"Cookie": f"atout_session={cookie}"}
        # the WebSocket: a foreign Origin, with or without the cookie, and the cookie without any Origin
        assert await refused_handshake(server.url, {**session, "Origin": EVIL}) == 403
        assert await refused_handshake(server.url, {"Origin": EVIL}) == 403
        assert await refused_handshake(server.url, {"Origin": "null"}) == 403
        assert await refused_handshake(server.url, session) == 403
        # a sibling port or scheme is another origin too
        assert await refused_handshake(server.url, {**session, "Origin": f"https://127.0.0.1:{server.port}"}) == 403
        assert await refused_handshake(server.url, {**session, "Origin": f"http://127.0.0.1:{server.port + 1}"}) == 403
        # the site's own page is welcome, as itself
        ann = await Client.connect(server.url, "x", cookie=cookie)
        assert ann.frames[-1]["you"]["name"] == "Ann" and ann.frames[-1]["you"]["registered"]
        await ann.close()

        async with httpx.AsyncClient(base_url=base, cookies={"atout_session": cookie}) as other:
            for origin in (EVIL, None):
                headers = {"Origin": origin} if origin else {}
                for path, body in (
                    ("/api/claim", {}),
                    ("/api/logout", {}),
                    ("/api/friends", {"action": "request", "name": "Bob"}),
                    ("/api/login", {"name": "Ann", "password": "long enough secret"}),
                ):
                    answer = await other.post(path, json=body, headers=headers)
                    assert answer.status_code == 403, (path, origin, answer.text)
                    assert answer.json()["error"]["code"] == "foreign_origin"
                    assert "set-cookie" not in answer.headers
            me = await other.get("/api/me")  # reading is not refused, and the session outlived the logouts
            assert me.status_code == 200 and me.json()["name"] == "Ann"
        async with httpx.AsyncClient(base_url=base, headers={"Origin": EVIL}) as evil:
            made = await evil.post("/api/register", json={"name": "Mallory", "password": "long enough secret"})
            assert (
                made.status_code == 403
                and "'http://evil.example' is not this site's" in made.json()["error"]["message"]
            )
        async with httpx.AsyncClient(base_url=base) as script:  # no cookie, no Origin: a script, served
            assert (
                await script.post("/api/login", json={"name": "Mallory", "password": "long enough secret"})
            ).status_code == 401
        guest = await Client.connect(server.url, "Guest")  # no cookie, no Origin: served
        assert guest.frames[-1]["you"]["registered"] is False
        await guest.close()


@SQLITE_ONLY
async def test_origins_the_deployment_names_and_its_proxy_address(db_url: str) -> None:
    """``--origin`` adds an address; behind the proxy the site's own is X-Forwarded-Proto and -Host's."""
    config = dataclasses.replace(
        quick_config(), origins=("https://tarot.example.org/",), trusted_proxy=True, hosts=("play.example.org",)
    )
    async with running_server(db_url, config) as server:
        base = f"http://127.0.0.1:{server.port}"
        proxied = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "play.example.org"}
        async with httpx.AsyncClient(base_url=base) as http:
            for origin, headers, status in (
                ("https://tarot.example.org", {}, 201),
                ("https://TAROT.example.org:443", {}, 201),
                ("https://play.example.org", proxied, 201),
                ("http://play.example.org", proxied, 403),
                ("https://play.example.org", {}, 403),
            ):
                name = f"P{status}_{len(origin)}_{len(headers)}"
                answer = await http.post(
                    "/api/register",
                    json={"name": name, "password": "long enough secret"},
                    headers={"Origin": origin, **headers},
                )
                assert answer.status_code == status, (origin, headers, answer.text)
                http.cookies.clear()
        ws = await websockets.connect(server.url, additional_headers={"Origin": "https://play.example.org", **proxied})
        await ws.close()

    direct = dataclasses.replace(quick_config(), trusted_proxy=False)
    async with running_server(db_url, direct) as server:  # not behind a proxy: its headers are anyone's
        headers = {
            "Origin": "https://play.example.org",
            "X-Forwarded-Proto": "https",
            "X-Forwarded-Host": "play.example.org",
        }
        assert await refused_handshake(server.url, headers) == 403
        ws = await websockets.connect(server.url, additional_headers={"Origin": f"http://127.0.0.1:{server.port}"})
        await ws.close()


def test_an_origin_has_one_spelling_and_anything_else_is_none() -> None:
    assert normal_origin("HTTPS://Tarot.Example.org:443/") == "https://tarot.example.org"
    assert normal_origin("http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    assert normal_origin("http://[::1]:80") == "http://[::1]"
    for bad in (
        "null",
        "",
        "ftp://x.org",
        "https://x.org/page",
        "https://u@x.org",
        "https://x.org:99999",
        "https://x.org?q",
        "tarot.example.org",
        "http://a;script-src *",
        "http://a b",
    ):
        assert normal_origin(bad) is None, bad


def test_serve_refuses_an_origin_that_is_not_an_address() -> None:
    answer = subprocess.run(
        [
            sys.executable,
            "-m",
            "atout.cli.main",
            "serve",
            "--origin",
            "https://ok.example",
            "--origin",
            "tarot.example.org/play",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert answer.returncode == 2 and "--origin takes an address" in answer.stderr
    assert "'tarot.example.org/play'" in answer.stderr


@SQLITE_ONLY
async def test_a_host_the_site_does_not_answer_to_is_refused_before_any_route(db_url: str) -> None:
    """DNS rebinding: a page at evil.example, its name pointed at the server, sends ``Host`` and ``Origin``
    that agree. The host is refused (400) on HTTP and on the WebSocket's handshake; the names the site
    answers to (``--host-name``, this machine's) and IP addresses (which no one can rebind) are served;
    behind the proxy, X-Forwarded-Host is the name."""
    config = dataclasses.replace(quick_config(), hosts=("tarot.example.org", "*.tarot.example.org"))
    async with running_server(db_url, config) as server:
        port = server.port
        evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        with pytest.raises(InvalidStatus) as refused:  # the socket's URL names the host, as the page's does
            async with websockets.connect(
                f"ws://evil.example:{port}/ws",
                host="127.0.0.1",
                port=port,
                additional_headers={"Origin": evil["Origin"]},
            ):
                pass
        assert refused.value.response.status_code == 400
        assert b"unknown_host" in refused.value.response.body
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            for headers in (
                evil,
                {"Host": "tarot.example.org.evil.example"},
                {"X-Forwarded-Host": "evil.example"},
                {"Host": "localhost", "X-Forwarded-Host": "evil.example"},
            ):
                answer = await http.get("/health", headers=headers)
                assert answer.status_code == 400, (headers, answer.text)
                assert answer.json()["error"]["code"] == "unknown_host"
                posted = await http.post(
                    "/api/register", json={"name": "Eve", "password": "long enough"}, headers=headers
                )
                assert posted.status_code == 400 and "set-cookie" not in posted.headers
            for host in (
                f"127.0.0.1:{port}",
                f"localhost:{port}",
                f"[::1]:{port}",
                f"192.168.1.20:{port}",
                "[2001:db8::1]",
                "tarot.example.org",
                "TAROT.example.org:443",
                "www.tarot.example.org",
            ):
                assert (await http.get("/health", headers={"Host": host})).status_code == 200, host
            named = {"X-Forwarded-Host": "tarot.example.org", "X-Forwarded-Proto": "https"}
            assert (await http.get("/health", headers=named)).status_code == 200
        async with websockets.connect(
            "ws://tarot.example.org/ws",
            host="127.0.0.1",
            port=port,
            additional_headers={"Origin": "http://tarot.example.org", "X-Forwarded-For": "10.9.9.9"},
        ) as welcome:
            await welcome.send('{"type": "hello", "protocol": 1, "name": "Named"}')
            assert '"welcome"' in await welcome.recv()
