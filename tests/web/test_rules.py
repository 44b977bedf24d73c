"""The rules page, its score calculator and the quick guide (issue 46), through the real page and a real
``atout serve``: a newcomer reaches them from the welcome page with no name chosen, counts a worked example
and is told which fact is wrong, prints the guide on one sheet; a player opens the guide and the rules over
a table, which keeps running under them and says when the turn comes back; the top bar's Rules too."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from .conftest import HELD_PACE, WITHIN, Site
from .pages import Person, http_get

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 800}
MY_TURN = "() => Boolean(window.atout.view && window.atout.view.state && window.atout.view.isMyTurn())"


@pytest.fixture(scope="module")
def rules_site(tmp_path_factory) -> Iterator[Site]:
    """One server for the module, its robots held until the test moves its clock (``HELD_PACE``)."""
    server = Site(tmp_path_factory.mktemp("rules"), args=("--test-clock", "--robot-pace", str(HELD_PACE)))
    try:
        yield server
    finally:
        server.stop()


def pdf_pages(pdf: bytes) -> int:
    """How many pages a PDF has (its page objects: ``/Type /Page``, not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_a_newcomer_reads_the_rules_counts_a_score_and_prints_the_guide(browser, rules_site):
    url = rules_site.url
    facts = http_get(f"{url}/api/rules").json()
    nina = Person(browser, url, "Nina", viewport=DESKTOP)
    page = nina.page
    page.goto(url)
    page.wait_for_selector("form.welcome")
    page.click("form.welcome a[href='#/rules']")  # no name chosen: the rules are for anyone
    page.wait_for_selector(".rules-page .calculator")
    assert page.evaluate("() => location.hash") == "#/rules"
    assert not nina.frames, "the rules opened a socket: they need none"
    assert page.locator(".rules-page > section.rule-section").count() == 17  # sixteen rules and the calculator
    text = page.inner_text(".rules-page")
    assert f"The whole deck is worth {facts['deck']['points']} points." in text
    assert "with 41 needed, 40.5 fails by one and 41.5 makes it by one" in text  # the targets from the engine
    assert page.locator(".rules-page svg.face").count() > 150  # cards drawn as the table draws them
    over = facts["examples"]["tricks"]["overtrump"]
    figure = page.locator(".rule-example", has_text=f"Trump {over['plays'][-1][1:]} is in the trick")
    assert (
        figure.locator(".card.may-play").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
        == over["legal"]
        == ["T14"]
    )
    assert figure.locator(".card.may-play .sr-only").inner_text().endswith(": may be played")

    page.locator(".rules-contents a", has_text="The Excuse").click()  # within the page: no new route, no redraw
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'rules-excuse-title'")
    assert page.evaluate("() => location.hash") == "#/rules/excuse"

    page.get_by_role("button", name="Count it: example 1", exact=True).click()
    page.wait_for_selector(".calc-result table")
    first = facts["worked"][0]["result"]
    assert page.inner_text(".calc-said") == "Taker +114; each defender \u221238."
    shown = page.locator(".calc-scores tbody td").all_inner_texts()
    assert [int(s.replace("\u2212", "-")) for s in shown] == first["scores"]
    assert page.evaluate("() => document.activeElement.classList.contains('calc-result')")
    assert "U = (25 + 4 \u2212 10) \u00d7 2 = 38" in page.inner_text(".calc-result .working")

    page.get_by_role("button", name="Count it: example 4", exact=True).click()  # a poignée's row, filled
    page.wait_for_function("() => document.querySelector('.calc-said').textContent.startsWith('Taker +234')")
    assert page.locator(".poignee-row").count() == 1
    page.get_by_role("button", name="Remove poignée 1").click()
    page.get_by_label("Points of the taker's side").fill("95")
    page.get_by_role("button", name="Count the score").click()
    error = page.locator(".field-error")
    error.wait_for()
    assert error.inner_text() == "Points of the taker's side: with 2 bouts the taker's side has from 8.5 to 87 points."
    assert page.evaluate(
        "() => document.activeElement.type === 'number' && document.activeElement.getAttribute('aria-invalid') === "
        "'true'"
    )
    assert page.locator(".calc-result table").count() == 0  # no score left beside refused facts
    page.get_by_label("Points of the taker's side").fill("40.5")
    page.get_by_role("button", name="Count the score").click()
    page.wait_for_function(
        "() => document.querySelector('.calc-said').textContent.startsWith('Taker \u2212156')"
    )  # −(25 + 1) × 2, three times
    assert page.locator(".field-error").count() == 0

    page.click(".rules-links a.guide-link")
    page.wait_for_selector(".guide-page .guide-grid")
    guide = page.inner_text(".guide").lower()
    for words in ("garde contre\n\u00d76", "0 bouts\n56", "3 bouts\n36", "announced and made\n+400", "91 in the deck"):
        assert words in guide, words
    assert pdf_pages(page.pdf(format="A4")) == 1  # the print stylesheet: one sheet, whatever the screen shows

    page.click("#top a.brand")  # the site's name: the welcome again, still no name
    page.wait_for_selector("form.welcome")
    page.fill("#guest-name", "Nina")
    page.click("form.welcome button[type=submit]")
    page.wait_for_selector("#create-form")
    page.click(".quick .learn-links a[href='#/guide']")  # the lobby offers them too
    page.wait_for_selector(".guide-page")
    page.click("#top nav a.rules-link")
    page.wait_for_selector(".rules-page .calculator")
    page.select_option("select.lang", "es")
    page.wait_for_function(
        "() => document.querySelector('.rules-page h1')?.textContent === 'Las reglas del tarot francés'"
    )
    assert [f for f in nina.frames if f.get("type") == "pageerror"] == [] and not nina.policy_violations()
    nina.close()


def advance_until(site: Site, person: Person, predicate: str) -> None:
    """Move the server's clock on, a robot's move at a time, until ``predicate`` holds on the page."""
    deadline = time.monotonic() + WITHIN  # bounds a hang only
    while not person.page.evaluate(predicate):
        assert time.monotonic() < deadline, f"never reached: {predicate}"
        seq = person.seq()
        site.advance_clock(HELD_PACE)
        person.page.wait_for_function(f"() => window.atout.view.seq > {seq} || ({predicate})()")


def test_the_guide_and_the_rules_open_over_a_table_that_keeps_running(browser, rules_site):
    otto = Person(browser, rules_site.url, "Otto", viewport=DESKTOP).arrive()
    table = otto.create(4, deals=3)
    otto.fill_and_start()
    page = otto.page
    advance_until(rules_site, otto, MY_TURN)
    while page.evaluate(MY_TURN):  # a bid (and, taking last, the écart...): until the robots are to move, held
        otto.step()
    assert not page.evaluate(MY_TURN)

    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("?")  # the keys' list names the guide's key
    keys = page.locator("dialog.keys-dialog[open]")
    keys.wait_for()
    assert "G\nthe quick guide (card points, targets, bids, bonuses), over the table" in keys.inner_text()
    page.keyboard.press("Escape")
    page.keyboard.press("g")
    guide = page.locator("dialog.guide-dialog[open]")
    guide.wait_for()
    assert page.evaluate("() => document.activeElement.id") == "guide-dialog-title"
    assert "Points needed" in guide.inner_text() and page.locator(".table-page").count() == 1
    seq = otto.seq()
    advance_until(rules_site, otto, "() => Boolean(document.querySelector('dialog.guide-dialog .turn-notice button'))")
    assert otto.seq() > seq and page.evaluate(MY_TURN)  # the table ran under the guide
    assert guide.locator(".turn-notice").inner_text().startswith("It is your turn at the table.")
    assert page.evaluate("() => location.hash") == f"#/t/{table}"
    guide.get_by_role("button", name="Back to the table").click()
    page.wait_for_selector("dialog.guide-dialog", state="detached")
    assert page.locator(".table-page").count() == 1 and page.evaluate(MY_TURN)

    page.click(".table-bar button.guide")
    page.locator("dialog.guide-dialog[open]").get_by_role("button", name="All the rules").click()  # the guide gives way
    rules = page.locator("dialog.rules-dialog[open]")
    rules.locator(".calculator").wait_for()
    rules.locator(".rules-contents a", has_text="Score calculator").click()
    page.wait_for_function("() => document.activeElement && document.activeElement.closest('.calc-section')")
    rules.get_by_role("button", name="Count it: example 3", exact=True).click()
    page.wait_for_function(
        "() => document.querySelector('dialog .calc-said').textContent.startsWith('Taker +272; partner +136')"
    )
    rules.locator("a.guide-link").click()  # the guide instead of a page: the table stays
    page.wait_for_selector("dialog.guide-dialog[open]")
    assert page.locator("dialog.rules-dialog").count() == 0
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.reference-dialog", state="detached")
    assert page.evaluate("() => document.activeElement.matches('.table-bar button.guide')")  # back where it began
    page.click("#top nav a.rules-link")  # the top bar's Rules at a table: over it too
    page.wait_for_selector("dialog.rules-dialog[open] .rules-page")
    assert page.evaluate("() => location.hash") == f"#/t/{table}"
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.reference-dialog", state="detached")
    assert page.evaluate("() => document.activeElement.classList.contains('rules-link')")
    assert otto.step() is not None  # and the game goes on from the page
    errors = [f for f in otto.frames if f.get("type") in ("error", "pageerror")]
    assert errors == [] and not otto.policy_violations(), errors
    otto.close()
