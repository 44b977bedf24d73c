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
    return person.page.evaluate(
        "() => { const d = window.atout.view && window.atout.view.state && window.atout.view.state.deal;"
        " return d ? d.phase + (window.atout.view.isMyTurn() ? ':me' : '') : ''; }"
    )


PHONE = {"width": 390, "height": 844}
POIGNEE = """() => { const v = window.atout.view; const s = structuredClone(v.state);
  const trumps = s.deal.hand.filter((c) => c.startsWith('T'));
  s.deal.legal = [{ poignee_from: trumps, sizes: { simple: Math.min(8, trumps.length) } }, ...s.deal.legal];
  v.setState(s); document.querySelector('[data-poignee=simple]').click(); }"""
NAMES = {
    "bidding:me": "bidding",
    "discard:me": "ecart",
    "chelem:me": "chelem",
    "play:me": "play",
    "play": "trick",
    "end": "deal-end",
}


def table_phases(browser, site, name: str, viewport: dict | None, suffix: str, players: int = 4) -> None:
    """A game of two deals as ``name`` with robots, taking with a garde when she may: a picture of each phase
    (the dog shown and the écart, the chelem's question, a poignée offered, a card to play, a trick, the
    deal's result, the game's end), and the game's end in French."""
    person = Person(browser, site.url, name, viewport=viewport).arrive()
    person.create(players, deals=2, turn_seconds=90)
    person.page.click("text=Fill empty seats with robots")
    person.page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
    if not suffix:
        shoot(person.page, "table-waiting")
    person.page.click("text=Start the game")
    person.page.wait_for_function(
        "() => window.atout.view.isMyTurn() && window.atout.view.state.deal.phase === 'bidding'"
    )
    shoot(person.page, "bidding" + suffix)
    seen: set[str] = {"bidding:me"}
    for _ in range(4000):
        p = phase(person)
        if p in NAMES and p not in seen:
            seen.add(p)
            if p == "discard:me":
                person.page.evaluate(AUTOPLAY)
                person.page.evaluate(AUTOPLAY)
            shoot(person.page, NAMES[p] + suffix)
            if p == "play:me" and person.page.evaluate(
                "() => window.atout.view.state.deal.hand.filter((c) => c.startsWith('T')).length >= 3"
            ):
                person.page.evaluate(POIGNEE)
                shoot(person.page, "poignee" + suffix)
                person.page.evaluate(
                    "() => { [...document.querySelectorAll('.actions button')]"
                    '.find((b) => b.textContent === "Don\'t show").click(); window.atout.view.open(); }'
                )
                person.page.wait_for_timeout(200)
        if p == "play:me" and "last" not in seen and person.page.locator("text=Last trick").count():
            seen.add("last")
            person.page.keyboard.press("l")
            shoot(person.page, "last-trick" + suffix)
            person.page.keyboard.press("Escape")
        if person.game_over():
            shoot(person.page, "game-over" + suffix)
            break
        if person.page.evaluate(TAKE) is None and person.step() is None:
            person.page.wait_for_timeout(30)
    person.page.click("button.lang")
    person.page.wait_for_timeout(200)
    shoot(person.page, "game-over-fr" + suffix)
    person.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        site = Site(Path(tmp), deal_pause=2.5)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            alice = Person(browser, site.url, "Alice")
            alice.page.goto(site.url)
            shoot(alice.page, "welcome")
            alice.close()
            bob = Person(browser, site.url, "Bob").arrive()
            shoot(bob.page, "lobby")
            table_phases(browser, site, "Alice", None, "")
            table_phases(browser, site, "Carla", PHONE, "-phone")
            watcher = Person(browser, site.url, "Dan", viewport=PHONE).arrive()
            carla = Person(browser, site.url, "Erin").arrive()
            table = carla.create(4, deals=1)
            carla.fill_and_start()
            for _ in range(400):
                if phase(carla) == "play:me":
                    break
                if carla.step() is None:
                    carla.page.wait_for_timeout(30)
            watcher.page.goto(f"{site.url}/#/t/{table}")
            watcher.page.wait_for_selector(".log-list li")
            shoot(watcher.page, "spectator-phone")
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
                person.page.evaluate(
                    """async ([path, name]) => { await fetch(path, {method: "POST",
                    headers: {"Content-Type": "application/json"}, body: JSON.stringify({name, password: "a long
                    secret"})}); }""",
                    [path, person.name],
                )
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
