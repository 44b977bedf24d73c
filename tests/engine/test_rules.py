"""docs/rules.md sections 2 and 14: settings by player count and the named options."""

import pytest

from atout.engine import OPTIONS, RuleError, RuleSet


def test_options_and_defaults_are_the_fft_rules():
    assert dict(OPTIONS) == {
        "excuse_last_trick": ("other_side", "trick_winner"),
        "petit_sec": ("redeal", "holder_may_play"),
        "deal_emulation": ("packets", "uniform"),
        "chelem_announce": ("before_first_lead", "with_bid"),
        "five_players": ("call_king", "dealer_sits_out"),
        "first_lead": ("dealer_right", "taker"),
    }
    rules = RuleSet()
    assert rules.players == 4
    assert {k: rules.option(k) for k in OPTIONS} == {k: v[0] for k, v in OPTIONS.items()}


@pytest.mark.parametrize(
    "players,hand,dog,packet,poignees",
    [(3, 24, 6, 4, (13, 15, 18)), (4, 18, 6, 3, (10, 13, 15)), (5, 15, 3, 3, (8, 10, 13))],
)
def test_settings_by_player_count(players, hand, dog, packet, poignees):
    s = RuleSet.make(players).settings
    assert (s.hand_size, s.dog_size, s.packet) == (hand, dog, packet)
    assert s.active * s.hand_size + s.dog_size == 78
    assert [(name, size, bonus) for name, size, bonus in s.poignees] == list(
        zip(("simple", "double", "triple"), poignees, (20, 30, 40), strict=True)
    )


def test_five_players_never_18_cards_and_a_dog_of_6():
    s = RuleSet.make(5).settings
    assert (s.hand_size, s.dog_size) == (15, 3)


def test_dealer_sits_out_plays_the_four_player_game():
    rules = RuleSet.make(5, five_players="dealer_sits_out")
    assert rules.active == 4 and rules.dealer_sits_out and not rules.calls_king
    assert rules.settings.hand_size == 18
    assert RuleSet.make(5).calls_king


@pytest.mark.parametrize("players", [2, 6, 0, "4", True, None])
def test_bad_player_count(players):
    with pytest.raises(RuleError):
        RuleSet(players)


def test_unknown_option_and_bad_value():
    with pytest.raises(RuleError, match="unknown option"):
        RuleSet.make(4, excuse="x")
    with pytest.raises(RuleError, match="excuse_last_trick"):
        RuleSet.make(4, excuse_last_trick="winner")


def test_equality_and_hash():
    a = RuleSet.make(4, first_lead="taker")
    b = RuleSet.make(4, first_lead="taker", petit_sec="redeal")
    assert a == b and hash(a) == hash(b)
    assert a != RuleSet.make(4)
