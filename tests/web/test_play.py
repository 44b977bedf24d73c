"""Whole games in a real browser: people click the page's own controls, robots fill the other seats."""

from __future__ import annotations

import pytest

from .pages import Person, play_until_over

pytestmark = pytest.mark.slow

WATCH_TRICK = """() => {
  window.__seen = {};
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('.trick .played[data-card]')) {
      const card = el.dataset.card;
      if (!(card in window.__seen)) window.__seen[card] = performance.timeOrigin + performance.now();
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""


def sheet_totals(person: Person) -> list[int]:
    return person.state()["game"]["totals"]


@pytest.mark.parametrize(("players", "deals"), [(3, 1), (5, 1)])  # a game of two deals, one person and robots
# played to its end: test_guest_seat.py (three seats) and test_evening.py (two people, four seats)
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
    for person in people:
        person.page.evaluate(WATCH_TRICK)
    host.click("text=Start the game")
    play_until_over(people)
    # how long a played card took to show on the three other pages (loopback, the whole deal)
    clicked = [p.page.evaluate("() => window.__clicked || {}") for p in people]
    seen = [p.page.evaluate("() => window.__seen") for p in people]
    missing = [
        (i, j, card)
        for i, mine in enumerate(clicked)
        for card in mine
        for j in range(len(people))
        if j != i and card not in seen[j]
    ]
    assert not missing, f"never shown on the other pages: {missing}"
    assert not [f for p in people for f in p.frames if f.get("type") in ("error", "pageerror")]
    # each card shows on the other pages after its click (how long it took is a benchmark's figure:
    # benchmarks/card_latency.py; a test on a loaded machine cannot say it)
    delays = [
        seen[j][card] - at
        for i, mine in enumerate(clicked)
        for card, at in mine.items()
        for j in range(len(people))
        if j != i
    ]
    assert len(delays) == 3 * 72, len(delays)
    assert min(delays) > 0, "a card showed on another page before its click"
    states = [p.state() for p in people]
    assert {s["you"] for s in states} == {0, 1, 2, 3}
    totals = states[0]["game"]["totals"]
    assert sum(totals) == 0
    assert all(s["game"]["totals"] == totals for s in states)
    for person in people:
        assert person.page.locator(".game-over .ranking li").count() == 4
        person.close()
