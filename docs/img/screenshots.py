"""Screenshots of the lobby, a deal's review and a profile, on a desktop (1280x800) and a phone (390x844).

Run from the repository: ``python docs/img/screenshots.py`` (needs Debian's chromium). It starts its own
``atout serve`` on a temporary database, registers Hélène and Bruno, stores a few games they played at a
betting table (with the server's own table and store: tests/web/stored.py), and writes PNG files here.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1]))

from tests.web.conftest import CHROMIUM, Site  # noqa: E402
from tests.web.pages import Person  # noqa: E402
from tests.web.stored import play_and_store, player_id  # noqa: E402

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def shoot(page, name: str, full: bool = False) -> None:
    page.wait_for_timeout(200)
    page.screenshot(path=str(HERE / f"{name}.png"), full_page=full)
    print("wrote", name)


def log_in(browser, url: str, name: str, viewport: dict) -> Person:
    person = Person(browser, url, name, viewport=viewport)
    page = person.page
    page.goto(url)
    page.click("form.welcome .linklike")
    page.fill("#account-name", name)
    page.fill("#account-password", f"{name} long secret")
    page.click("dialog button[type=submit]")
    page.wait_for_selector("#create-form")
    return person


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        site = Site(Path(tmp), deal_pause=2.5)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            url = site.url
            cookies = {}
            for name in ("Hélène", "Bruno"):
                made = httpx.post(
                    f"{url}/api/register",
                    json={"name": name, "password": f"{name} long secret"},
                    headers={"Origin": url},
                )
                cookies[name] = made.cookies["atout_session"]
            for name, action, other in (("Hélène", "request", "Bruno"), ("Bruno", "accept", "Hélène")):
                httpx.post(
                    f"{url}/api/friends",
                    json={"action": action, "name": other},
                    cookies={"atout_session": cookies[name]},
                    headers={"Origin": url},
                )
            db = f"sqlite:///{Path(tmp) / 'web.db'}"
            people = [(player_id(db, "Hélène"), "Hélène"), (player_id(db, "Bruno"), "Bruno")]
            games = [
                play_and_store(db, people, deals=3, bet=50, void_first=i == 2, at=time.time() - 86400 * (9 - i), seed=i)
                for i in range(8)
            ]

            # the lobby: a quick game of Hélène's going on, Bruno at a table, someone waiting for players
            ana = Person(browser, url, "Ana").arrive()
            ana.create(5, deals=3)
            bruno = log_in(browser, url, "Bruno", SIZES["desktop"])
            bruno.create(3, deals=1)
            helene = log_in(browser, url, "Hélène", SIZES["desktop"])
            helene.page.click("#quick-play button[data-quick='4']")
            helene.page.wait_for_function(
                "() => window.atout.view && window.atout.view.state && window.atout.view.state.status === 'playing'"
            )
            for size, viewport in SIZES.items():
                page = helene.page
                page.set_viewport_size(viewport)
                page.goto(f"{url}/#/")
                page.wait_for_selector("#friends-box li[data-friend=Bruno]")
                page.wait_for_selector("#your-tables:not([hidden])")
                shoot(page, f"lobby-{size}", full=size == "phone")

                page.goto(f"{url}/#/g/{games[-1]}/2")
                page.wait_for_selector(".review-page")
                for _ in range(3):
                    page.click(".review-page .step-nav button[data-step=next]")
                shoot(page, f"review-{size}", full=size == "phone")

                page.goto(f"{url}/#/p/H%C3%A9l%C3%A8ne")
                page.wait_for_selector(".profile .history")
                shoot(page, f"profile-{size}", full=size == "phone")

                page.goto(f"{url}/#/g/{games[2]}")
                page.wait_for_selector(".game-page")
                shoot(page, f"game-{size}")
        finally:
            browser.close()
            site.stop()


if __name__ == "__main__":
    main()
