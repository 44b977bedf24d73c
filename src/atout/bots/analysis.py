"""The analysis of a finished deal: each decision of a seat scored again by the expert's search.

For every decision of a seat in a record — bid, call, écart, poignée, chelem, petit sec, each
card — the seat's observation at that moment is rebuilt (``engine.observe``: never the hands it
could not see) and the expert's own search (``expert.score_worlds``: worlds drawn from that
observation, every candidate played out in each of them) scores each sensible action and the one
taken.  The best mean minus the taken action's mean is the choice's expected loss (≥ 0), with a
95% interval from the paired per-world differences; the loss in points of the deal sets its mark
(``MARKS``; docs/analysis.md says how the thresholds were measured), when the interval is above 0.

The worlds of a decision come from a generator seeded by (analysis seed, seat, index, kind) and
no time limit applies, so a record and a seed give the same analysis on any machine, and a
decision's analysis depends on nothing the seat had not seen then.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..engine import (
    Action,
    Bid,
    Call,
    Chelem,
    Deal,
    Discard,
    DiscardFrom,
    Observation,
    PetitSecDecision,
    Play,
    Poignee,
    PoigneeFrom,
)
from ..engine.actions import MULTIPLIERS, PLAYS
from ..engine.cards import PETIT
from ..engine.kinds import DecisionKind, Mark
from ..engine.record import action_to_json, parse_action, start_deal
from .expert import (
    BID_SAMPLES,
    CARD_SAMPLES,
    ECART_KEEP,
    ECART_SAMPLES,
    ECART_SCREEN,
    NO_POIGNEE,
    POIGNEE_EDGE,
    TAKER_EDGE,
    ExpertBot,
    equivalent_cards,
    score_worlds,
)
from .explain import action_words
from .knowledge import infer
from .reasons import Figures, Reason, paired_interval, reason_json, reasons
from .tactics import choose_poignee_cards

VERSION = 2
"""The analysis's version: results kept under another version (a server's cache) are made again
(2: each decision carries its reasons, ``reasons``)."""

WORLDS_FACTOR = 8
"""The analysis draws this many times the worlds the expert draws when it plays: it runs once per
deal rather than under a clock, and twice the worlds halve the variance of a loss."""

MARKS: tuple[tuple[Mark, float], ...] = (
    (Mark.BLUNDER, 40.0),
    (Mark.MISTAKE, 15.0),
    (Mark.INACCURACY, 5.0),
)
"""The least expected loss (points of the deal, for the seat) that earns each mark, worst first: the
expert's own decisions lose that much one time in a thousand, a hundred and twenty (4 players, 1,543
decisions: p99.9 40.8, p99 16.9, p95 4.6; benchmarks/results/analysis.json, docs/analysis.md)."""


def mark_for(loss: float, low: float) -> Mark | None:
    """The mark a decision earns: by its expected ``loss``, and only when the low end ``low`` of the
    loss's 95% interval is above 0 (the search is sure it lost something)."""
    if low <= 0:
        return None
    for mark, least in MARKS:
        if loss >= least:
            return mark
    return None


@dataclass(frozen=True, slots=True)
class Point:
    """A decision found in a record: who decided, where (the action's index in the record), what
    it was, what the seat saw then, and what it did (``NO_POIGNEE``: it kept its poignée hidden)."""

    seat: int
    index: int
    kind: DecisionKind
    observation: Observation
    taken: Any
    """None for a decision still to make (a hint): the search then compares the candidates alone."""

    @property
    def trick(self) -> int | None:
        """The trick (from 1) a card or a poignée belongs to; None before the play."""
        obs = self.observation
        return len(obs.tricks) + 1 if self.kind in (DecisionKind.CARD, DecisionKind.POIGNEE) else None


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision scored: the taken and the best action, their expected points for the seat, the
    loss (best minus taken, ≥ 0) with its 95% interval, the worlds searched (and their weight as a
    number of equally weighted worlds), every candidate's expected points, and the mark."""

    seat: int
    index: int
    kind: DecisionKind
    action: Any
    best: Any
    expected: float
    best_expected: float
    loss: float
    interval: tuple[float, float]
    worlds: int
    weight: float
    candidates: tuple[tuple[Any, float], ...]
    mark: Mark | None
    trick: int | None = None
    reasons: tuple[Reason, ...] = ()
    """Why the best beats the action taken (or, taken the best, the next best): ``reasons``, from this search."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "index": self.index,
            "phase": str(self.kind),
            "trick": self.trick,
            "action": action_json(self.action),
            "best": action_json(self.best),
            "loss": round(self.loss, 1),
            "mark": None if self.mark is None else str(self.mark),
            "words": action_words(self.action),
            "best_words": action_words(self.best),
            "expected": round(self.expected, 1),
            "best_expected": round(self.best_expected, 1),
            "interval": [round(self.interval[0], 1), round(self.interval[1], 1)],
            "worlds": self.worlds,
            "weight": round(self.weight, 1),
            "candidates": [{"action": action_json(a), "expected": round(v, 1)} for a, v in self.candidates],
            "reasons": [reason_json(r, action_json) for r in self.reasons],
        }


@dataclass(slots=True)
class Analysis:
    """A deal's analysis for some seats: their decisions in record order, and the seed that drew the worlds."""

    seed: str
    seats: tuple[int, ...]
    decisions: list[Decision]
    forced: dict[int, int]
    """Per seat, the actions that were no choice (one legal card, or all alike), left out of ``decisions``."""

    def totals(self) -> list[dict[str, Any]]:
        """Each seat's total expected loss, decisions and marks."""
        out = []
        for seat in self.seats:
            mine = [d for d in self.decisions if d.seat == seat]
            marks = {str(m): sum(1 for d in mine if d.mark == m) for m in Mark}
            out.append(
                {
                    "seat": seat,
                    "loss": round(sum(d.loss for d in mine), 1),
                    "decisions": len(mine),
                    "forced": self.forced.get(seat, 0),
                    "marks": marks,
                }
            )
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "atout-analysis",
            "version": VERSION,
            "seed": self.seed,
            "seats": list(self.seats),
            "decisions": [d.to_json() for d in self.decisions],
            "totals": self.totals(),
        }


def action_json(action: Any) -> dict[str, Any]:
    """An action in the record's form without its seat; a poignée kept hidden is ``{"poignee": null}``."""
    if action is NO_POIGNEE:
        return {"poignee": None}
    out = action_to_json(0, action)
    del out["seat"]
    return out


# ----------------------------------------------------------------- the decisions of a record
_KINDS: dict[type, DecisionKind] = {
    Bid: DecisionKind.BID,
    Call: DecisionKind.CALL,
    Discard: DecisionKind.ECART,
    Chelem: DecisionKind.CHELEM,
    Poignee: DecisionKind.POIGNEE,
    PetitSecDecision: DecisionKind.PETIT_SEC,
    Play: DecisionKind.CARD,
}


def decision_points(record: Any, seats: Iterable[int] | None = None) -> Iterator[Point]:
    """Every decision of ``seats`` (default: all) in ``record``, in record order, each with the
    observation its seat had then.  A first card played while a poignée could have been shown is
    two decisions at that index: the poignée kept hidden, then the card.  RecordError if the record
    is malformed or illegal."""
    deal = start_deal(record)
    wanted = set(range(deal.players) if seats is None else seats)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        from ..engine.record import RecordError

        raise RecordError(None, "record", "actions must be a list")
    for index, entry in enumerate(actions):
        seat, action = parse_action(entry, index, deal.players)
        if seat in wanted and seat == deal.to_act:
            obs = deal.observation(seat)
            if type(action) is Play and deal.poignee_offer() is not None:
                yield Point(seat, index, DecisionKind.POIGNEE, obs, NO_POIGNEE)
            yield Point(seat, index, _KINDS[type(action)], obs, action)
        _apply(deal, seat, action, index)


def _apply(deal: Deal, seat: int, action: Action, index: int) -> None:
    from ..engine import IllegalAction
    from ..engine.record import RecordError

    try:
        deal.apply(action, seat=seat)
    except IllegalAction as err:
        raise RecordError(index, err.rule, err.message) from None


# ------------------------------------------------------------------------- one decision
@dataclass(slots=True)
class _Plan:
    """What a decision's search compares: the candidates (the taken one among them), the worlds to
    draw, and each candidate's bonus (the expert's edges)."""

    actions: list
    samples: int
    bonus: list[float]
    taken: int | None


def _plan(point: Point, rng: random.Random, factor: int = 1) -> _Plan | None:
    """The candidates of ``point``'s decision as the expert would weigh them, the taken action
    among them; None when the seat had no real choice."""
    obs, taken, kind = point.observation, point.taken, point.kind
    players = obs.players
    if kind is DecisionKind.CARD:
        legal = 0
        for a in obs.legal:
            if type(a) is Play:
                legal |= 1 << a.card
        unseen = infer(obs).unseen
        reps = equivalent_cards(legal, unseen)
        if len(reps) < 2:
            return None
        # The taken card stands for its class of interchangeable cards (a hint's: each class's first).
        cards = [taken.card if taken is not None and _alike(r, taken.card, reps) else r for r in reps]
        return _with_taken([PLAYS[c] for c in cards], taken, CARD_SAMPLES[players])
    if kind is DecisionKind.BID:
        bids = [a for a in obs.legal if type(a) is Bid and not a.chelem]
        plan = _with_taken(bids, taken, BID_SAMPLES)
        if plan is not None:  # the expert's edge: it plays a contract better than its rollouts do
            edge = TAKER_EDGE[players]
            plan.bonus = [edge * MULTIPLIERS[a.contract] if a.contract else 0.0 for a in plan.actions]
        return plan
    if kind is DecisionKind.CALL:
        return _with_taken([a for a in obs.legal if type(a) is Call], taken, ECART_SAMPLES)
    if kind is DecisionKind.ECART:
        choice = next(a for a in obs.legal if type(a) is DiscardFrom)
        bot = ExpertBot()
        bot.rng = rng
        # screened over ``factor`` times the expert's worlds too: the likeliest few found again by another seed
        _, cands = bot.ecart_candidates(obs, choice, None, ECART_SCREEN * factor, 2 * ECART_KEEP)
        return _with_taken([Discard(c) for c in cands], taken, ECART_SAMPLES)
    if kind is DecisionKind.POIGNEE:
        offer = next(a for a in obs.legal if type(a) is PoigneeFrom)
        shows = [
            Poignee(choose_poignee_cards(offer.cards, size)) for size in sorted(offer.sizes.values(), reverse=True)
        ]
        plan = _with_taken([*shows, NO_POIGNEE], taken, ECART_SAMPLES)
        if plan is not None and POIGNEE_EDGE[players] and obs.seat == obs.taker:
            plan.bonus = [0.0 if a is NO_POIGNEE else POIGNEE_EDGE[players] for a in plan.actions]
        return plan
    if kind is DecisionKind.CHELEM:
        return _with_taken([Chelem(False), Chelem(True)], taken, ECART_SAMPLES)
    return _with_taken([PetitSecDecision(True), PetitSecDecision(False)], taken, ECART_SAMPLES)


def _alike(rep: int, card: int, reps: list[int]) -> bool:
    """Whether ``card`` belongs to the class whose first card is ``rep`` (classes run in card order)."""
    later = [r for r in reps if r > rep]
    return rep <= card and (not later or card < later[0])


def _with_taken(actions: list, taken: Any, samples: int) -> _Plan | None:
    actions = list(dict.fromkeys(actions))
    if taken is not None and taken not in actions:
        actions.append(taken)
    if len(actions) < 2:
        return None
    return _Plan(actions, samples, [0.0] * len(actions), None if taken is None else actions.index(taken))


def decision_rng(seed: str, point: Point) -> random.Random:
    """The generator of ``point``'s worlds: from the analysis seed and where the decision lies only,
    never from the deal's hidden cards."""
    return random.Random(f"{seed}/{point.seat}/{point.index}/{point.kind}")


@dataclass(slots=True)
class Searched:
    """A decision's search: its plan (the candidates, the taken one among them) and the scores of every
    candidate in every world, with each candidate's mean (bonus included)."""

    point: Point
    plan: _Plan
    figures: Figures
    means: list[float]


def search_point(
    point: Point, seed: str = "analysis", factor: int = WORLDS_FACTOR, seconds: float | None = None
) -> Searched | None:
    """The search the analysis makes of ``point``'s decision, and the hint of it (``hint``): the same
    candidates over ``factor`` times the expert's worlds, drawn from the decision's own generator
    (``decision_rng``), so that the same question always gets the same answer.  ``seconds`` bounds it
    (None: every world, deterministic).  None when the seat had no choice or no world replays what it saw."""
    rng = decision_rng(seed, point)
    plan = _plan(point, rng, factor)
    if plan is None:
        return None
    obs = point.observation
    deadline = None if seconds is None else time.perf_counter() + seconds
    scores = score_worlds(
        obs, plan.actions, plan.samples * factor, rng, deadline, None if seconds is None else seconds / 2, outcomes=True
    )
    if scores is None:
        return None
    petit_live = not any(card == PETIT for trick in obs.tricks for _, card in trick.plays)
    figures = Figures(
        plan.actions,
        scores.values,
        scores.weights,
        plan.bonus,
        scores.petit if petit_live else None,
        sides=point.kind not in (DecisionKind.BID, DecisionKind.PETIT_SEC),
        hand=obs.hand,
    )
    return Searched(point, plan, figures, [figures.mean(i) for i in range(len(plan.actions))])


def analyse_point(point: Point, seed: str = "analysis", factor: int = WORLDS_FACTOR) -> Decision | None:
    """``point``'s decision scored (see the module docstring) over ``factor`` times the expert's
    worlds; None when the seat had no choice or no world replays what it saw."""
    searched = search_point(point, seed, factor)
    if searched is None:
        return None
    plan, figures, means = searched.plan, searched.figures, searched.means
    n = len(plan.actions)
    weights = figures.weights
    total = sum(weights)
    taken = plan.taken
    assert taken is not None, "an analysed decision was taken"
    # The best: the highest mean; on a tie the action taken (it lost nothing).
    best = max(range(n), key=lambda i: (means[i], i == taken))
    loss = means[best] - means[taken]
    diffs = [row[best] - row[taken] + plan.bonus[best] - plan.bonus[taken] for row in figures.values]
    low, high = paired_interval(diffs, weights, loss)
    why = reasons(figures, best, taken if best != taken else None)
    return Decision(
        seat=point.seat,
        index=point.index,
        kind=point.kind,
        action=point.taken,
        best=plan.actions[best],
        expected=means[taken],
        best_expected=means[best],
        loss=loss,
        interval=(low, high),
        worlds=len(weights),
        weight=total * total / sum(w * w for w in weights),
        candidates=tuple(zip(plan.actions, means, strict=True)),
        mark=mark_for(loss, low),
        trick=point.trick,
        reasons=tuple(why),
    )


# ----------------------------------------------------------------------------- a record
def analyse(
    record: Any,
    seats: Iterable[int] | None = None,
    seed: str = "analysis",
    progress: Callable[[int, int], None] | None = None,
    factor: int = WORLDS_FACTOR,
) -> Analysis:
    """The analysis of ``seats`` (default: every seat) in ``record``, over ``factor`` times the
    expert's worlds; ``progress(done, total)`` is called after each decision point.  RecordError if
    the record is malformed or illegal."""
    points = list(decision_points(record, seats))
    players = start_deal(record).players
    chosen = tuple(sorted(set(range(players) if seats is None else seats)))
    decisions: list[Decision] = []
    forced: dict[int, int] = dict.fromkeys(chosen, 0)
    for done, point in enumerate(points, 1):
        decision = analyse_point(point, seed, factor)
        if decision is None:
            forced[point.seat] += 1
        else:
            decisions.append(decision)
        if progress is not None:
            progress(done, len(points))
    return Analysis(seed, chosen, decisions, forced)


__all__ = [
    "MARKS",
    "VERSION",
    "WORLDS_FACTOR",
    "Analysis",
    "Decision",
    "Point",
    "action_json",
    "analyse",
    "analyse_point",
    "decision_points",
    "mark_for",
]
