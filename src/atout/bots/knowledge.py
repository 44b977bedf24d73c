"""What a seat can infer from its observation: cards seen, voids shown, allies known.

Built from an ``Observation`` only, so a robot using it never learns more than
its seat may know.  The expert's sampler draws hidden hands from these facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Observation
from ..engine.cards import BOUTS, EXCUSE, EXCUSE_BIT, FULL_DECK, KINGS, SUIT_MASKS, TRUMPS
from ..engine.observation import EcartShown
from .tactics import TRUMP_VOID


@dataclass(slots=True)
class Knowledge:
    """Facts about the hidden cards, as masks.

    ``voids[seat]`` bits 0-3: shown void in that suit; bit 4: no trump.
    ``ceiling[seat]``: the seat holds no trump at or above this card number
    (it failed to overtrump); 77 when unknown.  ``known[seat]``: cards the seat
    certainly holds (shown in a poignée, the taker's share of a shown dog).
    ``excluded[seat]``: further cards it cannot hold (a poignée completed with the
    Excuse shows every trump its owner had).
    """

    played: int
    unseen: int
    voids: list[int]
    ceiling: list[int]
    known: list[int]
    friends: int
    excluded: list[int]

    def banned(self, seat: int) -> int:
        """Every card ``seat`` cannot hold now."""
        return suit_void_mask(self.voids[seat], self.ceiling[seat]) | self.excluded[seat]


def played_cards(obs: Observation) -> int:
    mask = 0
    for trick in obs.tricks:
        for _, c in trick.plays:
            mask |= 1 << c
    for _, c in obs.trick:
        mask |= 1 << c
    return mask


def friends_of(obs: Observation) -> int:
    """Seats known to be on ``obs.seat``'s side (always including it)."""
    me = obs.seat
    assert me is not None, "a spectator has no side"
    taker = obs.taker
    mask = 1 << me
    if taker is None:
        return mask
    if obs.players != 5 or obs.called is None:
        if me == taker:
            return mask
        return sum(1 << s for s in obs.seats if s != taker)
    partner = obs.partner
    alone = obs.dog is not None and obs.dog >> obs.called & 1
    if me == taker:
        return mask | (1 << partner if partner is not None and partner != me else 0)
    if partner == me:
        return mask | 1 << taker
    if partner is not None or alone:
        return sum(1 << s for s in obs.seats if s not in (taker, partner))
    return mask


def infer(obs: Observation) -> Knowledge:
    """Read voids and trump ceilings from the tricks, known cards from what was shown."""
    n = obs.players
    voids = [0] * n
    ceiling = [EXCUSE] * n
    tricks = [t.plays for t in obs.tricks]
    if obs.trick:
        tricks.append(obs.trick)
    for plays in tricks:
        led = -1
        top = -1
        for seat, card in plays:
            if card == EXCUSE:
                continue
            if led < 0:
                led = 4 if card >= 56 else card // 14
            elif led < 4 and not (card < 56 and card // 14 == led):
                voids[seat] |= 1 << led
                if card < 56:
                    voids[seat] |= 1 << TRUMP_VOID
            elif led == 4 and card < 56:
                voids[seat] |= 1 << TRUMP_VOID
            if card >= 56:
                if top >= 0 and card < top:
                    ceiling[seat] = min(ceiling[seat], top)
                top = max(top, card)
    played = played_cards(obs)
    known = [0] * n
    excluded = [0] * n
    for seat, cards, _, _ in obs.poignees:
        known[seat] |= cards & ~played
        if cards & EXCUSE_BIT:
            excluded[seat] |= TRUMPS & ~cards
    taker = obs.taker
    if obs.dog is not None and taker is not None and taker != obs.seat:
        # The taker took the dog; only plain non-king cards can have gone to the écart.
        known[taker] |= obs.dog & (KINGS | BOUTS | (TRUMPS & ~obs.ecart_trumps)) & ~played
    unseen = FULL_DECK & ~obs.hand & ~played
    if obs.ecart is not None:
        unseen &= ~obs.ecart
    unseen &= ~obs.ecart_trumps
    for seat in range(n):
        if seat != obs.seat:
            known[seat] &= unseen
    for _, action in obs.history:
        if isinstance(action, EcartShown):
            unseen &= ~action.trumps
    return Knowledge(played, unseen, voids, ceiling, known, friends_of(obs), excluded)


def suit_void_mask(voids: int, ceiling: int) -> int:
    """The cards a seat with these voids and trump ceiling cannot hold."""
    mask = 0
    for s in range(4):
        if voids >> s & 1:
            mask |= SUIT_MASKS[s]
    if voids >> TRUMP_VOID & 1:
        mask |= TRUMPS
    elif ceiling < EXCUSE:
        mask |= TRUMPS & ~((1 << ceiling) - 1)
    return mask
