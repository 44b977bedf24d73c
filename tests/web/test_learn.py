"""The guided lessons through the real page and a real ``atout serve`` (issue 46): a newcomer finds them first on
the welcome page and plays every lesson with a wrong then a right answer at each step, without a name; a guest's
progress survives a reload and joins the account it registers; an account's follows it to another browser; axe
(WCAG 2.2 AA, target-size on) finds nothing on the lessons in three languages on a desktop and a phone; and a
lesson heard through its live regions says each thing once."""

from __future__ import annotations

import json
import re
import time
from collections import Counter

import pytest
from playwright.sync_api import Page

from .conftest import Site
from .lessons import RIGHTS, SCRIPTS, begin, give, lesson_state, play_lesson
from .pages import FRAMES, Person, http_get
from .test_accessibility import AXE
from .test_blind import HEAR, heard
from .test_languages import ENGLISH_OR_FRENCH
from .test_lobby import PHONE

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 800}
LESSON_IDS = list(SCRIPTS)
KEY = re.compile(r"\b[a-z_]+\.[a-z_]+\.[a-z_]+\b")
"""A lesson text's key (``follow.void.right``, ``rule.ecart.king``): a page that shows one lacks its words."""


@pytest.fixture(scope="module")
def learn_site(tmp_path_factory):
    server = Site(tmp_path_factory.mktemp("learn"))
    try:
        yield server
    finally:
        server.stop()


DRAWN = """window.__drawn = [];
new MutationObserver(() => {
  for (const el of document.querySelectorAll(".learn-page.course .course-progress")) {
    if (!el.dataset.seen) { el.dataset.seen = "1"; window.__drawn.push(el.textContent); }
  }
}).observe(document, { childList: true, subtree: true });"""
"""Run in each new page (an init script): the text of every course count the page draws, in order."""


def course_done(page: Page) -> str:
    page.wait_for_selector(".learn-page.course .course-progress")
    return page.inner_text(".learn-page.course .course-progress")


def test_a_newcomer_finds_the_lessons_first_and_plays_every_one_with_a_wrong_then_a_right_answer(browser, learn_site):
    """From the welcome page alone, without a name nor a connection: each of the eleven lessons, each step
    answered wrong (refused with why, nothing moves) then right (told why, the lesson moves on); the progress
    kept across a reload mid-lesson and at the end."""
    person = Person(browser, learn_site.url, "Newcomer")
    page = person.page
    page.goto(learn_site.url)
    page.wait_for_selector("form.welcome")
    order = page.evaluate("""() => [...document.querySelectorAll('form.welcome .learn-offer, form.welcome #guest-name')]
      .map((e) => e.className || e.id)""")
    assert order == ["learn-offer", "guest-name"]  # the lessons come first, before the name a table needs
    page.get_by_role("link", name="Learn tarot").click()
    assert course_done(page) == "0 of 11 lessons done"
    page.get_by_role("link", name="Start with lesson 1").click()
    started = time.perf_counter()
    for index, lesson_id in enumerate(LESSON_IDS):
        page.wait_for_selector(f".lesson-page[data-lesson='{lesson_id}']")
        if lesson_id == "follow":  # a reload in the middle of a lesson: it resumes at its step
            begin(page)
            give(page, SCRIPTS["follow"][0][1])
            page.reload()
            page.wait_for_selector(".lesson-page[data-lesson='follow'] .lesson-panel .ask")
            assert lesson_state(page)["step"] == 1 and lesson_state(page)["verdict"] is None
        if lesson_id == "ecart":  # a king chosen for the écart: refused at once, with the engine's reason
            begin(page)
            give(page, RIGHTS["ecart"][0])
            page.locator(".hand-cards button[data-card='KS']").click()
            assert page.inner_text(".verdict.wrong").endswith(
                "K♠: a king never goes to the écart (it would be points the defence cannot win from you). Try again."
            )
            assert page.locator(".hand-cards button[data-card='KS']").get_attribute("aria-pressed") == "false"
        seen = play_lesson(page, lesson_id)
        assert all(s["said"] and not KEY.search(s["said"]) for s in seen), seen  # words, never a text's key
        panel = page.inner_text(".lesson-panel")
        assert "Lesson finished" in panel
        if index + 1 < len(LESSON_IDS):
            page.locator(f"[data-next='{LESSON_IDS[index + 1]}']").click()
    print(
        f"11 lessons, {sum(len(s) for s in SCRIPTS.values())} steps, a wrong and a right answer each: "
        f"{time.perf_counter() - started:.1f} s"
    )
    page.get_by_role("link", name="All lessons", exact=True).click()
    assert course_done(page) == "11 of 11 lessons done"
    page.reload()
    assert course_done(page) == "11 of 11 lessons done"  # a guest's progress: in this browser
    assert "You finished every lesson" in page.inner_text(".learn-page.course")
    assert not person.frames, "a newcomer learns without a connection to the tables"  # no name asked, no socket
    assert not person.console_errors, person.console_errors
    person.close()


def test_a_guest_s_progress_joins_its_account_and_follows_it_to_another_browser(browser, learn_site):
    person = Person(browser, learn_site.url, "Pupil")
    page = person.page
    page.goto(f"{learn_site.url}/#/learn/cards")
    play_lesson(page, "cards", wrong_first=False)
    page.locator("[data-next='follow']").click()
    begin(page)
    give(page, RIGHTS["follow"][0])
    kept = json.loads(page.evaluate("() => localStorage.getItem('atout.lessons')"))
    assert kept == {
        "cards": {"answers": RIGHTS["cards"], "done": True},
        "follow": {"answers": RIGHTS["follow"][:1], "done": False},
    }
    page.get_by_role("link", name="← All lessons").click()
    assert course_done(page) == "1 of 11 lessons done"
    person.context.add_init_script(DRAWN)  # the page after the registration's reload: each count it draws
    page.get_by_role("button", name="Log in or register to keep it with an account").click()
    page.fill("#account-name", "Pupil")
    page.fill("#account-password", "a good long password")
    page.get_by_role("button", name="Register", exact=True).click()
    page.wait_for_function("() => window.atout.registered")
    assert course_done(page) == "1 of 11 lessons done"
    assert "Your progress is kept with your account." in page.inner_text(".learn-page.course")
    assert page.evaluate("() => localStorage.getItem('atout.lessons')") is None  # the account has it now
    page.wait_for_function("() => window.atout.net && window.atout.net.open")  # the socket's welcome redraws too
    page.evaluate(FRAMES)
    # not one drawn without the progress, even for a moment: two renders at once (the boot's and the socket's)
    # once drew "0 lessons done", the account's progress read while the other render had emptied it (CI)
    assert set(page.evaluate("() => window.__drawn")) == {"1 of 11 lessons done"}, page.evaluate("() => window.__drawn")
    # what keeps it so: the runs are sent once, whoever asks at the same moment (each render asks)
    posts = []
    page.on("request", lambda r: r.method == "POST" and "/api/learn/" in r.url and posts.append(r.url))
    sent = page.evaluate(
        """async (runs) => {
          localStorage.setItem("atout.lessons", JSON.stringify(runs));
          const learn = await import("/static/learn.js");
          await Promise.all([learn.keepGuestProgress(window.atout), learn.keepGuestProgress(window.atout)]);
          return localStorage.getItem("atout.lessons");
        }""",
        {"cards": {"answers": RIGHTS["cards"], "done": True}},
    )
    assert sent is None and len(posts) == 1, posts
    person.close()

    elsewhere = Person(browser, learn_site.url, "Pupil")  # another browser: a login brings it back
    page = elsewhere.page
    page.goto(learn_site.url)
    page.click("form.welcome .linklike")
    page.fill("#account-name", "Pupil")
    page.fill("#account-password", "a good long password")
    page.click("dialog button[type=submit]")
    page.wait_for_selector("#create-form")
    page.get_by_role("link", name="Learn", exact=True).click()
    assert course_done(page) == "1 of 11 lessons done"
    page.locator(".lesson-item[data-lesson='follow'] a").click()
    page.wait_for_selector(".lesson-page .lesson-panel .ask")
    assert lesson_state(page)["step"] == 1  # the second step: the first was answered in the other browser
    play_lesson(page, "follow", wrong_first=False)
    progress = page.evaluate("() => fetch('/api/learn').then((r) => r.json())")["progress"]
    assert progress["follow"]["done"] is True and progress["cards"]["done"] is True
    elsewhere.close()


WCAG = """async () => {
  const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a",
    "wcag21aa",
    "wcag22aa", "best-practice"] }, rules: { "target-size": { enabled: true } }, resultTypes: ["violations",
      "passes"] });
  return { ran: [...r.passes, ...r.violations].map((v) => v.id),
    violations: r.violations.map((v) => ({ id: v.id, impact: v.impact,
      nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(" ")} ${n.html.slice(0, 120)}`) })) };
}"""


def axe_now(page: Page) -> dict:
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(AXE + "\n;true")
    return page.evaluate(WCAG)


def speak(page: Page, code: str) -> None:
    """The page's language, chosen in the top bar as a person does (the lesson page is drawn again)."""
    if page.evaluate("() => document.documentElement.lang") != code:
        page.select_option("select.lang", code)
        page.wait_for_function(f"() => document.documentElement.lang === '{code}'")


@pytest.mark.parametrize(
    ("viewport", "languages"), [(DESKTOP, ("en", "es")), (PHONE, ("fr", "es"))], ids=["desktop", "phone"]
)
def test_axe_finds_nothing_on_the_lessons_in_three_languages(browser, learn_site, viewport, languages):
    """The course, a lesson with a refused card, an écart being chosen and a lesson's end, in English, French
    and Spanish (Spanish, the longest words, on both screens; English on the desktop, French on the phone), and a
    refused card in the dark theme: WCAG 2.0 to 2.2, A and AA, with target-size on (off by default); no violation
    of any impact, a phone's page never scrolls sideways, and a Spanish page shows no English nor French word."""
    person = Person(browser, learn_site.url, "Axe", viewport=viewport)
    page = person.page
    found: dict[str, list] = {}
    ran: set[str] = set()
    wide: dict[str, int] = {}
    foreign: dict[str, list] = {}

    def check(where: str) -> None:
        if where.endswith("[es]"):  # a word written outside the catalogues shows in English on a Spanish page
            said = page.inner_text("main")
            if ENGLISH_OR_FRENCH.search(said):
                foreign[where] = sorted({m.group(0) for m in ENGLISH_OR_FRENCH.finditer(said)})
        result = axe_now(page)
        ran.update(result["ran"])
        if result["violations"]:
            found[where] = result["violations"]
        over = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
        if over > 0:
            wide[where] = over

    states = {
        "course": lambda: (page.goto(f"{learn_site.url}/#/learn"), course_done(page)),
        "refused": lambda: (
            page.goto(f"{learn_site.url}/#/learn/trumps"),
            begin(page),
            give(page, SCRIPTS["trumps"][0][0]),
        ),
        "ecart": lambda: (
            page.goto(f"{learn_site.url}/#/learn/ecart"),
            begin(page),
            give(page, RIGHTS["ecart"][0]),
            [page.locator(f".hand-cards button[data-card='{c}']").click() for c in ("9D", "6D")],
            page.wait_for_selector(".hand-cards .card.selected"),
        ),
        "end": lambda: (page.goto(f"{learn_site.url}/#/learn/excuse"), play_lesson(page, "excuse", wrong_first=False)),
    }
    for code in languages:
        page.goto(f"{learn_site.url}/#/learn")
        speak(page, code)
        page.evaluate("() => localStorage.removeItem('atout.lessons')")  # each language's states from the start
        for where, reach in states.items():
            reach()
            check(f"{where} [{code}]")
    page.emulate_media(color_scheme="dark")  # the lesson's page in the dark theme: its verdicts' colours
    page.evaluate("() => localStorage.removeItem('atout.lessons')")
    states["refused"]()
    check("refused [dark]")
    page.emulate_media(color_scheme="light")
    print(f"{len(states) * len(languages) + 1} states, rules run: {len(ran)}")
    assert "target-size" in ran and "color-contrast" in ran  # the rules asked for did run
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
    assert not wide, f"scrolls sideways (pixels too wide): {wide}"
    assert not foreign, f"English or French on a Spanish page: {foreign}"
    person.close()


def focused_name(page: Page) -> str:
    """The focused card's name, as a screen reader says it (its face is hidden from it)."""
    return page.evaluate(
        "() => document.activeElement.querySelector('.sr-only')?.textContent ?? document.activeElement.textContent"
    )


def test_a_lesson_heard_through_its_live_regions_says_each_thing_once(browser, learn_site):
    """Keyboard only, found by role and name: the lesson's title, each question, each refusal with its why
    (urgent), each right answer's why and what the robots did, and the lesson's end, each said once."""
    person = Person(browser, learn_site.url, "Listener")
    page = person.page
    page.add_init_script(f"({HEAR})()")
    page.goto(f"{learn_site.url}/#/learn/trumps")
    start = page.get_by_role("button", name="Start")
    start.wait_for()
    assert page.evaluate("() => document.activeElement.dataset.begin") == ""  # the focus is on Start
    page.keyboard.press("Enter")
    page.wait_for_selector(".lesson-panel .ask")

    def card_by_keyboard(name: str) -> None:
        """Tab into the hand, the arrows to the card named ``name``, Enter."""
        hand = page.get_by_role("group", name=re.compile(r"^Your hand, \d+ cards$"))
        for _ in range(40):
            if hand.locator(":focus").count():
                break
            page.keyboard.press("Tab")
        for _ in range(20):
            if focused_name(page) == name:
                break
            page.keyboard.press("ArrowRight")
        assert focused_name(page) == name
        before = page.evaluate("() => document.querySelector('.lesson-panel').innerHTML")
        page.keyboard.press("Enter")
        page.wait_for_function("(b) => document.querySelector('.lesson-panel').innerHTML !== b", arg=before)

    card_by_keyboard("trump 4")  # below the 8: refused, with the rule
    card_by_keyboard("trump 10")  # right
    yes = page.get_by_role("button", name="Yes")
    assert page.evaluate("() => document.activeElement.textContent") == "Yes"  # the focus went to the answer's buttons
    page.get_by_role("button", name="No").focus()
    page.keyboard.press("Enter")  # wrong
    page.wait_for_function("() => document.querySelector('.verdict.wrong')")
    yes.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.lesson-page').dataset.step === '2'")
    card_by_keyboard("trump 13")  # legal, but a waste: refused with the better idea
    card_by_keyboard("trump 4")
    page.wait_for_selector(".lesson-end")
    assert page.evaluate("() => document.activeElement !== document.body")
    said = heard(page)
    print(f"the live regions said {len(said)} things:", *said, sep="\n  ")
    assert Counter(said).most_common(1)[0][1] == 1, "something was said twice"
    polite = [text for region, text in said if region == "polite"]
    urgent = [text for region, text in said if region == "assertive"]
    assert polite[0] == "Lesson 3 of 11: Trumping and overtrumping"
    assert polite[1].startswith("Anna leads a diamond; Basile follows; Chloé, without diamonds, trumps with the 8.")
    assert [u.split(".")[0] for u in urgent] == ["Not this one"] * 3 and all(u.endswith("Try again.") for u in urgent)
    assert "Trump 4 is too low: a trump above the trump 8 is in your hand" in urgent[0]
    assert any(text.startswith("Right: the 10 is above the 8") for text in polite)
    assert "You play trump 10." in polite and "You win trick 1." in polite and "Anna plays trump 19." in polite
    assert polite[-1].startswith("Lesson finished. Above the highest trump when you can")
    questions = [text for text in polite if text.endswith("?") or text.endswith("play a card.")]
    assert len(questions) == 3  # each question once
    person.close()


def test_the_lessons_api_answers_the_page_s_course(learn_site):
    course = http_get(f"{learn_site.url}/api/learn").json()
    assert [x["id"] for x in course["lessons"]] == LESSON_IDS and course["progress"] is None


__all__ = ["Site"]
