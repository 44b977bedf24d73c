"""The expert's worlds agree with everything the seat saw, and with nothing it did not."""

from __future__ import annotations

import random

import pytest

from atout.bots import make_bot
from atout.bots.knowledge import infer
from atout.bots.sampling import sample_world
from atout.engine import Deal, RuleSet, new_deal
from atout.engine.cards import TRUMPS


def observed_states(players: int, seed: str, every: int = 3):
    """(true deal, observation) pairs along a heuristic game, every few decisions."""
    deal = new_deal(RuleSet(players), 0, seed)
    bots = [make_bot("heuristic", s) for s in range(players)]
    step = 0
    while not deal.is_over:
        seat = deal.to_act
        obs = deal.observation(seat)
        if step % every == 0:
            yield deal, obs
        deal.apply(bots[seat].choose(obs), seat=seat)
        step += 1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_worlds_agree_with_public_information(players):
    rng = random.Random(7)
    checked = 0
    for g in range(12):
        for true, obs in observed_states(players, f"worlds/{players}/{g}"):
            k = infer(obs)
            for _ in range(3):
                w = sample_world(obs, rng, k)
                me = obs.seat
                assert isinstance(w, Deal) and w is not true
                assert w.hands[me] == obs.hand
                assert w.phase == true.phase and w.to_act == true.to_act
                assert w.contract == true.contract and w.taker == true.taker
                assert w.called == true.called
                assert [t.plays for t in w.tricks] == [t.plays for t in true.tricks]
                assert w.trick == true.trick
                assert [p[:2] for p in w.poignees] == [p[:2] for p in true.poignees]
                assert w.ecart & TRUMPS == true.ecart & TRUMPS
                if obs.dog is not None:
                    assert w.dog == true.dog
                if obs.ecart is not None:
                    assert w.ecart == obs.ecart
                for seat in obs.seats:
                    assert w.hands[seat].bit_count() == true.hands[seat].bit_count()
                    if seat != me:
                        assert not w.hands[seat] & k.banned(seat)
                        assert w.hands[seat] & k.known[seat] == k.known[seat]
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [3, 4, 5])
def test_inferred_voids_and_ceilings_are_true(players):
    """Everything ``infer`` concludes holds in the real hands, and it concludes something."""
    found = 0
    for g in range(25):
        for true, obs in observed_states(players, f"voids/{players}/{g}", every=1):
            k = infer(obs)
            for seat in obs.seats:
                if seat == obs.seat:
                    continue
                banned = k.banned(seat)
                assert not true.hands[seat] & banned
                assert true.hands[seat] & k.known[seat] == k.known[seat]
                found += bool(banned)
            assert not k.unseen & obs.hand
    assert found > 100


def _true_hidden(deal: Deal, obs) -> dict[int, int]:
    """The hidden places of ``obs`` as they truly are in ``deal``."""
    from atout.bots.sampling import DOG, ECART

    hidden = {s: deal.hands[s] for s in deal.seats if s != obs.seat}
    if obs.dog is None:
        hidden[DOG] = deal.dog
    elif obs.seat != obs.taker and obs.phase != "discard":
        hidden[ECART] = deal.ecart & ~obs.ecart_trumps
    return hidden


@pytest.mark.parametrize("players", [3, 4, 5])
def test_club_players_never_surprise_in_the_true_world(players):
    """Replaying the true deal, the rules of thumb seen from each seat predict every heuristic card."""
    from atout.bots.sampling import replay_world

    judged = 0
    for g in range(10):
        for true, obs in observed_states(players, f"surprise/{players}/{g}", every=5):
            if obs.phase != "play" or not obs.tricks:
                continue
            world, surprises = replay_world(obs, _true_hidden(true, obs))
            assert world is not None and world.hands == true.hands
            assert surprises == 0
            judged += 1
    assert judged > 30


def test_random_players_surprise_and_their_worlds_still_count():
    """Cards a club player would not play are counted, and resampling still returns worlds."""
    from atout.bots.sampling import replay_world, sample_worlds

    deal = new_deal(RuleSet(4), 0, "surprise/random")
    bots = [make_bot("random", s) for s in range(4)]
    while not deal.is_over and len(deal.tricks) < 8:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat=seat)
    if deal.is_over:
        pytest.skip("this deal was void")
    obs = deal.observation(deal.to_act)
    _, surprises = replay_world(obs, _true_hidden(deal, obs))
    assert surprises > 3
    worlds = sample_worlds(obs, random.Random(1), 10)
    assert sum(c for _, c in worlds) == 10
    assert all(w.phase == "play" and w.hands[obs.seat] == obs.hand for w, _ in worlds)


def test_weighted_worlds_weigh_by_surprise():
    """Every world is distinct and weighted in (0, 1]; a world explaining every card weighs most."""
    from atout.bots.sampling import PLAY_SURPRISE, replay_world, weighted_worlds

    checked = 0
    states = [obs for g in range(6) for _, obs in observed_states(4, f"weights/4/{g}", every=7)]
    for obs in states:
        if obs.phase != "play" or len(obs.tricks) < 4:
            continue
        worlds = weighted_worlds(obs, random.Random(3), 12)
        assert len(worlds) == 12
        assert len({id(w) for w, _ in worlds}) == 12
        for world, weight in worlds:
            assert 0 < weight <= 1
            assert world.hands[obs.seat] == obs.hand
        # Recomputing one world's surprises gives its weight back (bids aside).
        world, weight = worlds[0]
        hidden = {s: world.hands[s] for s in world.seats if s != obs.seat}
        _, surprises = replay_world(obs, {**hidden, **_true_hidden(world, obs)})
        assert weight in (PLAY_SURPRISE**surprises, PLAY_SURPRISE**surprises * 0.2)
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("players", [3, 4, 5])
def test_defenders_worlds_give_the_taker_a_club_ecart_and_bid(players):
    """Seen by a defender of a club taker, a world's hidden écart is the one the rules of thumb lay
    aside from the taker's cards in that world (so the taker's voids are where a club taker makes
    them), the taker's hand is worth its contract by the club count, and the worlds still agree
    with every card played; with the écart model off the écart is another one most of the time."""
    from atout.bots import sampling
    from atout.bots.sampling import DOG, ECART, _played_by, sample_hidden
    from atout.bots.tactics import choose_ecart, hand_strength, threshold
    from atout.engine import GARDE_CONTRE
    from atout.engine.state import ecart_allowed

    rng = random.Random(11)
    modelled = unmodelled = checked = fitting = 0
    for g in range(30):
        for _true, obs in observed_states(players, f"ecart-model/{players}/{g}", every=4):
            if obs.phase != "play" or obs.dog is None or obs.seat == obs.taker:
                continue
            k = infer(obs)
            taker = obs.taker
            played_by_taker = _played_by(obs)[taker]
            for model in (True, False):
                sampling.ECART_MODEL = model
                try:
                    hidden = sample_hidden(obs, rng, k)
                except sampling.NoWorld:  # the plain sampler can miss a tight late deal too
                    continue
                finally:
                    sampling.ECART_MODEL = True
                assert DOG not in hidden
                if ECART not in hidden:
                    continue
                cards = hidden[taker] | hidden[ECART] | played_by_taker | obs.ecart_trumps
                count = obs.rules.settings.dog_size
                club = choose_ecart(cards, ecart_allowed(cards, count), count) & ~obs.ecart_trumps
                same = hidden[ECART] == club
                strength = hand_strength(cards & ~obs.dog, players)
                fits = threshold(obs.contract) - sampling.BID_MODEL_SLACK <= strength and (
                    obs.contract == GARDE_CONTRE or strength < threshold(obs.contract + 1) + sampling.BID_MODEL_SLACK
                )
                if model:
                    fitting += fits
                    modelled += same
                    checked += 1
                    world = sampling.build_world(obs, hidden)
                    if world is None:  # only a Petit sec dealt (void under redeal) is refused
                        assert any(hidden[s] & TRUMPS == 1 << 56 for s in obs.seats if s != obs.seat)
                        continue
                    assert not world.hands[taker] & k.banned(taker)
                else:
                    unmodelled += same
    assert checked > 40
    # A club taker's true world is such a world; the sampler finds one nearly always.
    assert modelled >= 0.9 * checked
    assert fitting >= 0.9 * checked
    assert unmodelled < checked / 2


def test_the_club_taker_model_applies_where_model_players_says():
    """Once the bidding is over, a defender's worlds fit the taker to a club taker at the table sizes
    ``sampling.MODEL_PLAYERS`` names (five players among them since issue 25's sixth session), and
    not at a size left out."""
    from atout.bots import sampling
    from atout.bots.sampling import _buckets, _club_model

    assert set(sampling.MODEL_PLAYERS) == {3, 4, 5}
    seen = 0
    for g in range(10):
        for _true, obs in observed_states(5, f"no-model/5/{g}", every=4):
            if obs.phase != "play" or obs.seat == obs.taker:
                continue
            size, banned = _buckets(obs, infer(obs))
            assert _club_model(obs, size, banned) is not None
            old = sampling.MODEL_PLAYERS
            sampling.MODEL_PLAYERS = (3, 4)
            try:
                assert _club_model(obs, size, banned) is None
            finally:
                sampling.MODEL_PLAYERS = old
            seen += 1
    assert seen > 20


def test_five_player_bidding_worlds_give_the_highest_bidder_a_hand_worth_its_bid():
    """During the bidding at five players (``sampling.BID_TIME_PLAYERS``), a seat weighing a bid
    over the highest bidder so far draws worlds where that bidder's hand is worth its bid by the
    club count; with the model off there, fewer of them are."""
    from atout.bots import sampling
    from atout.bots.sampling import BID_MODEL_SLACK, _buckets, _club_model, sample_hidden
    from atout.bots.tactics import hand_strength, threshold
    from atout.engine import GARDE_CONTRE

    rng = random.Random(4)
    fit = {True: 0, False: 0}
    drawn = 0
    for g in range(40):
        for _true, obs in observed_states(5, f"bid-time/5/{g}", every=1):
            if obs.phase != "bidding" or obs.taker is None or obs.taker == obs.seat:
                continue
            k = infer(obs)
            size, banned = _buckets(obs, k)
            assert _club_model(obs, size, banned) is not None
            lo = threshold(obs.contract) - BID_MODEL_SLACK
            hi = threshold(obs.contract + 1) + BID_MODEL_SLACK if obs.contract < GARDE_CONTRE else 1e9
            for on in (True, False):
                old = sampling.BID_TIME_PLAYERS
                sampling.BID_TIME_PLAYERS = old if on else (3, 4)
                try:
                    for _ in range(10):
                        hand = sample_hidden(obs, rng, k)[obs.taker]
                        fit[on] += lo <= hand_strength(hand, 5) < hi
                finally:
                    sampling.BID_TIME_PLAYERS = old
            drawn += 10
    assert drawn >= 100
    assert fit[True] >= 0.9 * drawn
    assert fit[True] > fit[False] + 0.1 * drawn


def test_a_decision_stops_fitting_a_taker_who_fits_no_club_world():
    """Once one draw of a decision found no world fit the club taker, the next draws try only
    ``UNFIT_TRIES`` fits (they are the same draws otherwise: same hidden places, same bans)."""
    from atout.bots import sampling
    from atout.bots.sampling import _buckets, _club_model, sample_hidden

    calls = {"n": 0}
    real = sampling._as_club

    def counted(out, model):
        calls["n"] += 1
        return real(out, model)

    checked = bitten = 0
    for g in range(10):
        for _true, obs in observed_states(4, f"unfit/4/{g}", every=3):
            if obs.phase != "play" or obs.taker is None or obs.seat == obs.taker:
                continue
            k = infer(obs)
            size, banned = _buckets(obs, k)
            if _club_model(obs, size, banned) is None:
                continue
            sampling._as_club = counted
            try:
                calls["n"] = 0
                sample_hidden(obs, random.Random(1), k, unfit=[1])
                capped = calls["n"]
                calls["n"] = 0
                sample_hidden(obs, random.Random(1), k, unfit=[0])
                free = calls["n"]
            finally:
                sampling._as_club = real
            assert capped <= sampling.UNFIT_TRIES
            assert capped <= free
            bitten += capped < free
            checked += 1
    assert checked > 10
    assert bitten >= 3  # positions where a free draw tried more fits than the cap allows


def test_five_player_worlds_keep_the_called_card_out_of_the_takers_hand():
    """At five players a club taker calls a card it lacks; with ``sampling.CALLED_NOT_TAKER`` a
    defender's worlds never deal the unseen called card to the taker (which would make the taker
    play alone), and without it some do."""
    import numpy as np

    from atout.bots import fastplay, sampling
    from atout.bots.sampling import weighted_states

    taker_has = {True: 0, False: 0}
    worlds = 0
    for g in range(12):
        for true, obs in observed_states(5, f"called/5/{g}", every=2):
            if obs.phase != "play" or obs.called is None or obs.partner is not None:
                continue
            if obs.seat in (true.taker, true.partner) or (obs.dog is not None and obs.dog >> obs.called & 1):
                continue
            c = obs.called
            word, bit = (fastplay.HAND_LO, c) if c < 56 else (fastplay.HAND_HI, c - 56)
            for on in (True, False):
                old = sampling.CALLED_NOT_TAKER
                sampling.CALLED_NOT_TAKER = on
                try:
                    drawn = weighted_states(obs, random.Random(g), 24)
                finally:
                    sampling.CALLED_NOT_TAKER = old
                for st, _w in drawn:
                    holder = [s for s in range(5) if int(st[word + s]) >> bit & 1]
                    taker_has[on] += holder == [obs.taker]
                    if on:
                        assert isinstance(st, np.ndarray)
                        worlds += 1
    assert worlds > 200
    assert taker_has[True] == 0
    assert taker_has[False] > worlds // 20
