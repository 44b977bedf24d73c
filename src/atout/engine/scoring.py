"""Counting and scoring a finished deal (docs/rules.md sections 10 to 12)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from .actions import GARDE_SANS, MULTIPLIERS, contract_name
from .cards import BOUTS, EXCUSE, PETIT, half_points

if TYPE_CHECKING:
    from .state import Deal

TARGETS = {3: 36, 2: 41, 1: 51, 0: 56}
"""Points the taker's side needs, by the bouts it holds at the end."""


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
    return (w * (25 + m) + 10 * petit_au_bout) * k + w * poignee_bonus + chelem_bonus, made, m


def chelem_bonus(announced: bool, taker_tricks: int, defence_tricks: int) -> tuple[int, str | None]:
    """The chelem bonus C for the taker's side and its name in records."""
    if defence_tricks == 0:
        return (400, "announced_made") if announced else (200, "made")
    if announced:
        return -200, "announced_failed"
    if taker_tricks == 0:
        return -200, "defence"
    return 0, None


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


def score(deal: Deal) -> Result:
    """Count a finished (or void) deal."""
    if deal.void:
        return Result(True, deal.void, None, None, None, None, None, None, None, None, None, [], None, None,
                      [0] * deal.players)  # fmt: skip
    taker = deal.taker
    assert taker is not None  # a deal that is not void had a taker
    taker_pile = deal.piles[0] | deal.ecart
    if deal.contract == GARDE_SANS:
        taker_pile |= deal.dog
    points_half = half_points(taker_pile) + deal._excuse_settled
    bouts = (taker_pile & BOUTS).bit_count()
    taker_tricks, defence_tricks = deal._tricks_won
    bonus, chelem = chelem_bonus(bool(deal.chelem_announced), taker_tricks, defence_tricks)
    # Petit au bout: the last trick, or the next-to-last when the Excuse won the last (a chelem).
    last = deal.tricks[-1]
    pab_trick = last
    if any(c == EXCUSE and s == last.winner for s, c in last.plays):
        pab_trick = deal.tricks[-2]
    pab = 0
    pab_name = None
    if any(c == PETIT for _, c in pab_trick.plays):
        taker_won = deal.side[pab_trick.winner] == 0
        pab = 1 if taker_won else -1
        pab_name = "taker" if taker_won else "defence"
    h = sum(poignee_bonus for *_, poignee_bonus in deal.poignees)
    u, made, m = unit(deal.contract, points_half, bouts, pab, h, bonus)
    return Result(
        complete=True,
        void=None,
        taker=deal.taker,
        contract=contract_name(deal.contract),
        partner=deal.partner,
        bouts=bouts,
        points=points_half / 2,
        target=TARGETS[bouts],
        made=made,
        margin=m,
        petit_au_bout=pab_name,
        poignees=[{"seat": s, "size": name, "bonus": b} for s, _, name, b in deal.poignees],
        chelem=chelem,
        unit=u,
        scores=shares(deal.players, deal.seats, taker, deal.partner, u),
        multiplier=MULTIPLIERS[deal.contract],
    )


__all__ = ["TARGETS", "PoigneeScored", "Result", "chelem_bonus", "margin", "score", "shares", "unit"]
