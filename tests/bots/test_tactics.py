"""Rules of thumb of the heuristic robot, on hands built by hand."""

from __future__ import annotations

from atout.bots.expert import equivalent_cards
from atout.bots.knowledge import friends_of
from atout.bots.tactics import (
    choose_bid,
    choose_ecart,
    hand_strength,
    play_card,
    trick_winner,
)
from atout.engine import PASS, Bid, RuleSet, new_deal
from atout.engine.cards import (
    BOUTS,
    EXCUSE,
    FULL_DECK,
    KINGS,
    PETIT,
    SUIT_MASKS,
    TRUMPS,
    mask_of,
    suit_card,
    trump,
)

S, H, D, C = range(4)


def test_trick_winner_follows_the_rules():
    assert trick_winner([(0, suit_card(5, S)), (1, suit_card(13, S)), (2, suit_card(14, H))]) == (1, suit_card(13, S))
    assert trick_winner([(0, suit_card(14, S)), (1, trump(2)), (2, trump(9))]) == (2, trump(9))
    assert trick_winner([(0, EXCUSE), (1, suit_card(3, D)), (2, suit_card(7, D))]) == (2, suit_card(7, D))


def test_points_go_on_a_partner_sure_trick():
    # Seat 1's partner (seat 0) wins with the 21; seat 1 is last: it gives its queen.
    hand = mask_of([suit_card(13, H), suit_card(2, H), suit_card(5, C)])
    trick = [(2, suit_card(9, H)), (3, suit_card(10, H)), (0, trump(21))]
    legal = hand & SUIT_MASKS[H]
    card = play_card(hand, legal, trick, 1, 0b0011, (), FULL_DECK & ~hand, taker=2)
    assert card == suit_card(13, H)


def test_no_points_on_an_enemy_trick():
    hand = mask_of([suit_card(13, H), suit_card(2, H), suit_card(5, C)])
    trick = [(2, suit_card(9, H)), (3, trump(5)), (0, suit_card(4, H))]
    legal = hand & SUIT_MASKS[H]
    card = play_card(hand, legal, trick, 1, 0b0011, (), FULL_DECK & ~hand, taker=3)
    assert card == suit_card(2, H)


def test_the_petit_is_saved_when_nothing_can_beat_it():
    # Last to play, no trump in the trick, must trump: the Petit wins the trick.
    hand = mask_of([PETIT, trump(12), trump(15)])
    trick = [(0, suit_card(14, S)), (1, suit_card(3, S)), (2, suit_card(4, S))]
    card = play_card(hand, hand & TRUMPS, trick, 3, 1 << 3, (), FULL_DECK & ~hand, taker=3)
    assert card == PETIT


def test_the_petit_is_not_thrown_under_a_higher_trump():
    hand = mask_of([PETIT, trump(3), trump(4)])
    trick = [(0, suit_card(14, S)), (1, trump(20))]
    card = play_card(hand, hand & TRUMPS, trick, 2, 1 << 2, (3,), FULL_DECK & ~hand, taker=2)
    assert card != PETIT


def test_the_excuse_is_never_kept_for_the_last_trick():
    hand = mask_of([EXCUSE, suit_card(5, D)])
    card = play_card(hand, hand, [(0, suit_card(9, D))], 1, 0b10, (2, 3), FULL_DECK & ~hand, taker=0)
    assert card == EXCUSE


def test_ecart_makes_a_void_and_never_lays_aside_kings_or_bouts():
    hand = mask_of(
        [suit_card(r, S) for r in (2, 5, 9)]
        + [suit_card(r, H) for r in (1, 4, 7, 11, 12, 14)]
        + [suit_card(r, D) for r in (3, 6, 8, 10, 13)]
        + [trump(n) for n in (1, 4, 8, 12, 16, 18, 21)]
        + [suit_card(14, C), suit_card(2, C), EXCUSE]
    )
    allowed = hand & ~TRUMPS & ~KINGS & ~BOUTS
    ecart = choose_ecart(hand, allowed, 6)
    assert ecart.bit_count() == 6 and not ecart & ~allowed
    assert not hand & ~ecart & SUIT_MASKS[S]  # spades voided


def test_bids_grow_with_the_hand():
    weak = mask_of([suit_card(r, s) for s in range(4) for r in (2, 3, 4, 5)] + [trump(2), trump(3)])
    strong = mask_of(
        [trump(n) for n in range(10, 22)]
        + [EXCUSE, PETIT]
        + [suit_card(14, S), suit_card(13, S), suit_card(14, H), suit_card(14, D)]
    )
    assert hand_strength(strong, 4) > hand_strength(weak, 4)
    assert choose_bid(weak, 4, PASS) == PASS
    assert choose_bid(strong, 4, PASS) >= 2


def test_equivalent_cards_merge_touching_cards_only():
    hand = mask_of([suit_card(2, S), suit_card(3, S), suit_card(5, S), suit_card(13, S), suit_card(14, S)])
    unseen = mask_of([suit_card(4, S)])
    reps = equivalent_cards(hand, unseen)
    assert suit_card(2, S) in reps and suit_card(3, S) not in reps
    assert suit_card(5, S) in reps  # the 4 is still out between them
    assert suit_card(13, S) in reps and suit_card(14, S) in reps  # different points


def test_friends_at_four_players_are_the_other_defenders():
    deal = new_deal(RuleSet(4), 0, "friends")
    while deal.phase == "bidding":
        deal.apply(Bid(1 if deal.to_act == 2 else 0))
    assert deal.taker == 2
    obs = deal.observation(1)
    assert friends_of(obs) == (1 << 1) | (1 << 3) | (1 << 0)
    assert friends_of(deal.observation(2)) == 1 << 2
