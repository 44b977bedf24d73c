"""Walking the course as a test does: at each step of each lesson, the answers a learner could give, how the
lesson judges each, and one wrong and one right answer to give (shared by the package's, the terminal's and
the browser's tests)."""

from __future__ import annotations

from dataclasses import dataclass

from atout.engine.cards import display_order, suit_card
from atout.engine.kinds import Contract
from atout.learn import LEARNER, Answer, Ask, Lesson, LessonRun, Verdict
from atout.learn.checks import mask
from atout.learn.run import judge

CHOSEN = {  # the écarts and poignées tried (a set of cards has too many choices to try them all)
    ("ecart", "lay"): [
        "9D 6D 3D NC 5C 1S",
        "9D 6D NC 5C 1S 2H",
        "9D 6D 3D 5C 1S 2H",
        "9D 6D 3D NC 1S 2H",
        "9D 6D 3D NC 5C KS",
        "9D 6D 3D NC 5C T2",
        "9D 6D 3D NC 5C EX",
        "9D 6D 3D NC 5C",
    ],
    ("bonuses", "show"): [
        "T21 T20 T19 T18 T17 T16 T15 T12 T8 T3",
        "",
        "T21 T20 T19 T18 T17 T16 T15 T12 T8 T1",
        "T21 T20 T19 T18 T17 T16 T15 T12 T8 EX",
        "T21 T20 T19 T18 T17 T16 T15 T12 T8 T3 T1",
    ],
}


def candidates(run: LessonRun) -> list[Answer]:
    """The answers tried at the step asked now."""
    step, deal = run.current, run.deal
    assert step is not None
    if step.ask in (Ask.PICK, Ask.PLAY):
        return [Answer(card=c) for c in display_order(deal.hands[LEARNER])]
    if step.ask is Ask.CALL:
        return [Answer(card=c) for c in [*deal.callable_cards(), suit_card(13, 0)]]
    if step.ask is Ask.BID:
        return [Answer(bid=c.value) for c in Contract]
    if step.ask is Ask.CHOOSE:
        assert step.options is not None
        return [Answer(choice=o) for o in step.options(deal)]
    return [Answer(cards=mask(text)) for text in CHOSEN[run.lesson.id, step.name]]


@dataclass
class Judged:
    step: str
    answers: list[tuple[Answer, Verdict]]

    @property
    def rights(self) -> list[Answer]:
        return [a for a, v in self.answers if v.right]

    @property
    def wrongs(self) -> list[tuple[Answer, Verdict]]:
        return [(a, v) for a, v in self.answers if not v.right]

    def wrong(self) -> Answer:
        """A wrong answer to give: one the lesson itself explains when there is one (else the engine's refusal)."""
        own = [a for a, v in self.wrongs if not v.key.startswith("rule.")]
        return (own or [a for a, _ in self.wrongs])[0]


def walk(lesson: Lesson, choose=lambda judged: judged.rights[0]) -> tuple[LessonRun, list[Judged]]:
    """The lesson played to its end, each step's candidates judged, the answer ``choose`` picks given."""
    run = LessonRun(lesson)
    seen = []
    while not run.done:
        step = run.current
        assert step is not None
        judged = Judged(step.name, [(a, judge(lesson, step, run.deal, a)) for a in candidates(run)])
        seen.append(judged)
        assert judged.rights, f"{lesson.id}.{step.name}: no right answer among those tried"
        assert run.answer(choose(judged)).right
    return run, seen


def course_answers(lesson: Lesson) -> list[tuple[Answer, Answer]]:
    """(a wrong answer, the right one) at each step: what a test's learner gives."""
    _, seen = walk(lesson)
    return [(judged.wrong(), judged.rights[0]) for judged in seen]


__all__ = ["CHOSEN", "Judged", "candidates", "course_answers", "walk"]
