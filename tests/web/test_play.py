"""Whole games in a real browser: people click the page's own controls, robots fill the other seats."""

from __future__ import annotations

import pytest

from .pages import Person, play_until_over

pytestmark = pytest.mark.slow


def sheet_totals(person: Person) -> list[int]:
    return person.state()["game"]["totals"]


@pytest.mark.parametrize(("players", "deals"), [(3, 2), (5, 1)])
def test_one_person_plays_a_whole_game_against_robots(browser, site, players, deals):
    alice = Person(browser, site.url, "Alice").arrive()
    alice.create(players, deals=deals)
    alice.fill_and_start()
    clicks = play_until_over([alice])
    state = alice.state()
    game = state["game"]
    assert game["outcome"] == "finished"
    assert len([line for line in game["sheet"] if not line["void"]]) == deals
    assert sum(game["totals"]) == 0
    assert clicks > 0
    page = alice.page
    # the page shows the end: the ranking with every seat, and the score sheet's totals
    assert page.locator(".game-over .ranking li").count() == players
    totals = page.locator(".sheet tr.total td.num").all_inner_texts()
    assert [int(x.replace("−", "-")) for x in totals] == game["totals"]
    assert not [f for f in alice.frames if f.get("type") in ("pageerror",)], "the page raised an error"
    alice.close()


def test_four_pages_play_a_whole_deal_together(browser, site):
    people = [Person(browser, site.url, name).arrive() for name in ("Anna", "Bruno", "Chloe", "David")]
    table = people[0].create(4, deals=1)
    for person in people[1:]:
        person.sit_at(table)
    host = people[0].page
    host.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind === 'person')")
    host.click("text=Start the game")
    play_until_over(people)
    states = [p.state() for p in people]
    assert {s["you"] for s in states} == {0, 1, 2, 3}
    totals = states[0]["game"]["totals"]
    assert sum(totals) == 0
    assert all(s["game"]["totals"] == totals for s in states)
    for person in people:
        assert person.page.locator(".game-over .ranking li").count() == 4
        person.close()
