"""The browser's analysis module (static/analysis.js) against a real ``atout serve``: a person who played a
game asks for the analysis of their play, sees its progress and then their decisions with the marks the
server gave, and a review whose entries carry their place in the record gets the marks beside them."""

from __future__ import annotations

from atout.bots.analysis import analyse

from .pages import Person
from .test_play import play_until_over

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
  return [Object.keys(m.KEYS.en).sort(), Object.keys(m.KEYS.fr).sort()];
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
    english, french = page.evaluate(SETUP, [game, len(record["actions"])])
    assert english == french
    page.click(".analysis-ask")
    page.wait_for_function("() => window.__analysis !== undefined")
    analysis = page.evaluate("() => window.__analysis")
    assert analysis == analyse(record, [seat], "analysis", factor=1).to_json()  # atout analyse --seat (the test site: 1× worlds)
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
    marked = set(page.eval_on_selector_all("#test-review li:has(.analysis-mark)",
                                           "els => els.map((e) => Number(e.dataset.actionIndex))"))
    assert marked == losing and page.evaluate("() => window.__marked") == len(losing)
    assert all(record["actions"][i]["seat"] == seat for i in marked)
    summary = page.inner_text(".analysis-summary")
    assert f"{analysis['totals'][0]['decisions']} decisions" in summary
    # Progress, when a poll saw it running: it only went forward, towards the number of decisions.
    progress = page.evaluate("() => window.__progress")
    done = [v for v, _ in progress]
    assert done == sorted(done) and all(v <= top for v, top in progress)
    assert not alice.policy_violations() and not [f for f in alice.frames if f.get("type") == "pageerror"]
    alice.close()
