"""Driving the browser client as people do: a guest arrives, creates or joins a table, plays."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from served import TLS

AUTOPLAY = (Path(__file__).parent / "autoplay.js").read_text()

HTTP_WITHIN = 120.0
"""How long an HTTP call of a test may wait for its answer: an upper bound on a hang (a loaded machine
hashes a password slowly), never a guess of how fast it is (httpx's own default is 5 s)."""


def http_get(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.get(url, timeout=HTTP_WITHIN, verify=TLS, **kwargs)


def http_post(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.post(url, timeout=HTTP_WITHIN, verify=TLS, **kwargs)


FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Two animation frames: what a change set off is drawn (a resize is handled before the next frame, not when the
viewport changes; the hand laid out again for the new width)."""


WAIT_MS = 120_000
"""How long a page may take to show what a test waits for before the test calls it a hang (Playwright's
default, 30 s, is a guess a loaded machine can miss)."""


class Person:
    """One person in their own browser context (own storage, own cookies), with every WebSocket
    frame their page received."""

    def __init__(
        self, browser: Browser, site_url: str, name: str, lang: str = "en-GB", viewport: dict | None = None
    ) -> None:
        self.context = browser.new_context(
            locale=lang, viewport=viewport or {"width": 1280, "height": 820}, reduced_motion="reduce"
        )
        self.context.set_default_timeout(WAIT_MS)
        self.site = site_url
        self.name = name
        self.frames: list[dict] = []
        self.sent: list[dict] = []  # every WebSocket frame their page sent, as the network carried it
        self.idle_at: int | None = None  # the event at which step() last found nothing to do
        self.console_errors: list[str] = []  # what the browser reported, a Content Security Policy refusal among them
        self.page = self.new_page()

    def new_page(self) -> Page:
        page = self.context.new_page()
        page.on("websocket", self._socket)
        page.on("pageerror", lambda err: self.frames.append({"type": "pageerror", "error": str(err)}))
        page.on("console", lambda message: message.type == "error" and self.console_errors.append(message.text))
        return page

    def policy_violations(self) -> list[str]:
        """The Content Security Policy's refusals the browser reported on this person's pages."""
        return [text for text in self.console_errors if "Content Security Policy" in text]

    def _socket(self, ws) -> None:
        ws.on("framereceived", self._frame)
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def _frame(self, payload) -> None:
        if isinstance(payload, (bytes, bytearray)):
            payload = payload.decode()
        self.frames.append(json.loads(payload))

    def sent_since(self, count: int) -> list[dict]:
        """The requests the page sent after its first ``count`` frames, once everything it sent so far has
        been seen on the network (a marked ping, sent last, has: frames leave a socket in order)."""
        mark = f"sent-{count}-{len(self.sent)}"
        self.page.evaluate("(mark) => window.atout.net.send({ type: 'ping', ref: mark })", mark)
        deadline = time.monotonic() + HTTP_WITHIN  # bounds a hang only
        while not any(f.get("ref") == mark for f in self.sent[count:]):
            assert time.monotonic() < deadline, "the page's frames never reached the network"
            self.page.wait_for_timeout(5)
        return [f for f in self.sent[count:] if f.get("type") != "ping"]  # the keep-alive's, and the mark

    def arrive(self) -> Person:
        page = self.page
        page.goto(self.site)
        page.fill("#guest-name", self.name)
        page.click("form.welcome button[type=submit]")
        page.wait_for_selector("#create-form")
        return self

    def create(self, players: int, deals: int = 1, turn_seconds: int = 0) -> str:
        page = self.page
        page.check(f"#create-form input[name=players][value='{players}']")
        page.fill("#opt-deals", str(deals))
        page.select_option("#opt-turn_seconds", json.dumps(turn_seconds))
        page.click("#create-form button[type=submit]")
        page.wait_for_selector(".table-page .seat")
        return page.eval_on_selector(".table-page", "el => el.dataset.table")

    def sit_at(self, table: str) -> None:
        page = self.page
        page.goto(f"{self.site}/#/t/{table}")
        page.locator(".seat button", has_text="Sit here").first.click()
        page.wait_for_function(
            "() => window.atout.view && window.atout.view.state && (window.atout.view.state.you !== null"
            " || Boolean(document.querySelector('.actions .refusal')?.textContent))"
        )
        said = page.evaluate(
            "() => [window.atout.view.state.you, document.querySelector('.actions .refusal')?.textContent,"
            " window.atout.view.state.seats.map((s) => s.name)]"
        )
        assert said[0] is not None, f"{self.name}'s sit at {table} was refused: {said[1]!r} (seats: {said[2]})"

    def fill_and_start(self) -> None:
        page = self.page
        page.click("text=Fill empty seats with robots")
        page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
        page.click("text=Start the game")
        page.wait_for_function("() => window.atout.view.state.status === 'playing'")

    def seq(self) -> int:
        return self.page.evaluate("() => window.atout.view ? window.atout.view.seq : null")

    def state(self) -> dict:
        return self.page.evaluate("() => window.atout.view.state")

    def step(self, unless: str | None = None) -> str | None:
        """One click if this page has something to do; waits until the table has moved on. ``unless``, a
        JavaScript condition, is looked at in the same breath as the click: none while it holds (a moment a
        test means to meet itself, which the next frame may bring between a look and a click)."""
        script = AUTOPLAY if unless is None else f"() => ({unless}) ? null : ({AUTOPLAY})()"
        before, done = self.page.evaluate(f"() => [window.atout.view ? window.atout.view.seq : null, ({script})()]")
        if done is None:
            self.idle_at = before  # nothing to do at this event: idle() waits for the next
        if done is None or done.startswith("pick"):
            return done
        # until the table moved on, or this click was refused (the page forgets the action it sent): looked at in
        # the page at each frame, not asked from here every few milliseconds (each look a round trip through
        # Playwright's driver and the browser, a fifth of the CPU of a deal played through a page)
        self.page.wait_for_function(
            "(before) => { const v = window.atout.view; return v.seq > before || v.actedAt === null; }",
            arg=before,
            timeout=60_000,  # bounds a hang only
        )
        return done

    def idle(self, also: str | None = None, within: float = 5.0) -> None:
        """After a ``step()`` that found nothing to do: waits, in the page, until its table moves on (an event after
        the one that step looked at), or the JavaScript condition ``also`` holds, or ``within`` seconds pass (the
        caller then looks again: a turn clock, a pause between deals)."""
        more = f" || Boolean(({also})())" if also else ""
        with contextlib.suppress(PlaywrightTimeout):
            self.page.wait_for_function(
                f"(seq) => {{ const v = window.atout && window.atout.view; return !v || v.seq !== seq{more}; }}",
                arg=self.idle_at,
                timeout=within * 1000,
            )

    def game_over(self) -> bool:
        return self.page.evaluate(
            "() => Boolean(window.atout.view && window.atout.view.state"
            " && window.atout.view.state.game && window.atout.view.state.game.over)"
        )

    def close(self) -> None:
        self.context.close()


def play_until_over(people: list[Person], timeout: float = 120.0) -> int:
    """Every person clicks whenever it is their turn until the game is over; the number of clicks. One person's page
    is waited on in the page itself while the robots play (Person.idle)."""
    deadline = time.monotonic() + timeout
    clicks = 0
    while True:
        moved = False
        heard = [len(p.frames) for p in people]  # before the looks: a frame during them means look again
        for person in people:
            if person.step() is not None:
                clicks += 1
                moved = True
        if moved:
            continue
        if all(p.game_over() for p in people):
            return clicks
        if time.monotonic() > deadline:
            where = [
                p.page.evaluate(
                    "() => { const v = window.atout.view; const d = v.state.deal;"
                    " return {you: v.state.you, status: v.state.status, game: v.state.game,"
                    " phase: d && d.phase, to_act: d && d.to_act, legal: d && d.legal,"
                    " seats: v.state.seats, actions: document.querySelector('.actions').innerText}; }"
                )
                for p in people
            ]
            raise AssertionError(f"the game did not end in time: {where}")
        if len(people) == 1:
            people[0].idle()
        else:
            _until_a_frame(people, heard)


def _until_a_frame(people: list[Person], heard: list[int], within: float = 5.0) -> None:
    """Until a page of ``people`` has a WebSocket frame beyond the ``heard`` counts, or ``within`` seconds (a turn
    clock, a pause between deals): frames are counted here as Playwright hands them over, during its calls, so
    one short wait at a time rather than two looks at each page every 20 ms while the robots play (the people
    may sit at different tables, whose events do not follow one another)."""
    end = time.monotonic() + within
    while all(len(p.frames) == n for p, n in zip(people, heard, strict=True)) and time.monotonic() < end:
        people[0].page.wait_for_timeout(20)
