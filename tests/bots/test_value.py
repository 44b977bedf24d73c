"""The learned position value (``value``): its features see only the seat's own view, the compiled
network computes what the numpy one does, the shipped weights load, and with no weight on the value
the candidates score exactly as the rules of thumb's rollouts."""

from __future__ import annotations

import numpy as np
import pytest

from atout.bots import fastplay, value
from atout.bots.rollout import shown_voids

from .test_fastplay import position


def positions(players: int, count: int):
    for g in range(count):
        deal = position(players, {}, f"value/{players}/{g}")
        if deal is not None:
            yield deal


def random_net(seed: int, hidden: int = 16) -> value.Value:
    rng = np.random.default_rng(seed)
    return value.Value(rng.normal(size=value.NV), rng.uniform(0.5, 2.0, size=value.NV),
                       rng.normal(size=(hidden, value.NV)) / 10, rng.normal(size=hidden),
                       rng.normal(size=(hidden // 2, hidden)) / 4, rng.normal(size=hidden // 2),
                       rng.normal(size=hidden // 2) * 30, 5.0)


def trick_end(deal):
    """The packed ``deal`` played on by the rules of thumb to the end of its current trick (or the
    deal's start of a trick as it is)."""
    st = fastplay.pack(deal, shown_voids(deal), deal.to_act)
    while st[fastplay.TLEN] != 0:
        seat = st[fastplay.TO_ACT]
        card = fastplay.rules_card(st)
        fastplay._note_void(st, seat, card)
        fastplay.play(st, card)
    return st


@pytest.mark.parametrize("players", [3, 4, 5])
def test_features_see_only_the_seat_s_own_view(players):
    """Two worlds that differ only in two other seats' hands give a seat the same features, and its
    hand and the cards it has not seen are where the encoding says."""
    seen = 0
    for deal in positions(players, 20):
        st = trick_end(deal)
        if st[fastplay.NTRICKS] >= st[fastplay.HAND_SIZE]:
            continue
        for me in deal.seats:
            others = [s for s in deal.seats if s != me]
            a, b = others[0], others[1]
            swapped = st.copy()
            for word in (fastplay.HAND_LO, fastplay.HAND_HI):
                swapped[word + a], swapped[word + b] = st[word + b], st[word + a]
            x = np.zeros(value.NV)
            y = np.zeros(value.NV)
            value.features(st, me, x)
            value.features(swapped, me, y)
            assert (x == y).all()
            hand = int(st[fastplay.HAND_LO + me]) | int(st[fastplay.HAND_HI + me]) << 56
            assert [c for c in range(78) if x[c]] == [c for c in range(78) if hand >> c & 1]
            others_hands = 0
            for s in others:
                others_hands |= int(st[fastplay.HAND_LO + s]) | int(st[fastplay.HAND_HI + s]) << 56
            unseen = {c for c in range(78) if x[78 + c]}
            assert {c for c in range(78) if others_hands >> c & 1} <= unseen
            assert not unseen & {c for c in range(78) if hand >> c & 1}
            assert x[156:159].sum() == 1 and x[159:163].sum() == 1 and x[195:200].sum() == 1
            assert x[value.NV - 1] == 1.0
            seen += 1
    assert seen > 10


def test_compiled_and_numpy_networks_agree():
    net = random_net(3)
    rng = np.random.default_rng(4)
    xs = rng.normal(size=(20, value.NV))
    batch = value.forward_numpy(xs, net)
    one = [value.forward(x, *net.args) for x in xs]
    assert np.allclose(batch, one, rtol=1e-9, atol=1e-9)
    assert np.std(one) > 1.0  # not a constant


@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_weight_on_the_value_scores_as_the_rollouts(players):
    net = random_net(5)
    compared = differ = 0
    for deal in positions(players, 15):
        me = deal.to_act
        st = fastplay.pack(deal, shown_voids(deal), me)
        legal = deal.legal_play_mask()
        cards = np.array([c for c in range(78) if legal >> c & 1], dtype=np.int64)
        plain = np.zeros(len(cards), dtype=np.int64)
        mixed = np.zeros(len(cards), dtype=np.int64)
        learned = np.zeros(len(cards), dtype=np.int64)
        fastplay.card_values(st, me, cards, plain)
        value.card_values_value(st, me, cards, mixed, 0.0, *net.args)
        value.card_values_value(st, me, cards, learned, 1.0, *net.args)
        assert list(mixed) == list(plain)
        compared += len(cards)
        differ += int((learned != plain).any())
    assert compared > 10 and differ > 0


def test_the_leaf_is_the_network_times_the_seat_s_share():
    net = random_net(6)
    x = np.zeros(value.NV)
    checked = 0
    for deal in positions(4, 15):
        st = trick_end(deal)
        if st[fastplay.NTRICKS] >= st[fastplay.HAND_SIZE]:
            continue
        for me in deal.seats:
            value.features(st, me, x)
            share = value.role_factor(st, me)
            assert share == (3 if me == deal.taker else -1)
            assert value.leaf_value(st, me, x, *net.args) == pytest.approx(share * value.forward_numpy(x[None], net)[0])
            checked += 1
    assert checked > 8


def test_the_shipped_weights_load_once_and_wrong_shapes_are_refused(tmp_path):
    net = value.load()
    assert value.load() is net
    assert net.w1.shape[1] == value.NV and net.mean.shape == (value.NV,)
    assert value.WEIGHTS.stat().st_size < 1_000_000
    bad = tmp_path / "bad.npz"
    np.savez(bad, mean=np.zeros(3), scale=np.zeros(3), w1=np.zeros((4, 3)), b1=np.zeros(4), w2=np.zeros((2, 4)),
             b2=np.zeros(2), w3=np.zeros(2), b3=np.float64(0))
    with pytest.raises(ValueError, match="features"):
        value.Value.read(bad)


def test_the_expert_with_the_value_plays_a_legal_deal(monkeypatch):
    from atout.bots import expert, make_bot
    from atout.engine import RuleSet, new_deal

    monkeypatch.setattr(expert, "LEAF_VALUE", "all")
    deal = new_deal(RuleSet(4), 0, "value-switch/2")
    bots = [make_bot("expert", f"value-switch/{s}") for s in range(4)]
    while not deal.is_over:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat=seat)  # raises on an illegal action
    assert deal.result is not None


def test_the_data_hold_every_seat_after_every_trick_but_the_last(tmp_path):
    from atout.training.value_data import deal_positions

    found = 0
    for i in range(6):
        x, u, seats = deal_positions(4, "value-data", i, "heuristic")
        if not len(u):
            continue
        assert x.shape == (4 * 17, value.NV) and (x[:, value.NV - 1] == 0).all()
        assert sorted(seats.tolist()) == sorted(list(range(4)) * 17)
        assert len(set(u.tolist())) == 1  # one deal, one result for the taker's side
        found += 1
    assert found >= 2
