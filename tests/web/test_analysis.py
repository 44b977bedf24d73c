"""The browser's analysis module (static/analysis.js) against a real ``atout serve``: a person who played a
game asks for the analysis of their play, sees its progress and then their decisions with the marks the
server gave, and a review whose entries carry their place in the record gets the marks beside them."""

from __future__ import annotations

import os

from playwright.sync_api import expect

from atout.bots.accuracy import record_roles, seat_accuracy
from atout.bots.analysis import analyse

from .pages import Person
from .stored import play_and_store
from .test_lobby import PHONE
from .test_play import play_until_over

SHOTS = os.environ.get("ATOUT_SHOTS", "/tmp/atout-analysis")

SETUP = """async ([game, count]) => {
  const m = await import('/static/analysis.js');
  const review = document.createElement('ol');
  review.id = 'test-review';
  for (let i = 0; i < count; i++) {
    const li = document.createElement('li');
    li.dataset.actionIndex = String(i);
    li.textContent = `action ${i}`;
    review.append(li);
  }
  const panel = m.analysisPanel({ game, deal: 0, onDone: (a) => {
    window.__analysis = a;
    window.__marked = m.annotateReview(review, a);
    window.__words = a.decisions.map((d) => [d.index, m.actionWords(d.best)]);
  } });
  document.querySelector('.felt-panel').append(panel, review);
  window.__progress = [];
  const bar = panel.querySelector('progress');
  new MutationObserver(() => window.__progress.push([Number(bar.value), Number(bar.max)]))
    .observe(bar, { attributes: true, attributeFilter: ['value', 'max'] });
  return panel.querySelector('.analysis-ask').textContent; // its words came with the module (i18n.js's partWords)
}"""


def test_a_player_asks_for_the_analysis_and_sees_the_marks(browser, analysing_site):
    alice = Person(browser, analysing_site.url, "Alice").arrive()
    alice.create(4, deals=1)
    alice.fill_and_start()
    play_until_over([alice])
    state = alice.state()
    game, seat = state["game"]["id"], state["you"]
    page = alice.page
    record = page.evaluate("async (g) => (await (await fetch('/api/games/' + g)).json()).records[0]", game)
    asked = page.evaluate(SETUP, [game, len(record["actions"])])
    assert asked == "Analyse my play", asked  # the words, not their key
    page.click(".analysis-ask")
    page.wait_for_function("() => window.__analysis !== undefined")
    analysis = page.evaluate("() => window.__analysis")
    accuracy = analysis.pop("accuracy")  # the seat's accuracy comes with it (below: the review's test)
    assert (
        analysis == analyse(record, [seat], "analysis", factor=1).to_json()
    )  # atout analyse --seat (the test site: 1× worlds)
    assert accuracy == seat_accuracy(analysis, seat, record_roles(record)[seat]).to_json()
    decisions = analysis["decisions"]
    rows = page.locator(".analysis-list li")
    assert rows.count() == len(decisions) > 0
    # each decision's better choice in words, in the decisions' order: a poignée and the card it goes with
    # are two decisions at one index of the record, so an index alone does not name one
    words = [word for _, word in page.evaluate("() => window.__words")]
    for d, row, better in zip(decisions, rows.all(), words, strict=True):
        text = row.inner_text()
        if d["mark"]:
            assert row.locator(f".mark-{d['mark']}").count() == 1
        else:
            assert row.locator(".mark").count() == 0
        if d["mark"] or d["loss"] >= 1:
            assert f"better: {better} (+" in text
        else:
            assert "better" not in text
    # The review's entries: marks beside the decisions that lost something, nowhere else.
    losing = {d["index"] for d in decisions if d["mark"] or d["loss"] >= 1}
    marked = set(
        page.eval_on_selector_all(
            "#test-review li:has(.analysis-mark)", "els => els.map((e) => Number(e.dataset.actionIndex))"
        )
    )
    assert marked == losing and page.evaluate("() => window.__marked") == len(losing)
    assert all(record["actions"][i]["seat"] == seat for i in marked)
    # the deal's result at the table: what the seat's choices cost, above its decisions
    line = page.locator(".felt-panel .analysis-accuracy")
    assert line.get_attribute("data-phase") == (accuracy["main"] or "")
    assert line.inner_text().startswith("This deal: ")
    summary = page.inner_text(".analysis-summary")
    assert f"{analysis['totals'][0]['decisions']} decisions" in summary
    assert "points" not in summary  # the points lost are said once, by the accuracy line (one figure, not two)
    # Progress, when a poll saw it running: it only went forward, towards the number of decisions.
    progress = page.evaluate("() => window.__progress")
    done = [v for v, _ in progress]
    assert done == sorted(done) and all(v <= top for v, top in progress)
    assert not alice.policy_violations() and not [f for f in alice.frames if f.get("type") == "pageerror"]
    alice.close()


PHASE_WORDS = {
    "bid": "the bidding",
    "ecart": "the écart",
    "taker": "the play as taker",
    "partner": "the play as the taker's partner",
    "defence": "the play in defence",
}


def _figure(points: float) -> str:
    """A loss as the page writes it: the true minus sign, a tenth at most (12.0 is "−12")."""
    return "\u2212" + f"{points:.1f}".removesuffix(".0")


def test_a_player_asks_for_the_analysis_in_the_review_and_sees_what_the_deal_cost_them(browser, analysing_site):
    """A stored deal of a person's (played at random: choices that cost), its review page: the person asks for
    the analysis, and sees what their choices cost against the expert's and the phase that cost most, the
    figures the server computes from ``atout analyse`` (bots/accuracy.py)."""
    ines = Person(browser, analysing_site.url, "Ines").arrive()
    page = ines.page
    page.wait_for_function("() => window.atout.me && window.atout.me.id")
    me = page.evaluate("() => window.atout.me.id")
    db = f"sqlite:///{analysing_site.tmp_path / 'web.db'}"
    for seed in range(10):  # a deal with a taker, whose analysis finds a choice of Ines's that cost something
        game = play_and_store(db, [(me, "Ines")], deals=1, seed=seed)
        records = page.evaluate("async (g) => (await (await fetch('/api/games/' + g)).json()).records", game)
        record = records[-1]  # the deal played: a void one (every seat passing, a petit sec) may come before it
        roles = record_roles(record)
        expected = seat_accuracy(analyse(record, [0], "analysis", factor=1).to_json(), 0, roles[0])
        if roles[0] is not None and expected.main is not None:
            break
    assert expected.main is not None
    page.goto(f"{analysing_site.url}/#/g/{game}/{len(records)}")  # its review: the records' order, voids counted
    page.click(".review-analysis .analysis-ask")
    line = page.locator(".review-analysis .analysis-accuracy")
    expect(line).to_have_attribute("data-phase", expected.main)
    figure = _figure(expected.total)
    expect(line.locator(".accuracy-main")).to_have_text(
        f"This deal: {figure} points against the expert, mostly {PHASE_WORDS[expected.main]}"
    )
    costly = [p for p, v in expected.phases.items() if v > 0]
    assert page.locator(".analysis-accuracy .accuracy-part").count() == (len(costly) if len(costly) > 1 else 0)
    # asked again (the page reloaded): the stored analysis answers at once, its accuracy with it
    page.reload()
    expect(page.locator(".review-analysis .analysis-accuracy .accuracy-main")).to_contain_text(figure)
    page.screenshot(path=f"{SHOTS}-accuracy-desktop.png", full_page=False)
    page.set_viewport_size(PHONE)
    page.locator(".review-analysis .analysis-accuracy").scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}-accuracy-phone.png")
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    assert not ines.policy_violations() and not [f for f in ines.frames if f.get("type") == "pageerror"]
    ines.close()
