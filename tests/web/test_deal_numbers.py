"""A void deal's number on the table page through the real server (issue 34): the bar, the log and the
hint agree while the void deal waits to be dealt again, and after. The page records what it showed at each
render (a MutationObserver), so the short pause between deals need not be caught live on a busy machine."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .pages import Person

pytestmark = pytest.mark.slow

RECORD = """() => {
  window.__shown = [];
  const text = (sel) => { const el = document.querySelector(sel); return el ? el.innerText : null; };
  const snap = () => {
    const d = window.atout.view.state.deal;
    window.__shown.push({ phase: d && d.phase, void: d && d.result ? d.result.void : null,
      bar: text('.table-bar .facts'), hint: text('.actions .hint'), panel: text('.result-panel:not([hidden])') });
  };
  new MutationObserver(snap).observe(document.querySelector('.table-page'), { subtree: true, childList: true,
    characterData: true });
}"""


def test_a_void_deal_is_dealt_again_under_its_number(browser, site):
    anna = Person(browser, site.url, "Annie").arrive()
    table = anna.create(3, deals=1)
    people = [anna]
    for name in ("Bruna", "Carla"):
        person = Person(browser, site.url, name).arrive()
        person.sit_at(table)
        people.append(person)
    page = anna.page
    page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind === 'person')")
    page.evaluate(RECORD)
    page.click("text=Start the game")
    shown_void = "() => window.__shown.some((s) => s.void)"
    deadline = time.monotonic() + 120  # bounds a hang only
    while not page.evaluate(shown_void):  # everyone passes (a petit sec voids it as well): a void deal 1
        assert time.monotonic() < deadline, "the deal did not end"
        for person in people:
            button = person.page.locator(".actions [data-bid=pass]:not([disabled])")
            if person.page.evaluate("() => window.atout.view.isMyTurn()") and button.count():
                seq = person.seq()
                button.click()
                person.page.wait_for_function("(seq) => window.atout.view.seq > seq", arg=seq)
    # dealt again (a pause later): the log says "Deal 1: … deals." twice, the bar deal 1 still
    page.wait_for_function(
        "() => [...document.querySelectorAll('.log-list li')]"
        ".filter((li) => li.innerText.startsWith('Deal 1:')).length >= 2"
    )
    page.wait_for_function("() => { const d = window.atout.view.state.deal; return d !== null && !d.result; }")
    expect(page.locator(".table-bar .facts")).to_contain_text("Deal 1 of 1")
    shown = [s for s in page.evaluate("() => window.__shown") if s["void"]]
    assert shown and all("Deal 1 of 1" in s["bar"] for s in shown), shown  # it said "Deal 0 of 1"
    assert all(s["hint"] == "The next deal starts in a moment." for s in shown if s["hint"] is not None), shown
    assert any(s["panel"] and "It does not count; the next dealer deals." in s["panel"] for s in shown), shown
    for person in people:
        assert not [f for f in person.frames if f.get("type") in ("error", "pageerror")]
        person.close()
