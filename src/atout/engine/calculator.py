"""The score calculator: what a person says of a finished deal (the table's size, the contract, the bouts
and points of the taker's side, the petit au bout, the poignées, the chelem, the called partner), checked
field by field, then scored by ``scoring.score_tally``, the code that scores every table's deals.

The request is JSON (``POST /api/rules/score``); a fact that cannot be is refused with a
``CalculatorError`` that names its field, says how it is wrong, and where it applies, the range it must be in.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from .cards import HALF_POINTS, PETIT, TRUMPS
from .kinds import Contract, Side
from .rules import OPTIONS, RuleSet
from .scoring import BASE, CHELEM_BONUSES, PETIT_AU_BOUT, Result, Tally, chelem_outcome, score_tally

FIELDS = (
    "players",
    "contract",
    "bouts",
    "points",
    "petit_au_bout",
    "poignees",
    "chelem",
    "taker",
    "partner",
    "dealer",
    "five_players",
)
"""Every field a request may hold; the first four are required."""

DECK_HALF = sum(HALF_POINTS)
"""The deck's card points in half-points (182: 91 points)."""
BOUT_HALF = HALF_POINTS[PETIT]
"""A bout's card points in half-points (each bout is worth the same)."""
STANDS_IN = 1
"""The Excuse may be shown in a poignée in place of a trump: a poignée shows at most 21 trumps and it."""
EXCUSE_SETTLED = 1
"""The Excuse's owner gives a half-point card for it; when it has none, its side's count moves by a half point."""


class Fault(StrEnum):
    """How a field is wrong (the page says each in its words)."""

    MISSING = "missing"
    UNKNOWN = "unknown"  # a field the calculator does not take
    TYPE = "type"  # not a number, a string, a list... as the field needs
    CHOICE = "choice"  # not one of its values (``values`` lists them)
    RANGE = "range"  # a number outside ``low``..``high``
    HALF = "half"  # points not in half points
    IMPOSSIBLE = "impossible"  # cannot be with the other facts (the message says which)


class CalculatorError(ValueError):
    """A request the calculator refuses: ``field`` names what was wrong, ``fault`` how (an impossible fact
    also says which rule in ``reason``)."""

    def __init__(self, field: str, fault: Fault, message: str, **extra: Any) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.fault = fault
        self.message = f"{field}: {message}"
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "fault": self.fault.value, "message": self.message, **self.extra}


def _int(data: dict[str, Any], field: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(field, default)
    if value is None:
        raise CalculatorError(field, Fault.MISSING, "is required")
    if type(value) is not int:
        raise CalculatorError(field, Fault.TYPE, f"is a whole number, not {_shown(value)}")
    if not low <= value <= high:
        raise CalculatorError(field, Fault.RANGE, f"is from {low} to {high}, not {value}", low=low, high=high)
    return value


def _choice(value: Any, field: str, values: tuple[str, ...], optional: bool = False) -> str:
    """``value`` if it is one of ``values``; an optional field may also be None (then "")."""
    if value is None and optional:
        return ""
    if value is None:
        raise CalculatorError(field, Fault.MISSING, "is required")
    if not isinstance(value, str) or value not in values:
        names = ", ".join(values) + (", or null" if optional else "")
        raise CalculatorError(field, Fault.CHOICE, f"is one of {names}, not {_shown(value)}", values=list(values))
    return value


def _shown(value: Any) -> str:
    """A value in a message, short whatever was sent."""
    return repr(value)[:24]


SIDES = tuple(side.value for side in Side)
SIDE_WORDS = {Side.TAKER: "the taker's side", Side.DEFENCE: "the defence"}
CONTRACTS = tuple(c.value for c in Contract if c is not Contract.PASS)


def points_range(bouts: int) -> tuple[int, int]:
    """The taker's side's points, in half-points, that ``bouts`` bouts allow: its bouts count in them, the
    other side's not, and the Excuse's settlement may move them by a half point either way."""
    return max(0, bouts * BOUT_HALF - EXCUSE_SETTLED), min(
        DECK_HALF, DECK_HALF - (3 - bouts) * BOUT_HALF + EXCUSE_SETTLED
    )


def read(data: Any) -> Tally:
    """The facts of a request, checked; CalculatorError names the first field that is wrong."""
    if not isinstance(data, dict):
        raise CalculatorError("request", Fault.TYPE, "is a JSON object of the deal's facts")
    for name in data:
        if name not in FIELDS:
            raise CalculatorError(
                str(name)[:24],
                Fault.UNKNOWN,
                f"is not a fact the calculator takes; it takes {', '.join(FIELDS)}",
                values=list(FIELDS),
            )
    players = _int(data, "players", 3, 5)
    five = _choice(data.get("five_players", OPTIONS["five_players"][0]), "five_players", OPTIONS["five_players"])
    if players != 5 and five != OPTIONS["five_players"][0]:
        raise CalculatorError("five_players", Fault.IMPOSSIBLE, "is a rule of five players only", reason="five_only")
    rules = RuleSet.make(players, five_players=five)
    contract = Contract(_choice(data.get("contract"), "contract", CONTRACTS))
    bouts = _int(data, "bouts", 0, 3)
    points = _points(data.get("points"), bouts)
    seats = _seats(data, rules)
    taker, partner, active = seats
    pab = _side(data.get("petit_au_bout"), "petit_au_bout")
    if pab is Side.TAKER and bouts == 0:
        raise CalculatorError(
            "petit_au_bout",
            Fault.IMPOSSIBLE,
            "the taker's side took the Petit, so it holds at least one bout",
            reason="petit_bout",
        )
    if pab is Side.DEFENCE and bouts == 3:
        raise CalculatorError(
            "petit_au_bout",
            Fault.IMPOSSIBLE,
            "the defence took the Petit, so the taker's side cannot hold all three bouts",
            reason="petit_bouts",
        )
    announced, all_tricks = _chelem(data.get("chelem"))
    if all_tricks is not None and pab is not None and pab is not all_tricks:
        raise CalculatorError(
            "chelem",
            Fault.IMPOSSIBLE,
            f"{SIDE_WORDS[all_tricks]} took every trick, so {SIDE_WORDS[pab]} cannot have taken the petit au bout",
            reason="chelem_petit",
        )
    poignees = _poignees(data.get("poignees"), rules, taker, partner, active)
    return Tally(players, active, taker, partner, contract.rank, points, bouts, pab, poignees, announced, all_tricks)


def _points(value: Any, bouts: int) -> int:
    if value is None:
        raise CalculatorError("points", Fault.MISSING, "is required")
    if type(value) not in (int, float):
        raise CalculatorError("points", Fault.TYPE, f"is a number, not {_shown(value)}")
    half = value * 2
    if half != int(half):
        raise CalculatorError("points", Fault.HALF, f"are counted in half points, not {_shown(value)}")
    low, high = points_range(bouts)
    if not low <= half <= high:
        raise CalculatorError(
            "points",
            Fault.RANGE,
            f"with {bouts} bouts the taker's side has from {low / 2:g} to {high / 2:g} points, not {value:g}",
            low=low / 2,
            high=high / 2,
        )
    return int(half)


def _side(value: Any, field: str) -> Side | None:
    chosen = _choice(value, field, SIDES, optional=True)
    return Side(chosen) if chosen else None


def _seats(data: dict[str, Any], rules: RuleSet) -> tuple[int, int | None, tuple[int, ...]]:
    """The taker's seat, the called partner's and the seats in play (seat 0 takes unless told)."""
    n = rules.players
    dealer = _int(data, "dealer", 0, n - 1, default=n - 1)
    active = tuple(s for s in range(n) if not (rules.dealer_sits_out and s == dealer))
    taker = _int(data, "taker", 0, n - 1, default=0)
    if taker not in active:
        raise CalculatorError(
            "taker", Fault.IMPOSSIBLE, "the dealer sits out: the taker is another seat", reason="taker_out"
        )
    partner = data.get("partner")
    if partner is None:
        return taker, None, active
    if not rules.calls_king:
        raise CalculatorError(
            "partner", Fault.IMPOSSIBLE, "only a taker at five who calls a king has a partner", reason="partner_five"
        )
    partner = _int(data, "partner", 0, n - 1)
    if partner == taker:
        raise CalculatorError(
            "partner",
            Fault.IMPOSSIBLE,
            "a taker who calls their own king plays alone: the partner is null",
            reason="partner_self",
        )
    return taker, partner, active


def _chelem(value: Any) -> tuple[bool, Side | None]:
    if value is None:
        return False, None
    if not isinstance(value, dict):
        raise CalculatorError("chelem", Fault.TYPE, "is an object: {announced, all_tricks}")
    unknown = set(value) - {"announced", "all_tricks"}
    if unknown:
        raise CalculatorError("chelem", Fault.UNKNOWN, f"takes announced and all_tricks, not {_shown(sorted(unknown))}")
    announced = value.get("announced", False)
    if not isinstance(announced, bool):
        raise CalculatorError("chelem.announced", Fault.TYPE, f"is true or false, not {_shown(announced)}")
    return announced, _side(value.get("all_tricks"), "chelem.all_tricks")


def _poignees(
    value: Any, rules: RuleSet, taker: int, partner: int | None, active: tuple[int, ...]
) -> tuple[tuple[int, str, int], ...]:
    """Each poignée as (seat, size, bonus): a seat of the side that showed it (what the score reads of it
    is its bonus; the seat keeps the result's form)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise CalculatorError("poignees", Fault.TYPE, "is a list of {size, side}")
    if len(value) > len(active):
        raise CalculatorError(
            "poignees", Fault.RANGE, f"at most one a player: {len(active)}, not {len(value)}", low=0, high=len(active)
        )
    sizes = {name: (trumps, bonus) for name, trumps, bonus in rules.settings.poignees}
    takers = [s for s in active if s in (taker, partner)]
    defenders = [s for s in active if s not in takers]
    out: list[tuple[int, str, int]] = []
    shown = 0
    for poignee in value:
        if not isinstance(poignee, dict) or set(poignee) - {"size", "side"}:
            raise CalculatorError("poignees", Fault.TYPE, "is a list of {size, side}")
        size = _choice(poignee.get("size"), "poignees.size", tuple(sizes))
        side = _side(poignee.get("side"), "poignees.side")
        if side is None:
            raise CalculatorError("poignees.side", Fault.MISSING, "is required: taker or defence")
        seats = takers if side is Side.TAKER else defenders
        taken = [s for s, *_ in out]
        free = [s for s in seats if s not in taken]
        if not free:
            raise CalculatorError(
                "poignees",
                Fault.IMPOSSIBLE,
                f"{SIDE_WORDS[side]} has {len(seats)} "
                f"player{'s' if len(seats) > 1 else ''}, each showing one poignée at most",
                reason="poignee_side",
            )
        trumps, bonus = sizes[size]
        shown += trumps
        out.append((free[0], size, bonus))
    most = (TRUMPS >> 56).bit_count() + STANDS_IN
    if shown > most:
        raise CalculatorError(
            "poignees",
            Fault.IMPOSSIBLE,
            f"they show {shown} cards, more than the {most - STANDS_IN} trumps and the Excuse",
            reason="poignee_trumps",
        )
    return tuple(out)


def working(facts: Tally, result: Result) -> dict[str, int]:
    """The score's terms, so that U = (sign·(base + margin) + petit_au_bout)·multiplier + poignees + chelem."""
    sign = 1 if result.made else -1
    pab = {Side.TAKER: 1, Side.DEFENCE: -1, None: 0}[facts.petit_au_bout]
    outcome = chelem_outcome(facts.chelem_announced, facts.all_tricks)
    assert result.multiplier is not None and result.margin is not None
    return {
        "sign": sign,
        "base": BASE,
        "margin": result.margin,
        "petit_au_bout": PETIT_AU_BOUT * pab,
        "multiplier": result.multiplier,
        "poignees": sign * sum(b for *_, b in facts.poignees),
        "chelem": 0 if outcome is None else CHELEM_BONUSES[outcome],
    }


def roles(facts: Tally) -> list[str]:
    """Each seat's part in the deal: taker, partner, defender, or out (a dealer who sits out)."""
    return [
        "taker" if s == facts.taker else "partner" if s == facts.partner else "defender" if s in facts.active else "out"
        for s in range(facts.players)
    ]


def calculate(data: Any) -> dict[str, Any]:
    """Every seat's score for the facts ``data`` gives (CalculatorError if one cannot be)."""
    facts = read(data)
    result = score_tally(facts)
    out = result.to_json()
    out.update(
        players=facts.players,
        multiplier=result.multiplier,
        roles=roles(facts),
        working=working(facts, result),
        poignees=[
            {"side": "taker" if s in (facts.taker, facts.partner) else "defence", "size": name, "bonus": b}
            for s, name, b in facts.poignees
        ],
    )
    return out


__all__ = ["FIELDS", "CalculatorError", "Fault", "calculate", "points_range", "read", "roles", "working"]
