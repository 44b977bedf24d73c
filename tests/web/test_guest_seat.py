"""Registering while seated keeps the seat (issue 34, defect 3), through the real page and server: a guest
plays a few cards with robots, registers from the page, and plays the same seat on to the game's end; the
game is on the account's profile. The dialog says beforehand what registering and logging in do."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .pages import Person, http_post, play_until_over

pytestmark = pytest.mark.slow

MINE = """() => { const v = window.atout.view; return v && v.state && v.state.you !== null
  && v.state.seats[v.state.you].name; }"""


def test_a_guest_who_registers_at_the_table_plays_on_in_the_same_seat(browser, site):
    made = http_post(
        f"{site.url}/api/register",
        json={"name": "Lia", "password": "she has a long secret"},
        headers={"Origin": site.url},
    )
    assert made.status_code == 201, made.text  # an account that exists already
    gus = Person(browser, site.url, "Gus").arrive()
    table = gus.create(3, deals=2)
    gus.fill_and_start()
    page = gus.page
    clicks = 0
    deadline = time.monotonic() + 120  # bounds a hang only
    while clicks < 4:  # a few of the guest's own actions
        assert time.monotonic() < deadline
        done = gus.step()
        if done is not None and not done.startswith("pick"):
            clicks += 1
        elif done is None:
            page.wait_for_function("() => window.atout.view.isMyTurn()")
    seat = gus.state()["you"]

    page.click("#top button:text-is('Log in')")
    expect(page.locator("dialog.account [data-notice=seated]")).to_contain_text("registering keeps your seat")
    page.fill("#account-name", "Lia")  # logging in to that account mid-game: refused, said, nothing changed
    page.fill("#account-password", "she has a long secret")
    page.click("dialog button:text-is('Log in')")
    expect(page.locator("dialog.account .refusal")).to_contain_text("finish it (or leave it) before you log in")
    assert gus.state()["you"] == seat and not page.evaluate("() => window.atout.me.registered")
    assert page.evaluate("() => fetch('/api/me?optional=1').then((r) => r.json())") is None  # no session
    page.fill("#account-name", "Gus")
    page.fill("#account-password", "a long enough secret")
    page.click("dialog button:text-is('Register')")
    page.wait_for_function("() => window.atout.me && window.atout.me.registered")  # the page came back as the account
    page.wait_for_function(f"() => location.hash === '#/t/{table}' && ({MINE})() === 'Gus'")
    state = gus.state()
    assert state["you"] == seat and state["status"] == "playing"
    mine = state["seats"][seat]
    assert mine["connected"] and mine["present"] and not mine["automatic"] and not mine["abandoned"], mine
    assert page.locator(".top .who .tag").count() == 0  # no "guest" tag
    expect(page.locator(".log")).to_contain_text("Gus is registered now: same seat, same game.")

    before = len(gus.frames)
    play_until_over([gus])  # the same seat, played by its person to the end
    assert gus.state()["game"]["outcome"] == "finished"
    by_robot = [
        f["event"]
        for f in gus.frames[before:]
        if f.get("type") == "event"
        and f["event"]["type"] == "action"
        and f["event"]["seat"] == seat
        and f["event"]["by"] != "person"
    ]
    assert by_robot == []  # no robot played the seat after the registration
    game = gus.state()["game"]["id"]

    page.goto(f"{site.url}/#/p/Gus")
    page.wait_for_selector(".profile .stats")
    expect(page.locator(".recent li")).to_have_count(1)
    assert page.locator(f".recent a[href*='{game}']").count() == 1
    errors = [f for f in gus.frames if f.get("type") in ("error", "pageerror")]
    console = [e for e in gus.console_errors if "status of 409" not in e]  # the refused login's answer
    assert errors == [] and console == [], (errors, gus.console_errors)
    gus.close()
