"""axe-core on every page a person meets (issue 36): the welcome and the log-in dialog, the lobby, a table
mid-deal and at its game's end, the daily deal, the tournaments, a profile, a deal's review, on a desktop
and on a phone. A serious or critical violation fails the test, with what axe said of each element.

axe-core is vendored (tests/web/vendor/, its version and checksum in its README): nothing is fetched at
test time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import Site
from .pages import FRAMES, Person, http_post, play_until_over
from .test_languages import ENGLISH_OR_FRENCH
from .test_lobby import PHONE
from .test_profile import log_in
from .test_table import advance_until

pytestmark = pytest.mark.slow

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()
DESKTOP = {"width": 1280, "height": 800}
GRAVE = {"serious", "critical"}

RUN = """async () => {
  const r = await window.axe.run(document, { resultTypes: ["violations"] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html.slice(0, 160), why: n.failureSummary })) }));
}"""


WCAG22 = """async () => {
  const r = await window.axe.run({ include: [document], exclude: [[".rule-cards svg.face"]] },
    { resultTypes: ["violations"],
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    rules: { "target-size": { enabled: true } } });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html.slice(0, 160), why: n.failureSummary })) }));
}"""
"""WCAG 2.2 AA's rules and axe's best practices, ``target-size`` on (axe-core leaves it off by default): the rules
page, its calculator and the quick guide (issue 46) are held to it. The rules page draws some three hundred card
faces, the table's own (cards.js, hidden from screen readers, each named beside it), which the table's states
check: left out here, they would double the run's time for nothing new."""


def axe(page, where: str, found: dict, run: str = RUN) -> None:
    """axe's violations on ``page`` as it is now, kept under ``where`` in ``found``."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(
            AXE + "\n;true"
        )  # through the debugger: the site's Content Security Policy allows no inline script
    found[where] = page.evaluate(run)


def grave(found: dict) -> dict:
    return {
        where: [v for v in violations if v["impact"] in GRAVE]
        for where, violations in found.items()
        if any(v["impact"] in GRAVE for v in violations)
    }


def summary(found: dict) -> str:
    lines = []
    for where, violations in found.items():
        for v in violations:
            lines.append(
                f"{where}: {v['id']} ({v['impact']}) x{len(v['nodes'])}: "
                + "; ".join(f"{n['target']} {n['html']}" for n in v["nodes"][:4])
            )
    return "\n".join(lines)


@pytest.fixture(scope="module")
def axe_site(tmp_path_factory):
    server = Site(tmp_path_factory.mktemp("axe"), args=("--daily-deals", "1"))
    try:
        yield server
    finally:
        server.stop()


WORDS = {  # what the test clicks and waits for, as each language's page says it
    "en-GB": {"fill": "Fill empty seats with robots", "start": "Start the game"},
    "fr-FR": {"fill": "Compléter avec des robots", "start": "Lancer la partie"},
}
NARROW = ({"width": 320, "height": 640}, {"width": 640, "height": 400})  # WCAG's reflow width; a desktop at 200% zoom


SAID = """() => [document.querySelector("main"), ...document.querySelectorAll("dialog[open], #top nav")]
  .map((e) => e.innerText).join("\\n").replace(/`[^`]*`|atout (verify|replay|arena)[^\\n]*|\\bAtout\\b/g, "")"""
"""What a page says (its commands, `atout verify …`, are commands, not words; Atout is the site's name)."""


WIDER = """() => [document.scrollingElement.scrollWidth - window.innerWidth, [...document.querySelectorAll("body *")]
  .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && e.checkVisibility())
  .slice(0, 6)
  .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} ${(e.innerText || "").slice(0, 30)}`)]"""
"""How far the page scrolls sideways, and the first elements past its right edge (what to mend)."""


class Check:
    """Each state of the page as a person meets it, checked in Spanish and in the screen's first language (English
    on a desktop, French on a phone: every language over the two) and in each theme (axe), and on a phone, at
    320 px and at 200% zoom without sideways scrolling."""

    def __init__(self, page, start: str, phone: bool):
        self.page, self.start, self.phone = page, start, phone
        self.found: dict = {}
        self.wide: dict = {}
        self.foreign: dict = {}

    def speak(self, code: str) -> None:
        page = self.page
        if page.evaluate("() => document.documentElement.lang") == code:
            return
        page.select_option("select.lang", code)
        page.wait_for_function(f"() => document.documentElement.lang === '{code}'")
        page.wait_for_load_state("networkidle")

    def sideways(self, where: str) -> None:
        page = self.page
        size = page.viewport_size
        for narrow in NARROW:
            page.set_viewport_size(narrow)
            page.wait_for_function(f"() => window.innerWidth === {narrow['width']}")
            page.evaluate(FRAMES)  # the resize event handled (the hand laid out again for the new width)
            over = page.evaluate(WIDER)
            if over[0] > 0:
                self.wide[f"{where} at {narrow['width']}×{narrow['height']}"] = over
        page.set_viewport_size(size)

    def state(self, where: str, ready: str | None = None, opened=None, run: str = RUN) -> None:
        """``where`` as it is now; ``opened`` opens it again (a dialog, a count) after each change of language."""
        page = self.page
        for code in ("es", self.start):  # Spanish (the longest words) on both screens, then back in the first language
            if opened:
                page.keyboard.press("Escape")
            self.speak(code)
            if opened:
                opened()
            if ready:
                page.wait_for_selector(ready)
            axe(page, f"{where} [{code}]", self.found, run)
            if code == "es":  # a word written outside the catalogues shows in English on a Spanish page
                said = page.evaluate(SAID)
                if ENGLISH_OR_FRENCH.search(said):
                    self.foreign[where] = sorted({m.group(0) for m in ENGLISH_OR_FRENCH.finditer(said)})
        page.emulate_media(color_scheme="dark")
        axe(page, f"{where} [dark]", self.found, run)
        page.emulate_media(color_scheme="light")
        if self.phone:
            self.sideways(where)


@pytest.mark.parametrize(
    ("viewport", "lang"),
    [(DESKTOP, "en-GB"), (PHONE, "fr-FR")],  # each size; each state in each language
    ids=["desktop", "phone-fr"],
)
def test_axe_finds_nothing_serious_on_any_page(browser, axe_site, viewport, lang):
    """Every state in Spanish and the screen's first language (English, French) and in the dark theme; on a phone also
    at 320 px and at a
    desktop's 200% zoom, none scrolling sideways (WCAG 1.4.10)."""
    url = axe_site.url
    name = {"en-GB": "Axel", "fr-FR": "Axelfr"}[lang] + ("" if viewport is DESKTOP else "le")
    words = WORDS[lang]
    start = lang[:2]
    phone = viewport is not DESKTOP

    stranger = Person(browser, url, f"{name}Out", lang=lang, viewport=viewport)
    page = stranger.page
    page.goto(url)
    page.wait_for_selector("form.welcome")
    check = Check(page, start, phone)
    check.state("welcome", "form.welcome")

    def log_in_dialog():
        page.click("form.welcome .linklike")
        page.wait_for_selector("dialog.account[open]")

    log_in_dialog()
    check.state("log in or register", opened=log_in_dialog)
    stranger.close()

    made = http_post(f"{url}/api/register", json={"name": name, "password": "my long secret"}, headers={"Origin": url})
    assert made.status_code == 201, made.text
    person = log_in(browser, url, name, lang=lang, viewport=viewport)
    page = check.page = person.page  # the same findings, now from the registered person's page
    check.state("lobby", "#create-form")
    person.create(3, deals=1)
    check.state("table before its game")
    page.get_by_role("button", name=words["fill"]).click()
    page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
    page.get_by_role("button", name=words["start"]).click()
    advance_until(
        person,
        "() => { const v = window.atout.view; const d = v.state.deal;"
        " return d && (d.phase !== 'bidding' || v.isMyTurn()); }",
        limit=120,
    )
    check.state("table at the bids")
    advance_until(
        person,
        "() => { const v = window.atout.view; const d = v.state.deal;"
        " return d && d.phase === 'play' && d.trick.length > 0 && v.isMyTurn(); }",
        limit=120,
    )
    check.state("table mid-deal")

    def keys():
        page.evaluate("() => document.activeElement?.blur()")  # out of the language's list: no key acts in a field
        page.keyboard.press("?")  # the keys' list, over the table
        page.locator("dialog.keys-dialog[open]").wait_for()

    keys()
    check.state("the keys' list", opened=keys)
    page.keyboard.press("Escape")

    def guide():
        page.evaluate("() => document.activeElement?.blur()")
        page.keyboard.press("g")  # the quick guide over the table (issue 46)
        page.locator("dialog.guide-dialog[open] .guide-grid").wait_for()

    guide()
    check.state("the quick guide over the table", opened=guide, run=WCAG22)
    page.keyboard.press("Escape")

    def display():
        page.locator("button.display").click()
        page.locator("dialog.display-dialog[open]").wait_for()

    display()
    check.state("the display's choices", opened=display)
    page.keyboard.press("Escape")
    play_until_over([person])
    page.wait_for_selector(".result-panel .game-over")
    check.state("table at the game's end")
    game = person.state()["game"]["id"]
    page.goto(f"{url}/#/g/{game}/1")
    page.wait_for_selector(".review-page")
    check.state("a deal's review", ".review-page")
    page.goto(f"{url}/#/g/{game}")
    page.wait_for_selector("main h1")
    check.state("a game's page", "main h1")
    for route, ready in (
        ("daily", ".daily"),
        ("tournaments", "main h1"),
        (f"p/{name}", ".profile"),
        ("leaderboard", "main table"),
        ("account", ".account-page"),
        ("robots", ".robots-page table"),
    ):
        page.goto(f"{url}/#/{route}")
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        check.state(route.split("/")[0], ready)
    found, wide = check.found, check.wide
    print(summary(found))  # every finding, the minor ones too, in the test's output
    out = Path("/tmp") / f"axe-{viewport['width']}-{lang}.json"
    out.write_text(json.dumps(found, indent=1, ensure_ascii=False))
    person.close()
    assert len(found) == 18 * 3, sorted(found)  # every state, in two languages and the dark theme
    assert not grave(found), summary(grave(found))
    assert not wide, f"scrolls sideways (pixels too wide): {wide}"
    assert not check.foreign, f"English or French on a Spanish page: {check.foreign}"


def test_the_four_colour_deck_and_the_dark_theme_are_chosen_seen_at_once_and_kept(browser, axe_site):
    """Display: four colours turn diamonds blue and clubs green at once; the dark theme darkens the page; both are
    kept on this browser over a reload; the focus comes back to the button that opened the choice."""
    person = Person(browser, axe_site.url, "Iris").arrive()
    page = person.page
    person.create(3, deals=1)
    person.fill_and_start()
    page.wait_for_selector(".hand-cards .card")
    fills = """() => Object.fromEntries(["D", "C", "H", "S"].map((s) => {
      const t = document.querySelector(`.hand-cards .face text.index.suit-${s}`);
      return [s, t ? getComputedStyle(t).fill : null]; }))"""
    background = "() => getComputedStyle(document.documentElement).backgroundColor"
    before = page.evaluate(fills)
    assert {before["D"], before["H"]} - {None} == {"rgb(198, 40, 40)"}, before  # two colours: red and black
    assert {before["C"], before["S"]} - {None} == {"rgb(17, 17, 17)"}, before
    assert page.evaluate(background) == "rgb(238, 241, 244)"

    opener = page.get_by_role("button", name="Display")
    opener.click()
    page.get_by_role("radio", name="Four colours (diamonds blue, clubs green)").check()
    page.get_by_role("radio", name="Dark").check()
    page.keyboard.press("Escape")
    assert page.evaluate("() => document.activeElement.classList.contains('display')")
    after = page.evaluate(fills)
    assert after["D"] in (None, "rgb(21, 82, 176)") and after["C"] in (None, "rgb(27, 110, 48)"), after
    assert (after["D"], after["C"]) != (None, None), after  # a hand of 24 cards holds a diamond or a club
    assert after["H"] in (None, "rgb(198, 40, 40)") and after["S"] in (None, "rgb(17, 17, 17)"), after
    assert page.evaluate(background) == "rgb(18, 22, 27)"

    page.reload()
    page.wait_for_selector(".hand-cards .card")
    assert page.evaluate(fills) == after
    assert page.evaluate(background) == "rgb(18, 22, 27)"
    person.close()


@pytest.mark.parametrize(("viewport", "lang"), [(DESKTOP, "en-GB"), (PHONE, "fr-FR")], ids=["desktop", "phone-fr"])
def test_axe_finds_nothing_on_the_rules_their_calculator_and_the_quick_guide(browser, axe_site, viewport, lang):
    """The rules page with a score counted (its calculator's fields, a poignée's row, the result) and the quick
    guide, as a newcomer meets them before choosing a name: WCAG 2.2 AA with target-size, in three languages and
    the dark theme; on a phone none scrolls sideways at 320 px nor at a desktop's 200% zoom."""
    stranger = Person(browser, axe_site.url, "Rules", lang=lang, viewport=viewport)
    page = stranger.page
    page.goto(f"{axe_site.url}/#/rules")
    check = Check(page, lang[:2], viewport is not DESKTOP)

    def counted():
        page.locator(".worked li").nth(3).locator("button").click()  # a poignée's row among the fields
        page.locator(".calc-result table").wait_for()

    page.wait_for_selector(".rules-page .worked button")
    counted()
    check.state("the rules with a score counted", ".rules-page .calc-result table", opened=counted, run=WCAG22)
    page.goto(f"{axe_site.url}/#/guide")
    page.wait_for_selector(".guide-grid")
    check.state("the quick guide", ".guide-grid", run=WCAG22)
    print(summary(check.found))
    stranger.close()
    assert len(check.found) == 2 * 3, sorted(check.found)  # two states, each in two languages and the dark theme
    assert not grave(check.found), summary(grave(check.found))
    assert not [v for violations in check.found.values() for v in violations if v["id"] == "target-size"], summary(
        check.found
    )
    assert not check.wide, f"scrolls sideways (pixels too wide): {check.wide}"
    assert not check.foreign, f"English or French on a Spanish page: {check.foreign}"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_practice_table_holds_to_wcag_22_with_target_size(browser, axe_site, viewport):
    """A practice table mid-game, as its player sees it on a desktop and a phone, held to WCAG 2.2 AA and axe's
    best practices with target-size on: the "unranked: practice" tag's contrast was 4.39:1, and the top bar's
    links and the table's headings are checked where the game is."""
    person = Person(browser, axe_site.url, f"Practis{viewport['width']}", viewport=viewport).arrive()
    page = person.page
    page.uncheck("#opt-competitive")
    person.create(4, deals=2)
    person.fill_and_start()
    page.wait_for_selector(".table-bar .unranked[data-unranked=practice]")
    found: dict = {}
    axe(page, "a practice table", found, run=WCAG22)
    person.close()
    assert not found["a practice table"], summary(found)
