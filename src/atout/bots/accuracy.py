"""A seat's accuracy in a deal: the points its choices cost against the expert's, phase by phase.

From a deal's analysis (``analysis.Analysis.to_json``: every decision of the seat scored by the expert's
search, its loss with a 95% interval) and the seat's role in the deal, ``accuracy`` sums what the seat's
choices cost: a decision costs its loss when the search is sure it lost something (the low end of the
loss's interval above 0, as for a mark), and nothing when the loss lies within the search's noise (the
interval holds 0). The cost is split by phase (``PHASES``):

- ``bid``: the auction and what goes with the contract (a bid, the call of a king, the chelem announced,
  the petit sec's redeal);
- ``ecart``: the taker's écart;
- ``taker``, ``partner``, ``defence``: the play (cards and the poignée) as the taker, the taker's partner
  (five players), a defender.

A pure function of its arguments (docs/analysis.md, "Accuracy"): the site stores it per game, deal and
seat when an analysis is made, and ``atout analyse --summary`` sums it over saved deals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.kinds import DecisionKind

PHASES: tuple[str, ...] = ("bid", "ecart", "taker", "partner", "defence")
"""The phases a seat's accuracy is split by, in the order of a deal."""
ROLES: tuple[str, ...] = ("taker", "partner", "defence")
"""A seat's side in a deal's play (the play's phase is its role)."""
PHASE_ROLES: dict[str, tuple[str, ...] | None] = {
    "bid": None,  # every deal
    "ecart": ("taker",),
    "taker": ("taker",),
    "partner": ("partner",),
    "defence": ("defence",),
}
"""The deals a phase's figure is a deal of (the insights' and the robots' levels' alike): the seats' roles in which
the phase has a decision; None: every deal."""

_AUCTION = {DecisionKind.BID, DecisionKind.CALL, DecisionKind.CHELEM, DecisionKind.PETIT_SEC}


def phase_of(kind: str, role: str | None) -> str:
    """The phase a decision of ``kind`` (``DecisionKind``'s value: ``bid``, ``card``…) belongs to, for a seat
    whose role in the play is ``role`` (``ROLES``; None when nobody took: only the auction was played)."""
    decided = DecisionKind(kind)
    if decided in _AUCTION:
        return "bid"
    if decided is DecisionKind.ECART:
        return "ecart"
    return role if role in ROLES else "defence"


def role_of(seat: int, taker: int | None, partner: int | None) -> str | None:
    """``seat``'s side in the play: ``taker``, ``partner`` (a partner who is the taker, who called its own
    king, is the taker), ``defence``; None when nobody took."""
    if taker is None:
        return None
    if seat == taker:
        return "taker"
    return "partner" if seat == partner else "defence"


def record_roles(record: Any) -> dict[int, str | None]:
    """Each seat's role (``role_of``) in a finished deal's record (RecordError if it does not replay)."""
    from ..engine.record import replay

    deal = replay(record).deal
    result = deal.result
    taker = None if result is None else result.taker
    partner = None if result is None else result.partner
    return {seat: role_of(seat, taker, partner) for seat in range(deal.players)}


def decision_cost(decision: Mapping[str, Any]) -> float:
    """What one scored decision (its JSON: ``loss``, ``interval``) costs: its loss when the search is sure
    (the interval's low end above 0), else nothing; never negative."""
    low = float(decision["interval"][0])
    loss = float(decision["loss"])
    return max(loss, 0.0) if low > 0 else 0.0


@dataclass(frozen=True, slots=True)
class Accuracy:
    """A seat's accuracy in one deal: the points its choices cost (``total``, ≥ 0, to a tenth), by phase
    (every phase of ``PHASES``, 0 where nothing was lost or decided), the decisions scored and the ones
    that cost something, the phase that cost most (None when nothing cost anything) and the seat's role."""

    total: float
    phases: dict[str, float]
    counts: dict[str, int]
    """Per phase, the decisions scored (a choice within the noise counted too)."""
    decisions: int
    costly: int
    role: str | None

    @property
    def main(self) -> str | None:
        """The phase that cost most (the first in ``PHASES`` on a tie); None when nothing cost anything."""
        if self.total <= 0:
            return None
        return max(PHASES, key=lambda p: (self.phases[p], -PHASES.index(p)))

    def to_json(self) -> dict[str, Any]:
        """What the site serves and stores (the decisions per phase are not kept)."""
        return {
            "loss": self.total,
            "phases": dict(self.phases),
            "main": self.main,
            "decisions": self.decisions,
            "costly": self.costly,
            "role": self.role,
        }


def accuracy(decisions: Iterable[Mapping[str, Any]], role: str | None) -> Accuracy:
    """The accuracy of a seat whose scored decisions (the analysis's JSON ``decisions`` of that seat: each
    ``phase``, ``loss`` and ``interval``) are ``decisions``, its role in the play ``role``.  The phases'
    costs are summed from the decisions' costs and rounded to a tenth; the total is the sum of the rounded
    phases, so the phases always sum to the total as shown."""
    sums = dict.fromkeys(PHASES, 0.0)
    counts = dict.fromkeys(PHASES, 0)
    count = costly = 0
    for decision in decisions:
        count += 1
        phase = phase_of(decision["phase"], role)
        counts[phase] += 1
        cost = decision_cost(decision)
        if cost > 0:
            costly += 1
            sums[phase] += cost
    phases = {p: round(v, 1) for p, v in sums.items()}
    # the sum of tenths, in tenths: no float drift between the total and its parts
    total = sum(round(v * 10) for v in phases.values()) / 10
    return Accuracy(total, phases, counts, count, costly, role)


HABITS: tuple[str, ...] = (
    "bid_high",
    "bid_low",
    "call",
    "chelem",
    "petit_sec",
    "poignee",
    "ecart",
    "taker_lead",
    "taker_follow",
    "partner_lead",
    "partner_follow",
    "defence_lead",
    "defence_follow",
)
"""What kind of decision lost points, as the record and the analysis name it (``habit_of``): a bid above the
expert's or below it, the king called, the chelem announced, the petit sec's redeal, the poignée, the écart, and
a card led to a trick or played to one led, by the seat's side."""

_CONTRACTS = ("pass", "prise", "garde", "garde_sans", "garde_contre")


def _bid_rank(action: Mapping[str, Any] | None) -> tuple[int, bool]:
    bid = (action or {}).get("bid")
    rank = _CONTRACTS.index(bid) if bid in _CONTRACTS else 0
    return rank, bool((action or {}).get("chelem"))


def habit_of(decision: Mapping[str, Any], actions: list[Mapping[str, Any]], players: int, role: str | None) -> str:
    """The habit (``HABITS``) a scored decision belongs to. ``actions``: the deal record's actions, where the
    decision's ``index`` points; a card is a lead when the cards played before it fill whole tricks."""
    kind = DecisionKind(decision["phase"])
    if kind is DecisionKind.BID:
        return "bid_high" if _bid_rank(decision.get("action")) > _bid_rank(decision.get("best")) else "bid_low"
    if kind is not DecisionKind.CARD:
        return {DecisionKind.CALL: "call", DecisionKind.CHELEM: "chelem", DecisionKind.PETIT_SEC: "petit_sec"}.get(
            kind, kind.value
        )
    side = role if role in ROLES else "defence"
    played = sum(1 for a in actions[: int(decision["index"])] if "play" in a)
    return f"{side}_{'lead' if played % players == 0 else 'follow'}"


def habits(
    decisions: Iterable[Mapping[str, Any]], record: Mapping[str, Any], role: str | None
) -> dict[str, list[float]]:
    """What each habit cost a seat whose scored decisions are ``decisions`` in the deal ``record``: per habit that
    cost something, [points, decisions that cost them] (points to a tenth; a choice within the noise is none)."""
    actions = list(record.get("actions", []))
    players = int(record.get("players", 4))
    out: dict[str, list[float]] = {}
    for decision in decisions:
        cost = decision_cost(decision)
        if cost <= 0:
            continue
        found = out.setdefault(habit_of(decision, actions, players, role), [0.0, 0])
        found[0] += cost
        found[1] += 1
    return {h: [round(v[0], 1), int(v[1])] for h, v in out.items() if round(v[0], 1) > 0}


def seat_accuracy(analysis: Mapping[str, Any], seat: int, role: str | None) -> Accuracy:
    """``accuracy`` of ``seat``'s decisions in ``analysis`` (the analysis's JSON)."""
    return accuracy((d for d in analysis.get("decisions", []) if d.get("seat") == seat), role)


def combine(accuracies: Iterable[Accuracy]) -> dict[str, Any]:
    """Several deals' accuracies summed: the deals, the points lost in all and by phase, the decisions scored
    by phase, and per phase the deals in which the seat decided something there (a seat that never took has
    no deal as taker)."""
    deals = 0
    total = 0.0
    phases = dict.fromkeys(PHASES, 0.0)
    counts = dict.fromkeys(PHASES, 0)
    played = dict.fromkeys(PHASES, 0)
    for item in accuracies:
        deals += 1
        total += item.total
        for phase in PHASES:
            phases[phase] += item.phases[phase]
            counts[phase] += item.counts[phase]
            played[phase] += 1 if item.counts[phase] else 0
    return {
        "deals": deals,
        "loss": round(total, 1),
        "phases": {p: round(v, 1) for p, v in phases.items()},
        "counts": counts,
        "played": played,
    }


__all__ = [
    "HABITS",
    "PHASES",
    "PHASE_ROLES",
    "ROLES",
    "Accuracy",
    "accuracy",
    "combine",
    "decision_cost",
    "habit_of",
    "habits",
    "phase_of",
    "record_roles",
    "role_of",
    "seat_accuracy",
]
