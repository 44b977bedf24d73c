"""The rest of the site in a browser: invitations, chat shown as text, the vote to cancel, the turn
clock, and accounts with their profile, friends and leaderboard pages."""

from __future__ import annotations

import re
import time

import httpx
import pytest
from playwright.sync_api import expect

from .pages import Person, play_until_over

pytestmark = pytest.mark.slow

ATTACK = '<img src=x onerror="window.__xss = 1"><b>bold</b>'


def test_invitation_chat_as_text_and_the_vote_to_cancel(browser, site):
    anna = Person(browser, site.url, "Anna").arrive()
    bruno = Person(browser, site.url, "Bruno").arrive()
    table = anna.create(4, deals=3)
    anna.page.fill(".invite input", "Bruno")
    anna.page.click(".invite button")
    invite = bruno.page.wait_for_selector(".toast.invite")
    assert "Anna" in invite.inner_text()
    bruno.page.click(".toast.invite >> text=Go there")
    bruno.page.wait_for_selector(f".table-page[data-table='{table}']")
    bruno.page.locator(".seat button", has_text="Sit here").first.click()
    anna.page.wait_for_function("() => window.atout.view.state.seats.filter((s) => s.kind === 'person').length === 2")
    anna.fill_and_start()

    bruno.page.fill(".chat-form input", ATTACK)
    bruno.page.click(".chat-form button")
    line = anna.page.wait_for_selector(".chat-list li >> text=bold")
    assert ATTACK in line.inner_text()
    assert anna.page.locator(".chat-list img, .chat-list b").count() == 0
    assert anna.page.evaluate("() => window.__xss") is None

    anna.page.click("text=Propose to cancel")
    bruno.page.wait_for_selector("[data-vote=yes]")
    assert "Anna proposes to cancel" in bruno.page.inner_text(".actions")
    bruno.page.click("[data-vote=yes]")
    for person in (anna, bruno):
        person.page.wait_for_selector("text=The game was cancelled")
        assert person.state()["game"]["outcome"] == "cancelled"
    anna.close()
    bruno.close()


def test_the_turn_clock_counts_down_on_the_page(browser, site):
    alice = Person(browser, site.url, "Alice").arrive()
    alice.create(3, deals=1, turn_seconds=30)
    alice.fill_and_start()
    alice.page.wait_for_function("() => window.atout.view.isMyTurn()")
    first = int(re.search(r"(\d+) s", alice.page.inner_text(".actions .clock")).group(1))
    began = time.monotonic()
    alice.page.wait_for_function(  # until it has counted two seconds down, however slowly the page runs
        "(target) => { const m = /(\\d+) s/.exec(document.querySelector('.actions .clock').innerText);"
        " return m !== null && Number(m[1]) <= target; }",
        arg=first - 2,
    )
    assert 0 < first <= 30
    assert time.monotonic() - began > 1.0  # seconds of the clock, not faster (whole seconds shown: > 1 s)
    assert alice.page.locator(".seat.to-act .clock").count() == 1
    alice.close()


def test_a_turn_clock_runs_out_when_the_test_clock_is_moved_on(browser, clocked_site):
    """The served test clock (``--test-clock``): moved on past a 30 s turn, the robot plays the seat and
    the page shows it in automatic mode, at once and without real waiting; a site without the option
    serves no such route."""
    alice = Person(browser, clocked_site.url, "Alice").arrive()
    alice.create(3, deals=1, turn_seconds=30)
    alice.fill_and_start()
    page = alice.page
    page.wait_for_function("() => window.atout.view.isMyTurn()")
    seq = alice.seq()
    clocked_site.advance_clock(31)
    page.wait_for_function(
        "(seq) => window.atout.view.seq > seq && window.atout.view.state.seats[window.atout.view.state.you].automatic",
        arg=seq,
    )
    expect(page.locator(".actions [data-back]")).to_be_visible()
    alice.close()
    refused = httpx.post(
        f"{clocked_site.url}/test/clock", json={"advance": -1}, headers={"Origin": clocked_site.url}, timeout=60
    )
    assert refused.status_code == 400 and "advance" in refused.json()["error"]["message"], refused.text


def test_a_site_without_the_test_clock_serves_no_clock_route(shared_site):
    answer = httpx.post(
        f"{shared_site.url}/test/clock", json={"advance": 60}, headers={"Origin": shared_site.url}, timeout=60
    )
    assert answer.status_code == 404, answer.text


def test_an_account_plays_then_finds_its_game_on_its_profile_and_the_leaderboard(browser, site):
    carol = Person(browser, site.url, "Carol")
    page = carol.page
    page.goto(site.url)
    page.click("text=Log in or register")
    page.fill("#account-name", "Carol")
    page.fill("#account-password", "short")
    page.click("dialog button:text-is('Register')")
    page.wait_for_selector("dialog .refusal:has-text('at least 12 characters')")  # the page refuses it before sending
    page.fill("#account-password", "password1234")  # long enough, but among the most used: the server says why
    page.click("dialog button:text-is('Register')")
    page.wait_for_selector("dialog .refusal:has-text('among the most used')")
    assert page.inner_text("dialog .refusal") == (
        "This password, or a word in it, is among the most used (even with digits for letters): easy to guess."
    )  # the page's words, by reason
    page.fill("#account-password", "a long enough secret")
    page.click("dialog button:text-is('Register')")
    page.wait_for_selector("#create-form")
    assert page.inner_text(".top .who") == "Carol"  # no "guest" tag
    assert "atout_session" not in page.evaluate("() => document.cookie")  # HttpOnly
    carol.create(3, deals=1)
    carol.fill_and_start()
    play_until_over([carol])
    total = carol.state()["game"]["totals"][carol.state()["you"]]

    page.goto(f"{site.url}/#/p/Carol")
    page.wait_for_selector(".profile .stats")
    assert page.locator(".recent li").count() == 1
    assert (f"+{total}" if total > 0 else f"\u2212{-total}" if total < 0 else "0") in page.inner_text(
        ".recent li"
    )  # one minus sign

    page.goto(f"{site.url}/#/leaderboard")
    page.wait_for_selector(".board")
    page.click("[aria-label=Players] >> text=3 players")
    page.wait_for_selector(".board td >> text=Carol")

    page.goto(f"{site.url}/#/friends")
    page.wait_for_selector(".friends")
    page.fill(".friends input", "Nobody")
    page.click(".friends form button")
    assert "Nobody" in page.wait_for_selector(".toast.error >> text=Nobody").inner_text()
    assert carol.policy_violations() == []  # the whole client runs under the site's CSP
    carol.close()


def test_the_site_does_not_compress_frames_even_when_the_client_offers_to(site):
    """A browser always offers permessage-deflate; ``atout serve`` declines it: compressing every small
    patch cost the server about a fifth more CPU per action, for a few bytes on the wire."""
    from websockets.sync.client import connect

    with connect(site.url.replace("http", "ws") + "/ws", compression="deflate") as ws:
        assert "permessage-deflate" in ws.request.headers.get("Sec-WebSocket-Extensions", "")  # offered
        assert ws.response.headers.get("Sec-WebSocket-Extensions") is None  # and declined
        ws.send('{"type": "hello", "protocol": 1, "name": "Zoe"}')
        assert '"welcome"' in ws.recv(timeout=60)


def test_a_guest_may_be_called_by_an_accented_name(browser, site):
    """The page's own check lets Zoé in (the server's rule: accented Latin letters are letters)."""
    zoe = Person(browser, site.url, "Zoé").arrive()
    expect(zoe.page.locator(".top .who")).to_contain_text("Zoé")
    assert zoe.page.evaluate("() => document.querySelector('#guest-name') === null")  # past the welcome form
    zoe.close()
