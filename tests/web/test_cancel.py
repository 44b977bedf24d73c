"""The vote to cancel through the real page and server (issue 34): alone with robots it is not offered
(robots do not vote, and a lost game must not be erased at will); two people refuse one, then agree."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .pages import Person

pytestmark = pytest.mark.slow


def events_of(person: Person, kind: str) -> list[dict]:
    return [f["event"] for f in person.frames if f.get("type") == "event" and f.get("event", {}).get("type") == kind]


def test_alone_with_robots_cancelling_is_not_offered(browser, shared_site):
    alice = Person(browser, shared_site.url, "Alicia").arrive()
    alice.create(4, deals=3)
    alice.fill_and_start()
    page = alice.page
    button = page.locator(".table-bar button", has_text="Propose to cancel")
    expect(button).to_have_attribute("aria-disabled", "true")
    expect(button).to_have_attribute(
        "title",
        "Cancelling needs the agreement of at least two people present "
        "(robots do not vote): alone with robots, you can only leave the "
        "table, which is an abandonment.",
    )
    button.focus()  # still reachable from the keyboard (aria-disabled, not disabled): Enter says why,
    page.keyboard.press("Enter")  # and asks the server nothing
    expect(page.locator(".toast", has_text="you can only leave the table")).to_be_visible()
    assert page.locator(".toast.error").count() == 0
    assert events_of(alice, "cancel_proposed") == []
    assert alice.state()["status"] == "playing" and not alice.game_over()
    assert not [f for f in alice.frames if f.get("type") in ("error", "pageerror")]
    assert alice.console_errors == []
    alice.close()


def test_alone_in_french_the_page_says_why(browser, shared_site):
    alice = Person(browser, shared_site.url, "Alizee", lang="fr-FR").arrive()
    alice.create(3, deals=2)
    alice.page.click("text=Compléter avec des robots")
    alice.page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
    alice.page.click("text=Lancer la partie")
    button = alice.page.locator(".table-bar button", has_text="Proposer d'annuler")
    expect(button).to_have_attribute("aria-disabled", "true")
    assert "ce qui est un abandon" in button.get_attribute("title")
    alice.close()


def test_two_people_refuse_a_cancel_then_agree_to_one(browser, shared_site):
    anna = Person(browser, shared_site.url, "Annabel").arrive()
    bruno = Person(browser, shared_site.url, "Brunon").arrive()
    table = anna.create(4, deals=3)
    bruno.sit_at(table)
    anna.page.wait_for_function("() => window.atout.view.state.seats.filter((s) => s.kind === 'person').length === 2")
    anna.fill_and_start()
    bruno.page.wait_for_function("() => window.atout.view.state.status === 'playing'")

    for person in (anna, bruno):
        expect(person.page.locator(".table-bar button", has_text="Propose to cancel")).not_to_have_attribute(
            "aria-disabled", "true"
        )
    anna.page.locator(".table-bar button", has_text="Propose to cancel").click()
    anna.page.wait_for_function(  # the vote opened, or the proposal was refused: then say why
        "() => window.atout.view.state.vote !== null || document.querySelector('.toast.error') !== null"
    )
    assert anna.page.locator(".toast.error").count() == 0, anna.page.inner_text(".toast.error")
    bruno.page.wait_for_selector("[data-vote=no]")
    assert "Annabel proposes to cancel" in bruno.page.inner_text(".actions")
    bruno.page.click("[data-vote=no]")
    anna.page.wait_for_function(
        "() => window.atout.view.state.vote === null && window.atout.view.state.status === 'playing'"
    )
    assert [e["cancelled"] for e in events_of(anna, "cancel_end")] == [False]
    assert not anna.game_over()

    bruno.page.locator(".table-bar button", has_text="Propose to cancel").click()
    anna.page.wait_for_selector("[data-vote=yes]")
    anna.page.click("[data-vote=yes]")
    for person in (anna, bruno):
        person.page.wait_for_selector("text=The game was cancelled")
        assert person.state()["game"]["outcome"] == "cancelled"
        note = person.page.locator(".felt .phase-note")  # the deal stopped in its phase: it waits for nothing
        expect(note).to_have_text("The game was cancelled")
        assert "Bidding" not in person.page.inner_text(".felt")
        assert person.page.locator(".toast.error").count() == 0
        assert not [f for f in person.frames if f.get("type") in ("error", "pageerror")]
    anna.close()
    bruno.close()
