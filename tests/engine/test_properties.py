"""Properties over many random deals, for 3, 4 and 5 players (and the 5-player option)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.engine import IllegalAction, Play, PoigneeFrom, new_deal
from atout.engine.cards import FULL_DECK, TRUMPS, card_code, half_points
from atout.engine.choices import random_action
from atout.engine.rules import OPTIONS, RuleSet

from . import reference
from .helpers import snapshot
from .test_observation import check_observation

TABLES = [(3, {}), (4, {}), (5, {}), (5, {"five_players": "dealer_sits_out"})]

option_sets = st.fixed_dictionaries(
    {name: st.sampled_from(values) for name, values in OPTIONS.items() if name != "five_players"}
)


def _codes(mask):
    return [card_code(c) for c in range(78) if mask >> c & 1]


def _check_conservation(deal):
    played = 0
    for t in deal.tricks:
        for _, c in t.plays:
            assert not played >> c & 1
            played |= 1 << c
    for _, c in deal.trick:
        assert not played >> c & 1
        played |= 1 << c
    parts = [*deal.hands, deal.ecart, played]
    if not deal.dog_shown:  # the dog is still aside (unseen or not yet taken)
        parts.append(deal.dog)
    union = 0
    for p in parts:
        assert not union & p, "a card in two places"
        union |= p
    assert union == FULL_DECK, "78 cards"
    if deal.phase == "end" and deal.void is None:
        piles = deal.piles[0] | deal.piles[1] | deal.ecart
        if not deal.dog_shown:
            piles |= deal.dog
        assert not deal.piles[0] & deal.piles[1]
        assert piles == FULL_DECK
        assert half_points(piles) == 182


def _check_legal_plays(deal):
    seat = deal.to_act
    engine = {card_code(a.card) for a in deal.legal_actions() if isinstance(a, Play)}
    hand = _codes(deal.hands[seat])
    trick = [card_code(c) for _, c in deal.trick]
    called = card_code(deal.called) if deal.called is not None else None
    expected = reference.legal(hand, trick, called, first_trick=not deal.tricks)
    assert engine == expected, (hand, trick, called)
    return expected


def _check_other_choices(deal):
    """Bids, calls, écarts and poignées agree with the reference reading too."""
    legal = deal.legal_actions()
    seat = deal.to_act
    hand = set(_codes(deal.hands[seat]))
    if deal.phase == "bidding":
        best = reference.BIDS[deal.contract]
        want = reference.legal_bids(best, deal.rules.option("chelem_announce") == "with_bid")
        assert [(reference.BIDS[a.contract], a.chelem) for a in legal] == want
    elif deal.phase == "call":
        assert {card_code(a.card) for a in legal} == reference.callable_cards(hand)
    elif deal.phase == "discard":
        (choice,) = legal
        assert choice.count == deal.settings.dog_size
        assert set(_codes(choice.cards)) == reference.ecart_choices(hand, deal.settings.dog_size)
    elif deal.phase == "chelem":
        assert [a.announce for a in legal] == [False, True]
    elif deal.phase == "play":
        offers = [a for a in legal if isinstance(a, PoigneeFrom)]
        want = None
        if not deal.tricks and not any(s == seat for s, *_ in deal.poignees):
            trumps = {c for c in hand if reference.kind(c) == "T"}
            if seat == deal.taker:
                trumps |= {c for c in _codes(deal.ecart) if reference.kind(c) == "T"}
            want = reference.poignee_offer(trumps, "EX" in hand, len(deal.seats))
        if want is None:
            assert offers == []
        else:
            (offer,) = offers
            assert (set(_codes(offer.cards)), offer.sizes) == want


def _check_refusal(deal, rng, legal_codes):
    """A random illegal card is refused with a rule name and changes nothing."""
    seat = deal.to_act
    illegal = [c for c in range(78) if card_code(c) not in legal_codes]
    card = rng.choice(illegal)
    before = snapshot(deal)
    try:
        deal.apply(Play(card), seat)
    except IllegalAction as err:
        assert err.rule and err.message
    else:  # pragma: no cover
        raise AssertionError(f"{card_code(card)} accepted")
    assert snapshot(deal) == before


def run_random_game(players, options, seed, dealer):
    rules = RuleSet.make(players, **options)
    deal = new_deal(rules, dealer % players, f"prop-{seed}")
    rng = random.Random(seed)
    steps = 0
    while deal.phase != "end":
        steps += 1
        assert steps < 200, "a random legal game always finishes"
        _check_conservation(deal)
        for seat in [None, *range(players)]:
            check_observation(deal, seat)
        if deal.phase == "play":
            legal_codes = _check_legal_plays(deal)
        _check_other_choices(deal)
        if deal.phase == "play" and steps % 3 == 0:
            _check_refusal(deal, rng, legal_codes)
        legal = deal.legal_actions()
        assert legal, "the deal waits for someone who can act"
        action = random_action(legal, rng)
        if steps % 17 == 0:  # a clone is independent of its original
            before = snapshot(deal)
            copy = deal.clone()
            copy.apply(action, copy.to_act)
            assert snapshot(deal) == before
        deal.apply(action, deal.to_act)
    _check_conservation(deal)
    for seat in [None, *range(players)]:
        check_observation(deal, seat)
    result = deal.result
    assert sum(result.scores) == 0
    if deal.void:
        assert result.scores == [0] * players
    else:
        assert len(deal.tricks) == rules.settings.hand_size
        assert result.to_json() == reference.expected_result(deal)
    return deal


PROPERTY = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 4), options=option_sets)
def test_random_games_3(seed, dealer, options):
    run_random_game(3, options, seed, dealer)


@PROPERTY
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 4), options=option_sets)
def test_random_games_4(seed, dealer, options):
    run_random_game(4, options, seed, dealer)


@PROPERTY
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 4), options=option_sets)
def test_random_games_5(seed, dealer, options):
    run_random_game(5, options, seed, dealer)


@PROPERTY
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 4), options=option_sets)
def test_random_games_5_dealer_sits_out(seed, dealer, options):
    run_random_game(5, {**options, "five_players": "dealer_sits_out"}, seed, dealer)


def test_many_plain_random_games_score_as_the_rules_say():
    """Wider but lighter: default rules, many deals, the reference scorer on each."""
    for players in (3, 4, 5):
        rules = RuleSet.make(players)
        rng = random.Random(players)
        done = 0
        for k in range(400):
            deal = new_deal(rules, k % players, f"many-{players}-{k}")
            while deal.phase != "end":
                deal.apply(random_action(deal.legal_actions(), rng), deal.to_act)
            if deal.void is None:
                assert deal.result.to_json() == reference.expected_result(deal)
                done += 1
        assert done > 300


def test_ecart_trumps_never_more_than_needed():
    for k in range(300):
        deal = new_deal(RuleSet.make(4), k % 4, f"ecart-{k}")
        rng = random.Random(k)
        while deal.phase not in ("discard", "end", "play", "chelem"):
            deal.apply(random_action(deal.legal_actions(), rng), deal.to_act)
        if deal.phase != "discard":
            continue
        hand = deal.hands[deal.taker]
        plain = [c for c in _codes(hand) if reference.kind(c) in "SHDC" and not c.startswith("K")]
        action = random_action(deal.legal_actions(), rng)
        deal.apply(action, deal.taker)
        trumps = (deal.ecart & TRUMPS).bit_count()
        assert trumps == max(0, 6 - len(plain))
