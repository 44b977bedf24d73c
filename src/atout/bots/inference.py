"""Where the unseen cards lie: a learned card-location model read from one seat's observation.

The expert's worlds place the others' cards barely better than chance (issue 38).  This model
gives, for every card a seat has not seen, the probability that each hidden place holds it (each
other seat, the unseen dog or the hidden écart), from what the seat saw: its hand, the bids, the
contract, the cards played and by whom, the voids shown, poignées and the shown dog.  It is a
softmax over the legal places (``sampling.Deck``: voids, ceilings, known cards) of a score (linear,
plus a hidden layer of 16) on features of the (card, place) pair, then balanced (Sinkhorn) so each place's expected
count is
the number of cards it still holds.  Trained on play positions of each table size apart (the dog, the
called partner and the room differ; benchmarks/inference_train.py); the weights ship beside this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ..engine import Bid, Observation
from ..engine.cards import EXCUSE
from .fastplay import HAND_HI, HAND_LO
from .knowledge import Knowledge, infer
from .sampling import DOG, ECART, Deck

WEIGHTS = {
    3: Path(__file__).with_name("inference_weights_3.npz"),
    4: Path(__file__).with_name("inference_weights.npz"),
    5: Path(__file__).with_name("inference_weights_5.npz"),
}
"""Each table size's weights (four players' keep the first model's name)."""
PLACES_MAX = 5
"""Hidden places a position may have: the other seats (four at five players) and one pile."""

# Card classes: plain low (1-10), plain face (V, C, D), king, trump 2-10, trump 11-20, Petit, 21, Excuse.
_CLASS = np.zeros(78, dtype=np.int64)
for _c in range(78):
    if _c < 56:
        _r = _c % 14 + 1
        _CLASS[_c] = 0 if _r <= 10 else (1 if _r < 14 else 2)
    elif _c == 56:
        _CLASS[_c] = 5
    elif _c == 76:
        _CLASS[_c] = 6
    elif _c == EXCUSE:
        _CLASS[_c] = 7
    else:
        _CLASS[_c] = 3 if _c - 55 <= 10 else 4
_SUIT = np.array([c // 14 if c < 56 else (4 if c < 77 else 5) for c in range(78)], dtype=np.int64)
_GROUP = np.array([0, 0, 1, 2, 2, 3, 3, 3], dtype=np.int64)[_CLASS]
"""Coarser card groups: plain non-king, king, plain trump, bout."""

TAKER, ALLY, OPPONENT, PILE_ECART, PILE_DOG = range(5)
"""Place types: the taker; a defender seen by a defender; a defender seen by the taker; the hidden
écart; the unseen dog."""

_N_BASE = 8 * 5
LOG_ROOM = _N_BASE
"""The column of the log of a place's room: weight one alone is a room-proportional guess."""
FEATURES = _N_BASE + 1 + 16 + 4 + 9 + 10 + 1 + 4 + 4 + 2 + 3 + 6
"""Columns of a (card, place) feature row (see ``_features``)."""


@dataclass(slots=True)
class Position:
    """One seat's view made ready for the model: the unseen cards not already known to lie in
    one place, the places, which of them each card may lie in, their room, the features."""

    players: int
    places: list[int]
    cards: np.ndarray  # (U,) card numbers
    legal: np.ndarray  # (U, PLACES_MAX) bool
    room: np.ndarray  # (PLACES_MAX,) cards each place holds among ``cards``
    fixed: dict[int, int]  # cards known to lie in a place, by place
    x: np.ndarray  # (U, PLACES_MAX, FEATURES) float32


def encode(obs: Observation, k: Knowledge | None = None, deck: Deck | None = None) -> Position:
    """The model's input for ``obs`` (a seat in the play)."""
    k = k or infer(obs)
    deck = deck or Deck(obs, k)
    places = deck.places
    index = {b: i for i, b in enumerate(places)}
    opts: list[tuple[int, list[int]]] = [(bit.bit_length() - 1, o) for bit, o in deck.constrained]
    opts += [(bit.bit_length() - 1, places) for bit in deck.anywhere]
    opts.sort()
    cards = np.array([c for c, _ in opts], dtype=np.int64)
    legal = np.zeros((len(opts), PLACES_MAX), dtype=bool)
    for row, (_, o) in enumerate(opts):
        for b in o:
            legal[row, index[b]] = True
    room = np.zeros(PLACES_MAX)
    for b, i in index.items():
        room[i] = deck.room[b]
    x = _features(obs, k, places, room, cards)
    return Position(obs.players, list(places), cards, legal, room, dict(deck.fixed), x)


def _features(obs: Observation, k: Knowledge, places: list[int], room: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Features of each (card, place) pair; only what differs between places tells them apart."""
    n = obs.players
    me, taker = obs.seat, obs.taker
    assert me is not None
    # What each seat did: cards played of each suit (trumps as 4), suits led, faces played.
    played = np.zeros((n, 6))
    led = np.zeros((n, 6))
    faces = np.zeros((n, 6))
    rounds = np.zeros(6)
    tricks = [t.plays for t in obs.tricks]
    if obs.trick:
        tricks.append(obs.trick)
    for plays in tricks:
        lead = -1
        for seat, card in plays:
            s = int(_SUIT[card])
            played[seat, s] += 1
            if card < 56 and card % 14 >= 10:
                faces[seat, s] += 1
            if lead < 0 and card != EXCUSE:
                lead = s
                led[seat, s] += 1
                rounds[s] += 1
    bids = np.zeros(n)
    for seat, action in obs.history:
        if isinstance(action, Bid):
            bids[seat] = max(bids[seat], action.contract)
    poignee = np.zeros(n)
    for seat, _, _, _ in obs.poignees:
        poignee[seat] = 1
    unseen_suit = np.array([(k.unseen >> (14 * s) & ((1 << 14) - 1)).bit_count() for s in range(4)], dtype=float)
    mine_suit = np.array(
        [(obs.hand >> (14 * s) & ((1 << 14) - 1)).bit_count() for s in range(4)]
        + [(obs.hand >> 56 & ((1 << 21) - 1)).bit_count()],
        dtype=float,
    )
    progress = len(obs.tricks) / max(1, 78 // n)
    contract = int(obs.contract)

    u = len(cards)
    x = np.zeros((u, PLACES_MAX, FEATURES), dtype=np.float32)
    cls = _CLASS[cards]
    grp = _GROUP[cards]
    suit = _SUIT[cards]
    plain = suit < 4
    trump = ~plain
    ps = np.minimum(suit, 3)
    rows = np.arange(u)
    low_face_king = np.where(plain, cls, 0)  # 0 low, 1 face, 2 king for plain cards
    trump_cls = np.where(trump, cls - 3, 0)  # 0..4 for trumps and the Excuse
    for i, place in enumerate(places):
        if place == ECART:
            kind = PILE_ECART
        elif place == DOG:
            kind = PILE_DOG
        elif place == taker:
            kind = TAKER
        else:
            kind = ALLY if me != taker else OPPONENT
        f = x[:, i, :]
        f[rows, cls * 5 + kind] = 1
        col = _N_BASE
        f[:, col] = np.log(max(room[i], 1.0))
        col += 1
        if kind == TAKER and 1 <= contract <= 4:
            f[rows, col + (contract - 1) * 4 + grp] = 1
        col += 16
        if place >= 0 and place != taker and bids[place] > 0:
            f[rows, col + grp] = 1
        col += 4
        if place >= 0:
            p = place
            f[rows, col + low_face_king] = np.where(plain, played[p, ps] / 4, 0)
            f[rows, col + 3 + low_face_king] = np.where(plain, led[p, ps], 0)
            f[rows, col + 6 + low_face_king] = np.where(plain, faces[p, ps], 0)
        col += 9
        if place >= 0:
            p = place
            f[rows, col + trump_cls] = np.where(trump, played[p, 4] / 4, 0)
            f[rows, col + 5 + trump_cls] = np.where(trump, led[p, 4], 0)
        col += 10
        if place >= 0:
            f[:, col] = np.where(trump, poignee[place], 0)
        col += 1
        if kind in (TAKER, ALLY, OPPONENT, PILE_ECART):
            f[:, col + kind] = np.where(plain, unseen_suit[ps] / 14, 0)
        col += 4
        if kind in (TAKER, ALLY, OPPONENT):
            f[:, col + kind] = np.where(plain, mine_suit[ps] / 14, mine_suit[4] / 21)
            f[:, col + 3] = np.where(trump, progress, 0) if kind == TAKER else 0
        col += 4
        if kind == PILE_ECART and taker is not None:
            f[:, col] = np.where(plain, played[taker, ps] / 4, 0)
            f[:, col + 1] = progress
        col += 2
        if kind in (TAKER, ALLY, OPPONENT):
            f[:, col + kind] = np.where(plain, rounds[ps] / 4, rounds[4] / 4)
        col += 3
        if place >= 0:
            f[:, col] = np.where(plain, k.voids[place].bit_count() / 4, 0)
            f[:, col + 1] = np.where(trump, k.voids[place].bit_count() / 4, 0)
            f[:, col + 2] = np.where(trump, float(k.ceiling[place] < EXCUSE), 0)
            f[:, col + 3] = np.where(trump, played[place, 5], 0)
            left = float(place == (me + 1) % n)  # plays after the seat, leads into it
            f[:, col + 4] = np.where(plain, left, 0)
            f[:, col + 5] = np.where(trump, left, 0)
        col += 6
    return x


@cache
def weights(players: int = 4) -> dict[str, np.ndarray]:
    """A table size's trained weights, read once: ``w`` (one per feature) and a small hidden layer
    (``U``, ``b``, ``v``: the score is ``x.w + tanh(x.U' + b).v``; none, a linear score)."""
    if players not in WEIGHTS:
        raise ValueError(f"no card-location model for {players} players (only {sorted(WEIGHTS)})")
    path = WEIGHTS[players]
    with np.load(path) as data:
        out = {name: np.asarray(data[name], dtype=np.float32) for name in ("w", "U", "b", "v") if name in data}
    if out["w"].shape != (FEATURES,) or ("U" in out and out["U"].shape[1] != FEATURES):
        raise ValueError(f"{path.name} does not fit the {FEATURES} features")
    return out


def scores(x: np.ndarray, params: dict[str, np.ndarray]) -> np.ndarray:
    """The model's score of each (card, place) feature row (any leading shape)."""
    z = x @ params["w"]
    if "U" in params:
        z = z + np.tanh(x @ params["U"].T + params["b"]) @ params["v"]
    return z


def raw_scores(pos: Position) -> np.ndarray:
    """Each card's softmax over its legal places (rows sum to one), before balancing."""
    z = scores(pos.x, weights(pos.players)).astype(np.float64)
    z = np.where(pos.legal, z, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def balance(p: np.ndarray, room: np.ndarray, rounds: int = 30) -> np.ndarray:
    """Scale the places' columns so each expects as many cards as it holds, keeping every row a
    distribution (Sinkhorn); a place's zeros (voids, known cards) stay zeros."""
    q = p.copy()
    for _ in range(rounds):
        col = q.sum(axis=0)
        scale = np.divide(room, col, out=np.zeros_like(room), where=col > 0)
        q *= scale
        q /= np.maximum(q.sum(axis=1, keepdims=True), 1e-300)
    return q


def placement(obs: Observation, k: Knowledge | None = None) -> tuple[list[int], np.ndarray]:
    """The hidden places (seats, ``sampling.DOG``, ``sampling.ECART``) and a (78, places) array:
    the probability each card lies in each place (zero rows for the cards the seat has seen)."""
    pos = encode(obs, k)
    out = np.zeros((78, len(pos.places)))
    if len(pos.cards):
        out[pos.cards] = balance(raw_scores(pos), pos.room)[:, : len(pos.places)]
    for i, b in enumerate(pos.places):
        m = pos.fixed[b]
        while m:
            bit = m & -m
            m ^= bit
            out[bit.bit_length() - 1, i] = 1.0
    return pos.places, out


def draw_probabilities(
    obs: Observation, k: Knowledge, deck: Deck, power: float = 1.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """What ``fastdeal.draw_model`` deals ``deck``'s free cards from: the cards, each one's probability
    of lying in each of ``deck.places`` (the softmax to ``power``, balanced so each place expects
    its room; zero where it may not lie) and how many places it may lie in.  None when no card is free."""
    pos = encode(obs, k, deck)
    if not len(pos.cards):
        return None
    raw = raw_scores(pos)
    if power != 1.0:
        raw = np.where(pos.legal, raw**power, 0.0)
        raw /= raw.sum(axis=1, keepdims=True)
    n = len(pos.places)
    q = np.ascontiguousarray(balance(raw, pos.room)[:, :n])
    return pos.cards, q, pos.legal[:, :n].sum(axis=1).astype(np.int64)


def weigh_states(
    obs: Observation, k: Knowledge, worlds: list[tuple[np.ndarray, float]], power: float
) -> list[tuple[np.ndarray, float]]:
    """``worlds`` (packed for ``fastplay``, as ``sampling.weighted_states`` draws them) with each weight
    multiplied by the model's probability of the world's places for the unseen cards, to ``power``
    (the cards taken as independent; relative to the likeliest world, so the largest factor is one)."""
    pos = encode(obs, k)
    if not len(pos.cards) or not worlds:
        return worlds
    logp = np.log(np.maximum(balance(raw_scores(pos), pos.room), 1e-9))
    states = np.array([state for state, _ in worlds])
    high = pos.cards >= 56
    shift = np.where(high, pos.cards - 56, pos.cards)
    pile = next((i for i, b in enumerate(pos.places) if b < 0), -1)
    where = np.full((len(worlds), len(pos.cards)), pile)
    for i, b in enumerate(pos.places):
        if b >= 0:
            hands = np.where(high[None, :], states[:, HAND_HI + b, None], states[:, HAND_LO + b, None])
            where[(hands >> shift[None, :]) & 1 == 1] = i
    logs = logp[np.arange(len(pos.cards))[None, :], where].sum(axis=1).tolist()
    top = max(logs)
    return [(state, w * float(np.exp(power * (lg - top)))) for (state, w), lg in zip(worlds, logs, strict=True)]
