"""The game of several deals: dealer rotation, void deals, the sheet, the ranking, the dict form."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.bots import make_bot
from atout.engine import PASS, Bid, IllegalAction, RuleSet
from atout.engine.game import Game


def play_out(game: Game, seed: str = "bots") -> None:
    bots = [make_bot("random", f"{seed}/{s}") for s in range(game.players)]
    while not game.is_over:
        if game.deal is None or game.deal.is_over:
            game.start_deal()
            continue
        seat = game.deal.to_act
        game.apply(bots[seat].choose(game.deal.observation(seat)), seat)


@settings(max_examples=15, deadline=None)
@given(players=st.sampled_from([3, 4, 5]), deals=st.integers(1, 4), seed=st.text(min_size=1, max_size=8))
def test_a_game_counts_its_deals_and_sums_to_zero(players: int, deals: int, seed: str) -> None:
    game = Game(players=players, deals=deals, seed=seed)
    play_out(game, seed)
    assert game.deals_played == deals
    assert sum(game.totals) == 0
    assert game.totals == [sum(line.scores[s] for line in game.counted) for s in range(players)]
    # the deal passes to the right: each deal's dealer is the next seat after the previous one's
    dealers = [line.dealer for line in game.sheet]
    assert all(b == (a + 1) % players for a, b in itertools.pairwise(dealers))
    # void deals are on the sheet but not counted
    assert all(line.number == 0 for line in game.sheet if line.void)
    assert [line.number for line in game.counted] == list(range(1, deals + 1))


def test_ranking_shares_places_on_equal_totals() -> None:
    game = Game(players=4, deals=1, seed="r")
    game.sheet = []
    from atout.engine.game import DealSummary

    game.sheet.append(DealSummary(1, 0, "s", None, 1, "garde", None, True, [-50, 150, -50, -50]))
    assert game.ranking() == [(1, 1, 150), (2, 0, -50), (2, 2, -50), (2, 3, -50)]


def test_a_given_seed_overrides_the_derived_one() -> None:
    game = Game(players=4, deals=2, seed="game")
    deal = game.start_deal(seed="secret-deal-seed")
    assert deal.seed == "secret-deal-seed"
    assert Game(players=4, deals=2, seed="game").start_deal().seed == "game/0"


def test_dict_form_round_trip_mid_deal() -> None:
    game = Game(players=5, deals=3, seed="mid", rules=RuleSet.make(5, five_players="dealer_sits_out"))
    play_out_one = make_bot("random", 1)
    game.start_deal()
    for _ in range(7):
        if game.deal.is_over:
            break
        seat = game.deal.to_act
        game.apply(play_out_one.choose(game.deal.observation(seat)), seat)
    again = Game.from_json(game.to_json())
    assert again.to_json() == game.to_json()
    assert again.rules == game.rules and again.deal.to_act == game.deal.to_act


def test_bad_games_are_refused() -> None:
    with pytest.raises(ValueError, match="3, 4 or 5"):
        Game(players=6)
    with pytest.raises(ValueError, match="at least one deal"):
        Game(deals=0)
    with pytest.raises(ValueError, match="rules for 4 players"):
        Game(players=3, rules=RuleSet(4))
    with pytest.raises(ValueError, match="not a saved atout game"):
        Game.from_json({"format": "chess"})
    game = Game(players=3, deals=1, seed="x")
    with pytest.raises(IllegalAction):
        game.apply(Bid(PASS), 0)  # no deal yet
