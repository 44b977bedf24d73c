"""``atout learn``: the guided lessons in the terminal (Textual), in the locale's language or ``--lang``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def learn(args: argparse.Namespace) -> int:
    from ..learn import BY_ID
    from ..tui.game import default_save_dir
    from ..tui.learn import LearnApp
    from ..tui.words import _
    from .play import speak

    if not speak(args, "atout learn"):
        return 2
    if args.lesson is not None and args.lesson not in BY_ID:
        print(
            "atout learn: "
            + _("no lesson {lesson!r}; the lessons are {lessons}", lesson=args.lesson, lessons=", ".join(BY_ID)),
            file=sys.stderr,
        )
        return 2
    folder = Path(args.save_dir) if args.save_dir else default_save_dir()
    app = LearnApp(folder / "lessons.json", args.lesson)
    app.run()
    if app.progress.error is None and app.progress.path is not None and app.progress.lessons:
        print(_("Your progress in the lessons is kept in {path}.", path=app.progress.path))
    return 0
