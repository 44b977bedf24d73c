"""A small duplicate tournament in the browser (docs/tournaments.md): two people and robots, from the
creation and the registration to the ranking — one deal, four a table, "when full" with two, so the second
registration starts it at once; both play their table through and find the ranking and the deal's review;
a phone's screen holds the pages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from atout.server.fair_sets import verify_tournament

from .conftest import Site
from .pages import http_get, http_post, play_until_over
from .test_profile import log_in

pytestmark = pytest.mark.slow
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def tournament_site(tmp_path_factory) -> Iterator[Site]:
    server = Site(tmp_path_factory.mktemp("tournaments"), args=("--arrival", "3"))  # the three who never come: 3 s
    try:
        yield server
    finally:
        server.stop()


def test_two_people_and_others_from_registration_to_the_ranking(browser, tournament_site):
    url = tournament_site.url
    for name in ("Tina", "Tomas"):
        made = http_post(
            f"{url}/api/register", json={"name": name, "password": "my long secret"}, headers={"Origin": url}
        )
        assert made.status_code == 201, made.text
    tina = log_in(browser, url, "Tina")
    tomas = log_in(browser, url, "Tomas", viewport=PHONE)
    page = tina.page
    page.click("nav a[href='#/tournaments']")
    form = page.locator("form.t-create")
    form.locator("input[name=name]").fill("Tuesday duplicate")
    form.locator("input[name=deals]").fill("13")  # out of range: refused, with its reason, and nothing made
    form.locator("button[type=submit]").click()
    expect(form.locator(".refusal")).to_contain_text("deals")
    assert http_get(f"{url}/api/tournaments").json()["open"] == []
    form.locator("input[name=deals]").fill("1")
    form.locator("input[name=size]").fill("4")  # one table of four: every seat would score 0, refused
    form.locator("button[type=submit]").click()
    expect(form.locator(".refusal")).to_contain_text("two tables")
    assert http_get(f"{url}/api/tournaments").json()["open"] == []
    form.locator("input[name=size]").fill("5")
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".tournament[data-status=open] .t-register")
    tid = page.eval_on_selector(".tournament", "el => el.dataset.id")
    page.click(".t-register")
    expect(page.locator(".t-entries")).to_have_text("Tina")

    for name in ("Tess", "Theo", "Tom"):  # three more, who will not come: robots play for them (issue 34: two tables)
        made = http_post(
            f"{url}/api/register", json={"name": name, "password": "my long secret"}, headers={"Origin": url}
        )
        assert made.status_code == 201, made.text
        joined = http_post(
            f"{url}/api/tournaments/{tid}/register",
            headers={"Origin": url},
            cookies={"atout_session": made.cookies["atout_session"]},
        )
        assert joined.status_code == 200, joined.text
    phone = tomas.page  # Tomas finds it in the list, on a phone
    phone.click("nav a[href='#/tournaments']")
    phone.click(f".t-open li[data-id='{tid}'] a")
    phone.click(".t-register")  # the fifth of five: it starts at once, and takes both to their tables (issue 47)
    for person in (tina, tomas):
        person.page.wait_for_function(
            "() => location.hash.startsWith('#/t/') && window.atout.view"
            " && window.atout.view.state && window.atout.view.state.status === 'playing'"
        )
    assert (tina.state()["you"], tomas.state()["you"]) == (0, 0)  # seated in registration order, robots after
    assert [s["kind"] for s in tina.state()["seats"]] == ["person"] * 4  # with Tess, Theo and Tom (away)
    assert [s["kind"] for s in tomas.state()["seats"]] == ["person", "robot", "robot", "robot"]  # the fifth
    expect(page.locator(".table-bar .daily-tag")).to_have_text("tournament: its ranking")  # not "unranked: practice"
    play_until_over([tina, tomas])
    expect(page.locator(".game-over [data-ranking]")).to_have_text("The tournament's ranking")  # not another game
    expect(page.locator("button", has_text="Another game")).to_have_count(0)
    page.click(".game-over [data-ranking]")
    page.wait_for_selector(".tournament[data-status=finished]")
    rows = page.locator(".t-ranking tbody tr")
    expect(rows).to_have_count(5)
    assert set(page.eval_on_selector_all(".t-ranking tbody tr", "els => els.map((e) => e.dataset.name)")) == {
        "Tina",
        "Tomas",
        "Tess",
        "Theo",
        "Tom",
    }
    assert page.locator(".t-seed").inner_text() == http_get(f"{url}/api/tournaments/{tid}").json()["seed"]
    published = http_get(url + page.get_attribute(".t-download", "href")).json()  # the page's link: atout verify's file
    assert verify_tournament(published).passed
    expect(page.locator(".t-scores tbody tr")).to_have_count(8)  # two tables: each seat's deal at each
    page.locator(".t-tables a.deal-link").first.click()
    page.wait_for_function("() => location.hash.startsWith('#/g/')")
    game = http_get(f"{url}/api/tournaments/{tid}").json()["tables"][0]["game"]
    page.wait_for_selector(f".review-page[data-game='{game}'][data-deal='1']")  # the deal told whole
    # the profile lists the tournament
    phone.goto(f"{url}/#/p/Tomas")
    expect(phone.locator(f".profile-tournaments li[data-id='{tid}']")).to_have_count(1)
    phone.goto(f"{url}/#/tournaments/{tid}")
    phone.wait_for_selector(".tournament[data-status=finished] .t-ranking")
    assert phone.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    assert "tournaments." not in phone.inner_text("main")  # its words, loaded with the page, never their keys
    for person in (tina, tomas):
        assert not person.policy_violations() and not [f for f in person.frames if f.get("type") == "pageerror"]
        person.close()
