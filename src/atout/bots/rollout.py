"""Playing a sampled world to its end with the club rules of thumb, as fast as we can.

Inside a world every hand is known, so the rollout's players use the sides
as they truly are; what they know of the cards is what a careful player would
(the cards gone), not the other hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from ..engine import Deal
from ..engine.actions import (
    PLAYS,
    Bid,
    Call,
    Chelem,
    Discard,
    PetitSecDecision,
)
from ..engine.cards import EXCUSE, FULL_DECK, TRUMPS
from ..engine.state import PHASE_BIDDING, PHASE_CALL, PHASE_CHELEM, PHASE_DISCARD, PHASE_PETIT_SEC, PHASE_PLAY
from . import fastplay
from .heuristic import poignee_choice
from .tactics import TRUMP_VOID, choose_bid, choose_call, choose_ecart, play_card

_NO_CHELEM = Chelem(False)
_BIDS = tuple(Bid(c) for c in range(5))
_NO_TRUMP = 1 << TRUMP_VOID


def rollout_score(deal: Deal, me: int, declined: bool = False) -> int:
    """``me``'s score once ``deal`` is played to its end as ``rollout`` plays it, the card play
    compiled (``fastplay``: the same cards, about fifty times faster); ``deal`` is changed only
    up to the start of the play."""
    if not to_play(deal):
        result = deal.result
        assert result is not None, "a deal that ended before its first card has its result"
        return result.scores[me]
    to_act = deal.to_act
    assert to_act is not None, "the first card is someone's to play"
    st = fastplay.pack(deal, shown_voids(deal), to_act if declined else -1)
    return int(fastplay.play_out(st, me))


def ecart_scores(deal: Deal, me: int, ecarts: list[int]) -> list[int]:
    """``rollout_score`` after each écart of ``ecarts`` (``deal`` at the taker ``me``'s écart):
    the world is played to its first card once, then every écart played out in compiled code."""
    first = deal.clone()
    first.apply(Discard(ecarts[0]))
    if not to_play(first):
        raise ValueError("a deal cannot end between its écart and its first card")
    st = fastplay.pack(first, shown_voids(first))
    cards = deal.hands[me]
    lo = np.array([e & fastplay.LO_BITS for e in ecarts], dtype=np.int64)
    hi = np.array([e >> 56 for e in ecarts], dtype=np.int64)
    out = np.zeros(len(ecarts), dtype=np.int64)
    fastplay.ecart_values(st, me, cards & fastplay.LO_BITS, cards >> 56, lo, hi, out)
    return [int(v) for v in out]


def policy_card(deal: Deal) -> int:
    """The rules-of-thumb card for the player to act in a world."""
    seat, taker = deal.to_act, deal.taker
    assert seat is not None and taker is not None, "a card is someone's to play, after someone took"
    hand = deal.hands[seat]
    trick = deal.trick
    side = deal.side
    my_side = side[seat]
    friends = 0
    for s in deal.seats:
        if side[s] == my_side:
            friends |= 1 << s
    seen = deal.piles[0] | deal.piles[1]
    for _, c in trick:
        seen |= 1 << c
    left = deal.settings.active - len(trick) - 1
    after = []
    s = seat
    nxt = deal._next
    for _ in range(left):
        s = nxt[s]
        after.append(s)
    return play_card(hand, deal.legal_play_mask(), trick, seat, friends, after,
                     FULL_DECK & ~seen & ~hand, taker)  # fmt: skip


def other_phase_action(deal: Deal):
    """Bids, call, écart, chelem and petit sec in a world, by the rules of thumb."""
    phase = deal.phase
    seat = deal.to_act
    assert seat is not None, "a deal not over has a seat to act"
    hand = deal.hands[seat]
    if phase is PHASE_BIDDING:
        return _BIDS[choose_bid(hand, deal.players, deal.contract)]
    if phase is PHASE_CALL:
        return Call(choose_call(hand, deal.callable_cards()))
    if phase is PHASE_DISCARD:
        return Discard(choose_ecart(hand, deal.ecart_allowed(), deal.settings.dog_size))
    if phase is PHASE_CHELEM:
        return _NO_CHELEM
    if phase is PHASE_PETIT_SEC:
        return PetitSecDecision(True)
    raise ValueError(f"no rollout action in phase {phase}")


def to_play(deal: Deal) -> bool:
    """Play ``deal``'s bids, call, écart and chelem by the rules of thumb up to its first card;
    False if it ended there instead (everyone passed)."""
    while deal.phase != PHASE_PLAY:
        if deal.is_over:
            return False
        deal.apply(other_phase_action(deal))
    return True


def shown_voids(deal: Deal) -> list[int]:
    """Each seat's voids shown so far in ``deal`` (as ``knowledge.infer`` reads them: bits 0-3 a
    suit, bit 4 no trump)."""
    voids = [0] * deal.players
    tricks: list[Sequence[tuple[int, int]]] = [t.plays for t in deal.tricks]
    if deal.trick:
        tricks.append(deal.trick)
    for plays in tricks:
        led = -1
        for seat, card in plays:
            if card == EXCUSE:
                continue
            if led < 0:
                led = 4 if card >= 56 else card // 14
            elif led < 4:
                if not (card < 56 and card // 14 == led):
                    voids[seat] |= 1 << led if card >= 56 else (1 << led) | _NO_TRUMP
            elif card < 56:
                voids[seat] |= _NO_TRUMP
    return voids


def _known_friends(deal: Deal, seat: int) -> int:
    """At five players before the called card shows: the allies ``seat`` knows (as ``knowledge.friends_of``)."""
    taker, called = deal.taker, deal.called
    assert taker is not None and called is not None, "a called card's deal has a taker"
    partner = deal.partner
    if seat == taker:
        return 1 << seat
    if seat == partner:
        return 1 << seat | 1 << taker
    if deal.dog_shown and deal.initial_dog >> called & 1:
        return sum(1 << s for s in deal.seats if s != taker)
    return 1 << seat


def rollout(deal: Deal, declined: bool = False) -> None:
    """Play ``deal`` to its end in place.

    The card play (and the poignées) are the rules of thumb (``tactics.play_card``) with what each
    seat would know at the table: the cards gone, the voids shown so far (kept
    up to date card by card) and, at five players until the called card falls,
    only the allies it knows.  So in a world the others play exactly as the
    heuristic robot would.  What does not change during the play is worked
    out once per rollout: each seat's allies and the seats after it at each
    place in a trick.
    """
    if not to_play(deal):
        return
    side = deal.side
    seats = deal.seats
    nxt = deal._next
    active = deal.settings.active
    friends = [0] * deal.players
    after: list[list[tuple[int, ...]]] = [[] for _ in range(deal.players)]
    # What each seat knows is not out besides its hand: the taker its écart, the others its shown trumps.
    known = [deal.ecart & TRUMPS] * deal.players
    if deal.taker is not None:
        known[deal.taker] = deal.ecart
    for seat in seats:
        for s in seats:
            if side[s] == side[seat]:
                friends[seat] |= 1 << s
        for placed in range(active):
            rest = []
            s = seat
            for _ in range(active - placed - 1):
                s = nxt[s]
                rest.append(s)
            after[seat].append(tuple(rest))
    seen = deal.piles[0] | deal.piles[1]
    for _, c in deal.trick:
        seen |= 1 << c
    hands = deal.hands
    taker = deal.taker
    apply = deal.apply
    legal_mask = deal.legal_play_mask
    unseen = FULL_DECK & ~seen
    voids = shown_voids(deal)
    hidden_partner = deal.called is not None and not deal.partner_revealed
    # Poignées are shown as the heuristic shows them, at each seat's first card; with ``declined``
    # the seat to act now keeps its own hidden (that is the choice being searched).
    first_trick = not deal.tricks
    skip = deal.to_act if declined else -1
    assert taker is not None, "the play has a taker"
    while not deal.is_over:
        seat = cast(int, deal.to_act)  # a deal not over has a seat to play
        if first_trick:
            if deal.tricks:
                first_trick = False
            elif seat != skip:
                offer = deal.poignee_offer()
                if offer is not None:
                    apply(poignee_choice(offer))
        trick = deal.trick
        hand = hands[seat]
        if hidden_partner:
            if deal.partner_revealed:
                hidden_partner = False
                mine = friends[seat]
            else:
                mine = _known_friends(deal, seat)
        else:
            mine = friends[seat]
        card = play_card(hand, legal_mask(), trick, seat, mine, after[seat][len(trick)],
                         unseen & ~hand & ~known[seat], taker, voids)  # fmt: skip
        led = deal._led
        if led >= 0 and card != EXCUSE:
            if led < 4:
                if not (card < 56 and card // 14 == led):
                    voids[seat] |= 1 << led if card >= 56 else (1 << led) | _NO_TRUMP
            elif card < 56:
                voids[seat] |= _NO_TRUMP
        apply(PLAYS[card])
        unseen &= ~(1 << card)
