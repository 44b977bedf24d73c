"""The site's Content Security Policy and frame refusal, as Chromium applies them."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from .pages import Person

pytestmark = pytest.mark.slow


@contextlib.contextmanager
def another_site(html: str) -> Iterator[str]:
    """A page on another local origin (another port of 127.0.0.1), as a real server: the address of it."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_a_page_of_another_site_that_frames_the_site_shows_nothing(browser, site):
    """Clickjacking: a foreign page puts the site in a frame under its own buttons. The frame stays empty."""
    context = browser.new_context()
    page = context.new_page()
    html = f'<!doctype html><title>Win chips</title><iframe id="victim" src="{site.url}/"></iframe>'
    with another_site(html) as other:
        page.goto(other)  # waits for the load event, the frame's included
        framed = page.frame_locator("#victim")
        assert framed.locator("#main").count() == 0 and framed.locator("text=Atout").count() == 0
        assert len(page.frames) == 2 and page.frames[1].url.startswith("chrome-error:"), page.frames  # refused
    # the same page from the site itself is whole: the frame was refused, not broken
    page.goto(site.url)
    assert page.locator("#main").count() == 1
    context.close()


def test_the_client_runs_under_the_policy_and_an_injected_script_does_not(browser, site):
    """A guest's whole path (welcome, lobby, a table) draws no refusal; a script written into the page,
    as a markup injection would, is refused and does not run."""
    ada = Person(browser, site.url, "Ada").arrive()
    ada.create(3, deals=1)
    assert ada.page.locator(".table-page .seat").count() == 3
    assert ada.policy_violations() == []
    ada.page.evaluate("""() => {
        window.__refused = [];
        document.addEventListener("securitypolicyviolation", (e) => window.__refused.push(e.violatedDirective));
        const script = document.createElement("script");
        script.textContent = "window.__injected = 1";
        document.body.append(script);
        const div = document.createElement("div");
        div.innerHTML = '<img src="x:" onerror="window.__injected = 2">';
        document.body.append(div);
    }""")
    # both refusals reported (the element's script and the attribute's handler): neither ran
    ada.page.wait_for_function("""() => ["script-src-elem", "script-src-attr"]
        .every((d) => window.__refused.includes(d))""")
    assert ada.page.evaluate("() => window.__injected") is None
    assert ada.policy_violations(), ada.console_errors  # and the console check sees such a refusal
    ada.context.close()


def log_in(person: Person, password: str, register: bool = False) -> None:
    page = person.page
    page.goto(person.site)
    page.click("text=Log in or register")
    page.fill("#account-name", person.name)
    page.fill("#account-password", password)
    page.click(f"dialog button:text-is('{'Register' if register else 'Log in'}')")
    page.wait_for_selector("#create-form")
    assert page.inner_text(".top .who") == person.name


def test_a_password_change_in_one_browser_logs_the_other_out(browser, site):
    """Two browsers of one person; the password changed from the first one's page (its own Origin, its
    cookie) ends the second one's session: its open page is told at once and is a guest's page, and so
    it stays when reloaded."""
    home = Person(browser, site.url, "Hugo")
    log_in(home, "first long secret", register=True)
    phone = Person(browser, site.url, "Hugo")
    log_in(phone, "first long secret")
    answer = home.page.evaluate("""async () => {
        const r = await fetch("/api/password", {method: "POST", headers: {"Content-Type": "application/json"},
                                                body: JSON.stringify({old: "first long secret",
                                                  new: "second long secret"})});
        return [r.status, await r.json()];
    }""")
    assert answer == [200, {"changed": True, "sessions_ended": 1}]
    phone.page.wait_for_selector("form.welcome")  # a guest's welcome, by itself: the session is over
    assert {"type": "session_ended", "why": "password_changed"} in phone.frames
    phone.page.reload()
    phone.page.wait_for_selector("form.welcome")
    assert phone.page.evaluate("async () => (await fetch('/api/me')).status") == 401
    home.page.reload()
    home.page.wait_for_selector("#create-form")
    assert home.page.inner_text(".top .who") == "Hugo"  # the browser that changed it stays logged in
    assert home.policy_violations() == [] and phone.policy_violations() == []
    home.context.close()
    phone.context.close()
