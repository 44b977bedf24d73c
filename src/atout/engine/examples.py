"""The rules' examples, played by the engine: which cards a player may play in a trick, who wins it, where
the Excuse goes, what may go to the écart, what a taker at five may call, which poignées a hand may show,
and a counted pile.  The rules page draws them (``GET /api/rules``); nothing in them is written by hand but
the cards, so an example can never say what the engine would not do.
"""

from __future__ import annotations

from typing import Any

from .actions import GARDE_SANS, PASS, PRISE, Bid, Chelem, Play
from .cards import (
    EXCUSE_BIT,
    SUIT_MASKS,
    TRUMPS,
    card_code,
    display_order,
    half_points,
    mask_of,
    parse_card,
)
from .ecart import ecart_refusals
from .kinds import Phase
from .rules import RuleSet
from .state import Deal

HEARTS, SPADES = SUIT_MASKS[1], SUIT_MASKS[0]
NO_TRUMP = TRUMPS | EXCUSE_BIT
"""What a seat of an example must not hold beyond its shown cards, so that its other cards change nothing."""


def _mask(codes: str) -> int:
    return mask_of(parse_card(code) for code in codes.split())


def _codes(mask: int) -> list[str]:
    return [card_code(c) for c in display_order(mask)]


def _deal(players: int, fixed: dict[int, str], barred: dict[int, int], dealer: int) -> Deal:
    """A deal where each seat of ``fixed`` holds those cards, and each seat of ``barred`` none of those
    beyond them; the dog gets the lowest suit cards left, the other seats the rest in turn."""
    rules = RuleSet(players)
    size, dog_size = rules.settings.hand_size, rules.settings.dog_size
    hands = [0] * players
    for seat, text in fixed.items():
        hands[seat] = _mask(text)
    used = 0
    for hand in hands:
        assert not used & hand, "a card given twice"
        used |= hand
    free = [c for c in range(78) if not used >> c & 1]
    for seat, bar in barred.items():
        for card in [c for c in free if not bar >> c & 1][: size - hands[seat].bit_count()]:
            hands[seat] |= 1 << card
            free.remove(card)
    dog = mask_of([c for c in free if c < 56][:dog_size])
    free = [c for c in free if not dog >> c & 1]
    others = [s for s in range(players) if s not in barred]
    turn = 0
    for card in free:
        while hands[others[turn % len(others)]].bit_count() == size:
            turn += 1
        hands[others[turn % len(others)]] |= 1 << card
        turn += 1
    deal = Deal(rules, dealer, hands, dog)
    assert deal.phase == Phase.BIDDING, "an example dealt a petit sec"
    return deal


def _bid(deal: Deal, taker: int, contract: int) -> None:
    """Everybody passes but the taker; no chelem."""
    while deal.phase == Phase.BIDDING:
        seat = deal.to_act
        deal.apply(Bid(contract if seat == taker else PASS), seat)
    if deal.phase == Phase.CHELEM:
        deal.apply(Chelem(False), taker)


def trick(
    plays: str, actor: int | None = None, shown: str = "", barred: dict[int, int] | None = None, taker: int = 0
) -> dict[str, Any]:
    """A first trick at four, seat 0 leading (``plays`` its cards in order); with ``actor``, the player to
    play next and which of their ``shown`` cards they may play; without, who won the finished trick."""
    cards = plays.split()
    fixed = {seat: code for seat, code in enumerate(cards)}
    if actor is not None:
        fixed[actor] = shown
    deal = _deal(4, fixed, barred or {}, dealer=3)
    _bid(deal, taker, GARDE_SANS)
    for seat, code in enumerate(cards):
        assert deal.to_act == seat
        deal.apply(Play(parse_card(code)), seat)
    out: dict[str, Any] = {"plays": cards, "taker": taker}
    if actor is not None:
        assert deal.to_act == actor
        legal = deal.legal_play_mask()
        out.update(actor=actor, hand=_codes(_mask(shown)), legal=_codes(legal & _mask(shown)))
    else:
        winner = deal.tricks[0].winner
        out.update(winner=winner, side="taker" if deal.side[winner] == 0 else "defence")
        if "EX" in cards:
            out["excuse_to"] = "taker" if deal.piles[0] & EXCUSE_BIT else "defence"
    return out


def tricks() -> dict[str, dict[str, Any]]:
    """A trick for each duty of the card play."""
    return {
        "follow": trick("7H", 1, "KH 3H T12 5C EX", {1: HEARTS | NO_TRUMP}),
        "trump": trick("7H 10H", 2, "T4 T15 2C QS", {2: HEARTS | NO_TRUMP}),
        "overtrump": trick("7H T10", 2, "T6 T14 2C", {1: HEARTS | NO_TRUMP, 2: HEARTS | NO_TRUMP}),
        "undertrump": trick("7H T18", 2, "T6 T9 2C", {1: HEARTS | NO_TRUMP, 2: HEARTS | NO_TRUMP}),
        "discard": trick("7H T3", 2, "QS 2C 8D", {1: HEARTS | NO_TRUMP, 2: HEARTS | NO_TRUMP}),
        "trump_led": trick("T8", 1, "T5 T20 KH", {1: NO_TRUMP}),
        "trump_wins": trick("7H KH T2 1H", barred={2: HEARTS | NO_TRUMP}),
        "suit_wins": trick("9S QS 3S KD", barred={3: SPADES | NO_TRUMP}),
        "excuse": trick("5S EX KS 2S", taker=1),
    }


def ecart() -> dict[str, Any]:
    """Two takers' hands at four, dog taken: what may never go, and when trumps may."""

    def one(codes: str) -> dict[str, Any]:
        hand = _mask(codes)
        refused = ecart_refusals(hand, 6)
        return {"hand": _codes(hand), "size": 6, "refused": {card_code(c): r.value for c, r in refused.items()}}

    return {
        "usual": one("T21 T17 T12 T8 T3 EX KS QS 9S 4S KH 7H 2H ND JD 10D 8D 6D 1D KC QC 5C 3C 1C"),
        "forced": one("T21 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7 T6 T5 T4 T3 T2 T1 EX KS KH KD KC 2H 3H"),
    }


def call() -> dict[str, Any]:
    """What a taker at five may call, holding some kings, or all four."""

    def one(held: str) -> dict[str, Any]:
        deal = _deal(5, {0: held}, {}, dealer=4)
        _bid(deal, 0, PRISE)
        assert deal.phase == Phase.CALL
        return {"held": _codes(_mask(held)), "callable": [card_code(c) for c in deal.callable_cards()]}

    return {"some": one("KS KH"), "all_kings": one("KS KH KD KC")}


def poignee() -> dict[str, Any]:
    """The poignées a hand of twelve trumps and the Excuse may show at four."""
    held = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 EX"
    deal = _deal(4, {0: held}, {0: NO_TRUMP}, dealer=3)
    _bid(deal, 0, GARDE_SANS)
    offer = deal.poignee_offer()
    assert offer is not None
    return {"players": 4, "held": _codes(_mask(held)), "sizes": dict(offer.sizes)}


def pile() -> dict[str, Any]:
    """A pile of won cards, counted."""
    codes = "KS 3H T21 7C QD 2S ND T9 JH 4D"
    return {
        "cards": codes.split(),
        "points": half_points(_mask(codes)) / 2 if half_points(_mask(codes)) % 2 else half_points(_mask(codes)) // 2,
    }


def examples() -> dict[str, Any]:
    return {"tricks": tricks(), "ecart": ecart(), "call": call(), "poignee": poignee(), "pile": pile()}


__all__ = ["call", "ecart", "examples", "pile", "poignee", "trick", "tricks"]
