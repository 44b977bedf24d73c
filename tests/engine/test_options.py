"""docs/rules.md section 14: options not covered by their own rule's tests.

Covered elsewhere: excuse_last_trick (test_excuse), petit_sec (test_bidding),
chelem_announce (test_chelem), deal_emulation (test_deal).
"""

import random

import pytest

from atout.engine import GARDE_SANS, PRISE, Bid, Call, RuleSet, deal_cards, new_deal

from .helpers import bid_all, build, play_out, random_game, to_play


@pytest.mark.parametrize("players", [3, 4, 5])
def test_first_lead_taker(players):
    for taker in range(players):
        deal = build(players, dealer=0, first_lead="taker")
        to_play(deal, taker, GARDE_SANS)
        assert deal.to_act == taker
        default = build(players, dealer=0)
        to_play(default, taker, GARDE_SANS)
        assert default.to_act == 1


def test_uniform_emulation_deals_differently_from_packets():
    seed = "emulation"
    a = deal_cards(seed, 0, RuleSet.make(4))
    b = deal_cards(seed, 0, RuleSet.make(4, deal_emulation="uniform"))
    assert a != b
    hands, dog = b
    assert dog.bit_count() == 6 and all(h.bit_count() == 18 for h in hands)


@pytest.mark.parametrize("dealer", range(5))
def test_dealer_sits_out_plays_the_four_player_game(dealer):
    rules = RuleSet.make(5, five_players="dealer_sits_out")
    deal = new_deal(rules, dealer, f"sits-out-{dealer}")
    while deal.void is not None:  # pragma: no cover - petit sec
        deal = new_deal(rules, dealer, deal.seed + "x")
    assert deal.hands[dealer] == 0 and deal.settings.hand_size == 18 and deal.settings.dog_size == 6
    assert dealer not in deal.seats and len(deal.seats) == 4
    assert deal.to_act == (dealer + 1) % 5
    speakers = []
    while deal.phase == "bidding":
        speakers.append(deal.to_act)
        deal.apply(Bid(PRISE if len(speakers) == 1 else 0), deal.to_act)
    assert speakers == [(dealer + k) % 5 for k in range(1, 5)]
    assert deal.phase == "discard"  # no call
    assert deal.observation(dealer).hand == 0
    play_out(deal, random.Random(dealer))
    r = deal.result
    assert r.scores[dealer] == 0 and sum(r.scores) == 0
    assert r.scores[r.taker] == 3 * r.unit and r.partner is None
    for tr in deal.tricks:
        assert len(tr.plays) == 4 and all(s != dealer for s, _ in tr.plays)


def test_call_king_is_the_default_at_five():
    deal = build(5, dealer=0)
    bid_all(deal, 1, PRISE)
    assert deal.phase == "call"
    deal.apply(Call(deal.legal_actions()[0].card), 1)
    assert deal.phase == "discard"


@pytest.mark.parametrize(
    "options",
    [
        {"excuse_last_trick": "trick_winner"},
        {"petit_sec": "holder_may_play"},
        {"deal_emulation": "uniform"},
        {"chelem_announce": "with_bid"},
        {"first_lead": "taker"},
    ],
)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_option_plays_whole_games(players, options):
    for seed in range(5):
        deal = random_game(players, seed, **options)
        assert deal.phase == "end" and sum(deal.result.scores) == 0
