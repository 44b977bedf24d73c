"""The page's words and choices as a person reads them (issue 34's minors): the daily deal says the same
robots as its table and offers its ranking at its end, never another game; the safe answer is the primary
button; a contract is said once; the time-per-turn list in order; no backtick shown as typed; and the
French page in French, numbers written the French way."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from .conftest import Site
from .pages import Person, http_get, http_post, play_until_over
from .stored import play_and_store, player_id
from .test_profile import log_in

pytestmark = pytest.mark.slow

SHOTS = "/tmp"
"""Where the tests leave what they saw (words-*.png), to look at."""


def register(url: str, name: str) -> str:
    """A registered person's session cookie."""
    made = http_post(f"{url}/api/register", json={"name": name, "password": "my long secret"}, headers={"Origin": url})
    assert made.status_code == 201, made.text
    return made.cookies["atout_session"]


@pytest.fixture(scope="module")
def daily_site(tmp_path_factory) -> Iterator[Site]:
    server = Site(tmp_path_factory.mktemp("words-daily"), args=("--daily-deals", "1"))
    try:
        yield server
    finally:
        server.stop()


def test_the_daily_deal_names_its_robots_as_its_table_does_and_ends_on_its_ranking(browser, daily_site):
    url = daily_site.url
    register(url, "Dolores")
    dolores = log_in(browser, url, "Dolores")
    page = dolores.page
    page.click("nav a[href='#/daily']")
    page.wait_for_selector(".daily .daily-play")
    said = re.search(r"robots \(([^)]+)\)", page.inner_text(".daily")).group(1)
    assert said == "club"
    page.click(".daily-play")
    page.wait_for_function(
        "() => window.atout.view && window.atout.view.state && window.atout.view.state.status === 'playing'"
    )
    robots = [s["name"] for s in dolores.state()["seats"] if s["kind"] == "robot"]
    assert robots == [f"Robot {i} ({said})" for i in (2, 3, 4)]  # the table says the same robots
    for i in (1, 2, 3):
        expect(page.locator(f".seat[data-seat='{i}'] .seat-name")).to_contain_text(f"({said})")
    tag = page.locator(".table-bar .daily-tag")
    expect(tag).to_have_text("daily deal: the day's ranking")  # it has a ranking: not "unranked: practice"
    assert page.locator(".table-bar .unranked").count() == 0
    page.screenshot(path=f"{SHOTS}/words-daily-bar.png")
    play_until_over([dolores])
    ranking = page.locator(".game-over [data-ranking]")
    expect(ranking).to_have_text("The day's ranking")  # played once a day: its ranking, never another game
    expect(page.locator("button", has_text="Another game")).to_have_count(0)
    expect(page.locator(".seat button", has_text="Remove")).to_have_count(0)  # nor robots to remove
    page.screenshot(path=f"{SHOTS}/words-daily-end.png")
    ranking.click()
    page.wait_for_function("() => location.hash === '#/daily'")
    expect(page.locator(".daily-ranking tr[data-name='Dolores']")).to_have_count(1)
    assert not [f for f in dolores.frames if f.get("type") in ("pageerror", "error")]
    dolores.close()


def test_the_usual_answers_are_primary_and_a_contract_is_said_once(browser, shared_site):
    """Two people and a robot: whoever speaks first bids a Garde contre; while the other is to bid, the
    bidder's seat says "Garde contre" once (its bid's bubble, not a taker's badge beside it); the taker is
    then asked about a chelem, "No chelem" the primary button and announcing one the quiet one."""
    url = shared_site.url
    ann = Person(browser, url, "Annick").arrive()
    table = ann.create(3, deals=5)
    bob = Person(browser, url, "Bertrand")
    bob.page.goto(url)
    bob.page.fill("#guest-name", "Bertrand")
    bob.page.click("form.welcome button[type=submit]")
    bob.page.wait_for_selector("#create-form")
    bob.sit_at(table)
    ann.fill_and_start()
    people = [ann, bob]
    said_once = chelem_seen = False
    deadline = time.monotonic() + 240  # bounds a hang only
    while not (said_once and chelem_seen):
        assert time.monotonic() < deadline, "no Garde contre bid by a person in five deals"
        moved = False
        for person in people:
            page = person.page
            mine = page.evaluate(
                "() => { const v = window.atout.view; const d = v.state.deal;"
                " return v.isMyTurn() && d ? {phase: d.phase, taker: d.taker, contract: d.contract} : null; }"
            )
            if mine is None:
                continue
            if mine["phase"] == "bidding":
                if mine["taker"] is not None:
                    name = page.locator(f".seat[data-seat='{mine['taker']}'] .seat-name")
                    word = {"garde_contre": "Garde contre"}.get(mine["contract"], mine["contract"])
                    if mine["contract"] == "garde_contre":
                        expect(name.locator(".bubble")).to_have_text(word)
                        assert name.inner_text().count(word) == 1, name.inner_text()  # not "Garde contre Garde contre"
                        page.screenshot(path=f"{SHOTS}/words-bid-once.png")
                        said_once = True
                garde = page.locator(".actions [data-bid=garde_contre]:not([disabled])")
                (garde if garde.count() else page.locator(".actions [data-bid=pass]")).click()
                page.wait_for_function(
                    "() => !window.atout.view.isMyTurn() || window.atout.view.state.deal.phase !== 'bidding'"
                )
                moved = True
            elif page.locator(".actions [data-chelem]").count():
                no, yes = page.locator(".actions [data-chelem=false]"), page.locator(".actions [data-chelem=true]")
                expect(no).to_have_text("No chelem")
                assert "primary" in no.get_attribute("class").split()  # the safe, usual answer
                assert (
                    "quiet" in yes.get_attribute("class").split()
                    and "primary" not in yes.get_attribute("class").split()
                )
                page.screenshot(path=f"{SHOTS}/words-chelem.png")
                chelem_seen = True
                person.step()
                moved = True
            elif person.step() is not None:
                moved = True
        if not moved:
            time.sleep(0.02)
    assert not [f for p in people for f in p.frames if f.get("type") == "pageerror"]
    ann.close()
    bob.close()


def test_the_time_per_turn_list_is_in_order_with_no_limit_last(browser, shared_site):
    person = Person(browser, shared_site.url, "Horloge").arrive()
    page = person.page
    values = page.eval_on_selector_all("#opt-turn_seconds option", "els => els.map((e) => JSON.parse(e.value))")
    timed = [v for v in values if v]
    assert timed == sorted(timed) and values == [*timed, 0], values  # 15, 20, 30, 45, 60, 90, then none
    shown = page.eval_on_selector_all("#opt-turn_seconds option", "els => els.map((e) => e.textContent)")
    assert shown[0] == "15 s" and shown[-1] == "unlimited", shown
    assert page.eval_on_selector("#opt-turn_seconds", "el => JSON.parse(el.value)") == 30  # the default chosen
    page.locator("#opt-turn_seconds").screenshot(path=f"{SHOTS}/words-turn-seconds.png")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".table-page .seat")
    table_values = page.eval_on_selector_all(
        ".table-options #opt-turn_seconds option", "els => els.map((e) => JSON.parse(e.value))"
    )
    assert table_values == values  # the table's own options list says it the same way
    person.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Iterator[dict]:
    """Émile and Zoé, registered, after four betting games with robots (scores, chips, ratings, places),
    Émile registered in a tournament "Coupe du matin"; the site's daily and tournament robots are beginners."""
    server = Site(tmp_path_factory.mktemp("words-played"), args=("--daily-level", "beginner"))
    try:
        url = server.url
        cookies = {name: register(url, name) for name in ("Émile", "Zoé")}
        db = f"sqlite:///{server.tmp_path / 'web.db'}"
        people = [(player_id(db, "Émile"), "Émile"), (player_id(db, "Zoé"), "Zoé")]
        games = [play_and_store(db, people, deals=3, bet=50, at=time.time() - 3600 * (5 - i), seed=i) for i in range(4)]
        for seed in range(4, 40):  # one game more that Émile won: her profile says "1er sur 4"
            if any(g["place"] == 1 for g in http_get(f"{url}/api/players/%C3%89mile").json()["recent"]):
                break
            games.append(play_and_store(db, people, deals=1, at=time.time() - 60, seed=seed))
        made = http_post(
            f"{url}/api/tournaments",
            json={
                "name": "Coupe du matin",
                "deals": 1,
                "players": 4,
                "rounds": 1,
                "private": False,
                "size": 5,
            },  # two tables at least
            cookies={"atout_session": cookies["Émile"]},
            headers={"Origin": url},
        )
        assert made.status_code in (200, 201), made.text
        tournament = made.json()["id"]
        joined = http_post(
            f"{url}/api/tournaments/{tournament}/register",
            json={},
            cookies={"atout_session": cookies["Émile"]},
            headers={"Origin": url},
        )
        assert joined.status_code == 200, joined.text
        yield {"site": server, "games": games, "tournament": tournament}
    finally:
        server.stop()


def fr(x: float, digits: int | None = None) -> str:
    """A number as a French page writes it: the decimal comma, the true minus sign."""
    text = f"{abs(x):.{digits}f}" if digits is not None else f"{abs(x):.2f}".rstrip("0").rstrip(".")
    return ("\u2212" if x < 0 and text.strip("0.,") else "") + text.replace(".", ",")


ASCII_NUMBER = re.compile(r"(?<![\w-])-\d|\d\.\d")
"""A hyphen before a number, or a decimal point: English ways a French page must not show a number."""


def test_the_french_page_says_everything_in_french_with_french_numbers(browser, played):
    url = played["site"].url
    emile = log_in(browser, url, "Émile", lang="fr-FR")
    page = emile.page
    profile = http_get(f"{url}/api/players/%C3%89mile").json()
    page.goto(f"{url}/#/p/%C3%89mile")
    page.wait_for_selector(".profile .stats")
    expect(page.locator(".profile-tournaments li")).to_have_text("Coupe du matin — inscriptions ouvertes")  # not "open"
    text = page.inner_text(".profile")
    assert not ASCII_NUMBER.search(text), ASCII_NUMBER.search(text)
    assert 1 in [g["place"] for g in profile["recent"]]
    assert "1er sur 4" in text and "1e sur" not in text  # French ordinals: 1er, 2e, 3e
    for g in profile["recent"]:
        assert fr(g["total"]) in text if g["total"] <= 0 else f"+{fr(g['total'])}" in text
    stats = profile["stats"]["all"]
    row = page.locator(".stats tbody tr").first.inner_text()
    if stats["average_per_deal"] is not None:
        assert fr(stats["average_per_deal"]) in row, (row, stats)
    page.screenshot(path=f"{SHOTS}/words-fr-profile.png", full_page=True)

    page.goto(f"{url}/#/leaderboard")
    page.wait_for_selector("table.board tbody tr")
    rating = page.locator("table.board tbody tr", has_text="Émile").locator("td").last.inner_text()
    assert re.fullmatch(r"\u2212?\d+,\d ± \d+,\d", rating), rating  # "25,3 ± 18,1": the French comma
    page.screenshot(path=f"{SHOTS}/words-fr-board.png")

    page.goto(f"{url}/#/tournaments")
    page.wait_for_selector(".tournaments .t-open li")
    summary = page.inner_text(".tournaments .t-open li")
    assert "robots : débutant" in summary, summary  # the level named in French, never "heuristic" or "beginner"
    page.click(".tournaments .t-open li a")
    expect(page.locator(".tournament .t-status")).to_have_text("inscriptions ouvertes")
    page.goto(f"{url}/#/daily")
    page.wait_for_selector(".daily .daily-play")
    assert "contre des robots (débutant)" in page.inner_text(".daily")

    game = played["games"][-1]
    page.goto(f"{url}/#/g/{game}")
    page.wait_for_selector(".game-page .sheet")
    text = page.inner_text(".game-page")
    assert not ASCII_NUMBER.search(text), ASCII_NUMBER.search(text)
    assert "\u2212" in text  # somebody lost: the true minus sign
    page.screenshot(path=f"{SHOTS}/words-fr-game.png", full_page=True)
    assert not [f for f in emile.frames if f.get("type") == "pageerror"]
    emile.close()


@pytest.mark.parametrize("lang", ["en-GB", "fr-FR"])
def test_commands_in_the_words_are_code_never_backticks_as_typed(browser, played, lang):
    url = played["site"].url
    person = log_in(browser, url, "Zoé", lang=lang)
    page = person.page
    marked = page.evaluate(
        "async () => { const m = await import('/static/i18n.js');"
        " return Object.entries(await m.catalogue('en')).filter(([, v]) => v.includes('`')).map(([k]) => k).sort(); }"
    )
    assert marked == [
        "game.replay_hint",
        "review.verify_hint",
        "robots.bring_arena",
        "robots.made_by",
    ]  # each shown through withCode below
    game = played["games"][0]
    page.goto(f"{url}/#/g/{game}")
    page.wait_for_selector(".game-page .sheet")
    hint = page.locator(".game-page p.hint").last
    expect(hint.locator("code").first).to_have_text("atout verify FILE" if lang == "en-GB" else "atout verify FICHIER")
    assert "`" not in page.inner_text("main")
    page.goto(f"{url}/#/g/{game}/1")
    page.wait_for_selector(".fair")
    expect(page.locator(".fair .hint code")).to_have_count(2)
    assert "`" not in page.inner_text("main")
    page.locator(".fair").screenshot(path=f"{SHOTS}/words-code-{lang}.png")
    page.goto(f"{url}/#/robots")
    page.wait_for_selector(".robots-page .bring")
    expect(page.locator(".robots-page .bring code", has_text="atout arena --ladder")).to_have_count(1)
    said = page.inner_text(".robots-page .bring") + page.inner_text(".robots-page table")
    assert not [w for w in ("docs/", "examples/", "cmd:", "commit:") if w in said], said  # no path, no entry's code
    assert "`" not in page.inner_text("main")
    person.close()


def test_robots_are_named_with_their_level_in_the_pages_language(browser, shared_site):
    person = Person(browser, shared_site.url, "Bérénice", lang="fr-FR").arrive()
    page = person.page
    page.select_option("#create-form #opt-robot_level", '"beginner"')
    person.create(4, deals=1)
    page.click("text=Compléter avec des robots")
    page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
    assert [s["name"] for s in person.state()["seats"][1:]] == [
        f"Robot {i} (beginner)" for i in (2, 3, 4)
    ]  # the server's
    for i in (1, 2, 3):
        expect(page.locator(f".seat[data-seat='{i}'] .seat-name")).to_contain_text(f"Robot {i + 1} (débutant)")
    expect(page.locator(".log-list li", has_text="Un robot (débutant) s'assoit : Robot 2 (débutant).")).to_have_count(1)
    assert "beginner" not in page.inner_text("main")
    page.screenshot(path=f"{SHOTS}/words-fr-robots.png")
    page.click("text=Lancer la partie")
    play_until_over([person])
    expect(page.locator(".game-over")).to_be_visible()
    shown = page.inner_text("main")
    assert not ASCII_NUMBER.search(shown), ASCII_NUMBER.search(shown)
    assert "beginner" not in shown and "heuristic" not in shown
    page.screenshot(path=f"{SHOTS}/words-fr-over.png")
    person.close()
