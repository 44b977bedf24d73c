"""A person is wherever they are on the site (issue 47, items 1-2; docs/server.md, "A new game fetches its
people"): a game started while one of its people reads their profile fetches them there (a notice with the
way back, the tab's title) before any robot plays for them; on a phone at the table, scrolled to the chat, a
bar says it is their turn and takes them to their cards; a tournament's start takes the people waiting on its
page to their tables."""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from .pages import Person, http_post
from .test_profile import log_in

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = "/tmp/atout-fetched"
WHERE = """() => { const v = window.atout.view; const s = v && v.state;
  return { hash: location.hash, status: s && s.status, you: s && s.you, game: s && s.game,
    deal: s && s.deal && { phase: s.deal.phase, void: s.deal.void, to_act: s.deal.to_act },
    seats: s && s.seats.map((x) => [x.name, x.kind, x.present, x.automatic]),
    toasts: [...document.querySelectorAll('.toast')].map((t) => t.textContent) }; }"""
"""Where a page is and what its table says, for a failure's message."""


def _table_of_two(browser, site, viewport) -> tuple[Person, Person, str]:
    ana = Person(browser, site.url, "Ana").arrive()
    table = ana.create(3, deals=1, turn_seconds=30)
    bruno = Person(browser, site.url, "Bruno", viewport=viewport).arrive()
    bruno.sit_at(table)
    ana.page.wait_for_function("() => window.atout.view.state.seats[1].kind === 'person'")
    return ana, bruno, table


def test_a_game_started_while_a_person_reads_their_profile_fetches_them_there(browser, site):
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        ana, bruno, table = _table_of_two(browser, site, viewport)
        page = bruno.page
        page.click(".who a")  # Bruno opens his profile; the table's master starts the game meanwhile
        page.wait_for_function("() => location.hash.startsWith('#/p/')")
        page.wait_for_selector(".profile, .card-box")
        ana.fill_and_start()
        notice = page.locator(".summons[data-why=game]")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("A new game has started at your table")
        expect(notice.locator("[role=alert]")).to_have_count(1)  # said to a screen reader
        assert page.title() == "Your table is waiting — Atout"
        page.screenshot(path=f"{SHOTS}-profile-{size}.png")
        assert not ana.state()["seats"][1]["automatic"]
        notice.locator("button", has_text="Go to my table").click()
        page.wait_for_function(
            f"() => location.hash === '#/t/{table}' && window.atout.view && window.atout.view.state"
            " && window.atout.view.state.status === 'playing'"
        )
        expect(page.locator(".summons")).to_have_count(0)
        assert page.title() != "Your table is waiting — Atout"
        assert not bruno.state()["seats"][1]["automatic"]  # he came in time: he plays his own seat
        assert any(f.get("type") == "away" and f.get("table") == table for f in bruno.sent)
        for person in (ana, bruno):
            assert not [f for f in person.frames if f.get("type") == "pageerror"]
            person.close()


def test_on_a_phone_scrolled_to_the_chat_a_bar_says_your_turn_and_takes_you_to_your_cards(browser, site):
    ana, bruno, _ = _table_of_two(browser, site, PHONE)
    ana.fill_and_start()
    page = bruno.page
    page.wait_for_function(
        "() => window.atout.view && window.atout.view.state && window.atout.view.state.status === 'playing'"
    )
    page.locator(".chat-list").scroll_into_view_if_needed()  # reading the chat
    bar = page.locator(".turn-bar")
    for _ in range(400):  # Ana plays her turns until it is Bruno's
        if page.evaluate("() => window.atout.view.isMyTurn()"):
            break
        ana.step()
        page.wait_for_timeout(20)
    assert page.evaluate("() => window.atout.view.isMyTurn()")
    page.evaluate("() => document.querySelectorAll('.side details').forEach((d) => { d.open = true; })")  # all open
    page.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")  # down at the chat and the log
    page.screenshot(path=f"{SHOTS}-turn-bar-phone.png")
    expect(bar).to_be_visible()
    expect(bar).to_have_text("Your turn: to your cards ↓")
    page.screenshot(path=f"{SHOTS}-turn-bar-phone.png")
    bar.click()
    expect(page.locator(".table-page .actions")).to_be_in_viewport()
    expect(bar).to_be_hidden()
    ana.close()
    bruno.close()


def test_a_tournaments_start_takes_the_people_on_its_page_to_their_tables(browser, site):
    url = site.url
    for name in ("Tina", "Tomas", "Tess", "Theo", "Tom"):
        made = http_post(
            f"{url}/api/register", json={"name": name, "password": "my long secret"}, headers={"Origin": url}
        )
        assert made.status_code == 201, made.text
    tina = log_in(browser, url, "Tina", viewport=DESKTOP)
    tomas = log_in(browser, url, "Tomas", viewport=PHONE)
    cookie = http_post(
        f"{url}/api/login", json={"name": "Tess", "password": "my long secret"}, headers={"Origin": url}
    ).cookies["atout_session"]
    made = http_post(
        f"{url}/api/tournaments",
        json={"deals": 1, "players": 4, "size": 5},
        headers={"Origin": url},
        cookies={"atout_session": cookie},
    )
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for person in (tina, tomas):  # both register on the tournament's page and wait there
        person.page.goto(f"{url}/#/tournaments/{tid}")
        person.page.click(".t-register")
        person.page.wait_for_selector(".t-unregister, .t-registered, .tournament[data-status=open]")
    expect(tomas.page.locator(".t-entries")).to_contain_text("Tomas")
    for name in ("Tess", "Theo", "Tom"):  # the last registration starts it
        session = http_post(
            f"{url}/api/login", json={"name": name, "password": "my long secret"}, headers={"Origin": url}
        ).cookies["atout_session"]
        done = http_post(
            f"{url}/api/tournaments/{tid}/register", headers={"Origin": url}, cookies={"atout_session": session}
        )
        assert done.status_code == 200, done.text
    for person in (tina, tomas):  # taken to their tables, no click: they play their seats, not robots
        try:
            person.page.wait_for_function(
                "() => location.hash.startsWith('#/t/') && window.atout.view"
                " && window.atout.view.state && window.atout.view.state.status === 'playing'"
            )
        except PlaywrightTimeout:  # seen once in CI (3 December 2026): where each page was, to read next time
            where = [p.page.evaluate(WHERE) for p in (tina, tomas)]
            raise AssertionError(f"{person.name} was never seen playing at a table: {where}") from None
        seat = person.state()["seats"][person.state()["you"]]
        assert seat["present"] and not seat["automatic"], seat
    tomas.page.screenshot(path=f"{SHOTS}-tournament-table-phone.png")
    for person in (tina, tomas):
        assert not [f for f in person.frames if f.get("type") == "pageerror"]
        person.close()


def test_a_pages_late_answer_never_draws_over_the_table_the_person_went_to(browser, site):
    """Seen in a run of the tournament test: the tournament's page asked the server again (its refresh) just as the
    tournament took the person to their table; the answer came after the table was drawn and drew the tournament's
    page over it, the person left at a page they had not gone to. Here: a profile asked for, and the person
    taken to their table before its answer comes; once it came, the table is what they see."""
    ana = Person(browser, site.url, "Ana").arrive()
    table = ana.create(3, deals=1)
    page = ana.page
    page.goto(f"{site.url}/#/")
    page.wait_for_selector("#create-form")
    with page.expect_response(lambda r: "/api/players/Ana" in r.url) as answered:
        page.evaluate(
            "(table) => { location.hash = '#/p/Ana'; setTimeout(() => { location.hash = `#/t/${table}`; }, 0); }",
            table,
        )
    assert answered.value.status in (200, 404)  # a guest has no profile: its refusal is drawn as a page too
    page.wait_for_selector(".table-page .seat")
    page.evaluate("() => new Promise((done) => setTimeout(done, 0))")  # the answer's own drawing, if any, is done
    assert page.locator(".table-page").is_visible(), page.inner_text("#main")[:300]
    assert page.evaluate("() => location.hash") == f"#/t/{table}"
    ana.close()
