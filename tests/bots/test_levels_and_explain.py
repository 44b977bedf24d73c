"""Levels for people (the hint that explains itself: test_hint.py)."""

from __future__ import annotations

import pytest

from atout.bots import LEVELS, OFFERED_LEVELS, make_bot
from atout.bots.expert import NO_POIGNEE, ExpertBot
from atout.bots.explain import action_words
from atout.engine import Call, Discard, Play, RuleSet, new_deal
from atout.engine.cards import EXCUSE, HEARTS, SPADES, mask_of, suit_card, trump


def test_kept_level_names_stay_and_offered_levels_exist():
    for name in ("random", "heuristic", "expert"):
        assert name in LEVELS
    assert list(OFFERED_LEVELS) == ["beginner", "club", "expert"]
    for name, line in OFFERED_LEVELS.items():
        assert name in LEVELS and line


def test_beginner_slips_but_only_sometimes():
    """Over many card decisions the beginner differs from the club player, but mostly agrees."""
    same = differ = 0
    for i in range(30):
        deal = new_deal(RuleSet(4), i % 4, f"slips/{i}")
        beginner, club = make_bot("beginner", f"b{i}"), make_bot("club")
        while not deal.is_over:
            seat = deal.to_act
            obs = deal.observation(seat)
            a, b = beginner.choose(obs), club.choose(obs)
            if type(a) is Play and len(obs.legal) > 1:
                same += a == b
                differ += a != b
            deal.apply(b, seat=seat)
    assert differ > 0.05 * (same + differ)
    assert same > 0.5 * (same + differ)


@pytest.mark.parametrize("level", ["beginner", "club"])
def test_new_levels_are_deterministic(level):
    def play(seed):
        deal = new_deal(RuleSet(4), 1, "det-new")
        bots = [make_bot(level, f"{seed}/{s}") for s in range(4)]
        out = []
        while not deal.is_over:
            seat = deal.to_act
            a = bots[seat].choose(deal.observation(seat))
            deal.apply(a, seat=seat)
            out.append(a)
        return out

    assert play("a") == play("a")


def test_expert_records_its_last_search():
    bot = ExpertBot("rec", samples=4)
    searched = 0
    for i in range(3):
        deal = new_deal(RuleSet(4), i, f"rec-deal/{i}")
        while not deal.is_over:
            seat = deal.to_act
            obs = deal.observation(seat)
            action = bot.choose(obs) if seat == 0 else make_bot("heuristic").choose(obs)
            if seat == 0 and bot.last_search is not None:
                s = bot.last_search
                searched += 1
                assert len(s.actions) == len(s.means) >= 2 and s.worlds >= 1
                best = max(range(len(s.means)), key=lambda i: (s.means[i], -i))
                assert s.actions[best] == action or s.actions[best] is NO_POIGNEE
            deal.apply(action, seat=seat)
    assert searched > 0


def test_action_words_name_cards_as_the_terminal_does():
    """A trump is "trump 20", never a bare "20" (the analysis said "Play 20"); suit cards read K Q C J."""
    assert action_words(Play(trump(20))) == "Play trump 20"
    assert action_words(Play(trump(1))) == "Play trump 1"
    assert action_words(Play(EXCUSE)) == "Play Excuse"
    assert action_words(Play(suit_card(14, HEARTS))) == "Play K♥"
    assert action_words(Play(suit_card(12, SPADES))) == "Play C♠"
    assert action_words(Call(suit_card(14, SPADES))) == "Call K♠"
    assert action_words(Discard(mask_of([suit_card(2, SPADES), suit_card(7, SPADES)]))) == "Écart 2♠ 7♠"
    assert action_words(Discard(mask_of([trump(3), trump(5), suit_card(2, SPADES)]))) == "Écart trumps 5 3, 2♠"
    assert action_words(Discard(mask_of([trump(4), suit_card(2, SPADES)]))) == "Écart trump 4, 2♠"
