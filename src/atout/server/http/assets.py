"""The browser client's files, served so that a phone moves little and asks again for nothing but the page.

Each file is read once, compressed once (gzip), and served under a name that carries a hash of its
content (``/static/main.3f2a9c1d0b7e.js``) with a year's ``immutable`` lifetime: a new version is a new
name, so a browser never needs to ask again. The page (``index.html``, never cached) names the hashed
files and carries an import map from each module's plain URL to its hashed one, so the imports between
modules (``./i18n.js``, ``import("./daily.js")``), which stay as written, reach hashed files too. The
plain names (``/static/i18n.js``) are served as well, revalidated on each use (``no-cache`` and an
ETag): nothing that names them breaks. A file changed on disk is read again within a second, under its
new name (a developer's reload sees it).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import mimetypes
import re
import time
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Scope

PREFIX = "/static/"
IMMUTABLE = "public, max-age=31536000, immutable"
"""A hashed name's lifetime: a year, and no revalidation on reload (its content never changes)."""
REVALIDATE = "no-cache"
"""The page's and the plain names' lifetime: kept, but asked again (a 304 when unchanged) before each use."""
HASH_LENGTH = 12
HASHED = re.compile(rf"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{{{HASH_LENGTH}}})(?P<suffix>\.[A-Za-z0-9]+)?$")
MAPPED_SUFFIXES = (".js", ".mjs", ".css")
"""The files the import map names: modules, and the stylesheets a module loads by
``import.meta.resolve("/static/x.css")``."""
STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)(?:\s+[^"';()]*?\sfrom)?\s*["'](\./[^"']+)["']""", re.MULTILINE)
"""``import … from "./x.js"`` at the start of a line: the modules a page will ask for at once (preloaded)."""
RESCAN_SECONDS = 1.0
WORDS = re.compile(r"^words/(?P<language>[a-z]{2})\.js$")
"""A language's words (``words/es.js``): the page preloads the one its visitor's browser asks for first."""


def hashed_name(name: str, digest: str) -> str:
    """``main.js`` → ``main.<digest>.js`` (the hash before the last suffix, so ``./i18n.js`` stays beside it)."""
    path = Path(name)
    return str(path.with_name(f"{path.stem}.{digest}{path.suffix}"))


_packed: dict[str, bytes] = {}


def _gzipped(whole_digest: str, body: bytes) -> bytes:
    """``body`` gzipped at the highest level, once a process for each content: a file's new content is
    packed again; an app made again (a test's, or the folder rescanned with one file changed) packs nothing
    it packed before (72 files: 16 ms of CPU an app, measured)."""
    packed = _packed.get(whole_digest)
    if packed is None:
        packed = _packed[whole_digest] = gzip.compress(body, 9, mtime=0)
    return packed


@dataclass(frozen=True)
class Asset:
    """One file of the client: its bytes as they are and gzipped (None when that saves nothing)."""

    name: str
    hashed: str
    digest: str
    body: bytes
    gzipped: bytes | None
    media_type: str

    @classmethod
    def read(cls, folder: Path, path: Path) -> Asset:
        body = path.read_bytes()
        name = path.relative_to(folder).as_posix()
        whole = hashlib.sha256(body).hexdigest()
        digest = whole[:HASH_LENGTH]
        packed = _gzipped(whole, body)
        media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if name.endswith((".js", ".mjs")):
            media_type = "text/javascript"
        return cls(
            name, hashed_name(name, digest), digest, body, packed if len(packed) < len(body) else None, media_type
        )


class Assets:
    """Every file of the client at one moment, the page that names their hashed versions, and the
    Content-Security-Policy source that lets that page's inline import map run."""

    def __init__(self, folder: Path) -> None:
        self.by_name: dict[str, Asset] = {}
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                asset = Asset.read(folder, path)
                self.by_name[asset.name] = asset
        self.by_hashed = {asset.hashed: asset for asset in self.by_name.values()}
        self.import_map = json.dumps(
            {
                "imports": {
                    PREFIX + a.name: self.url(a.name) for a in self.by_name.values() if a.name.endswith(MAPPED_SUFFIXES)
                }
            },
            indent=None,
            separators=(",", ":"),
            sort_keys=True,
        )
        digest = base64.b64encode(hashlib.sha256(self.import_map.encode()).digest()).decode()
        self.script_source = f"'sha256-{digest}'"
        template = self.by_name.get("index.html")
        self.languages = sorted(m["language"] for name in self.by_name if (m := WORDS.match(name)))
        self.default_language = "en" if "en" in self.languages or not self.languages else self.languages[0]
        self.pages: dict[str, bytes] = {}
        if template is not None:
            for language in self.languages or [self.default_language]:
                self.pages[language] = self.render(template.body.decode(), language).encode()
        self.page = self.pages.get(self.default_language)
        self.page_tag = f'W/"{hashlib.sha256(self.page or b"").hexdigest()[:HASH_LENGTH]}"'

    def language_of(self, accept_language: str) -> str:
        """The first language of an Accept-Language header (``de-DE,es;q=0.8``) the site speaks, by weight."""
        asked = []
        for i, part in enumerate(accept_language.split(",")):
            tag, _, weight = part.strip().partition(";q=")
            try:
                q = float(weight) if weight else 1.0
            except ValueError:
                q = 0.0
            asked.append((-q, i, tag.strip().lower().split("-")[0]))
        for _q, _i, language in sorted(asked):
            if language in self.pages:
                return language
        return self.default_language

    def page_answer(self, scope: Scope) -> Response | None:
        """``index.html`` as rendered for the browser's language (Accept-Language: its ``lang`` and its words
        preloaded, so a first visit fetches them with the other modules), never cached (a 304 when the
        browser has it); None when there is none. Its Content-Security-Policy must name ``script_source``,
        or the import map does not run. The page itself still speaks the language chosen on the browser
        before, when there is one (i18n.js): the preload only saves a round trip."""
        if self.page is None:
            return None
        language = self.language_of(Headers(scope=scope).get("accept-language", ""))
        page = self.pages[language]
        tag = f'W/"{hashlib.sha256(page).hexdigest()[:HASH_LENGTH]}"'
        answer = revalidated_answer(scope, page, None, "text/html", REVALIDATE, tag)
        answer.headers["Vary"] = "Accept-Language"
        return answer

    def url(self, name: str) -> str:
        """The hashed URL of the file ``name`` (its plain URL when there is no such file)."""
        asset = self.by_name.get(name)
        return PREFIX + (asset.hashed if asset else name)

    def preloads(self, name: str) -> list[str]:
        """Every module ``name`` imports at once, directly or not (not the ``import()`` loaded when asked)."""
        seen: list[str] = []
        todo = [name]
        while todo:
            current = todo.pop(0)
            asset = self.by_name.get(current)
            if asset is None:
                continue
            folder = Path(current).parent
            for relative in STATIC_IMPORT.findall(asset.body.decode(errors="replace")):
                target = (folder / relative).as_posix().removeprefix("./")
                if target in self.by_name and target not in seen and target != name:
                    seen.append(target)
                    todo.append(target)
        return seen

    def render(self, template: str, language: str = "en") -> str:
        """``index.html`` with its ``/static/…`` URLs hashed, the import map before its first script, and
        the modules the first one imports preloaded (one round trip for all instead of one per level), the
        words of ``language`` among them, and ``<html lang>`` saying it."""
        page = re.sub(r'(src|href)="/static/([^"]+)"', lambda m: f'{m[1]}="{self.url(m[2])}"', template)
        page = re.sub(r'<html lang="[^"]*"', f'<html lang="{language}"', page, count=1)
        entry = re.search(r'<script type="module" src="/static/([^"]+)"', template)
        head = [f'<script type="importmap">{self.import_map}</script>']
        if entry is not None:
            head += [f'<link rel="modulepreload" href="{self.url(name)}">' for name in self.preloads(entry[1])]
            if f"words/{language}.js" in self.by_name:
                head.append(f'<link rel="modulepreload" href="{self.url(f"words/{language}.js")}">')
        at = page.find("<script")
        at = at if at >= 0 else page.find("</head>")
        return page[:at] + "\n".join(head) + "\n" + page[at:] if at >= 0 else page


class ClientFiles:
    """The client's folder as served: the page at ``/`` and every file under ``/static/``. Files seen under
    an earlier hash stay served while the process lives."""

    def __init__(self, folder: Path, rescan_seconds: float = RESCAN_SECONDS) -> None:
        self.folder = folder
        self.rescan_seconds = rescan_seconds
        self._signature = self._scan()
        self._checked = time.monotonic()
        self.assets = Assets(folder)
        self._seen: dict[str, Asset] = dict(self.assets.by_hashed)

    def _scan(self) -> tuple[tuple[str, int, int], ...]:
        found = []
        for path in self.folder.rglob("*"):
            if path.is_file():
                stat = path.stat()
                found.append((str(path), stat.st_size, stat.st_mtime_ns))
        return tuple(sorted(found))

    def current(self) -> Assets:
        """The files as they are now on disk (looked at again at most once a ``rescan_seconds``)."""
        now = time.monotonic()
        if now - self._checked >= self.rescan_seconds:
            self._checked = now
            signature = self._scan()
            if signature != self._signature:
                self._signature = signature
                self.assets = Assets(self.folder)
                self._seen.update(self.assets.by_hashed)
        return self.assets

    async def file(self, request: Request) -> Response:
        """``GET /static/{name}``: a hashed name for a year, a plain one revalidated at each use."""
        name = request.path_params["name"]
        assets = self.current()
        asset = assets.by_name.get(name)
        lifetime = REVALIDATE
        if asset is None:
            asset = self._seen.get(name)
            lifetime = IMMUTABLE
        if asset is None and (match := HASHED.match(name)):
            # A hash this process never had (a page from before a restart): the file as it is now, not for keeping.
            asset = assets.by_name.get(match["stem"] + (match["suffix"] or ""))
            lifetime = REVALIDATE
        if asset is None:
            raise HTTPException(404)
        return revalidated_answer(
            request.scope, asset.body, asset.gzipped, asset.media_type, lifetime, f'W/"{asset.digest}"'
        )

    def routes(self) -> list[Route]:
        return [Route(PREFIX + "{name:path}", self.file, methods=["GET", "HEAD"])]


def revalidated_answer(
    scope: Scope, body: bytes, gzipped: bytes | None, media_type: str, lifetime: str, etag: str | None
) -> Response:
    """``body`` (gzipped when the browser takes it and that saves something), with its lifetime; a 304
    when the browser's copy carries ``etag`` already."""
    request = Headers(scope=scope)
    headers = {"Cache-Control": lifetime}
    if gzipped is not None:  # the answer depends on the browser's Accept-Encoding (GZipMiddleware says so for the page)
        headers["Vary"] = "Accept-Encoding"
    if etag is not None:
        headers["ETag"] = etag
        if etag in [tag.strip() for tag in request.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=headers)
    if gzipped is not None and "gzip" in request.get("accept-encoding", ""):  # as GZipMiddleware reads it
        body = gzipped
        headers["Content-Encoding"] = "gzip"
    if scope["method"] == "HEAD":
        response = Response(None, media_type=media_type, headers=headers)
        response.headers["Content-Length"] = str(len(body))
        return response
    return Response(body, media_type=media_type, headers=headers)


__all__ = ["IMMUTABLE", "REVALIDATE", "Asset", "Assets", "ClientFiles", "hashed_name", "revalidated_answer"]
