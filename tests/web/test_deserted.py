"""A ranked game left by its only person, in the browser: the profile lists it as an abandonment, last
place, and its game page and deal review read as any stored game's (issue 34: leaving no longer erases it)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .test_stakes import register

pytestmark = pytest.mark.slow

PLAYED_AND_MY_TURN = (
    "() => { const v = window.atout.view; const s = v && v.state;"
    " return Boolean(s && s.game && s.game.sheet.some((l) => !l.void) && v.isMyTurn()); }"
)
"""A deal played to its end, and the person to act in the next: a leave now is not stale."""


def test_a_deal_played_then_the_table_left_is_on_the_profile_as_an_abandonment(browser, site):
    dora = register(browser, site.url, "Dora")
    page = dora.page
    page.check("#create-form input[name=players][value='3']")
    page.fill("#opt-deals", "3")
    page.select_option("#opt-turn_seconds", json.dumps(0))
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".table-page .seat")
    dora.fill_and_start()
    game = page.evaluate("() => window.atout.view.state.game.id")
    while not page.evaluate(PLAYED_AND_MY_TURN):
        dora.step(unless=f"({PLAYED_AND_MY_TURN})()")
    sheet = page.evaluate("() => window.atout.view.state.game.sheet")
    total = sum(line["scores"][0] for line in sheet if not line["void"])
    page.on("dialog", lambda dialog: dialog.accept())  # "leaving is an abandonment": yes
    page.click(".table-bar button:text-is('Leave the seat')")
    page.wait_for_selector("#create-form")

    page.goto(f"{site.url}/#/p/Dora")
    line = page.locator(".recent li", has=page.locator(f"a[href='#/g/{game}']"))
    expect(line).to_contain_text("place 3 of 3")
    expect(line).to_contain_text("(abandoned)")
    expect(line.locator("strong")).to_have_text(f"+{total}" if total > 0 else f"\u2212{-total}" if total < 0 else "0")
    expect(page.locator(".profile .stats tbody tr").first.locator("[data-stat=abandoned]")).to_have_text("1")

    line.locator("a").click()
    page.wait_for_selector(f".game-page[data-game='{game}']")
    expect(page.locator(".game-page tbody tr")).to_have_count(len(sheet))  # the deals played to their end
    page.click(".game-page tr[data-deal='1'] a:text-is('Review')")
    page.wait_for_selector(".review-page[data-deal='1']")
    assert [f for f in dora.frames if f.get("type") == "pageerror"] == []
    dora.close()
