"""A registered player's profile as they read it: their badges by name, their chips and rating drawn over
time (on a desktop and on a phone, in both languages), and their games, each deal numbered as the score
sheet numbers it, reviewed and downloaded."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from atout.server.store.db import badges

from .pages import WAIT_MS, Person, http_get, http_post
from .stored import insert, play_and_store, player_id
from .test_lobby import PHONE, in_viewport

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def helene(shared_site):
    """Hélène and Bruno, registered, after five games at a betting table (a void deal first in the first
    one), with two badges."""
    for name in ("Hélène", "Bruno"):
        made = http_post(
            f"{shared_site.url}/api/register",
            json={"name": name, "password": "my long secret"},
            headers={"Origin": shared_site.url},
        )
        assert made.status_code == 201, made.text
    db = f"sqlite:///{shared_site.tmp_path / 'web.db'}"
    people = [(player_id(db, "Hélène"), "Hélène"), (player_id(db, "Bruno"), "Bruno")]
    start = time.time()
    games = [
        play_and_store(db, people, deals=2, bet=50, void_first=i == 0, at=start + 3600 * (i + 1), seed=i, no_void=True)
        for i in range(5)
    ]
    held = {b["badge"] for b in http_get(f"{shared_site.url}/api/players/Hélène").json()["badges"]}
    insert(
        db,
        badges,
        [
            {"player_id": people[0][0], "badge": badge, "game_id": games[0], "at": start + 3600}
            for badge in ("first_win", "petit_au_bout")
            if badge not in held
        ],
    )  # as games award them
    return {"games": games, "profile": http_get(f"{shared_site.url}/api/players/Hélène").json()}


def log_in(browser, site_url: str, name: str, lang: str = "en-GB", viewport: dict | None = None) -> Person:
    person = Person(browser, site_url, name, lang=lang, viewport=viewport)
    page = person.page
    page.goto(site_url)
    page.click("form.welcome .linklike")
    page.fill("#account-name", name)
    page.fill("#account-password", "my long secret")
    page.click("dialog button[type=submit]")
    page.wait_for_selector("#create-form")
    return person


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_the_profile_names_the_badges_and_draws_chips_and_rating_over_time(browser, shared_site, helene, viewport):
    profile = helene["profile"]
    person = log_in(browser, shared_site.url, "Hélène", viewport=viewport)
    page = person.page
    page.goto(f"{shared_site.url}/#/p/H%C3%A9l%C3%A8ne")
    page.wait_for_selector(".profile .history")
    names = page.eval_on_selector_all(".badges li", "els => els.map((e) => e.innerText)")
    assert {"First win", "Petit au bout"} <= set(names) and len(names) == len(profile["badges"])
    assert not any("_" in n for n in names)  # never a key such as first_win

    chips = page.locator("figure[data-chart=chips] svg.chart")
    assert (
        chips.get_attribute("data-points") == str(len(profile["history"]["chips"]))
        and len(profile["history"]["chips"]) > 5
    )
    assert chips.locator("text.last").text_content() == str(profile["chips"])  # it ends at the balance shown
    rating = page.locator("figure[data-chart=rating] svg.chart")
    assert rating.get_attribute("data-points") == "5"  # one point per rated game
    assert "Rating at 4 players" in page.inner_text("figure[data-chart=rating] figcaption")
    for selector in ("figure[data-chart=chips] svg.chart", "figure[data-chart=rating] svg.chart"):
        assert in_viewport(page, selector)
        smallest = page.eval_on_selector(
            selector,
            "svg => Math.min(...[...svg.querySelectorAll('text')].map((t) => t.getBoundingClientRect().height))",
        )
        assert smallest >= 9, f"{selector}: a label {smallest:.1f} px high cannot be read"
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")  # nothing off the side

    page.select_option("select.lang", "fr")  # in French: the same drawings, their words in French
    expect(page.locator("figure[data-chart=chips] figcaption")).to_have_text("Jetons")
    expect(page.locator(".badges li[data-badge=first_win]")).to_have_text("Première victoire")
    page.select_option("select.lang", "en")
    person.close()


def test_a_game_page_numbers_its_deals_as_the_sheet_does_and_each_is_reviewed_and_downloaded(
    browser, shared_site, helene, tmp_path
):
    first = helene["games"][0]  # its first deal was void: every seat passed
    person = log_in(browser, shared_site.url, "Bruno")
    page = person.page
    page.goto(f"{shared_site.url}/#/p/Bruno")
    page.click(f".recent a[href='#/g/{helene['games'][-1]}']")  # the newest game first
    page.wait_for_selector(f".game-page[data-game='{helene['games'][-1]}']")
    page.goto(f"{shared_site.url}/#/g/{first}")
    page.wait_for_selector(f".game-page[data-game='{first}']")
    labels = page.eval_on_selector_all(".game-page tbody th .label", "els => els.map((e) => e.innerText)")
    assert labels == ["Void deal 1", "Deal 1", "Deal 2"]  # never "0, 0, 1"
    downloads = page.eval_on_selector_all(".game-page tbody a.download", "els => els.map((e) => e.download)")
    assert downloads == [f"atout-{first}-deal-{n}.json" for n in (1, 2, 3)]
    reviews = page.eval_on_selector_all(
        ".game-page tbody a[href*='#/g/']", "els => els.map((e) => e.getAttribute('href'))"
    )
    assert reviews == [f"#/g/{first}/{n}" for n in (1, 2, 3)]

    with page.expect_download() as got:
        page.click(".game-page tr[data-deal='2'] a.download")
    path = tmp_path / got.value.suggested_filename
    got.value.save_as(path)
    from atout.cli import main as cli

    assert cli.main(["verify", str(path)]) == 0  # the file alone: its commitment is in it

    page.click(".game-page tr[data-deal='2'] a:text-is('Review')")
    page.wait_for_selector(".review-page[data-deal='2']")
    expect(page.locator(".review-page h1")).to_have_text("Deal 1 of 2")  # as the game numbered it (not "of 3" records)
    page.click(".review-page .deal-nav button:text-is('◀ Previous deal')")
    page.wait_for_selector(".review-page[data-deal='1']")
    expect(page.locator(".review-page h1")).to_have_text("Deal 1: void")
    assert "Everyone passed." in page.inner_text(".review-page .contract")
    person.close()


def test_friends_are_seen_online_at_a_table_and_playing_and_joined_or_invited(browser, shared_site, helene):
    cookies = {}
    for name in ("Hélène", "Bruno"):
        login = http_post(f"{shared_site.url}/api/login", json={"name": name, "password": "my long secret"})
        cookies[name] = login.cookies["atout_session"]
    for name, action, other in (("Hélène", "request", "Bruno"), ("Bruno", "accept", "Hélène")):
        answer = http_post(
            f"{shared_site.url}/api/friends",
            json={"action": action, "name": other},
            cookies={"atout_session": cookies[name]},
            headers={"Origin": shared_site.url},
        )
        assert answer.status_code == 200, answer.text

    helene_page = log_in(browser, shared_site.url, "Hélène")
    page = helene_page.page
    box = page.wait_for_selector("#friends-box .hint:has-text('1 offline')")
    assert box.is_visible()
    bruno = log_in(browser, shared_site.url, "Bruno", viewport=PHONE)
    expect(page.locator("#friends-box li[data-friend=Bruno]")).to_have_attribute(
        "data-status", "online", timeout=WAIT_MS
    )
    table = bruno.create(3, deals=1)
    expect(page.locator("#friends-box li[data-friend=Bruno]")).to_have_attribute(
        "data-status", "table", timeout=WAIT_MS
    )
    page.click("#friends-box li[data-friend=Bruno] button:text-is('Join')")
    page.wait_for_function(f"() => window.atout.view && window.atout.view.id === '{table}' && window.atout.view.state")
    helene_page.page.locator(".seat button", has_text="Sit here").first.click()
    page.wait_for_function("() => window.atout.view.state.you !== null")

    page.goto(f"{shared_site.url}/#/friends")  # she sits at a table: she may invite him to it
    bruno.page.click(".table-bar button:text-is('Leave the seat')")  # Bruno leaves his table for the lobby
    bruno.page.wait_for_selector("#create-form")
    expect(page.locator(".friends li[data-friend=Bruno]")).to_have_attribute("data-status", "online", timeout=WAIT_MS)
    page.click(".friends li[data-friend=Bruno] button:text-is('Invite to my table')")
    invite = bruno.page.wait_for_selector(".toast.invite")
    assert "Hélène" in invite.inner_text()
    assert in_viewport(bruno.page, ".toast.invite button")
    helene_page.close()
    bruno.close()


def test_a_profiles_friend_button_says_where_you_stand(browser, shared_site):
    """ "Add as a friend" stayed on a profile after the request, and after its acceptance: the profile now
    says the request waits, lets the one asked accept it there, and says friends, on both pages at once."""
    for name in ("Carole", "Denis"):
        made = http_post(
            f"{shared_site.url}/api/register",
            json={"name": name, "password": "my long secret"},
            headers={"Origin": shared_site.url},
        )
        assert made.status_code == 201, made.text
    carole = log_in(browser, shared_site.url, "Carole")
    page = carole.page
    page.goto(f"{shared_site.url}/#/p/Denis")
    page.click(".profile .friendship button:text-is('Add as a friend')")
    box = page.locator(".profile .friendship")
    expect(box).to_have_attribute("data-state", "outgoing")
    expect(box).to_have_text("Friend request sent: waiting for Denis's answer.")
    assert box.locator("button").count() == 0
    page.reload()
    expect(box).to_have_attribute("data-state", "outgoing")

    denis = log_in(browser, shared_site.url, "Denis", viewport=PHONE)
    theirs = denis.page.locator(".profile .friendship")
    denis.page.goto(f"{shared_site.url}/#/p/Carole")
    expect(theirs).to_have_attribute("data-state", "incoming")
    assert "Carole asks to be your friend." in theirs.inner_text()
    theirs.locator("button:text-is('Accept')").click()
    expect(theirs).to_have_text("You and Carole are friends.")
    expect(box).to_have_text("You and Denis are friends.", timeout=WAIT_MS)  # her page, told of his answer
    carole.close()
    denis.close()
