"""Screenshots of the daily deal, a duplicate tournament and a deal's analysis in its review (issue 24), each
on a desktop (1280x800) and a phone (390x844): docs/daily.md, docs/tournaments.md, docs/analysis.md.

Run from the repository: ``python docs/img/issue24_screenshots.py`` (needs Debian's chromium). It starts its
own ``atout serve --daily-deals 1`` (with ``--analysis-worlds 1``: the analysis is quick) on a temporary
database, and writes here:

- ``daily-before-*``: the day's page before one's play (the commitment, the button to play);
- ``daily-after-*``: the day after (its clock moved on: ``--test-clock``): the ranking and everyone's play;
- ``tournament-open-*``: a tournament's page while people register;
- ``tournament-finished-*``: the same, finished: the ranking and each deal's duplicate scores, table by
  table (two people and robots, one deal, "when full" with two);
- ``analysis-review-*``: a finished deal's review, its analysis asked for in the page, stepped to a trick
  where one of the person's own actions has a mark beside it.

Then it turns them into palette PNGs (Pillow, if installed) to keep them small; ``python
docs/img/issue24_screenshots.py shrink`` does only that, with a Python that has Pillow.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1]))
NAMES = ("daily-before", "daily-after", "tournament-open", "tournament-finished", "analysis-review")

if sys.argv[1:] != ["shrink"]:
    from playwright.sync_api import sync_playwright
    from tests.web.conftest import CHROMIUM, Site
    from tests.web.pages import Person, http_post, play_until_over

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
WRITTEN: list[Path] = []


def shoot(page, name: str, selector: str | None = None, whole: bool = False) -> None:
    """``name``-desktop.png and ``name``-phone.png of the page as it is, scrolled to ``selector``; ``whole``:
    the desktop's whole page (taller than the screen)."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        if selector:
            page.eval_on_selector(selector, "el => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        page.evaluate(
            "() => document.querySelectorAll('#toasts .toast').forEach((t) => t.remove())"
        )  # a passing notice
        path = HERE / f"{name}-{size}.png"
        page.screenshot(path=str(path), full_page=whole and size == "desktop")
        WRITTEN.append(path)
        print("wrote", path.name)
    page.set_viewport_size(SIZES["desktop"])


def register(url: str, name: str) -> None:
    made = http_post(
        f"{url}/api/register", json={"name": name, "password": f"{name} long secret"}, headers={"Origin": url}
    )
    assert made.status_code == 201, made.text


def log_in(browser, url: str, name: str) -> Person:
    person = Person(browser, url, name, viewport=SIZES["desktop"])
    page = person.page
    page.goto(url)
    page.click("form.welcome .linklike")
    page.fill("#account-name", name)
    page.fill("#account-password", f"{name} long secret")
    page.click("dialog button[type=submit]")
    page.wait_for_selector("#create-form")
    return person


GARDE = """() => {
  const v = window.atout.view;
  if (!v || !v.state || !v.isMyTurn()) return null;
  const garde = [...document.querySelectorAll('.actions [data-bid=garde]')].find((x) => !x.disabled);
  if (garde) { garde.click(); return 'garde'; }
  return null;
}"""


def play_daily(person: Person, garde: bool = False) -> None:
    """The day's play through; ``garde``: taking with a garde when one may (another play than the others')."""
    page = person.page
    page.click("nav a[href='#/daily']")
    page.click(".daily-play")
    page.wait_for_function(
        "() => location.hash.startsWith('#/t/') && window.atout.view && window.atout.view.state"
        " && window.atout.view.state.status === 'playing'"
    )
    if not garde:
        play_until_over([person])
        return
    for _ in range(4000):
        if person.game_over():
            return
        if page.evaluate(GARDE) is None and person.step() is None:
            page.wait_for_timeout(30)
    raise AssertionError("the daily deal did not end")


def daily(browser, site: Site) -> bool:
    url = site.url
    for name in ("Daisy", "Dora", "Diego"):
        register(url, name)
    for name in ("Dora", "Diego"):  # two have played before Daisy: her ranking has company
        other = log_in(browser, url, name)
        play_daily(other, garde=name == "Diego")
        other.close()
    daisy = log_in(browser, url, "Daisy")
    page = daisy.page
    page.click("nav a[href='#/daily']")
    page.wait_for_selector(".daily .daily-play")
    shoot(page, "daily-before")
    play_daily(daisy)
    page.click("nav a[href='#/daily']")
    day = page.locator(".daily").get_attribute("data-day")
    site.advance_clock(86_400)  # everyone's play is shown once the day is over (issue 37): the day after
    page.goto(f"{url}/#/daily/{day}")
    page.wait_for_selector(".daily-plays li[data-name='Daisy'] a.deal-link")
    shoot(page, "daily-after")
    page.click(".daily-plays li[data-name='Daisy'] a.deal-link")  # her own deal: its review offers the analysis
    page.wait_for_selector(".review-page")
    marked = review_with_marks(page)
    print("Daisy's daily deal:", "a marked decision" if marked else "no marked decision")
    if marked:
        shoot(page, "analysis-review", ".review-page")
    daisy.close()
    return marked


def tournament(browser, url: str) -> None:
    for name in ("Tina", "Tomas"):
        register(url, name)
    tina, tomas = log_in(browser, url, "Tina"), log_in(browser, url, "Tomas")
    page = tina.page
    page.click("nav a[href='#/tournaments']")
    form = page.locator("form.t-create")
    form.locator("input[name=name]").fill("Tuesday duplicate")
    form.locator("input[name=deals]").fill("1")
    form.locator("input[name=size]").fill("5")  # two tables at least (issue 34): Tina, three away, Tomas
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".tournament[data-status=open] .t-register")
    tid = page.eval_on_selector(".tournament", "el => el.dataset.id")
    page.click(".t-register")
    page.wait_for_selector(".t-entries")
    shoot(page, "tournament-open")
    for name in ("Tess", "Theo", "Tom"):  # who will not come: robots play for them
        made = http_post(
            f"{url}/api/register", json={"name": name, "password": f"{name} long secret"}, headers={"Origin": url}
        )
        assert made.status_code == 201, made.text
        joined = http_post(
            f"{url}/api/tournaments/{tid}/register",
            headers={"Origin": url},
            cookies={"atout_session": made.cookies["atout_session"]},
        )
        assert joined.status_code == 200, joined.text
    phone = tomas.page
    phone.goto(f"{url}/#/tournaments/{tid}")
    phone.click(".t-register")  # the fifth of five: it starts at once
    phone.wait_for_selector(".tournament[data-status=running] .t-play")
    phone.click(".t-play")
    page.wait_for_selector(".tournament[data-status=running] .t-play")
    page.click(".t-play")
    for person in (tina, tomas):
        person.page.wait_for_function(
            "() => location.hash.startsWith('#/t/') && window.atout.view"
            " && window.atout.view.state && window.atout.view.state.status === 'playing'"
        )
    play_until_over([tina, tomas])
    page.goto(f"{url}/#/tournaments/{tid}")
    page.wait_for_selector(".tournament[data-status=finished] .t-scores")
    shoot(page, "tournament-finished", ".t-ranking", whole=True)
    tina.close()
    tomas.close()


MARKED = """() => [...document.querySelectorAll('.review-analysis .analysis-list li.marked')]
  .map((li) => Number(li.dataset.index))"""


def review_with_marks(page) -> bool:
    """On a deal's review page: ask for the analysis, wait for it, step to the first trick where one of
    the person's actions is marked; False when none is."""
    page.wait_for_selector(".review-analysis .analysis-ask")
    page.click(".review-analysis .analysis-ask")
    page.wait_for_selector(".review-analysis .analysis-list li", timeout=120_000)
    if not page.evaluate(MARKED):
        return False
    page.keyboard.press("Home")
    for _ in range(30):
        if page.locator(".review-trick .analysis-mark .mark").count():
            return True
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(50)
    return False


def analysis(browser, url: str) -> None:
    register(url, "Adele")
    adele = log_in(browser, url, "Adele")
    page = adele.page
    for _ in range(8):  # a deal where Adele made a marked decision (one with cards: not every seat passing)
        page.goto(url)
        page.wait_for_selector("#create-form")
        adele.create(4, deals=1)
        adele.fill_and_start()
        play_until_over([adele])
        game = adele.state()["game"]["id"]
        page.goto(f"{url}/#/g/{game}/1")
        if review_with_marks(page):
            shoot(page, "analysis-review", ".review-page")
            break
    else:
        raise SystemExit("no marked decision in 8 deals")
    adele.close()


def shrink(paths: list[Path]) -> None:
    try:
        from PIL import Image
    except ImportError:
        print("(Pillow is not installed: the PNGs are left as they are)")
        return
    for path in paths:
        Image.open(path).convert("RGB").quantize(
            colors=96, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        ).save(path, optimize=True)
        print(f"{path.name}: {path.stat().st_size // 1024} KiB")


def main() -> None:
    if sys.argv[1:] == ["shrink"]:
        shrink([HERE / f"{name}-{size}.png" for name in NAMES for size in SIZES])
        return
    only = set(sys.argv[1:]) or {"daily", "tournament", "analysis"}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        site = Site(Path(tmp), deal_pause=0.3, args=("--daily-deals", "1", "--test-clock"))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            if "daily" in only and daily(browser, site):
                only.discard("analysis")  # shot on her daily deal's review
            if "tournament" in only:
                tournament(browser, site.url)
            if "analysis" in only:
                analysis(browser, site.url)
        finally:
            browser.close()
            site.stop()
    shrink(WRITTEN)


if __name__ == "__main__":
    main()
