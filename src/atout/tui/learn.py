"""``atout learn``: the guided lessons in the terminal: the course (each lesson, done or where it stands) and a
lesson played (``lesson.py``). The progress is kept in the user's data folder (``lessons.json``, beside the
saved game), in the same form the site keeps a guest's: each lesson's right answers and whether it is done."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Label, Static

from ..learn import LESSONS, LessonRun
from ..learn.texts import paragraphs
from ..learn.wire import BadAnswer, answer_to_json, answers_from_json
from .lesson import LessonScreen, say
from .styling import StyledWhenMounted
from .widgets import Footer
from .words import N_, _


class Progress:
    """The lessons' progress in a JSON file: the furthest run of each lesson, a finished one finished for good."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.lessons: dict[str, dict[str, Any]] = {}
        self.error: str | None = None
        if path is not None and path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self.lessons = {k: v for k, v in data.get("lessons", {}).items() if isinstance(v, dict)}
            except (OSError, ValueError, AttributeError) as err:
                self.error = str(err)  # a broken file: the lessons begin again, and it is overwritten

    def answers(self, lesson_id: str) -> list:
        kept = self.lessons.get(lesson_id, {})
        if kept.get("done"):
            return []
        try:
            return answers_from_json(kept.get("answers", []), 100)
        except BadAnswer:
            return []

    def done(self, lesson_id: str) -> bool:
        return bool(self.lessons.get(lesson_id, {}).get("done"))

    def reached(self, lesson_id: str) -> int:
        return len(self.lessons.get(lesson_id, {}).get("answers", []))

    def keep(self, run: LessonRun) -> None:
        old = self.lessons.get(run.lesson.id, {"answers": [], "done": False})
        answers = [answer_to_json(a) for a in run.answers]
        self.lessons[run.lesson.id] = {
            "answers": answers if len(answers) > len(old.get("answers", [])) else old["answers"],
            "done": bool(old.get("done")) or run.done,
        }
        self.save()

    def save(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"lessons": self.lessons}, indent=1) + "\n", encoding="utf-8")
            tmp.replace(self.path)
            self.error = None
        except OSError as err:
            self.error = err.strerror or str(err)


class CourseScreen(Screen):
    """The course: what tarot is in a few words, and each lesson with where the learner stands."""

    BINDINGS = [
        Binding("q,escape", "app.quit", N_("Quit")),
        *[Binding(str(i), f"open({i})", show=False) for i in range(1, 10)],
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Label(Text(say("course.title"), style="bold reverse"))
            yield Static(Text("\n\n".join(paragraphs(say("course.intro")))), id="intro")
            yield Static(id="progress")
            with Vertical(id="lessons"):
                for i, lesson in enumerate(LESSONS):
                    yield Button(self.label(i), name=lesson.id, compact=True, id=f"lesson-{lesson.id}")
        yield Footer()

    def label(self, i: int) -> str:
        lesson = LESSONS[i]
        progress = self.host.progress
        if progress.done(lesson.id):
            state = "✓ " + _("done")
        elif progress.reached(lesson.id):
            state = _("step {n} of {of}", n=progress.reached(lesson.id) + 1, of=len(lesson.steps))
        else:
            state = ""
        title = f"{i + 1}. {say(f'{lesson.id}.title')}"
        return f"{title} — {state}" if state else title

    @property
    def host(self) -> LearnApp:
        app = self.app
        assert isinstance(app, LearnApp)  # this screen runs in ``atout learn`` only
        return app

    def on_mount(self) -> None:
        self.refresh_course()
        first = next((lesson for lesson in LESSONS if not self.host.progress.done(lesson.id)), LESSONS[0])
        self.query_one(f"#lesson-{first.id}", Button).focus()

    def on_screen_resume(self) -> None:
        self.refresh_course()

    def refresh_course(self) -> None:
        progress = self.host.progress
        done = sum(progress.done(lesson.id) for lesson in LESSONS)
        said = _("{n} of {of} lessons done. Enter opens a lesson; q leaves.", n=done, of=len(LESSONS))
        if progress.error:
            said += " " + _("(The progress could not be kept: {error})", error=progress.error)
        self.query_one("#progress", Static).update(Text(said, style="dim"))
        for i, lesson in enumerate(LESSONS):
            self.query_one(f"#lesson-{lesson.id}", Button).label = self.label(i)

    @on(Button.Pressed)
    def chosen(self, event: Button.Pressed) -> None:
        event.stop()
        index = next(i for i, lesson in enumerate(LESSONS) if lesson.id == event.button.name)
        self.host.open_lesson(index)

    def action_open(self, n: int) -> None:
        if n <= len(LESSONS):
            self.host.open_lesson(n - 1)


class LearnApp(StyledWhenMounted):
    """``atout learn``: the course, then each lesson."""

    TITLE = "Atout"
    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = "atout.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", N_("Quit"), show=False)]

    def __init__(self, progress_path: Path | None = None, lesson: str | None = None) -> None:
        super().__init__()
        self.progress = Progress(progress_path)
        self.first = lesson

    def on_mount(self) -> None:
        self.push_screen(CourseScreen())
        if self.first is not None:
            self.open_lesson(next(i for i, lesson in enumerate(LESSONS) if lesson.id == self.first))

    def open_lesson(self, index: int) -> None:
        lesson = LESSONS[index]
        following = (lambda: self.next_lesson(index)) if index + 1 < len(LESSONS) else None
        screen = LessonScreen(
            lesson, index, len(LESSONS), self.progress.answers(lesson.id), self.progress.keep, following
        )
        if isinstance(self.screen, LessonScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def next_lesson(self, index: int) -> None:
        self.open_lesson(index + 1)


__all__ = ["CourseScreen", "LearnApp", "Progress"]
