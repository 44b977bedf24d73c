"""The hint at a practice table, through the page and a real ``atout serve`` (issue 46, item 4): the bar's
Hint, or the key I, shows the expert's choice beside the hand with its reasons (the search's figures, in the
page's words), the card highlighted, said by a live region; gone once the table moves on; no Hint at a
competitive table. Looked at on a desktop and a phone (/tmp/hint-*.png)."""

from __future__ import annotations

import json

import pytest

from .pages import Person
from .test_accessibility import WCAG22, axe, summary

IN_PLAY = (
    "window.atout.view.state.deal && window.atout.view.state.deal.phase === 'play'"
    " && window.atout.view.isMyTurn() && !window.atout.view.legal('poignee_from').length"
)  # a card, not a poignée


def practice_table(person: Person, players: int = 4, words: bool = True) -> str:
    """A practice table of robots, its game started (``words``: by the English buttons, else by the page's own
    calls)."""
    page = person.page
    page.check(f"#create-form input[name=players][value='{players}']")
    page.fill("#opt-deals", "1")
    page.select_option("#opt-turn_seconds", json.dumps(0))
    page.set_checked("#opt-competitive", False)
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".table-page .seat")
    if words:
        person.fill_and_start()
    else:
        page.evaluate("() => window.atout.view.fillRobots()")
        page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
        page.evaluate("() => window.atout.view.send({ type: 'start' })")
        page.wait_for_function("() => window.atout.view.state.status === 'playing'")
    return page.eval_on_selector(".table-page", "el => el.dataset.table")


def to_a_card_of_mine(person: Person) -> None:
    """Play on (as a quick player does) until this person is to play a card."""
    page = person.page
    for _ in range(200):
        page.wait_for_function(
            f"() => window.atout.view.state && (({IN_PLAY}) || window.atout.view.isMyTurn()"
            " || window.atout.view.state.game?.over)"
        )
        if page.evaluate(f"() => {IN_PLAY}"):
            return
        person.step(unless=IN_PLAY)
    raise AssertionError("never a card to play")


@pytest.mark.parametrize(
    ("size", "viewport"), [("desktop", {"width": 1280, "height": 800}), ("phone", {"width": 390, "height": 844})]
)
def test_the_hint_names_the_card_highlights_it_and_says_why(browser, site, size, viewport):
    ann = Person(browser, site.url, "Ann", viewport=viewport).arrive()
    page = ann.page
    practice_table(ann)
    to_a_card_of_mine(ann)
    seq = ann.seq()
    page.click(".table-bar .hint-button")
    page.wait_for_selector(".hint-box .hint-choice")
    answer = next(f for f in reversed(ann.frames) if f.get("type") == "hint")
    assert answer["seq"] == seq and "play" in answer["action"]
    text = page.inner_text(".hint-box")
    card = page.evaluate(
        "(code) => window.atout.view.hintModule && document.querySelector("
        "`.hand-cards .card[data-card='${code}']`).classList.contains('hinted')",
        answer["action"]["play"],
    )
    assert card, "the hinted card is not highlighted in the hand"
    assert page.locator(".hand-cards .card.hinted").count() == 1
    assert "The expert would play" in text
    # every reason the server gave, in words, its figures in them
    whys = page.locator(".hint-box .hint-why")
    assert whys.count() == len(answer["reasons"]) >= 1
    first = answer["reasons"][0]
    if first["kind"] in ("gain", "noise"):
        assert f"{first['worlds']} deals searched" in text and f"{abs(first['gain']):g}" in text
    assert page.get_attribute(".hint-box", "role") == "status"  # a live region: said to a screen reader
    box = page.locator(".hint-box").bounding_box()
    assert box and box["width"] <= viewport["width"] and box["x"] >= 0
    page.screenshot(path=f"/tmp/hint-{size}.png")
    found: dict = {}
    axe(page, f"hint-{size}", found, WCAG22)  # WCAG 2.2 AA over the table with its hint (no card face left out here)
    hinted = {where: [v for v in found[where] if any(".hint" in n["target"] for n in v["nodes"])] for where in found}
    assert not any(hinted.values()), summary(hinted)
    # the hint is for this turn: once the card is played it is gone
    page.click(f".hand-cards .card[data-card='{answer['action']['play']}']")
    page.wait_for_function(f"() => window.atout.view.seq > {seq}")
    page.wait_for_function("() => !document.querySelector('.hint-box').textContent")
    assert page.locator(".hand-cards .card.hinted").count() == 0
    ann.close()


def test_the_key_i_asks_for_a_hint_and_no_hint_at_a_competitive_table(browser, site):
    ann = Person(browser, site.url, "Ann").arrive()
    page = ann.page
    practice_table(ann)
    to_a_card_of_mine(ann)
    page.locator(".hand-cards .card.playable").first.focus()
    page.keyboard.press("i")
    page.wait_for_selector(".hint-box .hint-choice")
    assert "The expert would" in page.inner_text(".hint-box")
    page.click(".hint-box .hint-close")
    page.wait_for_function("() => !document.querySelector('.hint-box').textContent")
    page.goto(f"{site.url}/#/")
    page.wait_for_selector("#create-form")
    ann.create(4)  # competitive by default: no Hint button
    ann.fill_and_start()
    page.wait_for_selector(".table-bar .guide")
    assert page.locator(".table-bar .hint-button").count() == 0
    ann.close()


def test_the_hint_in_french_and_spanish(browser, site):
    for lang, name, would in (("fr-FR", "Eva", "L'expert choisirait de"), ("es-ES", "Ena", "El experto elegiría")):
        person = Person(browser, site.url, name, lang=lang).arrive()
        page = person.page
        practice_table(person, words=False)
        page.wait_for_function("() => window.atout.view.isMyTurn()")
        page.click(".table-bar .hint-button")
        page.wait_for_selector(".hint-box .hint-choice")
        text = page.inner_text(".hint-box")
        assert would in text and "deals searched" not in text and "The expert" not in text, text
        person.close()


def test_the_page_words_every_kind_of_reason_the_server_gives():
    """reasons.js has a sentence for each kind bots/reasons.py makes (a kind without one would show nothing)."""
    import re
    from pathlib import Path

    from atout.bots.reasons import ReasonKind

    source = (Path(__file__).resolve().parents[2] / "src/atout/web/static/reasons.js").read_text()
    kinds = re.search(r"export const KINDS = \[([^\]]*)\]", source)
    assert kinds and set(re.findall(r'"(\w+)"', kinds.group(1))) == {str(k) for k in ReasonKind}
