"""A finished deal reviewed at its table, trick by trick, by a player and by someone who watched; never
the deal still being played; the whole commitment one click to copy; an analysis's marks shown where the
review shows each decision."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from atout.engine.fairness import normalize_commitment

from .pages import Person
from .test_lobby import PHONE
from .test_table import advance_until

pytestmark = pytest.mark.slow

DEAL_OVER = "() => { const s = window.atout.view.state; return Boolean(s.deal && s.deal.result) || s.game.sheet.length > 0; }"


def test_the_bar_copies_the_whole_commitment(browser, shared_site):
    ada = Person(browser, shared_site.url, "Ada").arrive()
    ada.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=shared_site.url)
    ada.create(3, deals=1)
    ada.fill_and_start()
    page = ada.page
    page.wait_for_function("() => window.atout.view.state.commitment")
    commitment = ada.state()["commitment"]
    button = page.locator(".table-bar button.commitment")
    assert button.inner_text().startswith("Commitment ")
    button.click()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == commitment and normalize_commitment(copied, "copied") == commitment  # what verify takes
    ada.close()


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_a_finished_deal_is_reviewed_trick_by_trick_and_the_deal_going_on_never(browser, shared_site, viewport):
    name = "Rita" if viewport is None else "Rico"
    rita = Person(browser, shared_site.url, name, viewport=viewport).arrive()
    table = rita.create(4, deals=2)
    rita.fill_and_start()
    watcher = Person(browser, shared_site.url, f"{name}Watch", viewport=viewport).arrive()
    watcher.page.goto(f"{shared_site.url}/#/t/{table}")
    watcher.page.wait_for_selector(".felt .seat")

    # the deal going on: no review, not even asked for by hand
    refused = rita.page.evaluate(f"""() => window.atout.net.request({{type: 'review', table: '{table}', deal: 1}})
      .then(() => 'given', (err) => err.code)""")
    assert refused == "no_deal"
    assert rita.page.locator(".review-open").count() == 0

    advance_until(rita, DEAL_OVER, limit=120)
    page = watcher.page  # someone who watched reviews it
    page.wait_for_function("() => window.atout.view.state.game.sheet.length > 0")
    page.click(".sheet-panel button[data-review='1']")
    review = page.wait_for_selector("dialog.review-dialog .review-page[data-deal='1']")
    assert review.is_visible()
    void = page.evaluate("() => window.atout.review.r.result.void")
    hands = page.eval_on_selector_all("dialog .review-hands li .chips", "els => els.map((e) => e.children.length)")
    dog = page.eval_on_selector_all("dialog .aside .chips", "els => els.length ? els[0].children.length : 0")
    assert sum(hands) + dog == 78  # every hand, as dealt: the deal is over
    if not void:
        page.click("dialog .step-nav button[data-step=next]")
        expect(page.locator("dialog .step-title")).to_have_text("Trick 1 of 18")
        plays = page.locator("dialog .review-trick .plays li")
        assert plays.count() == 4
        winner = page.locator("dialog .review-trick .plays li.winner")
        assert winner.count() == 1 and "won the trick" in winner.inner_text()
        names = [plays.nth(i).locator(".who").inner_text() for i in range(4)]
        assert name in names and any(n.startswith("Robot") for n in names)
        played = page.eval_on_selector_all("dialog .review-hands .chip.played", "els => els.map((e) => e.dataset.card)")
        shown = page.eval_on_selector_all("dialog .review-trick .card", "els => els.map((e) => e.dataset.card)")
        assert sorted(played) == sorted(shown)  # each card of the trick, marked in the hand it came from
        page.keyboard.press("End")
        expect(page.locator("dialog .step-title")).to_have_text("The result")
        assert page.locator("dialog .result .scores li").count() == 4

        # the analysis hook: marks on decisions show beside them, and in a list
        first = page.evaluate("() => window.atout.review.r.tricks[0].plays[0]")
        page.evaluate("(d) => window.atout.review.setMarks([{...d, play: d.card, mark: {better: 'T21', gain: 12}}])",
                      first)
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        mark = page.locator(f"dialog .review-trick li[data-index='{first['index']}'] .mark")
        expect(mark).to_have_text("better: trump 21 (+12)")
        assert "better: trump 21 (+12)" in page.inner_text("dialog .analysis")
    commitment = page.inner_text("dialog .commitment-full")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    page.click("dialog button.close")
    expect(page.locator("dialog.review-dialog")).to_have_count(0)
    if viewport is not None:
        assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    if rita.state()["status"] == "playing" and not rita.game_over():
        going = len(rita.state()["game"]["sheet"]) + 1
        refused = rita.page.evaluate(f"""() => window.atout.net.request({{type: 'review', table: '{table}', deal: {going}}})
          .then(() => 'given', (err) => err.code)""")
        assert refused == "no_deal"  # the next deal, being played
    rita.close()
    watcher.close()
