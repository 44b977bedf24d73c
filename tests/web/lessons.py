"""Driving the guided lessons' page (#/learn) as a learner does: each answer given with the page's own controls
(a card of the hand, a choice, a bid, a king, an écart or a poignée chosen card by card), and the page's answer
waited for. What to answer comes from the lessons themselves (``tests/learn/walker.py``)."""

from __future__ import annotations

from playwright.sync_api import Page

from atout.learn import BY_ID, LESSONS, Answer
from atout.learn.wire import answer_to_json
from learn.walker import course_answers

SCRIPTS = {lesson.id: [(answer_to_json(w), answer_to_json(r)) for w, r in course_answers(lesson)] for lesson in LESSONS}
"""(a wrong answer, the right one) at each step of each lesson, as the wire carries them."""
RIGHTS = {lesson_id: [right for _, right in steps] for lesson_id, steps in SCRIPTS.items()}

STEP = "() => document.querySelector('.lesson-page')?.dataset.step"
KIND = "() => document.querySelector('.lesson-page')?.dataset.kind"


def lesson_state(page: Page) -> dict:
    """Where the lesson page stands: its step, whether it is done, the question's kind, the verdict shown."""
    return page.evaluate("""() => { const p = document.querySelector('.lesson-page');
      const v = p && p.querySelector('.verdict');
      return p && { step: Number(p.dataset.step), done: p.dataset.done === 'true', kind: p.dataset.kind,
                    verdict: v ? v.dataset.verdict : null, said: v ? v.textContent : null }; }""")


def begin(page: Page) -> None:
    """The lesson's intro read: Start (a lesson resumed has no intro to pass). The lesson is the address's: the
    page of the lesson open before it (a hash change) may still be shown for a moment, and must not be taken for it."""
    lesson = page.url.split("#/learn/", 1)[1].split("/")[0]
    here = f".lesson-page[data-lesson='{lesson}'] .lesson-panel"
    page.wait_for_selector(f"{here} :is([data-begin], .ask, .lesson-end)")
    start = page.locator(f"{here} [data-begin]")
    if start.count():
        start.click()
    page.wait_for_selector(f"{here} :is(.ask, .lesson-end)")


def give(page: Page, answer: dict) -> None:
    """Give ``answer`` with the page's controls, and wait until the page has shown what the lesson made of it."""
    before = lesson_state(page)
    page.evaluate("() => { window.__answered = document.querySelector('.lesson-panel').innerHTML; }")
    kind = before["kind"]
    if "card" in answer:
        selector = (
            f".calls button[data-call='{answer['card']}']"
            if kind == "call"
            else f".hand-cards button[data-card='{answer['card']}']"
        )
        page.locator(selector).click()
    elif "bid" in answer:
        page.locator(f".bids button[data-bid='{answer['bid']}']").click()
    elif "choice" in answer:
        page.locator(f".choices button[data-choice='{answer['choice']}']").click()
    else:
        wanted = set(answer["cards"])
        for code in page.eval_on_selector_all(".hand-cards button.card", "els => els.map((e) => e.dataset.card)"):
            card = page.locator(f".hand-cards button[data-card='{code}']")
            if (card.get_attribute("aria-pressed") == "true") != (code in wanted):
                card.click()
        confirm = "none" if not wanted and kind == "poignee" else kind
        page.locator(f"[data-confirm='{confirm}']").click()
    page.wait_for_function(
        "() => !document.querySelector('.lesson-page.busy') && "
        "document.querySelector('.lesson-panel').innerHTML !== window.__answered"
    )


def play_lesson(page: Page, lesson_id: str, wrong_first: bool = True) -> list[dict]:
    """Play the open lesson to its end: at each step (from where it stands) a wrong answer, then the right one;
    what the page showed after each."""
    begin(page)
    seen = []
    steps = SCRIPTS[lesson_id]
    while not (state := lesson_state(page))["done"]:
        wrong, right = steps[state["step"]]
        if wrong_first:
            give(page, wrong)
            refused = lesson_state(page)
            assert refused["verdict"] == "wrong" and refused["step"] == state["step"], (lesson_id, wrong, refused)
            seen.append(refused)
        give(page, right)
        taken = lesson_state(page)
        assert taken["verdict"] == "right" and (taken["step"] == state["step"] + 1 or taken["done"]), (
            lesson_id,
            right,
            taken,
        )
        seen.append(taken)
    return seen


def first_lesson() -> str:
    return LESSONS[0].id


def answer_json(answer: Answer) -> dict:
    return answer_to_json(answer)


__all__ = ["BY_ID", "RIGHTS", "SCRIPTS", "begin", "give", "lesson_state", "play_lesson"]
