"""``atout learn`` driven headless with Textual's pilot, as a learner plays it: every lesson with a wrong answer
then the right one at each step, by keys only (the arrows and Enter in the hand, the number keys for the
buttons); the progress kept in a file and a lesson resumed where it was left; the lessons in Spanish."""

from __future__ import annotations

import json

from textual.widgets import Button, Static

from atout.engine.cards import parse_card
from atout.learn import BY_ID, LESSONS, Answer, Ask
from atout.learn.wire import answer_to_json
from atout.tui.learn import CourseScreen, LearnApp
from atout.tui.lesson import LessonScreen
from atout.tui.widgets import HandView
from atout.tui.words import Language, set_language
from learn.walker import course_answers

from .helpers import choose_card, shown, until

SIZE = (80, 24)  # the smallest terminal the game supports: its drawing is the cheapest too


def panel(app: LearnApp) -> str:
    return str(app.screen.query_one("#lesson", Static).render())


async def press_button(pilot, app: LearnApp, name: str) -> None:
    """The numbered button called ``name``, by its number key."""
    names = [b.name for b in app.screen.query("#actions Button").results(Button)]
    await pilot.press(str(names.index(name) + 1))


async def give(pilot, app: LearnApp, answer: Answer, arrows: bool = True) -> None:
    """An answer with the keys a person presses: a card chosen in the hand (walked to with the arrows, or the
    cursor put on it), a button's number."""
    screen = app.screen
    assert isinstance(screen, LessonScreen)
    step = screen.run.current
    assert step is not None
    hand = screen.query_one(HandView)
    if step.ask in (Ask.PICK, Ask.PLAY):
        assert answer.card is not None
        await choose_card(pilot, hand, answer.card, arrows=arrows)
    elif step.ask is Ask.CALL:
        await press_button(pilot, app, f"call:{answer.card}")
    elif step.ask is Ask.BID:
        await press_button(pilot, app, f"bid:{answer.bid}")
    elif step.ask is Ask.CHOOSE:
        await press_button(pilot, app, f"choice:{answer.choice}")
    else:
        assert answer.cards is not None
        if screen.chosen:
            await press_button(pilot, app, "clear") if step.ask is Ask.ECART else None
        for card in list(hand.cards):
            if bool(answer.cards >> card & 1) != bool(screen.chosen >> card & 1):
                await choose_card(pilot, hand, card)
        await press_button(pilot, app, "cards" if answer.cards else "none")
    await pilot.pause()


COVERED = ("cards", "bidding", "ecart", "bonuses", "five", "scoring")
"""Lessons that ask every kind of step (a card found, a count, a card played, a bid, an écart, a poignée, a king
called) and meet each moment (a trick's end, the deal's end with an empty hand): the terminal's every path. Every
lesson's steps are walked in the package's tests (tests/learn) and through the page (tests/web/test_learn.py)."""


async def test_lessons_in_the_terminal_with_a_wrong_then_a_right_answer_at_each_step(tmp_path):
    set_language(Language.EN)
    app = LearnApp(tmp_path / "lessons.json")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, CourseScreen), "the course never showed")
        assert "0 of 11 lessons done" in shown(app)
        for lesson in (x for x in LESSONS if x.id in COVERED):
            index = LESSONS.index(lesson)
            if index < 9:
                await pilot.press(str(index + 1))  # the course's number keys open lessons 1 to 9
            else:  # the others by their button: Enter on it
                app.screen.query_one(f"#lesson-{lesson.id}", Button).focus()
                await pilot.press("enter")
            await until(
                pilot,
                lambda lesson=lesson: isinstance(app.screen, LessonScreen) and app.screen.lesson is lesson,
                f"lesson {lesson.id} never opened",
            )
            screen = app.screen
            assert "Read the lesson" in shown(app)
            await pilot.press("enter")  # the intro read: the lesson begins (Enter chooses no card)
            await pilot.pause()
            assert screen.begun and screen.run.step == 0, (lesson.id, app.focused, screen.begun, screen.run.step)
            for wrong, right in course_answers(lesson):
                step = screen.run.step
                if screen.run.current is not None and screen.run.current.ask is Ask.ECART:  # a king: refused as chosen
                    await choose_card(pilot, screen.query_one(HandView), parse_card("KS"))
                    await pilot.pause()
                    assert screen.chosen == 0 and "K♠: a king never goes to the écart" in panel(app)
                await give(pilot, app, wrong, arrows=index == 0)  # the arrows in the first lesson: then faster
                assert screen.verdict is not None and not screen.verdict.right and screen.run.step == step
                assert "✗ Not this one." in panel(app) and "Try again." in panel(app)
                await give(pilot, app, right, arrows=index == 0)
                assert screen.verdict is not None and screen.verdict.right, (lesson.id, step, screen.verdict)
                assert "✓" in panel(app)
            assert screen.run.done and "Lesson finished" in panel(app)
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, CourseScreen), "back to the course")
        assert f"{len(COVERED)} of 11 lessons done" in shown(app)
    kept = json.loads((tmp_path / "lessons.json").read_text())["lessons"]
    assert sorted(k for k, v in kept.items() if v["done"]) == sorted(COVERED)
    assert all(
        kept[lesson]["answers"] == [answer_to_json(r) for _, r in course_answers(BY_ID[lesson])] for lesson in COVERED
    )


async def test_the_progress_is_kept_in_a_file_and_a_lesson_resumes_where_it_was_left(tmp_path):
    set_language(Language.EN)
    path = tmp_path / "atout" / "lessons.json"
    steps = [right for _, right in course_answers(LESSONS[1])]
    app = LearnApp(path, lesson=LESSONS[1].id)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson never opened")
        await pilot.press("enter")
        await pilot.pause()
        await give(pilot, app, steps[0])
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, CourseScreen), "back to the course")
        assert "2. Following suit — step 2 of 3" in shown(app)
    assert json.loads(path.read_text())["lessons"]["follow"] == {"answers": [{"card": "QH"}], "done": False}
    again = LearnApp(path)
    async with again.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(again.screen, CourseScreen), "the course never showed")
        await pilot.press("2")
        await until(pilot, lambda: isinstance(again.screen, LessonScreen), "the lesson never opened")
        screen = again.screen
        assert screen.begun and screen.run.step == 1  # resumed: no intro to pass, the second step asked
        assert "Chloé, who won the trick, leads a spade" in panel(again)
        assert screen.query_one(HandView).hand >> parse_card("QH") & 1 == 0  # the queen is on the table already


async def test_a_lesson_in_spanish_speaks_spanish_words_and_rules(tmp_path):
    set_language(Language.ES)
    try:
        app = LearnApp(tmp_path / "lessons.json", lesson="trumps")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson never opened")
            await pilot.press("enter")
            await pilot.pause()
            await give(pilot, app, Answer(card=parse_card("T4")))  # below the 8: the engine's rule, in Spanish
            said = shown(app)
            assert "Esa no." in said and "tienes un triunfo mayor que el triunfo 8" in said, said
            assert "Lección 3 de 11: Fallar y montar" in said and "Vuelve a intentarlo." in said
            for english in ("Not this one", "Try again", "Lesson 3", "trump 8"):
                assert english not in said
    finally:
        set_language(Language.EN)


def test_atout_learn_refuses_a_lesson_or_a_language_it_does_not_have(capsys):
    from atout.cli.main import main

    assert main(["learn", "--lesson", "chess"]) == 2
    assert "no lesson 'chess'; the lessons are cards, follow, trumps" in capsys.readouterr().err
    assert main(["learn", "--lang", "de"]) == 2
    assert "atout learn: --lang: no 'de' language" in capsys.readouterr().err
    set_language(Language.EN)
