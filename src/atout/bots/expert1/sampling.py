"""Worlds consistent with an observation: the expert's guesses at the hidden cards.

A world is a full ``Deal`` rebuilt from sampled initial hands and replayed
through the observation's history, so it agrees with everything the seat saw:
its own hand, the cards played, the voids and trump ceilings shown, poignées,
the dog when it was shown, the écart's shown trumps, the bids and the call.
A replay that the engine refuses is a world that could not have happened; it
is thrown away.
"""

from __future__ import annotations

import random

from ...engine import PASS, PRISE, Bid, Deal, Discard, IllegalAction, Observation
from ...engine.cards import BOUTS, EXCUSE_BIT, KINGS, PETIT_BIT, TRUMPS
from ...engine.observation import EcartShown
from .knowledge import Knowledge, infer
from .tactics import hand_strength, threshold

DOG = -1
ECART = -2


class NoWorld(Exception):
    """No consistent world was found (should not happen with a correct observation)."""


def _buckets(obs: Observation, k: Knowledge) -> tuple[dict[int, int], dict[int, int]]:
    """Hidden places and how many unseen cards each holds, and the cards each may not hold."""
    size: dict[int, int] = {}
    banned: dict[int, int] = {}
    me = obs.seat
    for seat in obs.seats:
        if seat != me:
            size[seat] = obs.hand_sizes[seat]
            banned[seat] = k.banned(seat)
    dog_size = obs.rules.settings.dog_size
    if obs.dog is None:
        # Before the contract, and in Garde sans / contre, nobody has seen the dog.
        size[DOG] = dog_size
        banned[DOG] = 0
    elif me != obs.taker and obs.phase not in ("discard",):
        hidden = dog_size - obs.ecart_trumps.bit_count()
        if hidden:
            size[ECART] = hidden
            banned[ECART] = TRUMPS | KINGS | BOUTS
    return size, banned


def sample_hidden(obs: Observation, rng: random.Random, k: Knowledge | None = None,
                  tries: int = 60) -> dict[int, int]:
    """Unseen cards dealt into the hidden places (seats, dog, hidden écart), as masks."""
    k = k or infer(obs)
    size, banned = _buckets(obs, k)
    fixed = {b: 0 for b in size}
    free = k.unseen
    for seat, cards in enumerate(k.known):
        if cards and seat in size:
            fixed[seat] |= cards
            free &= ~cards
    # The shown dog went to the taker: its unseen cards are in the taker's hand or the écart.
    dog_rest = 0
    if obs.dog is not None and obs.taker != obs.seat:
        dog_rest = obs.dog & free
    cards = []
    m = free
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    places = list(size)
    allowed: dict[int, list[int]] = {}
    for c in cards:
        bit = 1 << c
        if dog_rest & bit:
            opts = [b for b in (obs.taker, ECART) if b in size and not banned[b] & bit]
        else:
            opts = [b for b in places if not banned[b] & bit]
        allowed[c] = opts
    for _ in range(tries):
        room = {b: size[b] - fixed[b].bit_count() for b in places}
        out = dict(fixed)
        order = cards[:]
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[c]))
        ok = True
        for c in order:
            opts = [b for b in allowed[c] if room[b] > 0]
            if not opts:
                ok = False
                break
            total = sum(room[b] for b in opts)
            r = rng.random() * total
            for b in opts:
                r -= room[b]
                if r < 0:
                    break
            out[b] |= 1 << c
            room[b] -= 1
        if ok and all(v == 0 for v in room.values()):
            return out
    raise NoWorld("no consistent deal of the unseen cards")


def _played_by(obs: Observation) -> list[int]:
    played = [0] * obs.players
    for trick in obs.tricks:
        for s, c in trick.plays:
            played[s] |= 1 << c
    for s, c in obs.trick:
        played[s] |= 1 << c
    return played


def build_world(obs: Observation, hidden: dict[int, int]) -> Deal | None:
    """The deal at ``obs``'s moment in the world ``hidden``; None if the history cannot replay."""
    n = obs.players
    me = obs.seat
    taker = obs.taker
    played = _played_by(obs)
    hands = [0] * n
    for seat in obs.seats:
        hands[seat] = (obs.hand if seat == me else hidden.get(seat, 0)) | played[seat]
    if obs.dog is not None:
        dog = obs.dog
        if obs.phase == "discard":
            ecart = 0
            hands[taker] &= ~dog
        else:
            ecart = obs.ecart if me == taker else obs.ecart_trumps | hidden.get(ECART, 0)
            hands[taker] = (hands[taker] | ecart) & ~dog
    else:
        dog = hidden.get(DOG, 0)
        ecart = 0
    if obs.rules.option("petit_sec") == "redeal":
        for seat in obs.seats:
            h = hands[seat]
            if h & TRUMPS == PETIT_BIT and not h & EXCUSE_BIT:
                return None
    try:
        deal = Deal(obs.rules, obs.dealer, hands, dog)
        for seat, action in obs.history:
            if isinstance(action, EcartShown):
                action = Discard(ecart)
            deal.apply(action, seat)
    except (IllegalAction, ValueError):
        return None
    return deal


def bids_plausible(obs: Observation, deal: Deal, slack: float = 8.0) -> bool:
    """Whether the world's initial hands fit the bids heard, by the club count.

    A pass from a hand far above the taking threshold, or a contract from a hand
    far below its threshold, makes the world unlikely (not impossible).
    """
    current = PASS
    players = obs.players
    for seat, action in obs.history:
        if type(action) is not Bid:
            continue
        if seat != obs.seat:
            strength = hand_strength(deal.initial_hands[seat], players)
            if action.contract == PASS:
                if current < PRISE and strength > threshold(PRISE) + slack:
                    return False
            elif strength < threshold(action.contract) - slack:
                return False
        if action.contract != PASS:
            current = action.contract
    return True


def sample_world(obs: Observation, rng: random.Random, k: Knowledge | None = None,
                 attempts: int = 30, bid_filter: bool = True) -> Deal:
    """A world consistent with ``obs``, at the same point of the deal.

    Worlds that fit the bids badly are mostly thrown away (kept one time in
    five, so that an unusual bidder cannot make every world impossible).
    """
    k = k or infer(obs)
    fallback = None
    for _ in range(attempts):
        deal = build_world(obs, sample_hidden(obs, rng, k))
        if deal is None:
            continue
        if not bid_filter or bids_plausible(obs, deal) or rng.random() < 0.2:
            return deal
        fallback = fallback or deal
    if fallback is not None:
        return fallback
    raise NoWorld("no world replays this observation's history")
