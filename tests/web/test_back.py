"""*I'm back* through the real page and server (issue 34, defect 1): a turn clock runs out on the
server's clock, the robot takes the seat, and the person takes it back with the button, with a card,
and after a reload; their turn prompts them again and what they click is played as theirs.

The robots of ``held_site`` move only when the test moves the server's clock on, so the seat in
automatic mode waits there to be looked at and clicked, as it would for a person on a slower robot."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .conftest import HELD_PACE, WITHIN
from .pages import Person

pytestmark = pytest.mark.slow

ROBOT_TO_ACT = """() => { const s = window.atout.view.state; const d = s && s.deal;
  if (!d || d.to_act === null || d.to_act === undefined || d.phase === 'end') return false;
  const seat = s.seats[d.to_act]; return seat.kind === 'robot' || seat.automatic || !seat.present; }"""
AUTOMATIC = "() => { const v = window.atout.view; return Boolean(v && v.state && v.automatic()); }"
PROMPTED = """() => { const v = window.atout.view; return Boolean(v && v.state && !v.state.seats[v.state.you].automatic
  && v.isMyTurn() && document.querySelector('.actions .turn') && !document.querySelector('.actions [data-back]')); }"""


def until_my_turn(site, person: Person) -> None:
    """The robots play (one move for each step of the clock) until the table waits for ``person``."""
    page = person.page
    deadline = time.monotonic() + WITHIN  # bounds a hang only
    while not page.evaluate("() => window.atout.view.isMyTurn()"):
        assert time.monotonic() < deadline and not person.game_over(), person.state()
        seq = person.seq()
        if page.evaluate(ROBOT_TO_ACT):
            site.advance_clock(HELD_PACE)
        page.wait_for_function("(seq) => window.atout.view.seq > seq || window.atout.view.isMyTurn()", arg=seq)


def run_out(site, person: Person) -> None:
    """On the person's turn the server's clock passes the 30 s: automatic mode, no prompt, one button."""
    until_my_turn(site, person)
    page = person.page
    seq = person.seq()
    site.advance_clock(31)
    page.wait_for_function(f"(seq) => window.atout.view.seq > seq && ({AUTOMATIC})()", arg=seq)
    expect(page.locator(".actions [data-back]")).to_have_count(1)
    assert page.locator(".actions [data-bid], .actions .turn").count() == 0
    assert "I'm back" in page.inner_text(".actions")


def back_and_play(person: Person) -> None:
    """Back: the person's own turn again, a whole turn's time, and their click is played as theirs."""
    page = person.page
    page.wait_for_function(PROMPTED)
    assert person.state()["clock"]["seconds_left"] > 25  # a whole turn again, not what was left
    me = person.state()["you"]
    before = len(person.frames)
    done = person.step()
    while done is not None and done.startswith("pick"):  # the écart's cards, chosen one by one, then laid
        done = person.step()
    assert done is not None
    mine = [
        f["event"]
        for f in person.frames[before:]
        if f.get("type") == "event" and f["event"]["type"] == "action" and f["event"]["seat"] == me
    ]
    assert mine and all(e["by"] == "person" for e in mine), mine


def test_i_m_back_after_the_turn_clock_ran_out_by_button_card_and_reload(browser, held_site):
    alice = Person(browser, held_site.url, "Alice").arrive()
    alice.create(3, deals=3, turn_seconds=30)
    alice.fill_and_start()
    page = alice.page

    run_out(held_site, alice)  # the button
    page.click(".actions [data-back]")
    back_and_play(alice)

    run_out(held_site, alice)  # a card of the hand, as a person who did not see the button clicks
    page.locator(".hand-cards .card").first.click()
    back_and_play(alice)

    run_out(held_site, alice)  # a reload: the seat is still the robot's, and still the person's to take back
    page.reload()
    page.wait_for_function(AUTOMATIC)
    page.click(".actions [data-back]")
    back_and_play(alice)

    errors = [f for f in alice.frames if f.get("type") in ("error", "pageerror")]
    assert errors == [] and page.locator(".toast.error").count() == 0, errors
    assert alice.console_errors == []
    alice.close()
