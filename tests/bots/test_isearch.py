"""The second ply over information sets (``isearch``): its re-dealt worlds keep what the seat
knows, its node card is legal and does not depend on the cards the seat cannot see, and the expert
with the switch plays legal cards, the same for the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from atout.bots import fastplay, isearch
from atout.bots.fastplay import HAND_HI, HAND_LO, UNSEEN_HI, UNSEEN_LO, VOIDS
from atout.bots.rollout import shown_voids
from atout.engine import Play, RuleSet, new_deal

from .test_fastplay import position


def positions(players: int, count: int, tag: str):
    for g in range(count):
        deal = position(players, {}, f"isearch/{tag}/{players}/{g}")
        if deal is not None and (deal.called is None or deal.partner_revealed):
            yield deal


def _cards(lo: int, hi: int) -> int:
    return int(lo) | int(hi) << 56


def _rs(seed: int) -> np.ndarray:
    return np.array([seed], dtype=np.uint64)


NO_FIXED = np.zeros(5, dtype=np.int64)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_redeal_keeps_the_seat_s_hand_the_sizes_the_voids_and_the_cards_in_play(players):
    dealt = 0
    for deal in positions(players, 25, "redeal"):
        me = deal.to_act
        st = fastplay.pack(deal, shown_voids(deal), me)
        out = np.empty_like(st)
        for seed in range(1, 4):
            assert isearch.redeal(st, me, NO_FIXED, NO_FIXED, _rs(seed), out)
            dealt += 1
            hidden_before = 0
            hidden_after = 0
            for s in deal.seats:
                before = _cards(st[HAND_LO + s], st[HAND_HI + s])
                after = _cards(out[HAND_LO + s], out[HAND_HI + s])
                assert before.bit_count() == after.bit_count()
                if s == me:
                    assert after == before
                    continue
                hidden_before |= before
                hidden_after |= after
                for suit in range(4):
                    if out[VOIDS + s] >> suit & 1:
                        assert not after & int(fastplay.SUIT_LO[suit])
                if out[VOIDS + s] & fastplay.NO_TRUMP:
                    assert not after >> 56 & fastplay.HI_TRUMPS
            unseen = _cards(st[UNSEEN_LO], st[UNSEEN_HI])
            assert hidden_after & ~unseen == 0
            # Every field but the hidden hands (and a hidden dog) is the world's.
            same = [i for i in range(fastplay.STATE_SIZE)
                    if not (HAND_LO <= i < HAND_LO + 10 or i in (fastplay.EXTRA_LO, fastplay.EXTRA_HI))]
            assert (out[same] == st[same]).all()
    assert dealt > 20


def test_a_shown_poignee_stays_with_its_seat():
    checked = 0
    for deal in positions(4, 20, "poignee"):
        me = deal.to_act
        other = next((s for s in deal.seats if s != me and deal.hands[s] >> 56 & fastplay.HI_TRUMPS), None)
        if other is None:
            continue
        checked += 1
        trumps = deal.hands[other] >> 56 & fastplay.HI_TRUMPS
        fixed_hi = NO_FIXED.copy()
        fixed_hi[other] = trumps
        st = fastplay.pack(deal, shown_voids(deal), me)
        out = np.empty_like(st)
        for seed in range(1, 6):
            assert isearch.redeal(st, me, NO_FIXED, fixed_hi, _rs(seed), out)
            assert out[HAND_HI + other] & trumps == trumps
    assert checked > 5


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_node_card_is_legal_and_blind_to_the_hidden_hands(players):
    """Two worlds the seat cannot tell apart (the second re-dealt from the first) give the same
    card for the same generator."""
    checked = 0
    for deal in positions(players, 25, "blind"):
        me = deal.to_act
        st = fastplay.pack(deal, shown_voids(deal), me)
        other = np.empty_like(st)
        assert isearch.redeal(st, me, NO_FIXED, NO_FIXED, _rs(99), other)
        a = isearch._node_card(st.copy(), me, 6, NO_FIXED, NO_FIXED, _rs(7))
        b = isearch._node_card(other.copy(), me, 6, NO_FIXED, NO_FIXED, _rs(7))
        assert a == b
        assert deal.legal_play_mask() >> int(a) & 1
        checked += 1
    assert checked > 10


def test_an_information_set_gets_one_card_and_the_first_card_is_the_candidate():
    """The root's values with the second ply: one card per information set, remembered."""
    changed = 0
    for deal in positions(4, 10, "values"):
        me = deal.to_act
        st = fastplay.pack(deal, shown_voids(deal), me)
        legal = deal.legal_play_mask()
        cards = np.array([c for c in range(78) if legal >> c & 1], dtype=np.int64)
        ply = isearch.SecondPly(4, {}, 5)
        out = np.zeros(len(cards), dtype=np.int64)
        ply(st, me, cards, out)
        again = isearch.SecondPly(4, {}, 5)
        out2 = np.zeros(len(cards), dtype=np.int64)
        again(st, me, cards, out2)
        assert list(out) == list(out2)
        assert ply.nkeys[0] <= len(cards)
        assert len(set(ply.keys[: ply.nkeys[0]])) == ply.nkeys[0]
        plain = np.zeros(len(cards), dtype=np.int64)
        fastplay.card_values(st, me, cards, plain)
        changed += list(plain) != list(out)
    assert changed > 0  # the second ply does play other cards than the rules of thumb somewhere


def _cards_played(seed: str, players: int = 4) -> list[tuple[int, int]]:
    from atout.bots import make_bot

    deal = new_deal(RuleSet(players), 0, seed)
    bots = [make_bot("expert", f"{seed}/{s}") for s in range(players)]
    out = []
    while not deal.is_over:
        seat = deal.to_act
        action = bots[seat].choose(deal.observation(seat))
        deal.apply(action, seat=seat)  # raises IllegalAction if the robot broke a rule
        if type(action) is Play:
            out.append((seat, action.card))
    return out


def test_the_expert_with_the_second_ply_is_legal_and_a_seed_fixes_its_play(monkeypatch):
    from atout.bots import expert

    monkeypatch.setattr(expert, "SAFETY_SECONDS", 1e9)
    monkeypatch.setattr(expert, "SECOND_PLY", "all")
    first = _cards_played("isearch-switch/2")
    assert len(first) == 72  # someone took: a whole deal of cards
    assert _cards_played("isearch-switch/2") == first


def test_the_second_ply_is_off_by_default():
    from atout.bots import expert

    assert expert.SECOND_PLY == ""
