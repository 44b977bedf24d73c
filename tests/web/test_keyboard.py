"""A keyboard player at the table (issue 34): the skip link keeps the page, and focus never drops to the
page's body after an action, so the next key press goes on from where the person was."""

from __future__ import annotations

import time

import pytest

from .pages import Person

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 800}


def test_the_skip_link_focuses_the_content_and_keeps_the_page(browser, shared_site):
    """Tab then Enter on "Skip to the content" at a table and on the daily page: the same page, focus in
    its main part (the link's `#main` was read as a route: the lobby)."""
    ada = Person(browser, shared_site.url, "SkipAda", viewport=DESKTOP).arrive()
    table = ada.create(4, deals=1)
    page = ada.page
    for route, ready in ((f"#/t/{table}", ".table-page .seat"), ("#/daily", "main h1")):
        page.goto(f"{shared_site.url}/{route}")
        page.reload()  # a fresh page: its first Tab stop is the skip link
        page.wait_for_selector(ready)
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.className") == "skip"
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement && document.activeElement.id === 'main'")
        assert page.evaluate("() => location.hash") == route
        page.wait_for_selector(ready)
        assert page.locator(".lobby").count() == 0
    ada.close()


WHERE = """() => { const a = document.activeElement;
  return !a || a === document.body ?
    'body' : `${a.tagName}.${a.className}`
    + `[${a.dataset.card || a.dataset.bid || a.textContent.trim().slice(0, 24)}]`; }"""
TURN = """() => { const v = window.atout.view; const d = v && v.state && v.state.deal;
  if (!d) return ''; if (v.state.game && v.state.game.over) return 'over';
    return d.phase + (v.isMyTurn() ? ':me' : ''); }"""


def focused(page, after: str) -> str:
    """Where the focus is once the page has drawn what ``after`` brought: never the page's body."""
    where = page.evaluate(WHERE)
    assert where != "body", f"the focus dropped to the page's body after {after}"
    return where


def tab_to(page, selector: str, limit: int = 150) -> None:
    """Tab (as a person does) until the focus is on ``selector``."""
    for _ in range(limit):
        if page.evaluate("(s) => Boolean(document.activeElement && document.activeElement.matches(s))", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} not reached in {limit} Tab presses; at {page.evaluate(WHERE)}")


def arrow_to(page, test: str, limit: int = 80) -> str:
    """Right arrow along the hand until the focused card passes ``test`` (a function of the card's button)."""
    for _ in range(limit):
        card = page.evaluate(
            f"() => {{ const a = document.activeElement; const ok = {test};"
            " return a && a.matches('.hand-cards .card') && ok(a) ? a.dataset.card : null; }"
        )
        if card:
            return card
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"no card passing {test} in the hand; at {page.evaluate(WHERE)}")


def moved_on(page, seq: int) -> None:
    page.wait_for_function("(seq) => window.atout.view.seq > seq", arg=seq)


def test_focus_is_never_lost_through_an_evening_at_the_keyboard(browser, shared_site):
    """With the keyboard only: a table created, its seats filled, the game started, every bid, each card of a
    garde's écart chosen and laid aside, cards played, the result read and closed: after each, the focus is on
    something sensible (the same control, the next card, the new prompt's first control, the result's button),
    never dropped to the page's body where a keyboard player starts over."""
    kim = Person(browser, shared_site.url, "KeysKim", viewport=DESKTOP).arrive()
    page = kim.page
    tab_to(page, "#opt-deals")
    page.keyboard.press("Control+a")
    page.keyboard.type("9")
    tab_to(page, "#create-form button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.atout.view && window.atout.view.state && window.atout.view.state.you !== null")
    assert "Fill empty seats" in focused(page, "creating the table")
    tab_to(page, ".actions input[name=invite]")  # an invitation half typed while someone sits down and leaves
    page.keyboard.type("Somebo")
    table = page.evaluate("() => window.atout.view.id")
    passer = Person(browser, shared_site.url, "KeysPasser", viewport=DESKTOP).arrive()
    passer.sit_at(table)
    page.wait_for_function("() => window.atout.view.state.seats.filter((s) => s.kind === 'person').length === 2")
    passer.page.click(".table-bar button:text-is('Leave the seat')")
    page.wait_for_function("() => window.atout.view.state.seats.filter((s) => s.kind === 'person').length === 1")
    assert page.evaluate("() => [document.activeElement.name, document.activeElement.value]") == ["invite", "Somebo"]
    passer.close()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    tab_to(page, ".actions > div.row > button.quiet")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
    page.wait_for_function("() => document.activeElement && document.activeElement.textContent === 'Start the game'")
    focused(page, "filling the seats")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.atout.view.state.status === 'playing'")
    focused(page, "starting the game")
    ecart_done = False
    results = 0
    deadline = time.monotonic() + 400  # bounds a hang only
    while not (ecart_done and results):
        assert time.monotonic() < deadline, f"no garde's écart and result in time; at {page.evaluate(TURN)}"
        panel = page.locator(".result-panel")
        if panel.is_visible():  # a deal ended: its result has the focus, and gives it back once closed
            where = focused(page, "a deal's end")
            assert page.evaluate("() => document.querySelector('.result-panel').contains(document.activeElement)"), (
                where
            )
            page.keyboard.press("Enter")
            assert panel.is_hidden()
            focused(page, "closing the result")
            results += ecart_done
            continue
        turn = page.evaluate(TURN)
        if turn == "over":
            break
        if not turn.endswith(":me"):
            page.wait_for_timeout(20)
            continue
        focused(page, f"the table came to {turn}")
        seq = kim.seq()
        if turn == "bidding:me":
            garde = page.evaluate(
                "() => { const b = document.querySelector('.actions [data-bid=garde]'); return Boolean(b && "
                "!b.disabled); }"
            )
            bid = "garde" if garde and not ecart_done else "pass"
            tab_to(page, f".actions [data-bid={bid}]")
            page.keyboard.press("Enter")
            moved_on(page, seq)
            focused(page, f"bidding {bid}")
        elif turn == "discard:me":
            for n in range(6):
                card = arrow_to(
                    page,
                    "(a) => a.getAttribute('aria-pressed') === 'false' && window.atout.view.legal('discard_from')[0]"
                    ".discard_from.includes(a.dataset.card) && !a.dataset.card.startsWith('T') && "
                    "!a.dataset.card.startsWith('K')",
                )
                page.keyboard.press("Enter")
                page.wait_for_function("(n) => window.atout.view.ecart.size === n", arg=n + 1)
                focused(page, f"choosing {card}")
                assert page.evaluate(
                    "() => [document.activeElement.dataset.card, document.activeElement.getAttribute('aria-pressed')]"
                ) == [card, "true"]
            tab_to(page, ".actions [data-confirm=ecart]")
            page.keyboard.press("Enter")
            moved_on(page, seq)
            focused(page, "laying the écart aside")
            ecart_done = True
        elif turn == "play:me":
            card = arrow_to(page, "(a) => a.classList.contains('playable')")
            page.keyboard.press("Enter")
            moved_on(page, seq)
            focused(page, f"playing {card}")
        else:  # a chelem or petit sec question: its first answer
            tab_to(page, ".actions [data-chelem=false], .actions [data-petit]")
            page.keyboard.press("Enter")
            moved_on(page, seq)
            focused(page, turn)
    assert ecart_done and results, (ecart_done, results)
    kim.close()
