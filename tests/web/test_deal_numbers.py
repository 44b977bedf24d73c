"""A void deal's number on the table page through the real server (issue 34): the bar, the log and the
hint agree while the void deal waits to be dealt again, and after (the served test clock holds the pause
between deals for as long as the test reads it)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .pages import Person

pytestmark = pytest.mark.slow


def test_a_void_deal_is_dealt_again_under_its_number(browser, clocked_site):
    anna = Person(browser, clocked_site.url, "Annie").arrive()
    table = anna.create(3, deals=1)
    people = [anna]
    for name in ("Bruna", "Carla"):
        person = Person(browser, clocked_site.url, name).arrive()
        person.sit_at(table)
        people.append(person)
    anna.page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind === 'person')")
    anna.page.click("text=Start the game")
    page = anna.page
    over = "() => { const d = window.atout.view.state.deal; return d !== null && d.phase === 'end'; }"
    deadline = time.monotonic() + 120  # bounds a hang only
    while not page.evaluate(over):  # everyone passes (a petit sec voids it as well): a void deal 1
        assert time.monotonic() < deadline, "the deal did not end"
        for person in people:
            button = person.page.locator(".actions [data-bid=pass]:not([disabled])")
            if person.page.evaluate("() => window.atout.view.isMyTurn()") and button.count():
                seq = person.seq()
                button.click()
                person.page.wait_for_function("(seq) => window.atout.view.seq > seq", arg=seq)
    assert page.evaluate("() => window.atout.view.state.deal.result.void") in ("all_pass", "petit_sec")
    expect(page.locator(".table-bar .facts")).to_contain_text("Deal 1 of 1")  # it said "Deal 0 of 1"
    expect(page.locator(".actions .hint")).to_have_text("The next deal starts in a moment.")
    expect(page.locator(".result-panel")).to_contain_text("It does not count; the next dealer deals.")
    assert page.locator(".log-list li", has_text="Deal 1:").count() == 1

    seq = anna.seq()
    clocked_site.advance_clock(5)  # the pause between deals runs out: the deal is dealt again
    page.wait_for_function("(seq) => window.atout.view.seq > seq && window.atout.view.state.deal.phase !== 'end'"
                           " || window.atout.view.state.deal.result && window.atout.view.seq > seq + 1", arg=seq)
    expect(page.locator(".log-list li", has_text="Deal 1:")).to_have_count(2)  # "Deal 1: … deals." again
    expect(page.locator(".table-bar .facts")).to_contain_text("Deal 1 of 1")
    for person in people:
        assert not [f for f in person.frames if f.get("type") in ("error", "pageerror")]
        person.close()
