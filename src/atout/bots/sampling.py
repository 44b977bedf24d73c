"""Worlds consistent with an observation: the expert's guesses at the hidden cards.

A world is a full ``Deal`` rebuilt from sampled initial hands and replayed
through the observation's history, so it agrees with everything the seat saw:
its own hand, the cards played, the voids and trump ceilings shown, poignées,
the dog when it was shown, the écart's shown trumps, the bids and the call.
A replay that the engine refuses is a world that could not have happened; it
is thrown away.  Seen by a defender, a world also gives the taker what a club
taker would have held: a hand worth its contract, and the écart the rules of
thumb lay aside from its cards (``_as_club``), which places the taker's voids.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeAlias, cast

import numpy as np

from ..engine import GARDE_CONTRE, PASS, PRISE, Bid, Deal, Discard, IllegalAction, Observation, Play
from ..engine.cards import BOUTS, EXCUSE, EXCUSE_BIT, FULL_DECK, HALF_POINTS, KINGS, TRUMPS, holds_petit_sec
from ..engine.observation import EcartShown
from ..engine.state import PHASE_PLAY, ecart_allowed
from . import fastdeal, fastplay
from .knowledge import Knowledge, infer
from .tactics import TRUMP_VOID, choose_ecart, hand_strength, play_card, threshold

PLAY_SURPRISE = 0.5
"""A world's weight is multiplied by this for each card another seat played that a club player
(the rules of thumb, seeing what that seat saw) would not have played in it."""

PLAY_SURPRISE_5: float | None = None
"""At five players, the weight per surprising card instead of ``PLAY_SURPRISE`` (None: the same).
There the others' cards are what tells a defender who the called card's holder is, and with 0.5 a
surprise a defender's worlds give the true partner 45% of their weight at the third trick (a third
is chance), 0.1 a surprise 59%.  Yet 0.1 lost: -0.9 [-2.9, +1.2] a defending seat against the
heuristic, 300 paired deals (seed r25-d5); being told who holds the called card is worth only
+1.6 to the defence (``defence_information.py --know called``)."""


def play_surprise(players: int) -> float:
    """The weight per surprising card at a table of ``players``."""
    if players == 5 and PLAY_SURPRISE_5 is not None:
        return PLAY_SURPRISE_5
    return PLAY_SURPRISE


BID_SURPRISE = 0.2
"""A world's weight is multiplied by this when its hands fit the bids heard badly."""

POOL = 0
"""Card decisions draw this many worlds (when more than asked) and keep the likeliest."""

COMPILED_DEAL = True
"""Whether card decisions deal their worlds in compiled code (``fastdeal``: the same law)."""

BID_SLACK = 8.0
"""Club-count points by which a hand may miss the range its bid suggests before it fits badly."""

ECART_MODEL = True
"""Whether a defender's worlds give the taker the écart the rules of thumb would lay aside from
its cards (a club taker voids its short suits: the defence plays into its cuts)."""

BID_MODEL = True
"""Whether a defender's worlds give the taker a hand whose club count fits its contract (within
``BID_MODEL_SLACK``), when one can be found: a club player bids the highest contract its count
reaches."""

BID_MODEL_SLACK = 4.0

MODEL_PLAYERS = (3, 4, 5)
"""The table sizes where ``ECART_MODEL`` and ``BID_MODEL`` apply once the bidding is over.  At five
players since issue 25's sixth session: paired against the heuristic, 1,000 deals (seed r25-d5),
+3.2 [+1.7, +4.7] a defending seat (issue 12's fourth session had measured +0.5 [-2.4, +3.4] over
200 deals with the code of then, and -10.5 [-20.8, -0.2] against expert-1 takers over 80, who bid
and lay aside otherwise; against expert-2 takers, 1,000 paired deals (seed i25-5e2), -0.3 [-2.8, +2.2];
benchmarks/results/strength.md)."""

BID_TIME_PLAYERS = (3, 4, 5)
"""The table sizes where ``BID_MODEL`` also shapes, during the bidding, the worlds of a seat
weighing a bid over the highest bidder so far.  At five players this part was kept when the rest
of the model was turned off there: the whole model was worth +2.7 [+1.3, +4.1] a deal against
the heuristic over the 500 deals of the strength run, and its defence part +0.5 of it; this part
alone, +0.6 [-1.6, +2.8] over 200 paired deals (seed i14-5eh)."""

UNFIT_TRIES = 4
"""Worlds a draw tries to fit to the club taker once a draw of the same decision found none fit."""

BID_CEILING = False
"""Whether a contract from a hand far above the next contract's threshold also fits badly."""

CALLED_NOT_TAKER = False
"""Whether a seat's worlds at five players keep the called card out of the taker's hand while it is
unseen (a taker calls a card it lacks: the rules of thumb always do, the expert only when it does not
choose to play alone).  Without it about a fifth of a defender's worlds give the taker its own
called king, that is a taker playing alone and no partner among the others.  Paired against the
heuristic at five players, 300 deals (seed r25-d5): +0.0 [-1.6, +1.6] a defending seat, though a third
of those seat-games end otherwise; so off (issue 12's fourth session found the same of a stricter
form, the taker's hand calling the card it called: -0.2 [-2.9, +2.5])."""

DOG = -1
ECART = -2

# What ``fastdeal.draw`` deals from (``Deck.compiled``): the places' room, their fixed cards (low, high
# bits), the constrained cards, their allowed places and how many, the cards that go anywhere, the
# club taker's model and its bid range.
Compiled: TypeAlias = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]


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
    taker, called = obs.taker, obs.called
    if (
        CALLED_NOT_TAKER
        and called is not None
        and taker in size
        and k.unseen >> called & 1
        and not k.known[taker] >> called & 1
    ):
        bit = 1 << called
        if any(not banned[b] & bit for b in size if b != taker):
            banned[taker] |= bit
    return size, banned


class Deck:
    """What every draw of one decision shares: the hidden places and their sizes, the unseen
    cards and where each may lie, and the club-taker model (``_club_model``).

    A draw deals the cards that may lie in some places only first, one by one (the places
    with more room more likely), then shuffles the cards that may lie anywhere into the room
    left: the same law as dealing every card one by one, at a fraction of the cost.
    """

    def __init__(self, obs: Observation, k: Knowledge | None = None) -> None:
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
        places = list(size)
        self.places = places
        self.fixed = fixed
        self.room = {b: size[b] - fixed[b].bit_count() for b in places}
        constrained: list[tuple[int, list[int]]] = []
        anywhere: list[int] = []
        m = free
        while m:
            bit = m & -m
            m ^= bit
            if dog_rest & bit:
                opts = [b for b in (obs.taker, ECART) if b in size and not banned[b] & bit]
            else:
                opts = [b for b in places if not banned[b] & bit]
            if len(opts) == len(places):
                anywhere.append(bit)
            else:
                constrained.append((bit, opts))
        self.constrained = constrained
        self.anywhere = anywhere
        self.model = _club_model(obs, size, banned)
        self._compiled: Compiled | None = None

    def compiled(self) -> Compiled:
        """The arrays ``fastdeal.draw`` deals from (places in ``self.places`` order)."""
        if self._compiled is None:
            index = {b: i for i, b in enumerate(self.places)}
            lo, hi = fastplay.LO_BITS, 56

            def arr(values) -> np.ndarray:
                return np.array(list(values), dtype=np.int64)

            model = np.full(13, -1, dtype=np.int64)
            bid = np.zeros(2, dtype=np.float64)
            if self.model is not None:
                taker, also, shown, banned, dog, count, ecart_hidden, bid_range, players = self.model
                model[:] = (
                    index[taker],
                    index.get(ECART, -1),
                    also & lo,
                    also >> hi,
                    shown >> hi,
                    banned & lo,
                    banned >> hi,
                    dog & lo,
                    dog >> hi,
                    count,
                    int(ecart_hidden),
                    int(bid_range is not None),
                    players,
                )
                if bid_range is not None:
                    bid[:] = bid_range
            self._compiled = (
                arr(self.room[b] for b in self.places),
                arr(self.fixed[b] & lo for b in self.places),
                arr(self.fixed[b] >> hi for b in self.places),
                arr(bit.bit_length() - 1 for bit, _ in self.constrained),
                arr(sum(1 << index[b] for b in opts) for _, opts in self.constrained),
                arr(len(opts) for _, opts in self.constrained),
                arr(bit.bit_length() - 1 for bit in self.anywhere),
                model,
                bid,
            )
        return self._compiled

    def draw_compiled(
        self,
        tries: int = 60,
        unfit: list[int] | None = None,
        probs: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> dict[int, int]:
        """``draw`` in compiled code (``fastdeal.draw``), from numba's generator (seed it with
        ``fastdeal.seed`` first): the same law, other draws.  With ``probs`` (``inference.draw_probabilities``:
        the free cards, their places' probabilities, how many places each may lie in), each card's
        place is drawn from the learned model's probabilities (``fastdeal.draw_model``) within the same facts."""
        fits = UNFIT_TRIES if unfit is not None and unfit[0] else tries
        n = len(self.places)
        out_lo = np.zeros(n, dtype=np.int64)
        out_hi = np.zeros(n, dtype=np.int64)
        arrays = self.compiled()
        if probs is None:
            status = fastdeal.draw(*arrays, tries, fits, out_lo, out_hi)
        else:
            status = fastdeal.draw_model(
                arrays[0], arrays[1], arrays[2], *probs, arrays[7], arrays[8], tries, fits, out_lo, out_hi
            )
        if status < 0:
            raise NoWorld("no consistent deal of the unseen cards")
        if status == 1 and unfit is not None:
            unfit[0] += 1
        return {b: int(out_lo[i]) | int(out_hi[i]) << 56 for i, b in enumerate(self.places)}

    def deal_once(self, rng: random.Random) -> dict[int, int] | None:
        """One random deal of the unseen cards into the hidden places; None if it got stuck."""
        room = dict(self.room)
        out = dict(self.fixed)
        order = self.constrained[:]
        rng.shuffle(order)
        order.sort(key=lambda item: len(item[1]))
        for bit, opts in order:
            total = 0
            for b in opts:
                total += room[b]
            if not total:
                return None
            r = rng.random() * total
            for b in opts:
                r -= room[b]
                if r < 0 and room[b]:
                    break
            out[b] |= bit
            room[b] -= 1
        bits = self.anywhere[:]
        rng.shuffle(bits)
        at = 0
        for b in self.places:
            n = room[b]
            if n:
                out[b] |= sum(bits[at : at + n])
                at += n
        if at != len(bits):
            return None
        return out

    def draw(self, rng: random.Random, tries: int = 60, unfit: list[int] | None = None) -> dict[int, int]:
        """Unseen cards dealt into the hidden places (seats, dog, hidden écart), as masks.

        ``unfit``, shared by the draws of one decision, counts the draws where no world fitted
        the club taker (``_as_club``); after one, a draw tries to fit only ``UNFIT_TRIES``
        worlds: where the taker played otherwise than a club player would, every draw would try
        in vain (drawing a defender's 18 worlds took 69 ms on average over 40 positions of
        4-player deals, 32 ms with the cap).
        """
        fits = UNFIT_TRIES if unfit is not None and unfit[0] else tries
        model = self.model
        fallback = None
        for _ in range(tries):
            out = self.deal_once(rng)
            if out is None:
                continue
            if model is None:
                return out
            fallback = fallback or out
            if _as_club(out, model):
                return out
            fits -= 1
            if not fits:
                break
        if fallback is not None:
            if unfit is not None:
                unfit[0] += 1
            return fallback
        raise NoWorld("no consistent deal of the unseen cards")


def sample_hidden(
    obs: Observation, rng: random.Random, k: Knowledge | None = None, tries: int = 60, unfit: list[int] | None = None
) -> dict[int, int]:
    """One draw of ``Deck(obs, k)`` (see ``Deck.draw``)."""
    return Deck(obs, k).draw(rng, tries, unfit)


def _club_model(obs: Observation, size: dict[int, int], banned: dict[int, int]):
    """What ``_as_club`` needs to fit a defender's world to a club taker; None if nothing to fit."""
    taker = obs.taker
    if taker is None or taker == obs.seat or taker not in size:
        return None
    if obs.players not in (BID_TIME_PLAYERS if obs.phase == "bidding" else MODEL_PLAYERS):
        return None
    ecart_hidden = ECART_MODEL and ECART in size
    bid = None
    if BID_MODEL:
        # A club player bids the highest contract its count reaches.  (Only the taker's bid:
        # fitting the passers' hands too cost the expert as taker 17.9 a take [-37.8, +2.0] in a
        # paired 200-deal run, seed i13t.)
        contract = obs.contract
        hi = threshold(contract + 1) if contract < GARDE_CONTRE else 1e9
        bid = (threshold(contract) - BID_MODEL_SLACK, hi + BID_MODEL_SLACK)
    if not ecart_hidden and bid is None:
        return None
    also = _played_by(obs)[taker] | obs.ecart_trumps
    return (
        taker,
        also,
        obs.ecart_trumps,
        banned[taker],
        obs.dog or 0,
        obs.rules.settings.dog_size,
        ecart_hidden,
        bid,
        obs.players,
    )


def _as_club(out: dict[int, int], model) -> bool:
    """Whether the world ``out`` fits a club taker: its bid in the range its hand's club count
    gives (``BID_MODEL``), and its écart the one the rules of thumb lay aside from its cards
    (``ECART_MODEL``: the hidden écart is redealt from the taker's cards, in place when the
    world fits; impossible when that écart holds a card the taker played, or other trumps than
    those shown)."""
    taker, also, shown_trumps, taker_banned, dog, count, ecart_hidden, bid, players = model
    joint = out[taker] | out.get(ECART, 0)
    cards = joint | also  # the taker's cards before its écart (with the dog, when it was shown)
    if ecart_hidden:
        ecart = choose_ecart(cards, ecart_allowed(cards, count), count)
        if ecart & TRUMPS != shown_trumps or ecart & also & ~shown_trumps:
            return False
        hand = joint & ~ecart
        if hand & taker_banned:
            return False
    if bid is not None and not bid[0] <= hand_strength(cards & ~dog, players) < bid[1]:
        return False
    if ecart_hidden:
        out[taker] = hand
        out[ECART] = ecart & ~shown_trumps
    return True


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
    return replay_world(obs, hidden, judge=False)[0]


def replay_world(obs: Observation, hidden: dict[int, int], judge: bool = True) -> tuple[Deal | None, int]:
    """The world ``hidden`` replayed to ``obs``'s moment, and how many of the others' cards surprise.

    With ``judge``, before each card another seat played, the rules of thumb are
    asked which card that seat would play seeing what it saw then (its hand in
    this world, the cards gone, the voids shown, the allies it knew); a
    different card (other than an equally small one of the same suit) counts
    as one surprise.  Worlds where the others played as club players would are
    the likelier ones.
    """
    n = obs.players
    me = obs.seat
    built = _dealt(obs, hidden)
    if built is None:
        return None, 0
    hands, dog, ecart = built
    surprises = 0
    gone = 0
    voids = [0] * n
    shown_trumps = obs.ecart_trumps
    try:
        deal = Deal(obs.rules, obs.dealer, hands, dog)
        for seat, action in obs.history:
            if isinstance(action, EcartShown):
                action = Discard(ecart)
            if type(action) is Play and deal.phase == PHASE_PLAY:
                card = action.card
                trick = deal.trick
                if judge and seat != me:
                    guess = _club_card(deal, seat, gone, voids, shown_trumps)
                    if guess != card and not _alike(guess, card):
                        surprises += 1
                _note_void(voids, trick, seat, card)
                gone |= 1 << card
            deal.apply(action, seat)
    except (IllegalAction, ValueError):
        return None, 0
    return deal, surprises


def _dealt(obs: Observation, hidden: dict[int, int]) -> tuple[list[int], int, int] | None:
    """The world ``hidden``'s hands as dealt, its dog and the taker's écart; None if the deal
    would have been void (a Petit sec under the redeal rule)."""
    n = obs.players
    me = obs.seat
    taker = obs.taker
    played = _played_by(obs)
    hands = [0] * n
    for seat in obs.seats:
        hands[seat] = (obs.hand if seat == me else hidden.get(seat, 0)) | played[seat]
    if obs.dog is not None:
        assert taker is not None, "the dog shows to a taker"
        dog = obs.dog
        if obs.phase == "discard":
            ecart = 0
            hands[taker] &= ~dog
        else:
            # the taker knows its écart (an int from its discard on), the others its trumps shown
            ecart = cast(int, obs.ecart) if me == taker else obs.ecart_trumps | hidden.get(ECART, 0)
            hands[taker] = (hands[taker] | ecart) & ~dog
    else:
        dog = hidden.get(DOG, 0)
        ecart = 0
    if obs.rules.option("petit_sec") == "redeal" and any(holds_petit_sec(hands[seat]) for seat in obs.seats):
        return None
    return hands, dog, ecart


def start_of_play(obs: Observation, hidden: dict[int, int]) -> Deal | None:
    """The world ``hidden`` at its first card (the bids, the call, the écart and the chelem of
    ``obs``'s history replayed); None if that cannot be."""
    built = _dealt(obs, hidden)
    if built is None:
        return None
    hands, dog, ecart = built
    try:
        deal = Deal(obs.rules, obs.dealer, hands, dog)
        for seat, action in obs.history:
            if deal.phase == PHASE_PLAY:
                break
            if isinstance(action, EcartShown):
                action = Discard(ecart)
            deal.apply(action, seat)
    except (IllegalAction, ValueError):
        return None
    return deal if deal.phase == PHASE_PLAY else None


Chances: TypeAlias = Callable[[Observation, Knowledge, "Deck"], "tuple[np.ndarray, np.ndarray, np.ndarray] | None"]
"""Where each free card of a Deck may be dealt, with what probability (``inference.draw_probabilities``)."""


def weighted_states(
    obs: Observation,
    rng: random.Random,
    count: int,
    k: Knowledge | None = None,
    deadline: float | None = None,
    chances: Chances | None = None,
) -> list[tuple[np.ndarray, float]]:
    """``weighted_worlds`` for a card of the play, each world packed for the compiled rollouts
    (``fastplay``) at ``obs``'s moment: its cards are replayed and judged in compiled code, and
    no ``Deal`` is built past the first card.  The same worlds and weights as
    ``weighted_worlds`` for the same generator.

    ``chances`` (``inference.draw_probabilities``: the learned card-location model's probabilities, its
    softmax to a power, balanced) deals the unseen cards from them rather than by room alone
    (``expert.MODEL_DRAW``); every hard fact is kept and the worlds are weighted as before.  Given by the
    caller: the model reads a Deck, so this module cannot import it."""
    import time

    k = k or infer(obs)
    deck = Deck(obs, k)
    probs = chances(obs, k, deck) if chances is not None and COMPILED_DEAL else None
    me = obs.seat
    assert me is not None, "a seat's worlds"
    plays = [(s, a.card) for s, a in obs.history if type(a) is Play]
    seats = np.array([s for s, _ in plays], dtype=np.int64)
    cards = np.array([c for _, c in plays], dtype=np.int64)
    shown = sum(p[3] for p in obs.poignees)
    shown_seats = {p[0] for p in obs.poignees}
    first_trick = not obs.tricks
    in_trick = {s for s, _ in obs.trick}
    still = [s for s in obs.seats if first_trick and s != me and s not in in_trick and s not in shown_seats]
    sizes = obs.rules.settings.poignees
    out: list[tuple[np.ndarray, float]] = []
    unfit = [0]
    if COMPILED_DEAL:
        fastdeal.seed(rng.getrandbits(31))
    voids = [0] * obs.players
    want = max(count, POOL)
    for _ in range(want * 3):
        if len(out) >= want or (deadline is not None and out and time.perf_counter() > deadline):
            break
        try:
            hidden = deck.draw_compiled(unfit=unfit, probs=probs) if COMPILED_DEAL else deck.draw(rng, unfit=unfit)
        except NoWorld:
            break
        start = start_of_play(obs, hidden)
        if start is None:
            continue
        st = fastplay.pack(start, voids, poignees=False)
        surprises = fastplay.replay(st, seats, cards, me)
        if surprises < 0:
            continue
        bonus = shown
        for seat in still:
            # The seats yet to play their first card show their poignée in the rollouts.
            pool = start.hands[seat] & (TRUMPS | EXCUSE_BIT)
            if seat == start.taker:
                pool |= start.ecart & TRUMPS
            bonus += fastplay.poignee_bonus(pool, sizes)
        st[fastplay.BONUS] = bonus
        w = play_surprise(obs.players) ** surprises
        if not bids_plausible(obs, start):
            w *= BID_SURPRISE
        out.append((st, w))
    if not out:
        raise NoWorld("no world replays this observation's history")
    if len(out) > count:
        out.sort(key=lambda sw: -sw[1])
        out = out[:count]
    return out


def _note_void(voids: list[int], trick: list[tuple[int, int]], seat: int, card: int) -> None:
    """Record the void ``seat`` shows by playing ``card`` to ``trick`` (as ``knowledge.infer`` reads it)."""
    if card == EXCUSE:
        return
    led = -1
    for _, c in trick:
        if c != EXCUSE:
            led = 4 if c >= 56 else c // 14
            break
    if led < 0:
        return
    if led < 4 and not (card < 56 and card // 14 == led):
        voids[seat] |= 1 << led
        if card < 56:
            voids[seat] |= 1 << TRUMP_VOID
    elif led == 4 and card < 56:
        voids[seat] |= 1 << TRUMP_VOID


def _alike(a: int, b: int) -> bool:
    """Two small cards of one plain suit: which one a player gives away tells nothing."""
    return a < 56 and b < 56 and a // 14 == b // 14 and HALF_POINTS[a] == HALF_POINTS[b] == 1


def _club_card(deal: Deal, seat: int, gone: int, voids: list[int], shown_trumps: int) -> int:
    """The card the rules of thumb play for ``seat`` in ``deal``, knowing only what ``seat`` knew."""
    taker = deal.taker
    assert taker is not None, "the play has a taker"
    hand = deal.hands[seat]
    mine = 1 << seat
    if deal.players != 5 or deal.called is None:
        friends = mine if seat == taker else sum(1 << s for s in deal.seats if s != taker)
    else:
        partner = deal.partner
        alone = deal.dog_shown and deal.initial_dog >> deal.called & 1
        if seat == taker:
            friends = mine | (1 << partner if deal.partner_revealed and partner is not None else 0)
        elif seat == partner:
            friends = mine | 1 << taker
        elif deal.partner_revealed or alone:
            friends = sum(1 << s for s in deal.seats if s != taker and s != partner)
        else:
            friends = mine
    out = FULL_DECK & ~gone & ~hand & ~shown_trumps
    if seat == taker:
        out &= ~deal.ecart
    trick = deal.trick
    after = []
    s = seat
    for _ in range(deal.settings.active - len(trick) - 1):
        s = deal._next[s]
        after.append(s)
    return play_card(hand, deal.legal_play_mask(), list(trick), seat, friends, tuple(after), out, taker, voids)


def bids_plausible(obs: Observation, deal: Deal, slack: float | None = None) -> bool:
    """Whether the world's initial hands fit the bids heard, by the club count.

    A pass from a hand far above the taking threshold, or a contract from a hand
    far below its threshold, makes the world unlikely (not impossible).
    """
    if slack is None:
        slack = BID_SLACK
    current = PASS
    players = obs.players
    for seat, action in obs.history:
        if type(action) is not Bid:
            continue
        if seat != obs.seat:
            strength = hand_strength(deal.initial_hands[seat], players)
            contract = action.contract
            if contract == PASS:
                if current < PRISE and strength > threshold(PRISE) + slack:
                    return False
            else:
                low = strength < threshold(contract) - slack
                high = BID_CEILING and contract < GARDE_CONTRE and strength > threshold(contract + 1) + slack
                if low or high:
                    return False
        if action.contract != PASS:
            current = action.contract
    return True


def sample_world(
    obs: Observation, rng: random.Random, k: Knowledge | None = None, attempts: int = 30, bid_filter: bool = True
) -> Deal:
    """A world consistent with ``obs``, at the same point of the deal.

    Worlds that fit the bids badly are mostly thrown away (kept one time in
    five, so that an unusual bidder cannot make every world impossible).
    """
    k = k or infer(obs)
    deck = Deck(obs, k)
    fallback = None
    for _ in range(attempts):
        deal = build_world(obs, deck.draw(rng))
        if deal is None:
            continue
        if not bid_filter or bids_plausible(obs, deal) or rng.random() < 0.2:
            return deal
        fallback = fallback or deal
    if fallback is not None:
        return fallback
    raise NoWorld("no world replays this observation's history")


def weighted_worlds(
    obs: Observation, rng: random.Random, count: int, k: Knowledge | None = None, deadline: float | None = None
) -> list[tuple[Deal, float]]:
    """``count`` worlds consistent with ``obs``, each with its weight: how likely it makes what
    the others did (``PLAY_SURPRISE`` per surprising card, ``BID_SURPRISE`` if it fits the
    bids badly).

    Weighing every world (rather than resampling them) keeps all of them
    distinct, so the search's estimates lose no variety; ``deadline`` (a
    ``time.perf_counter()`` value) stops the drawing early, once one world is in.
    """
    import time

    k = k or infer(obs)
    deck = Deck(obs, k)
    out: list[tuple[Deal, float]] = []
    unfit = [0]
    for _ in range(count * 3):
        if len(out) >= count or (deadline is not None and out and time.perf_counter() > deadline):
            break
        try:
            hidden = deck.draw(rng, unfit=unfit)
        except NoWorld:
            break
        deal, surprises = replay_world(obs, hidden)
        if deal is None:
            continue
        w = play_surprise(obs.players) ** surprises
        if not bids_plausible(obs, deal):
            w *= BID_SURPRISE
        out.append((deal, w))
    if not out:
        raise NoWorld("no world replays this observation's history")
    return out


def sample_worlds(
    obs: Observation,
    rng: random.Random,
    count: int,
    k: Knowledge | None = None,
    pool: int | None = None,
    deadline: float | None = None,
) -> list[tuple[Deal, int]]:
    """``count`` worlds drawn by weight (see ``weighted_worlds``) from ``pool`` candidates, as
    (world, times drawn): importance resampling, a world drawn twice returned once."""
    drawn = weighted_worlds(obs, rng, pool or 2 * count, k, deadline)
    weights = [w for _, w in drawn]
    total = sum(weights)
    counts = [0] * len(drawn)
    # Systematic resampling: low variance, and a seeded generator keeps it deterministic.
    step = total / count
    u = rng.random() * step
    acc = 0.0
    i = 0
    for j in range(count):
        target = u + j * step
        while acc + weights[i] < target and i < len(drawn) - 1:
            acc += weights[i]
            i += 1
        counts[i] += 1
    return [(d, c) for (d, _), c in zip(drawn, counts, strict=True) if c]
