"""Counting and scoring a finished deal (docs/rules.md sections 10 to 12).

Scoring is two steps: a finished deal's facts are read into a ``Tally`` (its contract, the taker's points
and bouts, who took the petit au bout, the poignées, the chelem), and a tally is scored.  A table scores
its deals so, and the rules page's calculator scores the facts a person types with the same
``score_tally``: the two can never disagree.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from .actions import MULTIPLIERS, contract_name
from .cards import BOUTS, EXCUSE, PETIT, half_points
from .kinds import ChelemOutcome, Contract, Dog, Side

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .kinds import Void
    from .trick import Trick


class Scored(Protocol):
    """What a deal's count reads of it (``state.Deal`` is one): scoring takes these, not the deal, so that it
    does not import the deal that calls it."""

    @property
    def players(self) -> int: ...
    @property
    def seats(self) -> tuple[int, ...]: ...
    @property
    def taker(self) -> int | None: ...
    @property
    def partner(self) -> int | None: ...
    @property
    def contract(self) -> int: ...
    @property
    def dog(self) -> int: ...
    @property
    def ecart(self) -> int: ...
    @property
    def piles(self) -> Sequence[int]: ...
    @property
    def side(self) -> Sequence[int]: ...
    @property
    def tricks(self) -> Sequence[Trick]: ...
    @property
    def poignees(self) -> Sequence[tuple[int, int, str, int]]: ...
    @property
    def chelem_announced(self) -> bool | None: ...
    @property
    def void(self) -> Void | None: ...
    @property
    def _tricks_won(self) -> Sequence[int]: ...
    @property
    def _excuse_settled(self) -> int: ...


TARGETS = {3: 36, 2: 41, 1: 51, 0: 56}
"""Points the taker's side needs, by the bouts it holds at the end."""

BASE = 25
"""What every contract is worth before its margin: U starts at 25 (docs/rules.md section 12)."""

PETIT_AU_BOUT = 10
"""The petit au bout's bonus, before the contract's multiplier."""

CHELEM_BONUSES: MappingProxyType[ChelemOutcome, int] = MappingProxyType(
    {
        ChelemOutcome.ANNOUNCED_MADE: 400,
        ChelemOutcome.MADE: 200,
        ChelemOutcome.ANNOUNCED_FAILED: -200,
        ChelemOutcome.DEFENCE: -200,
    }
)
"""Each chelem's bonus to the taker's side, never multiplied (docs/rules.md section 11)."""


class PoigneeScored(TypedDict):
    """A poignée as the result lists it: who showed it, its size and the bonus it adds."""

    seat: int
    size: str
    bonus: int


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a deal, in the fields of ``atout replay --json``."""

    complete: bool
    void: str | None
    taker: int | None
    contract: str | None
    partner: int | None
    bouts: int | None
    points: float | None
    target: int | None
    made: bool | None
    margin: int | None
    petit_au_bout: str | None
    poignees: list[PoigneeScored]
    chelem: str | None
    unit: int | None
    scores: list[int]
    multiplier: int | None = None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("multiplier")
        return out


@dataclass(frozen=True, slots=True)
class Tally:
    """What a finished deal's score depends on, and nothing else: a table reads it from the deal
    (``tally``), the calculator from what a person says of a deal."""

    players: int
    active: tuple[int, ...]  # the seats dealt cards (at five with the dealer sitting out, four of them)
    taker: int
    partner: int | None
    contract: int
    points_half: int  # the taker's side's card points, in half-points, after the Excuse's settlement
    bouts: int  # the bouts in the taker's side's pile
    petit_au_bout: Side | None  # the side that took the Petit in the deal's last trick, if it was there
    poignees: tuple[tuple[int, str, int], ...]  # (seat, size, bonus) of each poignée shown
    chelem_announced: bool
    all_tricks: Side | None  # the side that took every trick, if one did


def margin(points_half: int, target: int) -> int:
    """⌈|P − T|⌉ with P in half-points: a half point counts for the side that wins."""
    return (abs(points_half - 2 * target) + 1) // 2


def unit(
    contract: int, points_half: int, bouts: int, petit_au_bout: int, poignee_bonus: int, chelem_bonus: int
) -> tuple[int, bool, int]:
    """U = (W·(25 + m) + PAB)·k + W·H + C; returns (U, made, m).

    ``petit_au_bout`` is +1 (taker's side), −1 (defence) or 0.
    """
    target = TARGETS[bouts]
    made = points_half >= 2 * target
    w = 1 if made else -1
    m = margin(points_half, target)
    k = MULTIPLIERS[contract]
    return (w * (BASE + m) + PETIT_AU_BOUT * petit_au_bout) * k + w * poignee_bonus + chelem_bonus, made, m


def chelem_outcome(announced: bool, all_tricks: Side | None) -> ChelemOutcome | None:
    """The chelem's outcome: who took every trick, and whether the taker announced it."""
    if all_tricks is Side.TAKER:
        return ChelemOutcome.ANNOUNCED_MADE if announced else ChelemOutcome.MADE
    if announced:
        return ChelemOutcome.ANNOUNCED_FAILED
    if all_tricks is Side.DEFENCE:
        return ChelemOutcome.DEFENCE
    return None


def chelem_bonus(announced: bool, taker_tricks: int, defence_tricks: int) -> tuple[int, str | None]:
    """The chelem bonus C for the taker's side and its name in records."""
    sweep = Side.TAKER if defence_tricks == 0 else Side.DEFENCE if taker_tricks == 0 else None
    outcome = chelem_outcome(announced, sweep)
    return (0, None) if outcome is None else (CHELEM_BONUSES[outcome], outcome.value)


def shares(players: int, active: tuple[int, ...], taker: int, partner: int | None, u: int) -> list[int]:
    """Each seat's score: defenders −U, the taker the rest (docs/rules.md section 12)."""
    scores = [0] * players
    for seat in active:
        scores[seat] = -u
    if partner is not None:
        scores[partner] = u
        scores[taker] = 2 * u
    else:
        scores[taker] = (len(active) - 1) * u
    return scores


def tally(deal: Scored) -> Tally:
    """The facts of a finished deal that its score depends on."""
    taker = deal.taker
    assert taker is not None  # a deal that is not void had a taker
    taker_pile = deal.piles[0] | deal.ecart
    if Contract.of_rank(deal.contract).dog is Dog.TAKER:
        taker_pile |= deal.dog
    taker_tricks, defence_tricks = deal._tricks_won
    all_tricks = Side.TAKER if defence_tricks == 0 else Side.DEFENCE if taker_tricks == 0 else None
    # Petit au bout: the last trick, or the next-to-last when the Excuse won the last (a chelem).
    last = deal.tricks[-1]
    pab_trick = last
    if any(c == EXCUSE and s == last.winner for s, c in last.plays):
        pab_trick = deal.tricks[-2]
    pab = None
    if any(c == PETIT for _, c in pab_trick.plays):
        pab = Side.TAKER if deal.side[pab_trick.winner] == 0 else Side.DEFENCE
    return Tally(
        players=deal.players,
        active=deal.seats,
        taker=taker,
        partner=deal.partner,
        contract=deal.contract,
        points_half=half_points(taker_pile) + deal._excuse_settled,
        bouts=(taker_pile & BOUTS).bit_count(),
        petit_au_bout=pab,
        poignees=tuple((seat, name, bonus) for seat, _, name, bonus in deal.poignees),
        chelem_announced=bool(deal.chelem_announced),
        all_tricks=all_tricks,
    )


def score_tally(facts: Tally) -> Result:
    """Score a deal from its facts: the one place a deal's score is worked out."""
    outcome = chelem_outcome(facts.chelem_announced, facts.all_tricks)
    bonus = 0 if outcome is None else CHELEM_BONUSES[outcome]
    pab = {Side.TAKER: 1, Side.DEFENCE: -1, None: 0}[facts.petit_au_bout]
    h = sum(poignee_bonus for *_, poignee_bonus in facts.poignees)
    u, made, m = unit(facts.contract, facts.points_half, facts.bouts, pab, h, bonus)
    return Result(
        complete=True,
        void=None,
        taker=facts.taker,
        contract=contract_name(facts.contract),
        partner=facts.partner,
        bouts=facts.bouts,
        points=facts.points_half / 2,
        target=TARGETS[facts.bouts],
        made=made,
        margin=m,
        petit_au_bout=None if facts.petit_au_bout is None else facts.petit_au_bout.value,
        poignees=[{"seat": s, "size": name, "bonus": b} for s, name, b in facts.poignees],
        chelem=None if outcome is None else outcome.value,
        unit=u,
        scores=shares(facts.players, facts.active, facts.taker, facts.partner, u),
        multiplier=MULTIPLIERS[facts.contract],
    )


def score(deal: Scored) -> Result:
    """Count a finished (or void) deal."""
    if deal.void:
        return Result(True, deal.void, None, None, None, None, None, None, None, None, None, [], None, None,
                      [0] * deal.players)  # fmt: skip
    return score_tally(tally(deal))


__all__ = [
    "BASE",
    "CHELEM_BONUSES",
    "PETIT_AU_BOUT",
    "TARGETS",
    "PoigneeScored",
    "Result",
    "Tally",
    "chelem_bonus",
    "chelem_outcome",
    "margin",
    "score",
    "score_tally",
    "shares",
    "tally",
    "unit",
]
