"""A lesson played: its deal moved on to each step's moment, each answer judged, a right one applied.

The engine is the referee: a move the rules forbid is refused with the rule the engine names (an écart
with ``engine.ecart``'s reasons), before the lesson's own outcomes say whether a legal move is the right
one. Between steps the robots move: the lesson's prepared moves first, then the club robot's own choices,
seeded by the lesson and the seat, so a lesson plays the same way every time and a run can be replayed
from its answers alone (the server keeps nothing between two requests: ``replay``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.heuristic import HeuristicBot
from ..engine import (
    Action,
    Bid,
    Call,
    Chelem,
    Deal,
    Discard,
    IllegalAction,
    Phase,
    Play,
    Poignee,
)
from ..engine.actions import PLAYS
from ..engine.cards import EXCUSE, SUITS, TRUMPS, card_code, codes, parse_card
from ..engine.ecart import ecart_faults
from ..engine.kinds import Contract
from .lesson import LEARNER, Answer, Ask, At, Lesson, Step

MOVES_A_DEAL = 200
"""More moves than any deal has (bids, call, écart, chelem, poignées, 78 cards): a lesson whose robots
never reach the next step's moment is broken, and says so instead of looping."""


class LessonError(Exception):
    """A lesson's data that does not play as written: a bug of the lesson, never the learner's."""


class WrongAnswer(ValueError):
    """An answer given as right (replayed) that is not: ``step`` is its index."""

    def __init__(self, step: int, message: str) -> None:
        super().__init__(message)
        self.step = step


@dataclass(frozen=True)
class Verdict:
    """What the lesson says of an answer: right or not, and why (a text key and its placeholders)."""

    right: bool
    key: str
    args: dict[str, Any] = field(default_factory=dict)


def parse_move(text: str) -> Action:
    """A prepared move as a lesson writes it: ``pass``, ``garde``, ``nochelem``, ``call:KC``,
    ``ecart:2D,5D,9D``, ``poignee:T21,T20,...`` or a card's code (a card played)."""
    if text in (c.value for c in Contract):
        return Bid(Contract(text).rank)
    if text in ("chelem", "nochelem"):
        return Chelem(text == "chelem")
    kind, _, rest = text.partition(":")
    cards = [parse_card(c) for c in rest.split(",") if c]
    if kind == "call" and len(cards) == 1:
        return Call(cards[0])
    if kind == "ecart" and cards:
        return Discard(sum(1 << c for c in cards))
    if kind == "poignee" and cards:
        return Poignee(sum(1 << c for c in cards))
    return PLAYS[parse_card(text)]


def engine_verdict(step: Step, deal: Deal, answer: Answer) -> Verdict | None:
    """The engine's refusal of a move (its rule as a ``rule.*`` text key; an écart's by its reason, ``rule.ecart.*``),
    or None when
    the rules allow it."""
    if step.ask is Ask.ECART:
        size = deal.settings.dog_size
        chosen = answer.cards or 0
        if chosen.bit_count() != size:
            return Verdict(False, "rule.ecart_size", {"n": size})
        if chosen & ~deal.hands[LEARNER]:
            return Verdict(False, "rule.not_in_hand", {"cards": codes(chosen & ~deal.hands[LEARNER])})
        faults = ecart_faults(deal.hands[LEARNER], size, chosen)
        if faults:
            reason, cards = next(iter(faults.items()))
            return Verdict(False, f"rule.ecart.{reason.value}", {"cards": codes(cards)})
        return None
    if step.ask is Ask.POIGNEE and not answer.cards:
        return None  # no poignée: always allowed
    action = move_of(step, answer)
    try:
        deal.clone().apply(action, seat=LEARNER)
    except IllegalAction as err:
        return Verdict(False, f"rule.{err.rule}", refusal_args(deal, answer))
    return None


def move_of(step: Step, answer: Answer) -> Action:
    """The move an answer to ``step`` makes (a card, a bid...)."""
    if step.ask is Ask.PLAY and answer.card is not None:
        return PLAYS[answer.card]
    if step.ask is Ask.BID and answer.bid is not None:
        return Bid(Contract(answer.bid).rank)
    if step.ask is Ask.CALL and answer.card is not None:
        return Call(answer.card)
    if step.ask is Ask.ECART and answer.cards is not None:
        return Discard(answer.cards)
    if step.ask is Ask.POIGNEE and answer.cards:
        return Poignee(answer.cards)
    raise ValueError(f"no {step.ask} in this answer")


def refusal_args(deal: Deal, answer: Answer) -> dict[str, Any]:
    """What a rule's words name: the card refused, the suit led, the highest trump in the trick, the called card."""
    args: dict[str, Any] = {}
    if answer.card is not None:
        args["card"] = card_code(answer.card)
    led = next((c for _, c in deal.trick if c != EXCUSE), None)
    if led is not None and led < 56:
        args["suit"] = SUITS[led // 14]
    trumps = [c for _, c in deal.trick if TRUMPS >> c & 1]
    if trumps:
        args["top"] = card_code(max(trumps))
    if deal.called is not None:
        args["called"] = card_code(deal.called)
    return args


def judge(lesson: Lesson, step: Step, deal: Deal, answer: Answer) -> Verdict:
    """The verdict on ``answer`` to ``step`` in ``deal`` as the step found it: the engine's refusal of a
    move first, then the step's first outcome that holds, else its ``otherwise`` (wrong)."""
    if step.ask.moves and (refused := engine_verdict(step, deal, answer)) is not None:
        return refused
    if step.ask is Ask.PICK and (answer.card is None or not deal.hands[LEARNER] >> answer.card & 1):
        return Verdict(False, "rule.not_in_hand", {})
    args = dict(step.args(deal, answer)) if step.args else {}
    if answer.card is not None:
        args.setdefault("card", card_code(answer.card))
    for outcome in step.outcomes:
        if outcome.test(deal, answer):
            return Verdict(outcome.right, f"{lesson.id}.{step.name}.{outcome.key}", args)
    return Verdict(False, f"{lesson.id}.{step.name}.{step.otherwise}", args)


def due(step: Step, deal: Deal, tricks_at: int) -> bool:
    """Whether ``step`` is asked now: a move when the learner is to make it, a question at its moment
    (and either once its ``ready`` holds)."""
    return at_moment(step, deal, tricks_at) and (step.ready is None or step.ready(deal))


def at_moment(step: Step, deal: Deal, tricks_at: int) -> bool:
    mine = deal.to_act == LEARNER
    phase = {Ask.BID: Phase.BIDDING, Ask.CALL: Phase.CALL, Ask.ECART: Phase.DISCARD}.get(step.ask)
    if phase is not None:
        return mine and deal.phase == phase
    at = step.when()
    if at is At.NOW:
        return True
    if at is At.TURN:
        return mine and deal.phase == Phase.PLAY
    if at is At.TRICK_END:
        return not deal.trick and len(deal.tricks) > tricks_at
    return deal.is_over


class LessonRun:
    """One learner's way through a lesson: the deal, the step reached, the answers given right."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.deal = lesson.deal()
        self.step = 0
        self.answers: list[Answer] = []
        self.verdict: Verdict | None = None  # the last answer's
        self.mark = 0  # the deal's history before the last right answer: what happened since is told
        self._tricks_at = 0
        self._moves = {seat: deque(parse_move(m) for m in text.split()) for seat, text in lesson.moves.items()}
        self._robots = {seat: HeuristicBot(f"learn/{lesson.id}/{seat}") for seat in range(lesson.players)}
        self._keep = sum(1 << parse_card(c) for c in lesson.keep.split())
        for text in lesson.prelude.split():
            self._apply(parse_move(text))
        self._settle()

    @property
    def current(self) -> Step | None:
        """The step asked now (None: the lesson is over)."""
        return self.lesson.steps[self.step] if self.step < len(self.lesson.steps) else None

    @property
    def done(self) -> bool:
        return self.step >= len(self.lesson.steps)

    def answer(self, answer: Answer) -> Verdict:
        """Judge ``answer``; a right one is applied and the deal moves on to the next step."""
        step = self.current
        if step is None:
            raise WrongAnswer(self.step, f"lesson {self.lesson.id} is over: nothing is asked")
        verdict = self.verdict = judge(self.lesson, step, self.deal, answer)
        if verdict.right:
            self.answers.append(answer)
            self.mark = len(self.deal.history)
            self._tricks_at = len(self.deal.tricks)
            if step.ask.moves and not (step.ask is Ask.POIGNEE and not answer.cards):
                self._apply(move_of(step, answer))
            self.step += 1
            self._settle()
        return verdict

    # ------------------------------------------------------------ the deal moves on
    def _apply(self, action: Action) -> None:
        seat = self.deal.to_act
        try:
            self.deal.apply(action, seat=seat)
        except IllegalAction as err:
            raise LessonError(f"lesson {self.lesson.id}: seat {seat} cannot {action}: {err}") from None

    def _settle(self) -> None:
        """Move the deal on (robots, and the learner's prepared moves) until the step is due."""
        for _ in range(MOVES_A_DEAL):
            step = self.current
            if step is None and not self.deal.trick:  # the lesson is over once its last trick is
                return
            if step is not None and due(step, self.deal, self._tricks_at):
                return
            if self.deal.is_over:
                assert step is not None  # a finished deal has no trick in progress
                raise LessonError(f"lesson {self.lesson.id}: the deal is over before step {step.name}")
            self._apply(self._next_move())
        raise LessonError(f"lesson {self.lesson.id}: step {self.step} never comes")

    def _next_move(self) -> Action:
        deal = self.deal
        seat = deal.to_act
        assert seat is not None  # the deal is not over here
        queue = self._moves.get(seat)
        if queue:
            return queue.popleft()
        obs = deal.observation(seat)
        if seat == LEARNER:  # the learner's own move where no step asks for it: the robot's, never a kept card
            plays = tuple(a for a in obs.legal if isinstance(a, Play))
            kept = tuple(a for a in plays if not self._keep >> a.card & 1)
            if plays:
                obs = obs._replace(legal=kept or plays)
        return self._robots[seat].choose(obs)


def replay(lesson: Lesson, answers: Sequence[Answer]) -> LessonRun:
    """The lesson after ``answers``, each of which must be right (WrongAnswer names the first that is not)."""
    run = LessonRun(lesson)
    for i, answer in enumerate(answers):
        if run.done:
            raise WrongAnswer(i, f"lesson {lesson.id} has {len(lesson.steps)} steps, not {len(answers)}")
        if not run.answer(answer).right:
            raise WrongAnswer(i, f"answer {i + 1} is not the lesson's")
    return run


__all__ = [
    "LessonError",
    "LessonRun",
    "Verdict",
    "WrongAnswer",
    "due",
    "engine_verdict",
    "judge",
    "parse_move",
    "refusal_args",
    "replay",
]
