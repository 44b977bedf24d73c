"""The lobby as a regular finds it: the table where they sit comes first and the site opens on a game
that goes on; names said as the rule says them, one person per name."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .pages import Person, play_until_over

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}


def in_viewport(page, selector: str) -> bool:
    """Whether the element is wholly inside the page's width (nothing to scroll sideways to reach it)."""
    return page.eval_on_selector(
        selector,
        "el => { const r = el.getBoundingClientRect();"
        " return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth; }",
    )


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_a_tab_closed_mid_deal_opens_again_on_the_game_and_the_lobby_shows_it_first(browser, shared_site, viewport):
    name = "Closer" if viewport is None else "Phoner"
    alice = Person(browser, shared_site.url, name, viewport=viewport).arrive()
    table = alice.create(4, deals=2)
    alice.fill_and_start()
    alice.page.wait_for_function("() => window.atout.view.state.deal !== null")
    seat = alice.state()["you"]
    alice.page.close()  # the tab closed mid-deal

    alice.page = alice.new_page()  # the site opened again, at its front page, by the same person
    alice.page.goto(shared_site.url)
    alice.page.wait_for_function("() => window.atout.view && window.atout.view.state && window.atout.view.state.deal")
    assert alice.page.url.endswith(f"#/t/{table}")
    assert alice.state()["you"] == seat
    assert alice.page.locator(".hand-cards .card").count() == len(alice.state()["deal"]["hand"]) > 0

    page = alice.page
    page.goto(f"{shared_site.url}/#/")  # the lobby, asked for: the table comes first, marked as hers
    box = page.wait_for_selector("#your-tables:not([hidden])")
    assert f"Table {table}" in box.inner_text()
    expect(page.locator(f".table-item.mine[data-table='{table}'] .tag.mine")).to_have_text(f"your seat: {seat + 1}")
    assert page.locator(f".table-item[data-table='{table}'] button", has_text="Watch").count() == 0
    assert in_viewport(page, "#your-tables button")
    others = page.locator(".table-item:not(.mine)")
    assert all("your seat" not in others.nth(i).inner_text() for i in range(others.count()))
    page.click("#your-tables button:text-is('Back to your table')")
    page.wait_for_function(
        f"() => window.atout.view && window.atout.view.id === '{table}'"
        f" && window.atout.view.state && window.atout.view.state.you === {seat}"
    )
    alice.close()


def test_the_name_rule_is_said_spaces_around_a_name_are_dropped_and_a_name_online_is_refused(browser, shared_site):
    ana = Person(browser, shared_site.url, "Ana").arrive()
    page = ana.page
    expect(page.locator(".top .who")).to_contain_text("Ana")

    other = Person(browser, shared_site.url, "other", viewport=PHONE)
    page = other.page
    page.goto(shared_site.url)
    rule = page.wait_for_selector("#guest-name-rule")
    assert "3 to 20 letters" in rule.inner_text() and in_viewport(page, "#guest-name-rule")
    page.fill("#guest-name", "Zoé!")
    page.click("form.welcome button[type=submit]")
    expect(page.locator("#guest-name-problem")).to_contain_text("“Zoé!” is not a name here: 3 to 20 letters")
    page.fill("#guest-name", "ana")  # Ana is online: "ana" is her name, whatever its case
    page.click("form.welcome button[type=submit]")
    expect(page.locator("#guest-name-problem")).to_contain_text("That name is taken")
    assert page.locator("#create-form").count() == 0
    page.fill("#guest-name", "  Zoé ")  # spaces around a name are no part of it
    page.click("form.welcome button[type=submit]")
    page.wait_for_selector("#create-form")
    expect(page.locator(".top .who")).to_contain_text("Zoé")
    ana.close()
    other.close()


def test_a_new_tables_first_events_name_the_master(browser, shared_site):
    """A table's first events (its creator sits, and is the master) may reach the page before the
    table's state does: the log names the master, not "?"."""
    mia = Person(browser, shared_site.url, "Mia").arrive()
    lines = mia.page.evaluate("""async () => {
      const { TableView } = await import('/static/table.js');
      const view = new TableView(window.atout, 'fresh', document.createElement('div'));
      view.build();
      for (const [seq, event] of [[2, {type: 'sat', seat: 0, name: 'Mia'}], [3, {type: 'master', seat: 0}]])
        view.receive({type: 'event', table: 'fresh', seq, event});
      view.close();
      return view.log.map((line) => line.text);
    }""")
    assert lines == ["Mia sits down.", "Mia is now the master."]
    mia.close()


@pytest.mark.parametrize(("viewport", "players"), [(None, 3), (PHONE, 5)], ids=["desktop", "phone"])
def test_quick_play_starts_a_game_at_once_and_a_later_person_takes_a_robots_seat_at_the_next_deal(
    browser, shared_site, viewport, players
):
    first = Person(browser, shared_site.url, f"Quick{players}", viewport=viewport).arrive()
    page = first.page
    assert in_viewport(page, f"#quick-play button[data-quick='{players}']")
    page.click(f"#quick-play button[data-quick='{players}']")
    page.wait_for_function(
        "() => window.atout.view && window.atout.view.state && window.atout.view.state.status === 'playing'"
    )
    state = first.state()
    assert state["you"] == 0 and [s["kind"] for s in state["seats"]] == ["person"] + ["robot"] * (players - 1)
    table = state["id"]

    later = Person(browser, shared_site.url, f"Later{players}", viewport=viewport).arrive()
    later.page.click(f"#quick-play button[data-quick='{players}']")
    later.page.wait_for_function(
        f"() => window.atout.view && window.atout.view.id === '{table}' && window.atout.view.state"
    )
    expect(
        later.page.locator(".seat .seat-info", has_text=f"Later{players} plays here from the next deal")
    ).to_have_count(1)
    assert later.state()["you"] is None  # watching until the deal ends: no hand of anyone's
    deadline = time.monotonic() + 120  # bounds a hang only
    while later.page.evaluate("() => window.atout.view.state.you") is None:
        assert time.monotonic() < deadline, "the robot's seat was never given"
        if first.step() is None:
            first.idle()
    later.page.wait_for_selector(".hand-cards .card")
    seat = later.state()["you"]
    assert (
        later.state()["seats"][seat]["name"] == f"Later{players}" and later.state()["seats"][seat]["kind"] == "person"
    )
    first.close()
    later.close()


def test_a_finished_game_is_listed_as_over_not_as_waiting_and_after_the_tables_that_wait(browser, shared_site):
    """Issue 34: the lobby listed finished games as waiting tables."""
    flora = Person(browser, shared_site.url, "Flora").arrive()
    done = flora.create(3, deals=1)
    flora.fill_and_start()
    play_until_over([flora])
    gina = Person(browser, shared_site.url, "Gina").arrive()
    waiting = gina.create(4, deals=2)  # a table that does wait for people
    hugo = Person(browser, shared_site.url, "Hugo").arrive()
    page = hugo.page
    over = page.locator(f".table-item[data-table='{done}']")
    expect(over.locator(".badge")).to_have_text("game over")
    expect(page.locator(f".table-item[data-table='{waiting}'] .badge")).to_have_text("waiting")
    ids = page.eval_on_selector_all(".table-item", "els => els.map((el) => el.dataset.table)")
    assert ids.index(waiting) < ids.index(done)
    flora.page.goto(f"{shared_site.url}/#/")  # her own line says so too
    expect(flora.page.locator(f"#your-tables li[data-table='{done}']")).to_contain_text("game over")
    for person in (flora, gina, hugo):
        person.close()


def test_sit_in_the_lobby_seats_the_person_and_quick_play_takes_the_robots_seat_at_the_table_just_watched(
    browser, shared_site
):
    """Issue 47, item 5: the lobby's *Sit* seats the person (it arrived watching); quick play from the lobby
    after watching a friend's practice game with robots takes a robot's seat there, not a new table."""
    ines = Person(browser, shared_site.url, "Ines").arrive()
    waiting = ines.create(3, deals=1)
    jules = Person(browser, shared_site.url, "Jules").arrive()
    row = jules.page.locator(f".table-item[data-table='{waiting}']")
    row.get_by_role("button", name=f"Sit at table {waiting}").click()
    jules.page.wait_for_function(
        f"() => window.atout.view && window.atout.view.id === '{waiting}'"
        " && window.atout.view.state && window.atout.view.state.you !== null"
    )
    expect(jules.page.locator(".felt .seat.mine")).to_contain_text("Jules")

    kim = Person(browser, shared_site.url, "Kim").arrive()
    page = kim.page
    page.check("#create-form input[name=players][value='3']")
    page.fill("#opt-deals", "3")
    page.uncheck("#opt-competitive")  # practice: a person may take a robot's seat at the next deal
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".table-page .seat")
    friends = page.eval_on_selector(".table-page", "el => el.dataset.table")
    kim.fill_and_start()
    leo = Person(browser, shared_site.url, "Leo").arrive()
    leo.page.goto(f"{shared_site.url}/#/t/{friends}")  # he watches Kim's game a while
    leo.page.wait_for_function(
        f"() => window.atout.view && window.atout.view.id === '{friends}' && window.atout.view.state"
    )
    leo.page.goto(f"{shared_site.url}/#/")
    leo.page.click("#quick-play button[data-quick='3']")
    leo.page.wait_for_function(
        f"() => window.atout.view && window.atout.view.id === '{friends}' && window.atout.view.state"
    )
    expect(leo.page.locator(".seat .seat-info", has_text="Leo plays here from the next deal")).to_have_count(1)
    for person in (ines, jules, kim, leo):
        person.close()
