"""Commitments and verification of a published deal (docs/fairness.md)."""

from __future__ import annotations

import copy
import hashlib
import random
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.engine import RuleSet, new_deal
from atout.engine.cards import codes
from atout.engine.choices import random_action
from atout.engine.deal import deal_cards
from atout.engine.fairness import commitment, verify
from atout.engine.record import RecordError, to_record
from atout.engine.state import Deal

HEX = "0123456789abcdef"


def played(players: int, seed: str, dealer: int = 0, rng_seed: int = 0, **options: str) -> Deal:
    """A deal from ``seed`` played to its end by random legal actions."""
    deal = new_deal(RuleSet.make(players, **options), dealer, seed)
    rng = random.Random(rng_seed)
    while not deal.is_over:
        deal.apply(random_action(deal.legal_actions(), rng))
    return deal


def played_not_void(players: int = 4, seed: str = "fair", **options: str) -> Deal:
    for i in range(100):
        deal = played(players, f"{seed}{i}", dealer=i % players, rng_seed=i, **options)
        if not deal.void:
            return deal
    raise AssertionError("no deal that is not void")


def by_name(result, name: str, seat: int | None = None):
    [check] = [c for c in result.checks if c.name == name and c.seat == seat]
    return check


def test_commitment_is_sha256_of_the_utf8_seed():
    # The FIPS 180-2 test vector for "abc", and a non-ASCII seed hashed by its UTF-8 bytes.
    assert commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert commitment("é") == hashlib.sha256(b"\xc3\xa9").hexdigest() != hashlib.sha256(b"\xe9").hexdigest()
    with pytest.raises(TypeError):
        commitment(b"abc")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "players, options",
    [(3, {}), (4, {}), (5, {}), (5, {"five_players": "dealer_sits_out"}), (4, {"deal_emulation": "uniform"})],
)
def test_a_good_deal_passes_every_check(players, options):
    deal = played_not_void(players, **options)
    seen = {s: codes(deal.initial_hands[s]) for s in range(players)}
    result = verify(to_record(deal), commitment(deal.seed), seen)
    assert result.passed, result.to_json()
    assert [c.name for c in result.checks] == ["commitment", "replay"] + ["hand"] * players
    assert result.seed == deal.seed and result.commitment == commitment(deal.seed)
    assert by_name(result, "replay").message == (
        f"all {len(deal.history)} actions are legal on the cards the seed deals; the deal is complete"
    )


def test_the_servers_deal_end_shapes_are_accepted():
    deal = played_not_void(4)
    record, digest = to_record(deal), commitment(deal.seed)
    event = {
        "type": "deal_end",
        "seq": 40,
        "at": 1.0,
        "seed": deal.seed,
        "commitment": digest,
        "record": record,
        "line": {},
    }
    for published in ({"commitment": digest, "record": record}, event, {"type": "event", "event": event}):
        assert verify(published).passed
        assert verify(published, digest.upper()).passed


def test_a_changed_seed_fails_the_commitment():
    deal = played_not_void(4)
    record = to_record(deal)
    digest = commitment(deal.seed)
    record["seed"] = deal.seed + "x"
    result = verify(record, digest)
    assert not result.passed
    assert by_name(result, "commitment").message == (
        f"sha256 of the seed {deal.seed + 'x'!r} is {commitment(deal.seed + 'x')}, not the commitment {digest} (given)"
    )


def test_a_changed_commitment_fails():
    deal = played_not_void(4)
    digest = commitment(deal.seed)
    other = ("0" if digest[0] != "0" else "1") + digest[1:]
    result = verify({"commitment": other, "record": to_record(deal)})
    assert [c.name for c in result.failures] == ["commitment"]
    assert by_name(result, "commitment").message.endswith(f"not the commitment {other} (in the file)")
    # A commitment given beside the file's must agree with the seed too.
    result = verify({"commitment": digest, "record": to_record(deal)}, other)
    assert [c.name for c in result.failures] == ["commitment"]


def test_a_revealed_seed_that_is_not_the_records_fails():
    deal = played_not_void(4)
    published = {"seed": "other", "commitment": commitment("other"), "record": to_record(deal)}
    check = by_name(verify(published), "commitment")
    assert not check.ok and check.message == f"the revealed seed 'other' is not the record's seed {deal.seed!r}"


def test_an_action_illegal_on_the_seeds_cards_fails():
    deal = played_not_void(4)
    record = to_record(deal)
    i = next(k for k, a in enumerate(record["actions"]) if "play" in a)
    seat = record["actions"][i]["seat"]
    other = next(c for c in codes(deal.initial_hands[(seat + 1) % 4]) if c not in codes(deal.initial_dog))
    record["actions"][i]["play"] = other
    result = verify(record, commitment(deal.seed))
    assert [c.name for c in result.failures] == ["replay"]
    assert by_name(result, "replay").message == (
        f"action {i} (seat {seat}, play {other}) is illegal on the cards the seed deals: seat {seat} does not hold "
        f"{other}"
    )


def test_a_wrong_seen_hand_fails_naming_the_cards():
    deal = played_not_void(4)
    hand = codes(deal.initial_hands[2])
    stranger = codes(deal.initial_hands[3])[0]
    seen = {2: [stranger, *hand[1:]], 1: codes(deal.initial_hands[1])}
    result = verify(to_record(deal), commitment(deal.seed), seen)
    assert [(c.name, c.seat) for c in result.failures] == [("hand", 2)]
    assert by_name(result, "hand", 2).message == f"seat 2 was dealt {hand[0]}, not {stranger}"
    assert by_name(result, "hand", 1).ok
    short = verify(to_record(deal), commitment(deal.seed), {2: hand[2:]})
    assert (
        by_name(short, "hand", 2).message == f"seat 2 was also dealt {hand[0]} and {hand[1]}, not among the cards seen"
    )
    extra = verify(to_record(deal), commitment(deal.seed), {2: [*hand, stranger]})
    assert by_name(extra, "hand", 2).message == f"seat 2 was not dealt {stranger}"


def test_a_record_with_hands_cannot_be_checked_against_a_commitment():
    deal = played_not_void(4)
    record = to_record(deal, with_seed=False)
    result = verify(record, commitment(deal.seed), {0: codes(deal.initial_hands[0])})
    assert [c.name for c in result.failures] == ["commitment"]
    assert "cannot be checked against a commitment" in by_name(result, "commitment").message
    assert (
        by_name(result, "replay").message.startswith("all ")
        and "the record's hands and dog" in by_name(result, "replay").message
    )


def test_without_a_commitment_the_deal_is_not_verified():
    deal = played_not_void(4)
    result = verify(to_record(deal))
    assert not result.passed and [c.name for c in result.failures] == ["commitment"]
    assert by_name(result, "commitment").message.startswith("no commitment to check the seed against")


@pytest.mark.parametrize(
    "published, commitment_arg, seen, words",
    [
        ([1, 2], None, None, "a published deal is a JSON object"),
        ({"commitment": "ab", "record": {}}, None, None, "the commitment (in the file) must be 64 hexadecimal digits"),
        ({"record": "x"}, None, None, '"record" must be a deal record'),
        ("RECORD", "g" * 64, None, "the commitment (given) must be 64 hexadecimal digits"),
        ("RECORD", None, {4: []}, "a seen hand needs a seat from 0 to 3, not 4"),
        ("RECORD", None, {1: ["ZZ"]}, "the hand seen by seat 1: unknown card code 'ZZ'"),
        ({"format": "atout-deal", "version": 1, "players": 6, "dealer": 0, "seed": "s"}, None, None, "players must be"),
    ],
)
def test_malformed_input_raises_naming_what_is_wrong(published, commitment_arg, seen, words):
    if published == "RECORD":
        published = to_record(played_not_void(4))
    before = copy.deepcopy(published)
    with pytest.raises(RecordError) as err:
        verify(published, commitment_arg, seen)
    assert words in err.value.message
    assert published == before


def _reference_deal(
    seed: str, dealer: int, players: int, sits_out: bool = False, uniform: bool = False
) -> tuple[list[set[str]], set[str]]:
    """The deal as docs/fairness.md describes it, written from the document alone."""
    deck_codes = [f"{r}{s}" for s in "SHDC" for r in [*map(str, range(1, 11)), "J", "N", "Q", "K"]]
    deck_codes += [f"T{n}" for n in range(1, 22)] + ["EX"]
    active = 4 if sits_out else players
    hand, dog_size, packet = {3: (24, 6, 4), 4: (18, 6, 3), 5: (15, 3, 3)}[active]
    packets = active * hand // packet
    count = 78 + packets - 1
    keys = struct.unpack(f">{count}Q", hashlib.shake_256(b"atout-deal/1/" + seed.encode()).digest(8 * count))
    deck = sorted(range(78), key=lambda c: (keys[c], c))
    gaps = sorted(sorted(range(packets - 1), key=lambda g: (keys[78 + g], g))[:dog_size])
    receivers = [
        s % players for s in range(dealer + 1, dealer + 1 + players) if not (sits_out and s % players == dealer)
    ]
    hands: list[set[str]] = [set() for _ in range(players)]
    dog: set[str] = set()
    position = 0
    for p in range(packets):
        for _ in range(packet):
            hands[receivers[p % active]].add(deck_codes[deck[position]])
            position += 1
        if p in gaps and not uniform:
            dog.add(deck_codes[deck[position]])
            position += 1
    if uniform:
        dog = {deck_codes[c] for c in deck[position:]}
    return hands, dog


@settings(max_examples=40, deadline=None)
@given(
    seed=st.text(max_size=20),
    players=st.sampled_from([3, 4, 5]),
    dealer=st.integers(0, 4),
    sits_out=st.booleans(),
    uniform=st.booleans(),
)
def test_the_documented_algorithm_deals_what_the_engine_deals(seed, players, dealer, sits_out, uniform):
    dealer %= players
    sits_out = sits_out and players == 5
    options = {"five_players": "dealer_sits_out"} if sits_out else {}
    rules = RuleSet.make(players, deal_emulation="uniform" if uniform else "packets", **options)
    hands, dog = deal_cards(seed, dealer, rules)
    want_hands, want_dog = _reference_deal(seed, dealer, players, sits_out, uniform)
    assert [set(codes(h)) for h in hands] == want_hands
    assert set(codes(dog)) == want_dog


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(min_size=1, max_size=40),
    players=st.sampled_from([3, 4, 5]),
    dealer=st.integers(0, 4),
    rng_seed=st.integers(0, 2**32),
    position=st.integers(0, 63),
    shift=st.integers(1, 15),
)
def test_any_random_legal_deal_verifies_and_any_flipped_commitment_fails(
    seed, players, dealer, rng_seed, position, shift
):
    deal = played(players, seed, dealer % players, rng_seed)
    record = to_record(deal)
    digest = commitment(seed)
    seen = {s: codes(deal.initial_hands[s]) for s in range(players)}
    assert verify(record, digest, seen).passed
    flipped = digest[:position] + HEX[(HEX.index(digest[position]) + shift) % 16] + digest[position + 1 :]
    result = verify(record, flipped, seen)
    assert [c.name for c in result.failures] == ["commitment"]


def _documented_program() -> str:
    text = (Path(__file__).parents[2] / "docs" / "fairness.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) == 1, "docs/fairness.md should hold one Python program"
    return blocks[0]


@pytest.mark.parametrize(
    "players, dealer, extra", [(3, 2, []), (4, 1, []), (5, 0, []), (5, 3, ["sits_out"]), (4, 0, ["uniform"])]
)
def test_the_program_in_the_docs_deals_what_the_engine_deals(tmp_path, players, dealer, extra):
    program = tmp_path / "deal.py"
    program.write_text(_documented_program())
    for seed in ("3f1c9a", "seed with spaces é"):
        out = subprocess.run(
            [sys.executable, str(program), seed, str(players), str(dealer), *extra],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        options = {"five_players": "dealer_sits_out"} if "sits_out" in extra else {}
        if "uniform" in extra:
            options["deal_emulation"] = "uniform"
        hands, dog = deal_cards(seed, dealer, RuleSet.make(players, **options))
        want = [f"seat {s}: {' '.join(codes(h))}".rstrip() for s, h in enumerate(hands)]
        assert [line.rstrip() for line in out] == [*want, f"dog: {' '.join(codes(dog))}"]
