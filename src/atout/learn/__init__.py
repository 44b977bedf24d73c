"""Guided lessons (issue 46): short prepared deals against robots in which the learner is asked one thing at
a time and told why an answer is right or wrong, the engine refereeing every move.

One source for the site and the terminal: the lessons as data (``lessons/``, one module each), the steps'
judging (``run``), their words in three languages (``texts/``), and their JSON (``wire``). The server runs a
lesson's steps over HTTP (``server/http/learn.py``) and keeps an account's progress; ``atout learn`` runs them
in the terminal. Above the engine and the robots, below the server and the terminal (docs/architecture.md).
"""

from __future__ import annotations

from .lesson import LEARNER, NAMES, Answer, Ask, At, Lesson, Step
from .lessons import BY_ID, LESSONS
from .run import LessonError, LessonRun, Verdict, WrongAnswer, replay

__all__ = [
    "BY_ID",
    "LEARNER",
    "LESSONS",
    "NAMES",
    "Answer",
    "Ask",
    "At",
    "Lesson",
    "LessonError",
    "LessonRun",
    "Step",
    "Verdict",
    "WrongAnswer",
    "replay",
]
