"""The client's files as the server sends them (server/http/assets.py), over a real socket: gzipped when the
browser takes it, under hashed names kept a year, the page itself asked again each time, a changed file
under a new name, and the plain names still served."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
import shutil
import time
from pathlib import Path

import httpx
import pytest
import websockets

from atout.server.http import app as server_app
from atout.server.http.assets import IMMUTABLE, hashed_name

from .helpers import WITHIN, running_server

IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)
FOLDER = server_app.static_dir()
pytestmark = pytest.mark.skipif(FOLDER is None, reason="the browser client is not installed")


def hashed_url(page: str, name: str) -> str:
    """The URL the page gives the file ``name`` (through its import map)."""
    match = IMPORT_MAP.search(page)
    assert match, page
    return json.loads(match[1])["imports"][f"/static/{name}"]


def sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'atout.db'}"


async def test_files_go_gzipped_under_hashed_names_for_a_year_and_the_page_for_no_time(tmp_path: Path) -> None:
    async with (
        running_server(sqlite(tmp_path)) as server,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}", timeout=WITHIN) as http,
    ):
        page = await http.get("/", headers={"Accept-Encoding": "gzip"})
        assert page.headers["content-encoding"] == "gzip" and page.headers["cache-control"] == "no-cache"
        main = hashed_url(page.text, "main.js")
        assert re.fullmatch(r"/static/main\.[0-9a-f]{12}\.js", main)
        assert f'<script type="module" src="{main}"></script>' in page.text
        assert re.search(r'<link rel="stylesheet" href="/static/style\.[0-9a-f]{12}\.css">', page.text)
        assert page.text.index('type="importmap"') < page.text.index('type="module"')  # the map comes first

        again = await http.get("/", headers={"If-None-Match": page.headers["etag"]})
        assert again.status_code == 304 and again.headers["cache-control"] == "no-cache"

        # The inline import map runs under the Content-Security-Policy by its hash, and nothing else inline does.
        digest = base64.b64encode(hashlib.sha256(IMPORT_MAP.search(page.text)[1].encode()).digest()).decode()  # type: ignore[index]
        script_src = re.search(r"script-src ([^;]*)", page.headers["content-security-policy"])[1].split()  # type: ignore[index]
        assert script_src == ["'self'", f"'sha256-{digest}'"]
        assert page.text.count("<script") == 2

        assert FOLDER is not None
        source = (FOLDER / "main.js").read_bytes()
        packed = await http.get(main, headers={"Accept-Encoding": "gzip, deflate, br"})
        assert packed.headers["content-encoding"] == "gzip" and packed.content == source
        assert int(packed.headers["content-length"]) < len(source) / 2
        assert packed.headers["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"
        assert packed.headers["content-type"].startswith("text/javascript")
        assert "Accept-Encoding" in packed.headers["vary"]
        plain = await http.get(main, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == source
        head = await http.head(main, headers={"Accept-Encoding": "gzip"})
        assert head.status_code == 200 and head.headers["content-length"] == packed.headers["content-length"]

        # The plain name, which tests and old pages use: the same file, revalidated at each use.
        old_name = await http.get("/static/main.js", headers={"Accept-Encoding": "gzip"})
        assert old_name.content == source and old_name.headers["cache-control"] == "no-cache"
        assert old_name.headers["content-encoding"] == "gzip"
        unchanged = await http.get("/static/main.js", headers={"If-None-Match": old_name.headers["etag"]})
        assert unchanged.status_code == 304 and not unchanged.content

        # The API's JSON is compressed too; a small answer is not worth it.
        options = await http.get("/api/options", headers={"Accept-Encoding": "gzip"})
        assert options.headers["content-encoding"] == "gzip" and "contracts" in options.json()
        assert "content-encoding" not in (await http.get("/health", headers={"Accept-Encoding": "gzip"})).headers

        for wrong in (
            "/static/nothing.js",
            "/static/main.js/x",
            "/static/../pyproject.toml",
            "/static/nothing.0123456789ab.js",
        ):
            assert (await http.get(wrong)).status_code == 404, wrong
        assert (await http.post(main)).status_code == 405

    # The WebSocket passes by the compression untouched, whatever the browser says it accepts.
    async with (
        running_server(sqlite(tmp_path)) as server,
        websockets.connect(server.url, additional_headers={"Accept-Encoding": "gzip"}) as ws,
    ):
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "name": "Zoé"}))
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome", welcome


async def test_a_changed_file_gets_a_new_name_and_the_old_name_keeps_the_old_file(tmp_path: Path, monkeypatch) -> None:
    assert FOLDER is not None
    folder = tmp_path / "static"
    shutil.copytree(FOLDER, folder)
    monkeypatch.setattr(server_app, "static_dir", lambda: folder)
    async with (
        running_server(sqlite(tmp_path)) as server,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}", timeout=WITHIN) as http,
    ):
        first = hashed_url((await http.get("/")).text, "i18n.js")
        before = (folder / "i18n.js").read_bytes()
        assert first == "/static/" + hashed_name("i18n.js", hashlib.sha256(before).hexdigest()[:12])
        (folder / "i18n.js").write_bytes(before + b"\n// changed\n")

        deadline = time.monotonic() + WITHIN  # the server looks at its folder again within a second
        while (now := hashed_url((await http.get("/")).text, "i18n.js")) == first:
            assert time.monotonic() < deadline, "the changed file kept its name"
            await asyncio.sleep(0.05)
        assert now != first
        assert (await http.get(now)).content == before + b"\n// changed\n"
        assert (await http.get(now)).headers["cache-control"] == IMMUTABLE
        kept = await http.get(first)  # a page loaded before the change still gets the file it named
        assert kept.content == before and kept.headers["cache-control"] == IMMUTABLE
        assert (await http.get("/static/i18n.js")).content == before + b"\n// changed\n"
        # A hash this process never served (a page from before a restart): the file as it is now, not kept.
        unknown = await http.get("/static/i18n.0123456789ab.js")
        assert unknown.content == before + b"\n// changed\n" and unknown.headers["cache-control"] == "no-cache"


@pytest.mark.parametrize(
    ("accept", "language"),
    [
        ("es-ES,es;q=0.9,en;q=0.8", "es"),
        ("fr-CA", "fr"),
        ("de-DE,fr;q=0.5,es;q=0.8", "es"),  # by weight, not by order
        ("de-DE", "en"),
        ("", "en"),
    ],
)
async def test_the_page_preloads_the_words_of_the_browsers_language(tmp_path: Path, accept: str, language: str) -> None:
    """A first visit fetches its language's words with the other modules (no round trip after i18n.js runs),
    and only those: the page says its language, and varies by Accept-Language."""
    async with (
        running_server(sqlite(tmp_path)) as server,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}", timeout=WITHIN) as http,
    ):
        page = await http.get("/", headers={"Accept-Language": accept})
        assert f'<html lang="{language}"' in page.text
        preloaded = re.findall(r'<link rel="modulepreload" href="/static/words/(\w+)\.[0-9a-f]{12}\.js">', page.text)
        assert preloaded == [language], preloaded
        assert "accept-language" in page.headers["vary"].lower()
        words = await http.get(hashed_url(page.text, f"words/{language}.js"))
        assert words.status_code == 200 and "export default" in words.text
        other = await http.get("/", headers={"Accept-Language": "fr" if language != "fr" else "es"})
        assert other.headers["etag"] != page.headers["etag"]  # a browser's kept page is its language's
        again = await http.get("/", headers={"Accept-Language": accept, "If-None-Match": page.headers["etag"]})
        assert again.status_code == 304
