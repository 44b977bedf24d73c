"""A finished deal reviewed at its table, trick by trick, by a player and by someone who watched; never
the deal still being played; the whole commitment one click to copy; an analysis's marks shown where the
review shows each decision."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from atout.engine.fairness import normalize_commitment

from .pages import Person
from .test_lobby import PHONE
from .test_table import advance_until

pytestmark = pytest.mark.slow

DEAL_OVER = (
    "() => { const s = window.atout.view.state; return Boolean(s.deal && s.deal.result) || s.game.sheet.length > 0; }"
)


def test_the_bar_copies_the_whole_commitment(browser, shared_site):
    ada = Person(browser, shared_site.url, "Ada").arrive()
    ada.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=shared_site.url)
    ada.create(3, deals=1)
    ada.fill_and_start()
    page = ada.page
    page.wait_for_function("() => window.atout.view.state.commitment")
    commitment = ada.state()["commitment"]
    button = page.locator(".table-bar button.commitment")
    assert button.inner_text().startswith("Commitment ")
    button.click()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == commitment and normalize_commitment(copied, "copied") == commitment  # what verify takes
    ada.close()


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_a_finished_deal_is_reviewed_trick_by_trick_and_the_deal_going_on_never(browser, shared_site, viewport):
    name = "Rita" if viewport is None else "Rico"
    rita = Person(browser, shared_site.url, name, viewport=viewport).arrive()
    table = rita.create(4, deals=2)
    rita.fill_and_start()
    watcher = Person(browser, shared_site.url, f"{name}Watch", viewport=viewport).arrive()
    watcher.page.goto(f"{shared_site.url}/#/t/{table}")
    watcher.page.wait_for_selector(".felt .seat")

    # the deal going on: no review, not even asked for by hand (the deal going on is the first unless a petit
    # sec voided that one as it was dealt: then it is over, on the sheet, and the one going on is the second)
    refused = rita.page.evaluate(f"""() => window.atout.net.request({{type: 'review', table: '{table}',
        deal: window.atout.view.state.game.sheet.length + 1}}).then(() => 'given', (err) => err.code)""")
    assert refused == "no_deal"
    if not rita.state()["game"]["sheet"]:  # (a voided first deal is over: its result may offer its review)
        assert rita.page.locator(".review-open").count() == 0

    advance_until(rita, DEAL_OVER, limit=120)
    page = watcher.page  # someone who watched reviews it
    page.wait_for_function("() => window.atout.view.state.game.sheet.length > 0")
    page.click(".sheet-panel button[data-review='1']")
    review = page.wait_for_selector("dialog.review-dialog .review-page[data-deal='1']")
    assert review.is_visible()
    void = page.evaluate("() => window.atout.review.r.result.void")
    hands = page.eval_on_selector_all("dialog .review-hands li .chips", "els => els.map((e) => e.children.length)")
    dog = page.eval_on_selector_all("dialog .aside .chips", "els => els.length ? els[0].children.length : 0")
    assert sum(hands) + dog == 78  # every hand, as dealt: the deal is over
    if not void:
        page.click("dialog .step-nav button[data-step=next]")
        expect(page.locator("dialog .step-title")).to_have_text("Trick 1 of 18")
        plays = page.locator("dialog .review-trick .plays li")
        assert plays.count() == 4
        winner = page.locator("dialog .review-trick .plays li.winner")
        assert winner.count() == 1 and "won the trick" in winner.inner_text()
        names = [plays.nth(i).locator(".who").inner_text() for i in range(4)]
        assert name in names and any(n.startswith("Robot") for n in names)
        played = page.eval_on_selector_all("dialog .review-hands .chip.played", "els => els.map((e) => e.dataset.card)")
        shown = page.eval_on_selector_all("dialog .review-trick .card", "els => els.map((e) => e.dataset.card)")
        assert sorted(played) == sorted(shown)  # each card of the trick, marked in the hand it came from
        page.keyboard.press("End")
        expect(page.locator("dialog .step-title")).to_have_text("The result")
        assert page.locator("dialog .result .scores li").count() == 4

        # the analysis hook: marks on decisions show beside them, and in a list
        first = page.evaluate("() => window.atout.review.r.tricks[0].plays[0]")
        page.evaluate(
            "(d) => window.atout.review.setMarks([{...d, play: d.card, mark: {better: 'T21', gain: 12}}])", first
        )
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        mark = page.locator(f"dialog .review-trick li[data-index='{first['index']}'] .mark")
        expect(mark).to_have_text("better: trump 21 (+12)")
        assert "better: trump 21 (+12)" in page.inner_text("dialog .analysis")
    commitment = page.inner_text("dialog .commitment-full")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    page.click("dialog button.close")
    expect(page.locator("dialog.review-dialog")).to_have_count(0)
    if viewport is not None:
        assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    if rita.state()["status"] == "playing" and not rita.game_over():
        going = len(rita.state()["game"]["sheet"]) + 1
        refused = rita.page.evaluate(f"""() => window.atout.net
          .request({{type: 'review', table: '{table}', deal: {going}}})
          .then(() => 'given', (err) => err.code)""")
        assert refused == "no_deal"  # the next deal, being played
    rita.close()
    watcher.close()


def _stored_analysis(record: dict, seat: int) -> tuple[dict, dict[int, str]]:
    """An analysis of ``seat`` in the form the site stores (``Analysis.to_json`` of real decision points),
    its figures chosen (the search itself is tested in tests/bots and test_analysis.py; this test is about
    the page): the seat's first card a blunder whose better card is its last one, its second an
    inaccuracy, the others without a mark. Returns it and the mark at each marked action's index."""
    from atout.bots.analysis import Analysis, Decision, DecisionKind, Mark, decision_points

    points = list(decision_points(record, [seat]))
    cards = [p for p in points if p.kind == DecisionKind.CARD]
    last = cards[-1].taken
    decisions, marks = [], {}
    for p in points:
        mark = Mark.BLUNDER if p is cards[0] else Mark.INACCURACY if p is cards[1] else None
        loss = 42.0 if mark == Mark.BLUNDER else 6.0 if mark else 0.0
        best = last if p is cards[0] else p.taken
        decisions.append(
            Decision(
                seat,
                p.index,
                p.kind,
                p.taken,
                best,
                -loss,
                0.0,
                loss,
                (loss - 1, loss + 1),
                96,
                96.0,
                ((best, 0.0),),
                mark,
                p.trick,
            )
        )
        if mark:
            marks[p.index] = str(mark)
    return Analysis("analysis", (seat,), decisions, {seat: 0}).to_json(), marks


def test_the_review_page_shows_the_analysis_marks_beside_ones_own_actions(browser, shared_site):
    """A person's stored deal, its analysis made: the review page shows each mark and "better: X (+N)" beside
    the matching action (by its index in the record), and lists every decision."""
    from atout.bots.analysis import VERSION
    from atout.server.store.db import analyses

    from .stored import insert, play_and_store

    ines = Person(browser, shared_site.url, "Ines").arrive()
    page = ines.page
    page.wait_for_function("() => window.atout.me && window.atout.me.id")
    me = page.evaluate("() => window.atout.me.id")
    db = f"sqlite:///{shared_site.tmp_path / 'web.db'}"
    for seed in range(10):  # a deal that is played (every seat passing, or a petit sec, voids one: no cards)
        game = play_and_store(db, [(me, "Ines")], deals=1, seed=seed)
        record = page.evaluate("async (g) => (await (await fetch('/api/games/' + g)).json()).records.at(-1)", game)
        if sum(1 for a in record["actions"] if a["seat"] == 0 and "play" in a) >= 2:
            break
    analysis, marks = _stored_analysis(record, 0)
    deal = page.evaluate("async (g) => (await (await fetch('/api/games/' + g)).json()).records.length", game)
    insert(
        db,
        analyses,
        [
            {
                "game_id": game,
                "deal": deal - 1,
                "seat": 0,
                "version": VERSION,
                "seed": "analysis",
                "created_at": 0.0,
                "data": analysis,
            }
        ],
    )
    page.goto(f"{shared_site.url}/#/g/{game}/{deal}")
    page.wait_for_selector(".review-analysis .analysis-list li")
    assert page.locator(".review-analysis .analysis-list li").count() == len(analysis["decisions"])
    page.keyboard.press("ArrowRight")  # trick 1
    first = min(marks)
    blunder = page.locator(f".review-trick li[data-action-index='{first}'] .analysis-mark")
    expect(blunder).to_have_count(1)
    last = next(d for d in analysis["decisions"] if d["index"] == first)["best"]["play"]
    words = page.evaluate("async (c) => (await import('/static/cards.js')).word(c)", last)
    expect(blunder).to_contain_text("blunder")
    expect(blunder).to_contain_text(f"better: play {words} (+42)")
    assert page.locator(".review-trick .analysis-mark").count() == 1  # the others' cards, and unmarked ones: none
    page.keyboard.press("ArrowRight")  # trick 2: the inaccuracy
    second = sorted(marks)[1]
    expect(page.locator(f".review-trick li[data-action-index='{second}'] .mark-inaccuracy")).to_have_count(1)
    assert not [f for f in ines.frames if f.get("type") == "pageerror"]
    ines.close()


def test_a_review_asks_for_an_analysis_not_made_yet_with_no_error(browser, shared_site):
    """One's own deal, its analysis never asked for: the review looks for it and offers the button, and the
    browser's console says nothing (the look was answered 404, an error in every console)."""
    from .stored import play_and_store

    jorge = Person(browser, shared_site.url, "Jorge").arrive()
    page = jorge.page
    page.wait_for_function("() => window.atout.me && window.atout.me.id")
    me = page.evaluate("() => window.atout.me.id")
    db = f"sqlite:///{shared_site.tmp_path / 'web.db'}"
    game = play_and_store(db, [(me, "Jorge")], deals=1, seed=3)
    deal = page.evaluate("async (g) => (await (await fetch('/api/games/' + g)).json()).records.length", game)
    with page.expect_response(lambda r: r.url.split("?")[0].endswith("/api/analysis")) as looked:
        page.goto(f"{shared_site.url}/#/g/{game}/{deal}")
    assert looked.value.status == 200 and looked.value.json()["status"] == "not_requested"
    page.wait_for_selector(".review-analysis .analysis-ask")
    assert jorge.console_errors == [], jorge.console_errors
    jorge.close()
