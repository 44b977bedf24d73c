"""The ``expert`` level: sampling search over worlds consistent with what the seat saw.

For a decision it draws worlds (``sampling.weighted_worlds``: consistent with
every fact seen, a defender's giving the taker a club taker's écart and a hand
worth its bid, then weighted by how likely they make the others' bids and
cards under the club rules of thumb), plays each candidate action in each
world to the end (``rollout``: the heuristic's rules of thumb; an exact
minimax once two cards or fewer are left), and keeps the action with the best
mean score for its seat.  Every candidate is tried in the same worlds, so luck
cancels between candidates.  The bid (passing included), the call, the écart,
the poignée (each size, or hidden), the chelem (for strong hands) and the
petit sec are searched the same way; the heuristic's own choice is always a
candidate and wins ties.  ``last_search`` keeps the candidates and their
means, for hints that explain themselves (``explain``).

Determinism: the worlds come from a seeded generator and the number of worlds
is fixed, so without a time budget a seed fixes every choice (a safety stop at
``SAFETY_SECONDS`` never binds at the default sample counts).  With a budget
the search is anytime: it stops after the world that crosses the budget
(bid, call and écart get four times the budget), so the choice may then
depend on the machine's speed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

import numpy as np

from ..engine import (
    GARDE_CONTRE,
    GARDE_SANS,
    MULTIPLIERS,
    PASS,
    Action,
    Bid,
    Call,
    Chelem,
    Discard,
    DiscardFrom,
    Observation,
    PetitSecDecision,
    Play,
    Poignee,
    PoigneeFrom,
)
from ..engine.actions import PLAYS
from ..engine.cards import HALF_POINTS, KINGS, SUIT_MASKS, TRUMPS, cards_of
from .fastplay import card_outcomes, card_values, exact_values
from .heuristic import HeuristicBot, heuristic_card, poignee_choice
from .inference import draw_probabilities, weigh_states
from .knowledge import infer
from .rollout import ecart_scores, rollout_score
from .sampling import NoWorld, weighted_states, weighted_worlds
from .tactics import (
    choose_bid,
    choose_call,
    choose_ecart,
    choose_poignee_cards,
    complete_ecart,
    hand_strength,
)
from .warm import warm_up

SAFETY_SECONDS = 0.7
"""Without a budget the search runs its fixed number of worlds (deterministic), stopping
early only past this many seconds, so that no decision ever takes much over a second."""

CARD_SAMPLES = {3: 108, 4: 108, 5: 108}
"""Worlds per card.  Compiled rollouts and dealing (``fastplay``, ``fastdeal``) made six times the
18 worlds of before cheaper than those were.  Paired dev runs against the heuristic
(benchmarks/results/strength.md): 54 against 18, +2.0 [+0.6, +3.5] a defending seat at 4 players
(1,000 deals), and with the bid and écart counts below +4.2 [+1.2, +7.2] a deal as taker there,
+5.8 [+1.3, +10.3] at 5 players, +4.2 [+0.8, +7.6] at 3; 108 against 54, +1.1 [+0.1, +2.2] a
defending seat at 4 players (1,500 deals), +1.8 [-0.4, +4.0] a deal as taker at 5 (1,000), +1.1
[-0.6, +2.8] at 3 (800), +0.3 [-0.7, +1.2] at 4 (2,000)."""
BID_SAMPLES = 72
"""Worlds per bid (each contract played out in each); 144 bought nothing more (-0.2 a deal)."""
ECART_SAMPLES = 48
"""Worlds per écart, call, poignée, chelem and petit sec; 96 bought nothing more (-0.6)."""
ECART_SCREEN = 12
ECART_KEEP = 4
"""The écarts one card away from the rules of thumb's are screened over ``ECART_SCREEN`` worlds and
the best ``ECART_KEEP`` searched with the others: +2.1 [+0.8, +3.4] a deal at 4 players (taker
+11.9 [+4.6, +19.2] a take, 1,500 paired deals), +0.4 [-1.0, +1.7] at 5 (three-card écarts),
+0.1 [-1.4, +1.6] at 3; keeping 8 of them over 16 worlds, the same."""
MODEL_WORLDS = 0.0
"""Whether (and how strongly) a card's worlds are weighted by the learned card-location model
(``inference``, issue 38): each world's weight times the model's probability of where it puts the
unseen cards, to this power.  0 (off) until measured better (benchmarks/results/inference.md)."""
MODEL_DRAW = 0.0
"""Whether a card's worlds are dealt from the learned card-location model (``inference``, issue 38):
each unseen card's place drawn from the model's probabilities (its softmax to this power, balanced
to the places' room), within every hard fact (``fastdeal.draw_model``), rather than by room alone;
the worlds are then weighted as before.  Off: held-out placement much better (0.032 nats a card over
today's worlds at four players), but at the table against club robots, paired, +0.5 [-0.4, +1.4] a deal
over 3,000 deals at four players, +0.1 [-1.2, +1.5] over 1,200 at three and +1.8 [-0.2, +3.9] over 1,200
at five, each with its own model (benchmarks/results/inference.md)."""
LEARNED_PLAYERS = (3, 4, 5)
"""The table sizes where ``MODEL_WORLDS`` and ``MODEL_DRAW`` act: each has a model fitted on its own deals."""
EXACT_CARDS = 2
"""Once the hand holds this many cards or fewer, each world is searched exactly (``fastplay.exact``)."""
PASS_MARGIN = 12.0
"""Hands this many club-count points below the heuristic's Prise pass without search."""
CHELEM_STRENGTH = 100.0
"""Hand strength (``tactics.hand_strength``) below which a chelem is not even searched."""
TAKER_EDGE = {3: 24.0, 4: 36.0, 5: 8.0}
"""Points per unit of contract multiplier by which the expert's own play as taker beats
its rollouts' (measured: about +100 a taken deal at 4 players); tuned in arena runs."""
POIGNEE_EDGE = {3: 30.0, 4: 30.0, 5: 0.0}
"""Points added to showing a poignée as taker.  Its bonus goes to the side that wins, and the
rollouts' taker makes fewer contracts than the expert (``TAKER_EDGE``), so the plain search kept
hidden poignées of contracts the expert then made.  Paired runs on deals with a poignée: at 4
players +1.7 [+0.6, +2.8] a take (554 deals, r25-q4 and r25-q4b; 60 points: -0.6 against 30),
at 3 no change (114 deals), at 5 -0.3 [-2.1, +1.4] (678 deals, r25-q5 and r25-q5b: there showing
changes the card play, and the rollouts' taker is nearer the expert's)."""
CALL_SELF = True
"""Whether the call also searches calling a card of one's own hand, that is playing alone (at five
players; a taker holding all four kings calls a queen, and so on).  Paired runs on the 5-player
deals with a hand of club count 62 or more (313 deals, seeds r25-c5 and r25-c5b): +1.1 [+0.1,
+2.1] a deal, taker +4.6 [+0.6, +8.7] a take; 7 of 385 takes called themselves, each a Garde sans
or contre that gained."""


def equivalent_cards(legal: int, unseen: int) -> list[int]:
    """One card per class of interchangeable cards: same suit, same points, nothing
    unseen between them (playing one or the other changes nothing)."""
    reps: list[int] = []
    prev = -1
    for c in cards_of(legal):
        if prev < 0 or not _same_class(prev, c, unseen):
            reps.append(c)
        prev = c
    return reps


class _NoPoignee:
    """The search's stand-in for keeping a poignée hidden (the seat just plays its card)."""

    def __repr__(self) -> str:
        return "NO_POIGNEE"

    def __reduce__(self) -> str:
        return "NO_POIGNEE"  # unpickled as the module's one instance: ``is NO_POIGNEE`` holds in another process


NO_POIGNEE = _NoPoignee()


@dataclass(slots=True)
class Search:
    """The last search's candidates and their mean scores for the seat (bonus included), over ``worlds``."""

    actions: list
    means: list[float]
    worlds: int


@dataclass(slots=True)
class Scores:
    """Each candidate's score for the seat in each world drawn (bonus not included), and each world's
    weight: what a search's means are made of, and the analysis's intervals (``analysis``)."""

    actions: list
    values: list[list[int]]
    """One row per world, one score per action, in ``actions``' order."""
    weights: list[float]
    petit: list[list[int]] | None = None
    """With ``outcomes``, a card's search: one row per world, for each action 1 if the Petit ended with the
    seat's side, else 0 (what ``reasons`` says of a bout falling); None for any other search."""


def score_worlds(
    obs: Observation,
    actions: list,
    samples: int,
    rng: random.Random,
    deadline: float | None = None,
    draw_seconds: float | None = None,
    outcomes: bool = False,
) -> Scores | None:
    """Every action of ``actions`` played out in the same ``samples`` worlds drawn from ``obs``.

    The worlds are drawn by ``sampling`` (each counts by how likely it makes the others' bids
    and cards); a card is played out in compiled code from one packed copy of each world
    (exactly, once few cards are left), écarts from the world at its first card, anything else
    by ``rollout``.  ``deadline`` (a ``time.perf_counter()`` value) stops after the world that
    crosses it, and the drawing stops ``draw_seconds`` before it; None searches every world
    (deterministic for ``rng``).  ``outcomes``: a card's search also keeps where the Petit ended in
    each world (``Scores.petit``; the same draws, so the same scores).  None if no world replays the
    observation.
    """
    me = obs.seat
    assert me is not None, "a spectator has no decision to search"
    k = infer(obs)
    cards = None
    draw: Callable[..., list[tuple[Any, float]]]
    if all(type(a) is Play for a in actions):
        # A card: the worlds are packed for compiled code, and every candidate card is played
        # out from one packed copy of each world (exactly, once few cards are left).
        cards = np.array([a.card for a in actions], dtype=np.int64)
        values = np.zeros(len(actions), dtype=np.int64)
        score: Callable[..., None] = exact_values if obs.hand.bit_count() <= EXACT_CARDS else card_values
        draw = weighted_states
        if MODEL_DRAW and obs.players in LEARNED_PLAYERS:
            draw = partial(weighted_states, chances=partial(draw_probabilities, power=MODEL_DRAW))
    else:
        draw = weighted_worlds
    # Écarts: each world played to its first card once, every écart played out from there.
    ecarts = [a.cards for a in actions] if all(type(a) is Discard for a in actions) else None
    draw_deadline = None if deadline is None or draw_seconds is None else deadline - draw_seconds
    try:
        worlds: list[tuple[Any, float]] = draw(obs, rng, samples, k, deadline=draw_deadline)
    except NoWorld:
        return None
    if MODEL_WORLDS and cards is not None and obs.players in LEARNED_PLAYERS:
        worlds = weigh_states(obs, k, worlds, MODEL_WORLDS)
    rows: list[list[int]] = []
    weights: list[float] = []
    petit: list[list[int]] | None = None
    kept = np.zeros(len(actions), dtype=np.int64)
    if outcomes and cards is not None and score is card_values:
        petit = []
    for world, weight in worlds:
        if petit is not None:
            card_outcomes(world, me, cards, values, kept)
            rows.append([int(v) for v in values])
            petit.append([int(v) for v in kept])
        elif cards is not None:
            score(world, me, cards, values)
            rows.append([int(v) for v in values])
        elif ecarts is not None:
            rows.append(ecart_scores(world, me, ecarts))
        else:
            row = []
            for action in actions:
                w = world.clone()
                if action is not NO_POIGNEE:
                    w.apply(action)
                row.append(rollout_score(w, me, action is NO_POIGNEE))
            rows.append(row)
        weights.append(weight)
        if deadline is not None and time.perf_counter() > deadline:
            break
    return Scores(actions, rows, weights, petit)


class ExpertBot:
    """Sampling search with heuristic rollouts; see the module docstring."""

    name = "expert"

    def __init__(self, seed: int | str | None = None, samples: int | None = None, budget: float | None = None) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.budget = budget
        self.heuristic = HeuristicBot(seed)
        self.last_search: Search | None = None
        warm_up()

    # ------------------------------------------------------------------ search
    def _evaluate(
        self, obs: Observation, actions: list, samples: int, seconds: float | None, bonus: list[float] | None = None
    ) -> Action:
        """The action of ``actions`` with the best mean score over sampled worlds (``score_worlds``);
        ``seconds`` None: no time limit, the worlds asked for are all searched."""
        self.last_search = None
        deadline = None if seconds is None else time.perf_counter() + seconds
        scores = score_worlds(obs, actions, samples, self.rng, deadline, None if seconds is None else seconds / 2)
        if scores is None:
            return actions[0]
        totals = [0.0] * len(actions)
        done = 0.0
        for row, weight in zip(scores.values, scores.weights, strict=True):
            for i, v in enumerate(row):
                totals[i] += weight * v
            done += weight
        if bonus:
            for i, b in enumerate(bonus):
                totals[i] += b * done
        best = max(range(len(actions)), key=lambda i: (totals[i], -i))
        self.last_search = Search(actions, [t / done for t in totals], len(scores.weights))
        return actions[best]

    def _seconds(self, budget: float | None, factor: float = 1.0) -> float:
        b = budget if budget is not None else self.budget
        if b is None:
            return SAFETY_SECONDS
        return min(b * factor, max(b, SAFETY_SECONDS))

    # --------------------------------------------------------------- decisions
    def choose(self, observation: Observation, budget: float | None = None) -> Action:
        obs = observation
        legal = obs.legal
        if not legal:
            raise ValueError(f"seat {obs.seat} has nothing to do now")
        self.last_search = None
        kind = type(legal[0])
        if kind is Play or kind is PoigneeFrom:
            for a in legal:
                if type(a) is PoigneeFrom:
                    return self._poignee(obs, a, budget)
            return self._card(obs, budget)
        if kind is Bid:
            return self._bid(obs, budget)
        if kind is Call:
            return self._call(obs, budget)
        if kind is DiscardFrom:
            return self._ecart(obs, cast(DiscardFrom, legal[0]), budget)
        if kind is Chelem:
            return self._chelem(obs, budget)
        if kind is PetitSecDecision:
            return self._petit_sec(obs, budget)
        return self.heuristic.choose(obs, budget)

    def _poignee(self, obs: Observation, offer: PoigneeFrom, budget: float | None) -> Action:
        """Show the poignée (each size the hand allows) or keep it hidden, by the searched score:
        its bonus goes to the side that wins, so a seat likely to lose keeps it to itself."""
        shows = [
            Poignee(choose_poignee_cards(offer.cards, size))
            for _, size in sorted(offer.sizes.items(), key=lambda kv: -kv[1])
        ]
        first = poignee_choice(offer)
        order = [first] + [p for p in shows if p != first] + [NO_POIGNEE]
        samples = self.samples or ECART_SAMPLES
        bonus = None
        edge = POIGNEE_EDGE[obs.players]
        if edge and obs.seat == obs.taker:
            bonus = [0.0 if p is NO_POIGNEE else edge for p in order]
        best = self._evaluate(obs, order, samples, self._seconds(budget, 2), bonus)
        if best is NO_POIGNEE:
            search = self.last_search
            card = self._card(obs, budget)
            self.last_search = search
            return card
        return best

    def _chelem(self, obs: Observation, budget: float | None) -> Action:
        """Announce a chelem when the searched score says so (only hands strong enough are searched:
        an announced chelem that fails costs 200, so weak hands never pay)."""
        if hand_strength(obs.hand, obs.players) < CHELEM_STRENGTH:
            return Chelem(False)
        samples = self.samples or ECART_SAMPLES
        return self._evaluate(obs, [Chelem(False), Chelem(True)], samples, self._seconds(budget, 4))

    def _petit_sec(self, obs: Observation, budget: float | None) -> Action:
        """Redeal or play on with the Petit alone, whichever the search scores higher (a redeal scores 0)."""
        samples = self.samples or ECART_SAMPLES
        return self._evaluate(obs, [PetitSecDecision(True), PetitSecDecision(False)], samples, self._seconds(budget, 4))

    def _card(self, obs: Observation, budget: float | None) -> Action:
        legal = 0
        for a in obs.legal:
            if type(a) is Play:
                legal |= 1 << a.card
        if legal & (legal - 1) == 0:
            return PLAYS[legal.bit_length() - 1]
        k = infer(obs)
        cards = equivalent_cards(legal, k.unseen)
        if len(cards) == 1:
            return PLAYS[cards[0]]
        first = heuristic_card(obs)
        # The heuristic's card stands for its class, and comes first (it wins ties).
        order = [first] + [c for c in cards if not _same_class(c, first, k.unseen)]
        actions = [PLAYS[c] for c in order]
        samples = self.samples or CARD_SAMPLES[obs.players]
        return self._evaluate(obs, actions, samples, self._seconds(budget))

    def _bid(self, obs: Observation, budget: float | None) -> Action:
        contracts = bid_candidates(obs)
        if contracts is None:
            return Bid(PASS)  # a hopeless hand passes without search
        samples = self.samples or BID_SAMPLES
        actions = [Bid(c) for c in contracts]
        seconds = self._seconds(budget, 4)
        # The rollouts play the taker's cards by rules of thumb; the expert plays them
        # better, so a contract is worth more to it than its rollouts say.
        edge = TAKER_EDGE[obs.players]
        bonus = [edge * MULTIPLIERS[c] if c else 0.0 for c in contracts]
        return self._evaluate(obs, actions, samples, seconds, bonus)

    def _call(self, obs: Observation, budget: float | None) -> Action:
        """Every callable card the hand lacks, and one it holds (playing alone), by the searched score:
        the worlds deal the dog too, so a card that may lie there counts as much as it should."""
        callable_cards = [cast(Call, a).card for a in obs.legal]
        hint = choose_call(obs.hand, callable_cards)
        others = [c for c in callable_cards if c != hint and not obs.hand >> c & 1]
        order = [hint, *others]
        if CALL_SELF:
            own = [c for c in callable_cards if obs.hand >> c & 1 and c != hint]
            order += own[:1]
        samples = self.samples or ECART_SAMPLES
        return self._evaluate(obs, [Call(c) for c in order], samples, self._seconds(budget, 4))

    def _ecart(self, obs: Observation, choice: DiscardFrom, budget: float | None) -> Action:
        seconds = self._seconds(budget, 4)
        start = time.perf_counter()
        first, cands = self.ecart_candidates(obs, choice, seconds / 3)
        if len(cands) == 1:
            return Discard(first)
        samples = self.samples or ECART_SAMPLES
        left = max(seconds - (time.perf_counter() - start), seconds / 3)
        return self._evaluate(obs, [Discard(c) for c in cands], samples, left)

    def ecart_candidates(
        self,
        obs: Observation,
        choice: DiscardFrom,
        screen_seconds: float | None,
        screen: int = ECART_SCREEN,
        keep: int = ECART_KEEP,
    ) -> tuple[int, list[int]]:
        """The rules of thumb's écart and the écarts worth searching beside it (itself first): each
        suit it could void, the one that banks the most points, and the likeliest few of those one
        card away from it (``keep`` of them), screened over ``screen`` worlds (``screen_seconds`` None: no
        time limit)."""
        hand, allowed, count = obs.hand, choice.cards, choice.count
        first = choose_ecart(hand, allowed, count)
        cands = [first]
        plain = allowed & ~TRUMPS
        if plain.bit_count() >= count:
            for s in range(4):
                suit = hand & SUIT_MASKS[s]
                if suit and not suit & KINGS and suit & ~plain == 0 and suit.bit_count() <= count:
                    cands.append(complete_ecart(hand, plain, count, suit))
            # Bank the most points.
            by_points = sorted(cards_of(plain), key=lambda c: -HALF_POINTS[c])
            bank = 0
            for c in by_points[:count]:
                bank |= 1 << c
            cands.append(bank)
        if plain.bit_count() > count:
            # Every écart one card away from the rules of thumb's, screened over a few worlds:
            # the likeliest few join the candidates.
            swaps = [
                first & ~(1 << out) | 1 << inn for out in cards_of(first & plain) for inn in cards_of(plain & ~first)
            ]
            swaps = [c for c in dict.fromkeys(swaps) if c not in cands]
            if swaps:
                self._evaluate(obs, [Discard(c) for c in swaps], screen, screen_seconds)
                screened = self.last_search
                if screened is not None:
                    ranked = sorted(range(len(swaps)), key=lambda i: -screened.means[i])
                    cands += [swaps[i] for i in ranked[:keep]]
        return first, list(dict.fromkeys(cands))


def bid_candidates(obs: Observation) -> list[int] | None:
    """The contracts the bid searches, the rules of thumb's first (it wins ties); None for a hand
    so far below the rules of thumb's Prise (``PASS_MARGIN``) that it passes without search."""
    hint = choose_bid(obs.hand, obs.players, obs.contract)
    legal = [a.contract for a in obs.legal if type(a) is Bid and not a.chelem]
    top = GARDE_CONTRE if hint >= GARDE_SANS else GARDE_SANS
    contracts = [c for c in legal if c <= top]
    if hint not in contracts:
        hint = PASS
    if hint == PASS and choose_bid(obs.hand, obs.players, obs.contract, margin=PASS_MARGIN) == PASS:
        return None
    return [hint] + [c for c in contracts if c != hint]


def _same_class(a: int, b: int, unseen: int) -> bool:
    """Whether cards ``a`` and ``b`` are interchangeable (see ``equivalent_cards``)."""
    lo, hi = min(a, b), max(a, b)
    if lo == hi:
        return True
    same_suit = (lo // 14 == hi // 14) if hi < 56 else (lo >= 56 and hi < 77)
    return same_suit and HALF_POINTS[lo] == HALF_POINTS[hi] and not unseen & ((1 << hi) - (1 << (lo + 1)))
