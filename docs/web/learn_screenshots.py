"""Screenshots of the guided lessons (#/learn, issue 46) for docs/web.md, on a desktop (1280×800) and a phone
(390×844): the welcome's offer, the course, a lesson's intro, a refused card and its why, a right answer and
what happened, an écart being chosen, a lesson's end; one lesson in French and one in Spanish.

Run from the repository: ``python docs/web/learn_screenshots.py`` (needs Debian's chromium). It starts its
own ``atout serve`` on a temporary database and writes PNG files here; also rewrites ``welcome.png``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE.parents[1] / "tests")]

from tests.web.conftest import CHROMIUM, Site  # noqa: E402
from tests.web.lessons import RIGHTS, SCRIPTS, begin, give  # noqa: E402
from tests.web.pages import Person  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def shoot(page, name: str) -> None:
    page.wait_for_timeout(200)
    page.screenshot(path=str(HERE / f"{name}.png"))
    print("wrote", name)


def lessons(browser, site: Site, viewport: dict, suffix: str) -> None:
    person = Person(browser, site.url, "Learner", viewport=viewport)
    page = person.page
    page.goto(site.url)
    page.wait_for_selector("form.welcome")
    if viewport is PHONE:
        shoot(page, "learn-welcome-phone")
    page.get_by_role("link", name="Learn tarot").click()
    page.wait_for_selector(".learn-page.course")
    page.goto(f"{site.url}/#/learn/cards")  # the first lesson done, to show a done one on the course's page
    begin(page)
    for answer in RIGHTS["cards"]:
        give(page, answer)
    page.goto(f"{site.url}/#/learn")
    page.wait_for_selector(".lesson-item.done")
    shoot(page, "learn-course" + suffix)
    page.goto(f"{site.url}/#/learn/follow")
    page.wait_for_selector("[data-begin]")
    shoot(page, "learn-intro" + suffix)
    begin(page)
    give(page, SCRIPTS["follow"][0][0])
    shoot(page, "learn-wrong" + suffix)
    give(page, SCRIPTS["follow"][0][1])
    shoot(page, "learn-right" + suffix)
    page.goto(f"{site.url}/#/learn/ecart")
    begin(page)
    give(page, RIGHTS["ecart"][0])
    for card in ("9D", "6D", "3D", "NC"):
        page.locator(f".hand-cards button[data-card='{card}']").click()
    shoot(page, "learn-ecart" + suffix)
    page.goto(f"{site.url}/#/learn/defence")
    begin(page)
    for answer in RIGHTS["defence"]:
        give(page, answer)
    shoot(page, "learn-end" + suffix)
    person.close()


def speaking(browser, site: Site, lang: str, viewport: dict, name: str, lesson: str) -> None:
    person = Person(browser, site.url, "Learner", lang=lang, viewport=viewport)
    page = person.page
    page.goto(f"{site.url}/#/learn/{lesson}")
    begin(page)
    give(page, SCRIPTS[lesson][0][0])
    shoot(page, name)
    person.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        site = Site(Path(tmp))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            newcomer = Person(browser, site.url, "Newcomer")
            newcomer.page.goto(site.url)
            newcomer.page.wait_for_selector("form.welcome")
            shoot(newcomer.page, "welcome")
            newcomer.close()
            lessons(browser, site, DESKTOP, "")
            lessons(browser, site, PHONE, "-phone")
            speaking(browser, site, "fr-FR", DESKTOP, "learn-fr", "trumps")
            speaking(browser, site, "es-ES", PHONE, "learn-es-phone", "excuse")
        finally:
            browser.close()
            site.stop()


if __name__ == "__main__":
    main()
