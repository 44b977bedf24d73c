"""Playing a sampled world to its end with the club rules of thumb, as fast as we can.

Inside a world every hand is known, so the rollout's players use the sides
as they truly are; what they know of the cards is what a careful player would
(the cards gone), not the other hands.
"""

from __future__ import annotations

from ..engine import Deal
from ..engine.actions import (
    PLAYS,
    Bid,
    Call,
    Chelem,
    Discard,
    PetitSecDecision,
)
from ..engine.cards import FULL_DECK
from ..engine.state import PHASE_PLAY
from .tactics import choose_bid, choose_call, choose_ecart, play_card

_NO_CHELEM = Chelem(False)
_BIDS = tuple(Bid(c) for c in range(5))


def policy_card(deal: Deal) -> int:
    """The rules-of-thumb card for the player to act in a world."""
    seat = deal.to_act
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
                     FULL_DECK & ~seen & ~hand, deal.taker)  # fmt: skip


def other_phase_action(deal: Deal):
    """Bids, call, écart, chelem and petit sec in a world, by the rules of thumb."""
    phase = deal.phase
    seat = deal.to_act
    hand = deal.hands[seat]
    if phase == "bidding":
        return _BIDS[choose_bid(hand, deal.players, deal.contract)]
    if phase == "call":
        return Call(choose_call(hand, deal.callable_cards()))
    if phase == "discard":
        return Discard(choose_ecart(hand, deal.ecart_allowed(), deal.settings.dog_size))
    if phase == "chelem":
        return _NO_CHELEM
    if phase == "petit_sec":
        return PetitSecDecision(True)
    raise ValueError(f"no rollout action in phase {phase}")


def rollout(deal: Deal) -> None:
    """Play ``deal`` to its end in place.

    The card play is ``policy_card``'s, with what does not change during the
    play worked out once per rollout: each seat's allies, the seats after it at
    each place in a trick, and the cards seen (kept up to date card by card).
    Same cards as calling ``policy_card`` each time, at about two thirds of its cost.
    """
    while deal.phase != PHASE_PLAY:
        if deal.is_over:
            return
        deal.apply(other_phase_action(deal))
    side = deal.side
    seats = deal.seats
    nxt = deal._next
    active = deal.settings.active
    friends = [0] * deal.players
    after: list[list[tuple[int, ...]]] = [[] for _ in range(deal.players)]
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
    while not deal.is_over:
        seat = deal.to_act
        trick = deal.trick
        hand = hands[seat]
        card = play_card(hand, legal_mask(), trick, seat, friends[seat], after[seat][len(trick)],
                         unseen & ~hand, taker)  # fmt: skip
        apply(PLAYS[card])
        unseen &= ~(1 << card)
