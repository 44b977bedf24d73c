"""The learned bid edge (``bidvalue``): the hand's features are what they say, the prediction is the
ridge regression's arithmetic, the shipped weights load, the expert's switch changes the bid as the
edge says (and not at all when the edge is ``TAKER_EDGE``'s), and ``bid_data``'s rows are what the
expert played."""

from __future__ import annotations

import numpy as np
import pytest

from atout.bots import bidvalue, expert
from atout.bots.bidvalue import CONTRACTS, HAND_NAMES, NAMES, BidEdge, hand_features
from atout.engine import GARDE, GARDE_SANS, PASS, RuleSet, new_deal
from atout.engine.cards import EXCUSE, PETIT, SUIT_MASKS, TRUMPS
from atout.training import bid_data

T21 = EXCUSE - 1


def card(suit: int, rank: int) -> int:
    """A suit card: ``rank`` 1 (ace) to 14 (king)."""
    return 14 * suit + rank - 1


def test_hand_features_count_what_they_name():
    trumps = [PETIT, T21, PETIT + 15, PETIT + 16, PETIT + 3]  # Petit, 21, 16, 17, 4
    hand_cards = trumps + [EXCUSE] + [card(0, r) for r in (14, 13, 12, 2, 3)] + [card(1, 14)] + [card(2, r) for r in (1, 2)]
    hand = sum(1 << c for c in hand_cards)
    assert hand.bit_count() == 14
    x = dict(zip(HAND_NAMES, hand_features(hand, 4, 2, PASS), strict=True))
    assert x["trumps"] == 5 and x["high trumps"] == 2 and x["bouts"] == 3
    assert x["petit"] == x["21"] == x["excuse"] == 1
    assert x["kings"] == 2 and x["queens"] == 1 and x["knights"] == 1
    assert [x["longest suit"], x["second suit"], x["third suit"], x["shortest suit"]] == [5, 2, 1, 0]
    assert x["voids"] == 1 and x["singletons"] == 1
    assert x["bid position"] == 2 and x["a bid before"] == 0 and x["trumps x bouts"] == 15
    # Points: three bouts 4.5 each, K 4.5, Q 3.5, C 2.5, K 4.5, and seven low cards (16, 17, 4, two spades, two diamonds) 0.5.
    assert x["points"] == pytest.approx(3 * 4.5 + 4.5 + 3.5 + 2.5 + 4.5 + 7 * 0.5)
    assert hand & TRUMPS and not hand & SUIT_MASKS[3]


def test_prediction_is_the_ridge_arithmetic_and_the_edge_is_clipped():
    rng = np.random.default_rng(3)
    n = len(NAMES)
    net = BidEdge(rng.normal(size=n), rng.uniform(0.1, 2, size=n), rng.normal(size=n) * 5, 12.5)
    X = rng.normal(size=(7, n)) * 10
    want = [sum((X[r, i] - net.mean[i]) * net.scale[i] * net.coef[i] for i in range(n)) + 12.5 for r in range(7)]
    assert np.allclose(net.predict(X), want)
    hand = sum(1 << c for c in range(56, 70))
    means = np.array([0.0, 10.0, 20.0, -300.0, np.nan])
    x = bidvalue.row(hand_features(hand, 4, 0, PASS), means)
    assert x[-2:].tolist() == [0.0, 0.2]
    raw = float(net.predict(x[None, :])[0])
    assert net.edge(hand, 4, 0, PASS, means) == pytest.approx(min(max(raw, bidvalue.EDGE_RANGE[0]), bidvalue.EDGE_RANGE[1]))
    big = BidEdge(np.zeros(n), np.ones(n), np.zeros(n), 1e6)
    assert big.edge(hand, 4, 0, PASS, means) == bidvalue.EDGE_RANGE[1]


def test_the_shipped_weights_load():
    net = bidvalue.load()
    assert net.coef.shape == (len(NAMES),)
    assert np.isfinite(net.predict(np.zeros((1, len(NAMES))))).all()


def _bid(obs, edge: BidEdge | None, monkeypatch) -> int:
    monkeypatch.setattr(expert, "BID_EDGE", edge is not None)
    if edge is not None:
        monkeypatch.setattr(expert, "load_bid_edge", lambda: edge)
    return expert.ExpertBot(seed="t", samples=16).choose(obs).contract


def test_the_switch_moves_the_bid_as_the_edge_says(monkeypatch):
    """The first bidder's hand of a crafted deal (club count 47): the plain expert bids Garde; with
    the switch and a flat edge equal to ``TAKER_EDGE`` the same; with an edge of -50 a unit it passes,
    with +150 it bids Garde sans."""
    deal = new_deal(RuleSet(4), 0, "bidedge/3")
    obs = deal.observation(deal.to_act)
    n = len(NAMES)

    def flat(e: float) -> BidEdge:
        return BidEdge(np.zeros(n), np.ones(n), np.zeros(n), e)

    plain = _bid(obs, None, monkeypatch)
    assert plain == GARDE
    assert _bid(obs, flat(expert.TAKER_EDGE[4]), monkeypatch) == plain
    assert _bid(obs, flat(-50.0), monkeypatch) == PASS
    assert _bid(obs, flat(150.0), monkeypatch) == GARDE_SANS


def test_bid_data_rows_are_the_deal_s_own(monkeypatch):
    """A row: the seat's hand's features, the search's means (passing and Garde searched), and the
    score the seat made at the deal's end, the seat having bid Garde (or been overcalled)."""
    monkeypatch.setattr(expert, "BID_SAMPLES", 8)
    monkeypatch.setattr(expert, "CARD_SAMPLES", {3: 8, 4: 8, 5: 8})
    monkeypatch.setattr(expert, "ECART_SAMPLES", 8)
    seed, index = "bidrows", 0
    rows = [(s, bid_data.seat_row(4, seed, index, s)) for s in range(4)]
    got = [(s, r) for s, r in rows if r is not None]
    assert got, "some seat of this deal should bid"
    deal = new_deal(RuleSet(4), index % 4, bid_data.deal_seed(seed, index))
    for s, (x, means, facts) in got:
        assert x.shape == (len(HAND_NAMES),)
        assert x[:6].tolist() == hand_features(deal.hands[s], 4, 0, PASS)[:6].tolist()
        assert means.shape == (len(CONTRACTS),)
        assert np.isfinite(means[CONTRACTS.index(PASS)]) and np.isfinite(means[CONTRACTS.index(GARDE)])
        assert facts["contract"] >= CONTRACTS.index(GARDE)
        assert facts["taker"] == s or facts["contract"] > CONTRACTS.index(GARDE)
        assert isinstance(facts["y"], int) and facts["y"] != 0
