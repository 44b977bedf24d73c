"""A person's insights on their profile, through a real ``atout serve`` (features/insights.py, insights.js): from
their analysed deals with known costs, the profile names the phase that cost most, draws the trend and lists the
costliest habits, each with a deal that shows it; others see none of it until the person shows it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from atout.bots.analysis import VERSION
from atout.bots.levels_figures import level_figures
from atout.server.store.db import accuracy

from .pages import http_post
from .stored import insert, play_and_store, player_id
from .test_lobby import PHONE
from .test_profile import log_in

pytestmark = pytest.mark.slow


def _rows(ann: str, game: str) -> list[dict]:
    """30 deals at 4 players: 10 taken (the écart costing 1.5 a deal), then 20 in defence (the leads costing 4
    a deal, 12 in the stored game's first deal: the one that shows it)."""
    rows = []
    for n in range(30):
        taker = n < 10
        worst = n == 25
        costs = {"bid": 0.0, "ecart": 1.5 if taker else 0.0, "taker": 0.0, "partner": 0.0, "defence": 0.0}
        if not taker:
            costs["defence"] = 12.0 if worst else 4.0
        habits = {"ecart": [1.5, 1]} if taker else {"defence_lead": [costs["defence"], 1]}
        rows.append(
            {
                "game_id": game if worst else f"x{n}",
                "deal": 0,
                "seat": 0,
                "version": VERSION,
                "player_id": ann,
                "players": 4,
                "role": "taker" if taker else "defence",
                "loss": sum(costs.values()),
                **costs,
                "decisions": 12,
                "costly": 1,
                "created_at": 1_700_000_000.0 + 3600 * n,
                "habits": habits,
            }
        )
    return rows


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_the_profile_names_the_costliest_phase_and_hides_it_from_others_until_shown(browser, site, viewport, tmp_path):
    for name in ("Ann", "Bob"):
        made = http_post(
            f"{site.url}/api/register", json={"name": name, "password": "my long secret"}, headers={"Origin": site.url}
        )
        assert made.status_code == 201, made.text
    db = f"sqlite:///{site.tmp_path / 'web.db'}"
    ann_id = player_id(db, "Ann")
    game = play_and_store(db, [(ann_id, "Ann")], deals=1)
    insert(db, accuracy, _rows(ann_id, game))

    ann = log_in(browser, site.url, "Ann", viewport=viewport or {"width": 1280, "height": 800})
    page = ann.page
    page.goto(f"{site.url}/#/p/Ann")
    main = page.locator(".insights .insights-main")
    main.wait_for()
    assert main.get_attribute("data-phase") == "defence"
    assert "the play in defence" in main.inner_text() and "−4.4 a deal" in main.inner_text()
    row = page.locator(".insights-phases tr[data-phase=ecart] td")
    assert row.nth(0).inner_text() == "−1.5 (10)" and row.nth(1).inner_text() == "−1.5 (10)"
    # the robots' levels on the same scale (the committed figures, at four players): beside each phase played lately,
    # the one nearest her figure; the sentence names it for the phase that cost most
    nearest = {}
    for phase, mine in (("ecart", 1.5), ("defence", 4.4)):
        levels = {level: round(sizes["4"][phase][0], 1) for level, sizes in level_figures().items()}
        nearest[phase] = min(levels, key=lambda x, levels=levels, mine=mine: (abs(levels[x] - mine), levels[x]))
        cell = page.locator(f".insights-phases tr[data-phase={phase}] td").nth(2)
        assert cell.get_attribute("data-level") == nearest[phase]
        assert cell.inner_text().lower().startswith(f"{nearest[phase]} (−"), cell.inner_text()
    assert page.locator(".insights-phases tr[data-phase=partner] td").nth(2).inner_text() == "—"  # never partner
    line = page.locator(".insights .insights-near")
    assert line.get_attribute("data-phase") == "defence" and line.get_attribute("data-level") == nearest["defence"]
    said = line.inner_text()
    near = nearest["defence"]
    assert said.startswith(f"Play in defence, over the last 20 deals: nearest the {near} robot (−4.4 a deal"), said
    chart = page.locator("figure[data-chart=accuracy] svg.chart")
    assert chart.get_attribute("data-points") == "30" and "over 30 deals" in chart.get_attribute("aria-label")
    habits = page.locator(".insights-habits li")
    assert [habits.nth(i).get_attribute("data-habit") for i in range(habits.count())] == ["defence_lead", "ecart"]
    assert habits.nth(0).inner_text().startswith("Leads in defence — −88 points in all (20 costly choices, 20 deals)")
    link = habits.nth(0).locator("a")
    assert link.get_attribute("href") == f"#/g/{game}/1"
    assert page.locator(".insights").evaluate("e => e.scrollWidth <= e.clientWidth + 1")  # nothing spills out
    assert page.locator("#insights-public").is_checked() is False
    page.locator(".insights").screenshot(path=str(tmp_path / f"insights-{'phone' if viewport else 'desktop'}.png"))
    page.screenshot(path=str(tmp_path / f"profile-{'phone' if viewport else 'desktop'}.png"), full_page=True)
    link.click()
    page.wait_for_url(f"**/#/g/{game}/1")

    # Bob, and anybody logged out, see Ann's profile without them
    bob = log_in(browser, site.url, "Bob", viewport=viewport)
    with bob.page.expect_response(lambda r: r.url.endswith("/api/players/Ann/insights")) as answer:
        bob.page.goto(f"{site.url}/#/p/Ann")
    assert answer.value.status == 403
    bob.page.wait_for_selector(".profile h1")
    assert bob.page.locator(".insights").is_hidden() and bob.page.locator(".insights-main").count() == 0

    # Ann shows them: Bob sees them, named as Ann's, without the box to show them
    page.goto(f"{site.url}/#/p/Ann")
    with page.expect_response(lambda r: r.url.endswith("/api/insights")) as shown:
        page.locator("#insights-public").check()
    assert shown.value.status == 200
    # the page says so once it has read the answer
    expect(page.locator(".insights-visibility [role=status]")).to_have_text(re.compile("^Everyone sees this"))
    bob.page.goto(f"{site.url}/#/")
    bob.page.goto(f"{site.url}/#/p/Ann")
    seen = bob.page.locator(".insights .insights-main")
    seen.wait_for()
    assert seen.get_attribute("data-phase") == "defence"
    assert bob.page.locator("#insights-title").inner_text() == "Ann's play against the expert"
    assert bob.page.locator("#insights-public").count() == 0
    for person in (ann, bob):
        assert not [f for f in person.frames if f.get("type") == "pageerror"] and not person.policy_violations()


def test_the_insights_speak_french_and_spanish(browser, site):
    made = http_post(
        f"{site.url}/api/register", json={"name": "Chloe", "password": "my long secret"}, headers={"Origin": site.url}
    )
    assert made.status_code == 201, made.text
    db = f"sqlite:///{site.tmp_path / 'web.db'}"
    chloe = player_id(db, "Chloe")
    game = play_and_store(db, [(chloe, "Chloe")], deals=1)
    insert(db, accuracy, _rows(chloe, game))
    for lang, words in (("fr-FR", "le jeu en défense"), ("es-ES", "el juego en defensa")):
        person = log_in(browser, site.url, "Chloe", lang=lang)
        person.page.goto(f"{site.url}/#/p/Chloe")
        main = person.page.locator(".insights .insights-main")
        main.wait_for()
        assert words in main.inner_text() and "insights." not in person.page.locator(".insights").inner_text()
        near = {
            "fr-FR": "Jeu en défense, sur les 20 dernières donnes",
            "es-ES": "Juego en defensa, en las últimas 20 rondas",
        }
        assert person.page.locator(".insights .insights-near").inner_text().startswith(near[lang])
        person.context.close()
