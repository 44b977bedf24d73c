"""docs/rules.md section 3: dealing, a pure function of (seed, dealer, player count)."""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from atout.engine import Deal, RuleSet, deal_cards, draw_first_dealer, new_deal, new_seed
from atout.engine import deal as deal_module
from atout.engine.cards import FULL_DECK, codes

GOLDEN = {
    (3, ()): "73b7931e60408377ccc1129b5ba2dd68a7880b851457beca1756a498b230ca6b",
    (4, ()): "395b5ffad2cf16b89b6a07b1e69c4b6d06f4884d8aa870185760b6994cf2870b",
    (5, ()): "ced328a748792c50874fff2f289dd64b7d147ddc85edd954036dfc3c30c63b45",
    (4, (("deal_emulation", "uniform"),)): "64515f683180e6116790a69382cbbba4c96b6bf04074fe7e7c838fa289b10db6",
    (5, (("five_players", "dealer_sits_out"),)): "ecf2c8a80f8756cde787fb7a55bd829173e4c78f82e7ec99a031a354b0bb1d36",
}


def _digest(players, options, seed="atout-golden", dealer=1):
    hands, dog = deal_cards(seed, dealer, RuleSet.make(players, **dict(options)))
    text = json.dumps([[codes(h) for h in hands], codes(dog)])
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("key", list(GOLDEN))
def test_seed_gives_the_same_deal_forever(key):
    """Pinned deals: a seed's deal must never change within record format 1."""
    assert _digest(*key) == GOLDEN[key]


def test_a_pinned_deal_in_card_codes():
    hands, dog = deal_cards("atout-golden", 1, RuleSet.make(4))
    assert codes(dog) == ["2S", "QS", "KS", "T8", "T11", "T16"]
    assert codes(hands[2]) == [
        "1S",
        "9S",
        "JS",
        "7H",
        "10H",
        "NH",
        "2D",
        "5D",
        "10D",
        "JD",
        "2C",
        "7C",
        "8C",
        "QC",
        "KC",
        "T17",
        "T20",
        "EX",
    ]


def test_same_deal_in_another_process_with_another_hash_seed():
    root = str(Path(__file__).resolve().parents[2])
    code = (
        f"import sys; sys.path.insert(0, {root!r})\n"
        "from tests.engine.test_deal import _digest, GOLDEN\n"
        "print(all(_digest(*k) == v for k, v in GOLDEN.items()))"
    )
    for hash_seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        assert out.stdout.strip() == "True", out.stderr


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("emulation", ["packets", "uniform"])
def test_every_deal_uses_78_cards_once(players, emulation):
    rules = RuleSet.make(players, deal_emulation=emulation)
    s = rules.settings
    for k in range(30):
        hands, dog = deal_cards(f"seed{k}", k % players, rules)
        assert all(h.bit_count() == s.hand_size for h in hands)
        assert dog.bit_count() == s.dog_size
        union = dog
        for h in hands:
            assert not union & h
            union |= h
        assert union == FULL_DECK


def test_dealer_sits_out_gets_no_cards():
    rules = RuleSet.make(5, five_players="dealer_sits_out")
    for dealer in range(5):
        hands, dog = deal_cards("x", dealer, rules)
        assert hands[dealer] == 0
        assert all(hands[s].bit_count() == 18 for s in range(5) if s != dealer)
        assert dog.bit_count() == 6


def test_seed_and_dealer_both_matter():
    rules = RuleSet.make(4)
    assert deal_cards("a", 0, rules) == deal_cards("a", 0, rules)
    assert deal_cards("a", 0, rules) != deal_cards("b", 0, rules)
    assert deal_cards("a", 0, rules) != deal_cards("a", 1, rules)


def _pack(seed):
    """The shuffled pack before dealing, rebuilt from the deal module's random source."""
    if hasattr(deal_module, "seed_keys"):
        keys = deal_module.seed_keys(seed, 78)
        return sorted(range(78), key=lambda c: (keys[c], c))
    deck = list(range(78))
    deal_module.SeedStream(seed).shuffle(deck)
    return deck


@pytest.mark.parametrize("players,options", [(3, {}), (4, {}), (5, {}), (5, {"five_players": "dealer_sits_out"})])
def test_packets_go_round_from_the_dealers_right_with_single_dog_cards_between(players, options):
    """Replays the shuffled pack and checks the dealing pattern of section 3."""
    rules = RuleSet.make(players, **options)
    s = rules.settings
    for k in range(40):
        dealer = k % players
        order = [(dealer + 1 + j) % players for j in range(players)]
        if rules.dealer_sits_out:
            order.remove(dealer)
        seed = f"packets-{k}"
        deck = _pack(seed)
        hands, dog = deal_cards(seed, dealer, rules)
        owner = []
        for card in deck:
            if dog >> card & 1:
                owner.append("dog")
            else:
                owner.append(next(i for i, h in enumerate(hands) if h >> card & 1))
        assert owner[0] != "dog" and owner[-1] != "dog"
        # Remove the dog cards: what is left are packets going round from the dealer's right.
        for i, o in enumerate(owner):
            if o == "dog":
                assert owner[i - 1] != "dog" and owner[i + 1] != "dog"
        rest = [o for o in owner if o != "dog"]
        packets = [rest[i : i + s.packet] for i in range(0, len(rest), s.packet)]
        for p, packet in enumerate(packets):
            assert packet == [order[p % len(order)]] * s.packet
        # Dog cards sit on packet boundaries.
        pos = 0
        for o in owner:
            if o == "dog":
                assert pos % s.packet == 0
            else:
                pos += 1


def test_dog_positions_vary_with_the_seed():
    rules = RuleSet.make(4)
    dogs = {deal_cards(f"s{k}", 0, rules)[1] for k in range(20)}
    assert len(dogs) == 20


def test_new_deal_records_its_seed_and_fresh_seeds_differ():
    deal = new_deal(RuleSet.make(4), 2, "abc")
    assert deal.seed == "abc" and deal.dealer == 2
    assert deal.initial_hands == tuple(deal_cards("abc", 2, RuleSet.make(4))[0])
    assert new_seed() != new_seed()
    assert len(new_seed()) >= 32


def test_first_to_speak_is_the_dealers_right():
    for players in (3, 4, 5):
        for dealer in range(players):
            deal = new_deal(RuleSet.make(players), dealer, "speak")
            if deal.phase == "bidding":
                assert deal.to_act == (dealer + 1) % players
                assert deal.next_seat(dealer) == (dealer + 1) % players


def test_first_dealer_draw():
    for players in (3, 4, 5):
        got = {draw_first_dealer(f"s{k}", players) for k in range(60)}
        assert got == set(range(players))
        assert draw_first_dealer("same", players) == draw_first_dealer("same", players)


@pytest.mark.parametrize(
    "bad",
    [
        lambda h, d: (h[:3], d),  # too few hands
        lambda h, d: ([h[0] & (h[0] - 1), *h[1:]], d),  # 77 cards
        lambda h, d: ([h[0] | (d & -d), *h[1:]], d),  # a card twice
        lambda h, d: (h, d & (d - 1)),  # dog too small
    ],
)
def test_deal_refuses_bad_hands(bad):
    rules = RuleSet.make(4)
    hands, dog = deal_cards("x", 0, rules)
    h, d = bad(hands, dog)
    with pytest.raises(ValueError):
        Deal(rules, 0, h, d)


@pytest.mark.parametrize("dealer", [-1, 4, "0", None])
def test_bad_dealer(dealer):
    with pytest.raises(ValueError):
        new_deal(RuleSet.make(4), dealer, "x")


@pytest.mark.parametrize("players,emulation", [(4, "packets"), (5, "packets"), (3, "uniform")])
def test_every_card_equally_likely_in_the_dog_and_each_hand(players, emulation):
    rules = RuleSet.make(players, deal_emulation=emulation)
    s = rules.settings
    n = 3000
    dog_count = [0] * 78
    seat_count = [[0] * 78 for _ in range(players)]
    for k in range(n):
        hands, dog = deal_cards(f"uniformity-{k}", 0, rules)
        for c in range(78):
            if dog >> c & 1:
                dog_count[c] += 1
            for seat in range(players):
                if hands[seat] >> c & 1:
                    seat_count[seat][c] += 1
    expected = n * s.dog_size / 78
    for c in range(78):
        assert abs(dog_count[c] - expected) < 6 * expected**0.5 + 5, (c, dog_count[c], expected)
        for seat in range(players):
            e = n * s.hand_size / 78
            assert abs(seat_count[seat][c] - e) < 6 * (e * (1 - s.hand_size / 78)) ** 0.5 + 5


def _draw_with(monkeypatch, order, players):
    """The first-dealer draw with the pack forced into ``order`` (card codes, first drawn first)."""
    from atout.engine.cards import parse_card

    first = [parse_card(c) for c in order]
    rest = [c for c in range(78) if c not in first]
    position = {c: i for i, c in enumerate(first + rest)}
    keys = tuple(position[c] for c in range(78))
    monkeypatch.setattr(deal_module, "seed_keys", lambda seed, count, domain=b"": keys[:count])
    return draw_first_dealer("forced", players)


@pytest.mark.parametrize(
    "order,players,dealer",
    [
        (["EX", "5H", "5C", "T1"], 3, 1),  # the Excuse draws again; equal ranks: clubs lowest
        (["5S", "5H", "5D", "5C"], 4, 3),
        (["5S", "5H", "5D"], 3, 2),  # diamonds below hearts below spades
        (["T1", "KS", "T2"], 3, 1),  # trumps above suit cards
        (["2S", "1S", "T1", "T2", "T3"], 5, 1),
        (["KC", "KS", "EX", "QD", "T5"], 4, 2),
    ],
)
def test_first_dealer_draw_lowest_card_deals(monkeypatch, order, players, dealer):
    assert _draw_with(monkeypatch, order, players) == dealer


@pytest.mark.parametrize(
    "hands,dog",
    [
        (["a"] * 4, 0),
        ([0] * 4, "x"),
        (None, 0),
        ([-1, 0, 0, 0], 0),
        ([1.5] * 4, 0),
        ([0] * 4, -1),
        ("abcd", 0),
        ([True] * 4, 0),
    ],
)
def test_deal_refuses_junk_hands(hands, dog):
    with pytest.raises(ValueError):
        Deal(RuleSet.make(4), 0, hands, dog)
