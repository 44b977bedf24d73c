"""The rules' facts as data, read from the engine's own constants: what the rules page, the quick guide and
``docs/rules.md`` say (card points, targets, multipliers, the dog, table sizes, poignées, bonuses, options).

``GET /api/rules`` serves ``facts()``; a test holds ``docs/rules.md`` to it, so the page, the document
and the engine cannot drift apart.  The worked examples are played by the engine (``examples.py``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .cards import (
    BOUTS,
    DECK_SIZE,
    EXCUSE,
    HALF_POINTS,
    SUIT_MASKS,
    SUITS,
    TRUMPS,
    card_code,
    cards_of,
    suit_card,
)
from .kinds import ChelemOutcome, Contract, EcartRefusal
from .rules import OPTIONS, SETTINGS
from .scoring import BASE, CHELEM_BONUSES, PETIT_AU_BOUT, TARGETS, shares
from .state import CALLABLE_RANKS

RANK_NAMES = {14: "king", 13: "queen", 12: "knight", 11: "jack"}
"""The court cards by rank, as the facts name them (and the page's words look them up)."""

WORKED: tuple[dict[str, Any], ...] = (
    {"players": 4, "contract": "garde", "bouts": 2, "points": 45, "petit_au_bout": "defence"},
    {"players": 3, "contract": "prise", "bouts": 2, "points": 40.5},
    {"players": 5, "contract": "garde_sans", "bouts": 1, "points": 60, "partner": 1},
    {"players": 4, "contract": "garde", "bouts": 2, "points": 45, "poignees": [{"size": "simple", "side": "defence"}]},
    {"players": 5, "contract": "prise", "bouts": 2, "points": 38},
    {"players": 4, "contract": "garde_contre", "bouts": 3, "points": 36},
    {"players": 4, "contract": "prise", "bouts": 1, "points": 50.5, "petit_au_bout": "taker"},
    {"players": 3, "contract": "garde", "bouts": 3, "points": 91, "chelem": {"announced": True, "all_tricks": "taker"}},
    {"players": 4, "contract": "garde", "bouts": 1, "points": 40, "chelem": {"announced": True}},
    {"players": 5, "five_players": "dealer_sits_out", "contract": "garde", "bouts": 2, "points": 50, "dealer": 4},
)
"""The worked examples of scoring: each a calculator request (docs/rules.md lists them with their scores;
the rules page shows them, and a test scores each with the calculator)."""


def points(half: int) -> float | int:
    """Half-points as points a person reads: 4.5, 91."""
    return half // 2 if half % 2 == 0 else half / 2


def card_kinds() -> list[dict[str, Any]]:
    """The card points by kind of card, highest first: the bouts, then each court card, then the others."""
    bouts = cards_of(BOUTS)
    kinds: list[dict[str, Any]] = [
        {"kind": "bout", "cards": [card_code(c) for c in bouts], "points": points(HALF_POINTS[bouts[0]])}
    ]
    for rank, name in RANK_NAMES.items():
        cards = [suit_card(rank, s) for s in range(4)]
        kinds.append({"kind": name, "cards": [card_code(c) for c in cards], "points": points(HALF_POINTS[cards[0]])})
    kinds.append({"kind": "other", "points": points(HALF_POINTS[suit_card(1, 0)])})
    named = {code for kind in kinds for code in kind.get("cards", ())}
    for card in range(DECK_SIZE):  # every other card is worth what "other" says: the kinds cover the deck
        if card_code(card) not in named:
            assert HALF_POINTS[card] == HALF_POINTS[suit_card(1, 0)], card_code(card)
    return kinds


def tables() -> dict[int, dict[str, Any]]:
    """Each table size's settings and what each seat's share of U is (defenders −1)."""
    out: dict[int, dict[str, Any]] = {}
    for players, settings in SETTINGS.items():
        active = tuple(range(players))
        alone = shares(players, active, 0, None, 1)
        entry: dict[str, Any] = {
            "players": players,
            "hand": settings.hand_size,
            "dog": settings.dog_size,
            "packet": settings.packet,
            "tricks": settings.hand_size,
            "poignees": [{"size": name, "trumps": trumps, "bonus": bonus} for name, trumps, bonus in settings.poignees],
            "shares": {"taker": alone[0], "defender": alone[1]},
        }
        if players == 5:
            called = shares(players, active, 0, 1, 1)
            entry["shares_called"] = {"taker": called[0], "partner": called[1], "defender": called[2]}
        out[players] = entry
    return out


@cache
def facts() -> dict[str, Any]:
    """Every fact the rules page and the quick guide show, as JSON (``GET /api/rules``)."""
    from .calculator import calculate
    from .examples import examples

    return {
        "deck": {
            "cards": DECK_SIZE,
            "suits": list(SUITS),
            "suit_cards": SUIT_MASKS[0].bit_count(),
            "trumps": TRUMPS.bit_count(),
            "excuse": card_code(EXCUSE),
            "bouts": [card_code(c) for c in cards_of(BOUTS)],
            "points": points(sum(HALF_POINTS)),
        },
        "card_points": card_kinds(),
        "card_values": {card_code(c): points(HALF_POINTS[c]) for c in range(DECK_SIZE)},
        "targets": [{"bouts": b, "points": TARGETS[b]} for b in sorted(TARGETS)],
        "contracts": [
            {"name": c.value, "multiplier": c.multiplier, "dog": c.dog.value}
            for c in Contract
            if c is not Contract.PASS
        ],
        "tables": tables(),
        "score": {
            "base": BASE,
            "petit_au_bout": PETIT_AU_BOUT,
            "chelem": {outcome.value: CHELEM_BONUSES[outcome] for outcome in ChelemOutcome},
        },
        "call": [RANK_NAMES[r] for r in CALLABLE_RANKS],
        "ecart_refusals": [r.value for r in EcartRefusal],
        "options": [{"name": name, "values": list(values), "default": values[0]} for name, values in OPTIONS.items()],
        "worked": [{"facts": dict(w), "result": calculate(dict(w))} for w in WORKED],
        "examples": examples(),
    }


__all__ = ["RANK_NAMES", "WORKED", "card_kinds", "facts", "points", "tables"]
