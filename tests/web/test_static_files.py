"""What a phone moves over the wire to open the site, counted by Chromium against a real ``atout serve``:
the first visit at most 100 KB (the client's files gzipped), the second asking the server again for
nothing but the page (the files kept a year under hashed names). docs/web.md quotes the figures this
prints (``pytest -s tests/web/test_static_files.py``)."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page

from .pages import WAIT_MS, Person

PHONE = {"width": 390, "height": 844}
FIRST_VISIT_BYTES = 100_000
HASHED = re.compile(r"/static/[\w/.-]+\.[0-9a-f]{12}\.\w+$")
WHAT_WENT = """() => performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"))
  .map((e) => ({ url: e.name, transfer: e.transferSize, body: e.encodedBodySize }))"""
"""Every HTTP request of the page with what crossed the network for it (0: served from the browser's cache)."""


class Wire:
    """Every byte a page receives as Chromium's DevTools protocol counts it: each HTTP answer's
    encoded length (headers and gzipped body) and each WebSocket frame's."""

    def __init__(self, context: BrowserContext, page: Page) -> None:
        self.answers: dict[str, dict] = {}
        self.frames = 0
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.responseReceived", self._response)
        cdp.on(
            "Network.loadingFinished",
            lambda e: self.answers.setdefault(e["requestId"], {}).update(bytes=e["encodedDataLength"]),
        )
        cdp.on("Network.webSocketFrameReceived", self._frame)
        cdp.on("Network.webSocketFrameSent", self._frame)

    def _response(self, event: dict) -> None:
        response = event["response"]
        self.answers.setdefault(event["requestId"], {}).update(
            url=response["url"],
            status=response["status"],
            encoding=response["headers"].get("content-encoding"),
            lifetime=response["headers"].get("cache-control", ""),
            cached=bool(response.get("fromDiskCache") or response.get("fromPrefetchCache")),
        )

    def _frame(self, event: dict) -> None:
        self.frames += len(event["response"]["payloadData"].encode())

    def total(self) -> int:
        return sum(answer.get("bytes", 0) for answer in self.answers.values()) + self.frames


def visit(context: BrowserContext, url: str, name: str | None = None) -> tuple[Page, Wire, list[dict]]:
    """Open the site in a new tab, arrive in the lobby (as the guest ``name`` when the site asks for one),
    and wait until nothing more loads."""
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    wire = Wire(context, page)
    page.goto(url)
    if name is not None:
        page.fill("#guest-name", name)
        page.click("form.welcome button[type=submit]")
    page.wait_for_selector("#create-form")  # the lobby, its tables live over the WebSocket
    page.wait_for_load_state("networkidle")
    assert not errors, errors
    return page, wire, page.evaluate(WHAT_WENT)


def test_a_phones_first_visit_moves_at_most_100_kb_and_its_second_asks_again_only_for_the_page(browser, site):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(WAIT_MS)
    page, wire, went = visit(context, site.url, "Phone")
    files = [entry for entry in went if "/static/" in entry["url"]]
    assert len(files) > 10, went  # every module of the first page, all at once
    plain = [entry["url"] for entry in files if not HASHED.search(entry["url"])]
    assert not plain, f"named by their plain names (the import map was not used): {plain}"
    answers = [answer for answer in wire.answers.values() if "/static/" in answer.get("url", "")]
    assert all(answer["encoding"] == "gzip" for answer in answers), answers
    # Kept a year without asking again: not the browser's own guess from Last-Modified, which runs out.
    assert all("max-age=31536000" in answer["lifetime"] and "immutable" in answer["lifetime"] for answer in answers), (
        answers
    )
    first = wire.total()
    bodies = sum(entry["body"] for entry in went)
    print(
        f"\nfirst visit: {first} bytes over the wire (HTTP headers, gzipped bodies, {wire.frames} bytes of "
        f"WebSocket frames), {bodies} bytes of encoded bodies in {len(went)} requests"
    )
    assert first <= FIRST_VISIT_BYTES, (first, wire.answers)
    page.close()

    page, wire, went = visit(context, site.url)
    asked = [entry["url"] for entry in went if entry["transfer"] > 0]
    files = [entry for entry in went if "/static/" in entry["url"]]
    assert len(files) > 10 and all(entry["transfer"] == 0 for entry in files), went
    # The page, who the person is (a question, never a stored answer) and the options' catalogue (asked again,
    # answered 304 while the same): nothing else reaches the server but the WebSocket.
    assert [url for url in asked if "/api/me" not in url and "/api/options" not in url] == [site.url + "/"], asked
    revalidated = [
        a
        for a in wire.answers.values()
        if "/api/options" not in a.get("url", "")
        and (a.get("status") == 304 or ("/static/" in a.get("url", "") and not a.get("cached")))
    ]
    assert not revalidated, revalidated
    catalogue = [e for e in went if "/api/options" in e["url"]]  # asked, and answered 304: headers, no body
    assert len(catalogue) == 1 and 0 < catalogue[0]["transfer"] < catalogue[0]["body"], catalogue
    print(f"second visit: {wire.total()} bytes, requests to the server: {asked}")
    page.close()
    context.close()


def test_the_plain_names_are_the_same_modules_and_a_pages_stylesheet_comes_hashed(browser, site):
    person = Person(browser, site.url, "Plain", viewport=PHONE).arrive()
    page = person.page
    # A module asked by its plain URL (as tests and the page's own import() do) is the one already loaded.
    loaded = len(page.evaluate(WHAT_WENT))
    same = page.evaluate("""async () => {
      const i18n = await import('/static/i18n.js');
      const cards = await import('/static/cards.js');
      return i18n.t === (await import('./static/i18n.js')).t && typeof cards.word === 'function'; }""")
    assert same and len(page.evaluate(WHAT_WENT)) == loaded, "a module was fetched again by its plain name"
    # A page that loads its own stylesheet when opened (the daily deal) gets it hashed, and applied.
    page.goto(site.url + "/#/daily")
    page.wait_for_function("""() => { const link = document.querySelector('link[data-daily]');
      return link && link.sheet && link.sheet.cssRules.length > 0; }""")
    href = page.eval_on_selector("link[data-daily]", "el => el.href")
    assert HASHED.search(href), href
    assert not [
        entry["url"]
        for entry in page.evaluate(WHAT_WENT)
        if "/static/" in entry["url"] and not HASHED.search(entry["url"])
    ]
    assert not person.console_errors and not [f for f in person.frames if f.get("type") == "pageerror"]
    person.close()
