"""Screenshots of the browser client at each phase a person meets, for docs/web/.

Run from the repository: ``python docs/web/screenshots.py`` (needs Debian's chromium). It starts its
own ``atout serve`` on a temporary database, plays as "Alice" with robots, and writes PNG files here;
``python docs/web/screenshots.py account`` writes only the account page's (two browsers of "Hélène").
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1]))

from tests.web.conftest import CHROMIUM, Site  # noqa: E402
from tests.web.pages import AUTOPLAY, Person  # noqa: E402

TAKE = """() => {
  const v = window.atout.view;
  if (!v || !v.state || !v.isMyTurn()) return null;
  const b = [...document.querySelectorAll('.actions [data-bid]')].filter((x) => !x.disabled);
  const garde = b.find((x) => x.dataset.bid === 'garde');
  if (garde) { garde.click(); return 'garde'; }
  return null;
}"""


def shoot(page, name: str) -> None:
    page.wait_for_timeout(150)
    page.screenshot(path=str(HERE / f"{name}.png"))
    print("wrote", name)


def phase(person: Person) -> str:
    return person.page.evaluate("() => { const d = window.atout.view && window.atout.view.state && window.atout.view.state.deal;"
                                " return d ? d.phase + (window.atout.view.isMyTurn() ? ':me' : '') : ''; }")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        site = Site(Path(tmp), deal_pause=2.5)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            alice = Person(browser, site.url, "Alice")
            alice.page.goto(site.url)
            shoot(alice.page, "welcome")
            alice.page.fill("#guest-name", "Alice")
            alice.page.click("form.welcome button[type=submit]")
            alice.page.wait_for_selector("#create-form")
            alice.create(4, deals=3, turn_seconds=90)
            alice.page.click("text=Fill empty seats with robots")
            alice.page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
            shoot(alice.page, "table-waiting")
            bob = Person(browser, site.url, "Bob").arrive()
            shoot(bob.page, "lobby")
            alice.page.click("text=Start the game")
            seen: set[str] = set()
            wanted = {"bidding:me", "discard:me", "play:me", "play", "end"}
            for _ in range(4000):
                p = phase(alice)
                if p in wanted and p not in seen:
                    seen.add(p)
                    name = {"bidding:me": "bidding", "discard:me": "ecart", "play:me": "play",
                            "play": "trick", "end": "deal-end"}[p]
                    if p == "discard:me":
                        alice.page.evaluate(AUTOPLAY)
                        alice.page.evaluate(AUTOPLAY)
                    if p == "play" and "spectator" not in seen:
                        seen.add("spectator")
                        bob.page.goto(f"{site.url}/#/t/{alice.page.eval_on_selector('.table-page', 'el => el.dataset.table')}")
                        bob.page.wait_for_selector(".felt .seat")
                        shoot(bob.page, "spectator")
                    shoot(alice.page, name)
                if p == "play:me" and "last" not in seen and alice.page.locator("text=Last trick").count():
                    seen.add("last")
                    alice.page.keyboard.press("l")
                    shoot(alice.page, "last-trick")
                    alice.page.keyboard.press("Escape")
                if alice.game_over():
                    shoot(alice.page, "game-over")
                    break
                if alice.page.evaluate(TAKE) is None and alice.step() is None:
                    alice.page.wait_for_timeout(30)
            alice.page.click("button.lang")
            alice.page.wait_for_timeout(200)
            shoot(alice.page, "game-over-fr")
            phone = Person(browser, site.url, "Carla", viewport={"width": 390, "height": 844})
            phone.arrive()
            phone.create(5, deals=1)
            phone.fill_and_start()
            for _ in range(400):
                if phase(phone) == "play:me":
                    break
                if phone.step() is None:
                    phone.page.wait_for_timeout(30)
            shoot(phone.page, "phone-play")
        finally:
            browser.close()
            site.stop()


def account() -> None:
    """The account page as its owner sees it, logged in from two browsers: at a desktop's width, and the
    deletion's dialog on a phone."""
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        site = Site(Path(tmp))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            desk = Person(browser, site.url, "Hélène")
            phone = Person(browser, site.url, "Hélène", viewport={"width": 390, "height": 844})
            for person, path in ((desk, "/api/register"), (phone, "/api/login")):
                person.page.goto(site.url)
                person.page.evaluate("""async ([path, name]) => { await fetch(path, {method: "POST",
                    headers: {"Content-Type": "application/json"}, body: JSON.stringify({name, password: "a long secret"})}); }""",
                                     [path, person.name])
            for person in (desk, phone):
                person.page.goto(f"{site.url}/#/account")
                person.page.reload()
                person.page.wait_for_function("() => document.querySelectorAll('.sessions li').length === 2")
            desk.page.screenshot(path=str(HERE / "account.png"), full_page=True)
            print("wrote account")
            phone.page.click("#delete-open")
            phone.page.fill("#delete-password", "a long secret")
            phone.page.fill("#delete-name", "Hélène")
            shoot(phone.page, "account-delete-phone")
        finally:
            browser.close()
            site.stop()


if __name__ == "__main__":
    account() if sys.argv[1:] == ["account"] else main()
