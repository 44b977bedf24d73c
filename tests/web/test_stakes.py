"""What a table puts at stake, in the browser: the bet and the pot in the table's bar, an unranked game
said so, the warning before the start when two registered people share an address, a paused table's
banner, and the daily chips claimed on the profile by a player who lost theirs."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import Site
from .outage import proxied_postgres
from .pages import Person, play_until_over

pytestmark = pytest.mark.slow


def register(browser, site_url: str, name: str) -> Person:
    person = Person(browser, site_url, name)
    page = person.page
    page.goto(site_url)
    page.click("text=Log in or register")
    page.fill("#account-name", name)
    page.fill("#account-password", "who has a long secret")
    page.click("dialog button:text-is('Register')")
    page.wait_for_selector("#create-form")
    return person


def create(person: Person, players: int = 3, bet: int = 0, competitive: bool = True) -> str:
    page = person.page
    page.check(f"#create-form input[name=players][value='{players}']")
    page.fill("#opt-deals", "1")
    page.select_option("#opt-turn_seconds", json.dumps(0))
    page.set_checked("#opt-competitive", competitive)
    if bet:
        page.fill("#opt-bet", str(bet))
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".table-page .seat")
    return page.eval_on_selector(".table-page", "el => el.dataset.table")


def test_the_bar_shows_the_bet_and_pot_and_a_player_who_lost_them_claims_the_daily_chips(browser, site):
    dana = register(browser, site.url, "Dana")
    page = dana.page
    page.goto(f"{site.url}/#/p/Dana")
    page.wait_for_selector(".profile [data-fact=chips] strong:text-is('1000')")
    assert page.locator("button", has_text="Claim 200 chips").count() == 0  # 1000 is not below 200

    page.goto(f"{site.url}/#/")
    page.wait_for_selector("#create-form")
    create(dana, bet=1000)
    assert page.inner_text(".table-bar .stakes") == "Bet 1000 chips"  # no game yet: no pot
    dana.fill_and_start()
    page.wait_for_selector(".table-bar .stakes >> text=pot 1000 chips")
    assert page.inner_text(".table-bar .stakes") == "Bet 1000 chips · pot 1000 chips"
    assert page.locator(".table-bar .unranked").count() == 0  # a ranked game says nothing more
    page.wait_for_function("() => window.atout.view.isMyTurn()")  # nothing moves now: the leave is not stale
    page.on("dialog", lambda dialog: dialog.accept())  # "leaving is an abandonment": yes, and the bet is lost
    page.click(".table-bar button:text-is('Leave the seat')")
    page.wait_for_selector("#create-form")

    stale = dana.new_page()  # a second tab of the same account, opened before the claim
    for tab in (page, stale):
        tab.goto(f"{site.url}/#/p/Dana")
        tab.wait_for_selector(".profile [data-fact=chips] strong:text-is('0')")
    claim = page.get_by_role("button", name="Claim 200 chips")
    claim.focus()
    page.keyboard.press("Enter")  # keyboard-reachable, named by its words
    page.wait_for_selector(".claim-message >> text=200 chips claimed")
    assert page.inner_text(".profile [data-fact=chips] strong") == "200"
    assert claim.count() == 0

    stale.get_by_role("button", name="Claim 200 chips").click()  # the other tab still offers it: refused
    refusal = stale.wait_for_selector(".claim-message.refusal")
    assert "claimed your chips today" in refusal.inner_text()
    stale.wait_for_selector(".profile [data-fact=chips] strong:text-is('200')")  # the balance as it is now
    assert stale.locator("button", has_text="Claim 200 chips").count() == 0
    assert [f for f in dana.frames if f.get("type") == "pageerror"] == []
    dana.close()


def test_a_practice_game_says_it_is_unranked_and_bets_nothing(browser, site):
    gus = Person(browser, site.url, "Gus").arrive()
    create(gus, competitive=False)
    gus.fill_and_start()
    note = gus.page.wait_for_selector(".table-bar .unranked")
    assert note.inner_text() == "unranked: practice"
    assert gus.page.locator(".table-bar .stakes").count() == 0
    gus.page.select_option(
        "select.lang", "fr"
    )  # the page is drawn again in French (waited for: a loaded machine is slow)
    expect(gus.page.locator(".table-bar .unranked")).to_have_text("non classée : entraînement")
    gus.close()


def test_registered_people_sharing_an_address_are_warned_before_the_start(browser, site):
    """Every page here comes from 127.0.0.1: two accounts at one table share an address."""
    ann = register(browser, site.url, "Ann")
    bob = register(browser, site.url, "Bob")
    guest = Person(browser, site.url, "Watcher").arrive()
    table = create(ann, players=3)
    assert ann.page.locator("[data-notice=same-address]").count() == 0  # alone: nothing to say
    bob.sit_at(table)
    warning = "Ann, Bob share an address: this game will be unranked"
    for person in (ann, bob):  # the master, and the seats concerned
        assert warning in person.page.wait_for_selector("[data-notice=same-address]").inner_text()
    guest.page.goto(f"{site.url}/#/t/{table}")
    guest.page.wait_for_selector(".table-page .seat")
    guest.page.wait_for_function("() => window.atout.view.state.same_address.length === 2")
    assert guest.page.locator("[data-notice=same-address]").count() == 0  # a spectator is not concerned

    ann.fill_and_start()
    for person in (ann, bob):
        note = person.page.wait_for_selector(".table-bar .unranked")
        assert note.inner_text() == "unranked: two players share an address"
        assert person.page.locator("[data-notice=same-address]").count() == 0  # the game has started
    for person in (ann, bob, guest):
        person.close()


def test_a_paused_table_shows_a_banner_until_it_resumes(browser, tmp_path):
    """A real outage: the server's PostgreSQL is cut off (a proxy between them drops every connection)
    when a card is played; the table pauses and the page says why, offers nothing to click, and when
    PostgreSQL is back the table resumes by itself and the page with it."""
    with proxied_postgres() as (url, proxy):
        server = Site(tmp_path, args=("--db", url))
        try:
            alice = Person(browser, server.url, "Alice").arrive()
            create(alice, players=3)
            alice.fill_and_start()
            page = alice.page
            page.wait_for_function("() => window.atout.view.isMyTurn()")  # the table stands still
            banner = page.locator(".paused-banner")
            assert banner.is_hidden()
            proxy.cut()
            assert alice.step() is not None  # the person acts: the store cannot take it
            expect(banner).to_be_visible()
            assert banner.get_attribute("role") == "status"
            why = "the store is unavailable: the table resumes by itself when it can be stored"
            assert "Paused" in banner.inner_text() and why in banner.inner_text()
            playable = page.locator(".hand-cards .card.playable, .actions button[data-bid]:not([disabled])")
            assert playable.count() == 0  # nothing to click while the table cannot take it
            proxy.restore()
            expect(banner).to_be_hidden()  # by itself: nobody reloads
            page.wait_for_function("() => window.atout.view.isMyTurn()")  # the refused action was not kept
            assert playable.count() > 0
            assert alice.step() is not None  # and the game goes on
            alice.close()
        finally:
            server.stop()


def test_a_guest_who_registers_mid_game_on_the_same_machine_makes_the_game_unranked_as_the_page_says(browser, site):
    """Issue 47, item 4: the rule said before the start at a competitive table (two registered players from
    one address: the game counts for nobody; a guest who registers during it counts too); then the guest at
    the same machine registers during the game, and the page, the stored game and the profiles agree: the
    bar says unranked, the log says why, and nobody gains XP."""
    ana = register(browser, site.url, "Anouk")
    table = create(ana)
    gus = Person(browser, site.url, "Gustave").arrive()
    gus.sit_at(table)
    rule = ana.page.locator("[data-notice=address-rule]")
    expect(rule).to_contain_text("counts for nobody if two registered players at it share an address")
    expect(gus.page.locator("[data-notice=address-rule]")).to_contain_text("a guest who registers during it")
    ana.fill_and_start()
    assert ana.state()["game"]["ranked"] and ana.page.locator(".table-bar .unranked").count() == 0
    gus.page.wait_for_function("() => window.atout.view.state.status === 'playing'")
    page = gus.page
    page.click("#top button:text-is('Log in')")
    page.fill("#account-name", "Gustave")
    page.fill("#account-password", "a long enough secret")
    page.click("dialog button:text-is('Register')")
    page.wait_for_function("() => window.atout.me && window.atout.me.registered")
    page.wait_for_function(
        f"() => location.hash === '#/t/{table}' && window.atout.view && window.atout.view.state"
        " && window.atout.view.state.you !== null"
    )
    for person in (ana, gus):
        tag = person.page.locator(".table-bar .unranked[data-unranked=same_address]")
        expect(tag).to_have_text("unranked: two players share an address")
        expect(person.page.locator(".log")).to_contain_text(
            "This game counts for nobody now: Anouk, Gustave share an address."
        )
    ana.page.screenshot(path=str(site.tmp_path / "unranked-desktop.png"))
    play_until_over([ana, gus])
    for person in (ana, gus):
        me = person.page.evaluate("() => fetch('/api/me').then((r) => r.json())")
        assert me["xp"] == 0, me
        assert person.state()["game"]["ranked"] is False
    board = ana.page.evaluate("() => fetch('/api/leaderboard?players=3&period=all').then((r) => r.json())")
    assert board["rows"] == []
    for person in (ana, gus):
        person.close()


def test_a_page_reloaded_while_the_store_is_away_joins_its_table_by_itself_once_it_is_back(browser, tmp_path):
    """Nobody left behind: a person reloads the table's page while PostgreSQL is cut off. The server cannot read
    the name the page gives, so it does not answer the hello (``unavailable``); the page says so, once and for as
    long as it lasts, and asks again by itself; once PostgreSQL is back the person is at their table, their turn
    before them, without a click, and the message is gone."""
    with proxied_postgres() as (url, proxy):
        server = Site(tmp_path, args=("--db", url))
        try:
            alice = Person(browser, server.url, "Alice").arrive()
            table = create(alice, players=3)
            alice.fill_and_start()
            page = alice.page
            page.wait_for_function("() => window.atout.view.isMyTurn()")  # the table stands still
            proxy.cut()
            page.reload()
            refused = page.locator(".toast", has_text="this page asks again by itself")
            expect(refused).to_have_count(1)
            assert page.evaluate("() => window.atout.view && window.atout.view.state") is None
            proxy.restore()
            page.wait_for_function(f"() => window.atout.view?.id === '{table}' && window.atout.view.isMyTurn()")
            expect(refused).to_have_count(0)  # said once, until the page is back
            assert alice.step() is not None  # and the game goes on
            alice.close()
        finally:
            server.stop()
