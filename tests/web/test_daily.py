"""The daily deal in the browser (docs/daily.md): a registered person finds it in the navigation, sees today's
commitment, plays the day's set (one deal here: ``atout serve --daily-deals 1``) at a table of its own, and
comes back to the day's ranking with their total (the play itself shown once the day is over); never a second
try."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from .conftest import Site
from .pages import http_get, http_post, play_until_over
from .test_blind import HEAR, hear_next
from .test_profile import log_in

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def daily_site(tmp_path_factory) -> Iterator[Site]:
    server = Site(tmp_path_factory.mktemp("daily"), args=("--daily-deals", "1", "--test-clock"))
    try:
        yield server
    finally:
        server.stop()


def test_a_person_plays_the_daily_deal_and_sees_the_ranking(browser, daily_site):
    url = daily_site.url
    made = http_post(
        f"{url}/api/register", json={"name": "Daisy", "password": "my long secret"}, headers={"Origin": url}
    )
    assert made.status_code == 201, made.text
    daisy = log_in(browser, url, "Daisy")
    page = daisy.page
    page.click("nav a[href='#/daily']")
    page.wait_for_selector(".daily .daily-play")
    today = http_get(f"{url}/api/daily").json()
    assert today["deals"] == 1
    assert page.inner_text(".daily .commitment-full") == today["commitment"]
    page.evaluate(f"({HEAR})()")  # what a screen reader is told from here on
    page.click(".daily-play")
    page.wait_for_function(
        "() => location.hash.startsWith('#/t/') && window.atout.view && window.atout.view.state"
        " && window.atout.view.state.status === 'playing'"
    )
    # the day's first deal began with its table, before the page heard anything: it is said on arriving
    hear_next(page, 0, lambda said: said[1].startswith("Deal 1, dealt by "), "the daily deal's first deal")
    assert daisy.state()["you"] == 0
    play_until_over([daisy])
    page.click("nav a[href='#/daily']")
    row = page.locator(".daily-ranking tr[data-name='Daisy']")
    expect(row).to_have_count(1)
    mine = page.locator(".daily-status")
    expect(mine).to_contain_text("You played today's deal")
    total = row.locator("td.num").inner_text()  # signed, with the site's one minus sign
    assert total != "—" and f"{total} points" in mine.inner_text()
    int(total.replace("\u2212", "-"))  # a number: +N, −N or 0
    # her play, like everyone's, is shown once the day is over (UTC), to nobody before (issue 37)
    expect(page.locator(".daily-plays-box .hint")).to_contain_text("once the day is over")
    assert page.locator(".daily-plays li a.deal-link").count() == 0
    assert page.locator(".daily-play").count() == 0  # no second try
    refused = page.evaluate("() => window.atout.net.request({type: 'daily'}).then(() => 'given', (e) => e.code)")
    assert refused == "daily_played"
    assert "daily." not in page.inner_text("main")  # its words, loaded with the page, never their keys
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing wider than the screen
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    # a second account on the same machine (the same address) is told before playing that it will be unranked
    made = http_post(f"{url}/api/register", json={"name": "Dot", "password": "my long secret"}, headers={"Origin": url})
    assert made.status_code == 201, made.text
    dot = log_in(browser, url, "Dot")
    dot.page.click("nav a[href='#/daily']")
    expect(dot.page.locator(".daily-unranked-if")).to_contain_text("will be shown unranked")
    dot.close()
    # the day closes (the server's clock a day on): her play, and everyone's, on the day's page, to review
    page.set_viewport_size({"width": 1280, "height": 800})
    daily_site.advance_clock(86_400)
    page.goto(f"{url}/#/daily/{today['day']}")
    link = page.locator(".daily-plays li[data-name='Daisy'] a.deal-link")
    expect(link).to_have_count(1)
    assert not daisy.policy_violations() and not [f for f in daisy.frames if f.get("type") == "pageerror"]
    daisy.close()
