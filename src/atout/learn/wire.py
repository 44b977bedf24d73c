"""A lesson on the wire: the learner's answers as JSON, and the lesson as the learner sees it.

An answer is one of ``{"card": "KS"}`` (a card found, played or called), ``{"bid": "garde"}``,
``{"cards": ["9D", ...]}`` (an écart, a poignée; ``[]``: no poignée) or ``{"choice": "41"}``. The state is
built from the learner's observation alone (``engine.view``), as a table's view is: the robots' cards never
enter it. Its ``events`` are what happened since the last right answer, that answer's move first, each
public action and each trick's winner, for the page to tell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import Play
from ..engine.cards import card_code, codes, parse_card
from ..engine.kinds import Contract
from ..engine.observation import EcartShown
from ..engine.record import action_to_json
from ..engine.view import observation_to_json
from .lesson import LEARNER, NAMES, Answer, Ask, Lesson
from .run import LessonRun, Verdict
from .texts import PLACEHOLDER, words

MAX_CARDS = 24
"""The most cards an answer names (a taker's hand with the dog, at three players)."""
MAX_CHOICE = 16


class BadAnswer(ValueError):
    """An answer that is not one (a bad card code, two kinds at once...): the message says which part."""


def answer_from_json(data: object) -> Answer:
    """An answer as the wire carries it; BadAnswer names what is wrong with one that is not."""
    if not isinstance(data, dict) or len(data) != 1:
        raise BadAnswer('an answer is one of {"card": CODE}, {"bid": NAME}, {"cards": [CODES]}, {"choice": TEXT}')
    ((kind, value),) = data.items()
    if kind == "card":
        return Answer(card=_card(value))
    if kind == "bid":
        if value not in [c.value for c in Contract]:
            raise BadAnswer(f"no bid {str(value)[:20]!r}: bids are {', '.join(c.value for c in Contract)}")
        return Answer(bid=value)
    if kind == "cards":
        if not isinstance(value, list) or len(value) > MAX_CARDS:
            raise BadAnswer(f"cards is a list of at most {MAX_CARDS} card codes")
        cards = [_card(v) for v in value]
        mask = sum(1 << c for c in set(cards))
        if len(set(cards)) != len(cards):
            raise BadAnswer("a card is named twice")
        return Answer(cards=mask)
    if kind == "choice":
        if not isinstance(value, str) or not 0 < len(value) <= MAX_CHOICE:
            raise BadAnswer(f"a choice is a text of 1 to {MAX_CHOICE} characters")
        return Answer(choice=value)
    raise BadAnswer(f"no answer {str(kind)[:20]!r}: an answer is a card, a bid, cards or a choice")


def _card(value: object) -> int:
    if not isinstance(value, str) or len(value) > 3:
        raise BadAnswer(f"{str(value)[:20]!r} is no card code (KS, 10H, T21, EX)")
    try:
        return parse_card(value)
    except ValueError:
        raise BadAnswer(f"{value!r} is no card code (KS, 10H, T21, EX)") from None


def answer_to_json(answer: Answer) -> dict[str, Any]:
    if answer.card is not None:
        return {"card": card_code(answer.card)}
    if answer.bid is not None:
        return {"bid": answer.bid}
    if answer.cards is not None:
        return {"cards": codes(answer.cards)}
    return {"choice": answer.choice}


def answers_from_json(data: object, limit: int) -> list[Answer]:
    """A list of answers (at most ``limit``: a lesson's steps)."""
    if not isinstance(data, list) or len(data) > limit:
        raise BadAnswer(f"answers is a list of at most {limit} answers, one a step")
    return [answer_from_json(item) for item in data]


def verdict_json(verdict: Verdict | None) -> dict[str, Any] | None:
    return None if verdict is None else {"right": verdict.right, "key": verdict.key, "args": verdict.args}


def ask_json(run: LessonRun) -> dict[str, Any] | None:
    """What the step asks: its text's key and what it names (no more: the scoring lesson's figures are its
    questions' answers), its kind, and a choice's options."""
    step = run.current
    if step is None:
        return None
    lesson, deal = run.lesson, run.deal
    key = f"{lesson.id}.{step.name}.ask"
    named = set(PLACEHOLDER.findall(words("en")[key]))  # the same in every language (tests/learn/test_texts.py)
    args = {k: v for k, v in (step.args(deal, None) if step.args else {}).items() if k in named}
    out: dict[str, Any] = {"step": step.name, "kind": step.ask.value, "key": key, "args": args}
    if step.ask is Ask.CHOOSE and step.options is not None:
        out["options"] = [
            {"value": o, "key": f"{lesson.id}.{step.name}.{o}" if step.worded else None} for o in step.options(deal)
        ]
    return out


def events_json(run: LessonRun) -> list[dict[str, Any]]:
    """What happened since the last right answer, as the learner saw it: each action, each trick's winner."""
    obs = run.deal.observation(LEARNER)
    active = run.deal.settings.active
    out: list[dict[str, Any]] = []
    plays = 0
    for index, (seat, action) in enumerate(obs.history):
        if isinstance(action, Play):
            plays += 1
        if index < run.mark:
            continue
        if isinstance(action, EcartShown):
            out.append({"seat": seat, "ecart": True, "trumps": codes(action.trumps)})
        else:
            out.append(action_to_json(seat, action))
        if isinstance(action, Play) and plays % active == 0:
            out.append({"seat": obs.tricks[plays // active - 1].winner, "won": plays // active})
    return out


def state_json(run: LessonRun, verdict: Verdict | None = None) -> dict[str, Any]:
    """The lesson as its learner sees it now (``verdict``: the answer just judged; after a wrong one nothing
    happened, and no event is told again)."""
    lesson = run.lesson
    deal = observation_to_json(run.deal.observation(LEARNER))
    if not run.done:
        deal["result"] = None  # the scoring lesson asks for what the result says
    return {
        "lesson": lesson.id,
        "players": lesson.players,
        "names": list(NAMES[: lesson.players - 1]),
        "step": run.step,
        "steps": len(lesson.steps),
        "done": run.done,
        "ask": ask_json(run),
        "verdict": verdict_json(verdict),
        "deal": deal,
        "events": events_json(run) if verdict is None or verdict.right else [],
    }


def catalogue_json(lessons: Sequence[Lesson]) -> list[dict[str, Any]]:
    """The course as the lessons' page lists it: each lesson's id, table size and steps."""
    return [{"id": lesson.id, "players": lesson.players, "steps": len(lesson.steps)} for lesson in lessons]


__all__ = [
    "MAX_CARDS",
    "BadAnswer",
    "answer_from_json",
    "answer_to_json",
    "answers_from_json",
    "ask_json",
    "catalogue_json",
    "events_json",
    "state_json",
    "verdict_json",
]
