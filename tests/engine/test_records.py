"""docs/record-format.md: the deal record, ``atout replay FILE --json`` and ``atout legal FILE --json``."""

import json
import random
import subprocess
import sys

import pytest

from atout.cli.main import main
from atout.engine import GARDE, GARDE_SANS, RuleSet, new_deal
from atout.engine.choices import random_action
from atout.engine.record import replay, to_record

from . import reference
from .helpers import build, play, random_game, show, to_play

OUTCOME_KEYS = [
    "complete",
    "void",
    "taker",
    "contract",
    "partner",
    "bouts",
    "points",
    "target",
    "made",
    "margin",
    "petit_au_bout",
    "poignees",
    "chelem",
    "unit",
    "scores",
]


def run(capsys, tmp_path, command, record, raw=None):
    path = tmp_path / "deal.json"
    path.write_text(raw if raw is not None else json.dumps(record), encoding="utf-8")
    code = main([command, str(path), "--json"])
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 1, out
    return code, json.loads(lines[0])


def assert_error(capsys, tmp_path, record, action, rule=None, command="replay", raw=None):
    code, out = run(capsys, tmp_path, command, record, raw)
    assert code == 2
    assert list(out) == ["error"] and set(out["error"]) == {"action", "rule", "message"}
    assert out["error"]["action"] == action
    assert isinstance(out["error"]["rule"], str) and out["error"]["rule"]
    assert isinstance(out["error"]["message"], str) and out["error"]["message"]
    if rule is not None:
        assert out["error"]["rule"] == rule, out
    return out["error"]


def _hand_record(deal):
    return to_record(deal, with_seed=False)


# ---------------------------------------------------------------- document


def test_record_document_shape():
    deal = build(4, dealer=3)
    to_play(deal, 0, GARDE)
    rec = to_record(deal, with_seed=False)
    assert rec["format"] == "atout-deal" and rec["version"] == 1 and rec["players"] == 4
    assert rec["dealer"] == 3 and "seed" not in rec
    assert all(len(h) == 18 for h in rec["hands"]) and len(rec["dog"]) == 6
    codes = {reference.kind(c) for h in rec["hands"] for c in h}
    assert codes <= {"S", "H", "D", "C", "T", "EX"}
    acts = rec["actions"]
    assert acts[0] == {"seat": 0, "bid": "garde"}
    assert acts[1:4] == [{"seat": s, "bid": "pass"} for s in (1, 2, 3)]
    assert set(acts[4]) == {"seat", "discard"} and len(acts[4]["discard"]) == 6
    assert acts[5] == {"seat": 0, "chelem": False}
    assert len(acts) == 6


def test_seed_record_gives_the_engines_deal():
    deal = new_deal(RuleSet.make(5), 2, "the seed")
    rec = to_record(deal)
    assert rec["seed"] == "the seed" and "hands" not in rec and "dog" not in rec
    again = replay(json.loads(json.dumps(rec))).deal
    assert again.initial_hands == deal.initial_hands and again.initial_dog == deal.initial_dog


@pytest.mark.parametrize(
    "players,options",
    [
        (3, {}),
        (4, {}),
        (5, {}),
        (5, {"five_players": "dealer_sits_out"}),
        (4, {"chelem_announce": "with_bid", "petit_sec": "holder_may_play"}),
        (3, {"excuse_last_trick": "trick_winner", "first_lead": "taker"}),
    ],
)
def test_random_games_round_trip(players, options, tmp_path, capsys):
    for seed in range(8):
        deal = random_game(players, seed, **options)
        for with_seed in (True, False):
            rec = json.loads(json.dumps(to_record(deal, with_seed=with_seed)))
            again = replay(rec).deal
            assert again.result == deal.result
            assert again.history == deal.history
        if seed < 2:
            code, out = run(capsys, tmp_path, "replay", to_record(deal))
            assert code == 0
            assert list(out) == OUTCOME_KEYS
            assert out == reference.expected_result(deal)


def test_replay_outcome_matches_example_fields(tmp_path, capsys):
    deal = build(
        4,
        {
            0: "T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 KS KH KD KC QS QH QD",
            1: "T1 T2 T3 T4 T5 T6 T7 T8 T9 T21 EX 1S 2S 3S 4S 5S 6S 7S",
        },
        dealer=3,
    )
    to_play(deal, 0, GARDE_SANS)
    play(deal, "T20")
    show(deal, "T1 T2 T3 T4 T5 T6 T7 T8 T9 T21")
    rec = _hand_record(deal)
    code, out = run(capsys, tmp_path, "replay", rec)
    assert code == 0
    assert out == {"complete": False, "void": None, **dict.fromkeys(OUTCOME_KEYS[2:]), "next": 1}
    assert rec["actions"][-1] == {"seat": 1, "poignee": ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T21"]}
    rng = random.Random(1)
    while deal.phase != "end":
        deal.apply(random_action(deal.legal_actions(), rng), deal.to_act)
    code, out = run(capsys, tmp_path, "replay", _hand_record(deal))
    assert code == 0 and list(out) == OUTCOME_KEYS
    assert out["poignees"] == [{"seat": 1, "size": "simple", "bonus": 20}]
    assert out == reference.expected_result(deal)
    assert isinstance(out["points"], float) and isinstance(out["unit"], int)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_void_all_pass(players, tmp_path, capsys):
    deal = build(players)
    rec = _hand_record(deal)
    rec["actions"] = [{"seat": (1 + k) % players, "bid": "pass"} for k in range(players)]
    code, out = run(capsys, tmp_path, "replay", rec)
    assert code == 0
    assert out == {"complete": True, "void": "all_pass", **dict.fromkeys(OUTCOME_KEYS[2:-1]), "scores": [0] * players}
    rec["actions"].append({"seat": 1, "bid": "prise"})
    assert_error(capsys, tmp_path, rec, players, "deal_over")
    code, out = run(capsys, tmp_path, "legal", rec | {"actions": rec["actions"][:-1]})
    assert code == 0 and out == {"seat": None, "actions": []}


def test_void_petit_sec(tmp_path, capsys):
    deal = build(4, {1: "T1 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H 3H"})
    rec = _hand_record(deal)
    code, out = run(capsys, tmp_path, "replay", rec)
    assert code == 0 and out["void"] == "petit_sec" and out["complete"] is True and out["scores"] == [0] * 4
    assert out["taker"] is None and out["poignees"] is None
    rec["actions"] = [{"seat": 1, "bid": "pass"}]
    assert_error(capsys, tmp_path, rec, 0, "deal_over")
    # Under holder_may_play the holder decides first.
    rec["options"] = {"petit_sec": "holder_may_play"}
    rec["actions"] = []
    code, out = run(capsys, tmp_path, "legal", rec)
    assert out == {"seat": 1, "actions": [{"petit_sec": "redeal"}, {"petit_sec": "play"}]}
    rec["actions"] = [{"seat": 1, "petit_sec": "play"}, {"seat": 1, "bid": "prise"}]
    code, out = run(capsys, tmp_path, "replay", rec)
    assert code == 0 and out["complete"] is False and out["next"] == 2
    rec["actions"] = [{"seat": 1, "petit_sec": "redeal"}]
    code, out = run(capsys, tmp_path, "replay", rec)
    assert out["void"] == "petit_sec"


# ---------------------------------------------------------------- legal


def test_legal_bidding_and_call(tmp_path, capsys):
    deal = build(5, dealer=0)
    rec = _hand_record(deal)
    code, out = run(capsys, tmp_path, "legal", rec)
    assert code == 0
    assert out == {"seat": 1, "actions": [{"bid": b} for b in ("pass", "prise", "garde", "garde_sans", "garde_contre")]}
    rec["actions"] = [{"seat": 1, "bid": "garde"}] + [{"seat": s, "bid": "pass"} for s in (2, 3, 4, 0)]
    code, out = run(capsys, tmp_path, "legal", rec)
    assert out["seat"] == 1 and sorted(a["call"] for a in out["actions"]) == ["KC", "KD", "KH", "KS"]
    rec["options"] = {"chelem_announce": "with_bid"}
    rec["actions"] = [{"seat": 1, "bid": "garde"}]
    code, out = run(capsys, tmp_path, "legal", rec)
    assert {"bid": "garde_sans", "chelem": True} in out["actions"] and {"bid": "pass"} in out["actions"]
    assert {"bid": "prise"} not in out["actions"]


def test_legal_discard_chelem_and_poignee(tmp_path, capsys):
    hand = "KS KH KD KC T21 T1 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10"
    deal = build(4, {1: hand}, dog="2C 3C 4C T2 T3 T4", dealer=0)
    rec = _hand_record(deal)
    rec["actions"] = [{"seat": 1, "bid": "garde"}] + [{"seat": s, "bid": "pass"} for s in (2, 3, 0)]
    code, out = run(capsys, tmp_path, "legal", rec)
    assert out["seat"] == 1 and len(out["actions"]) == 1
    (entry,) = out["actions"]
    assert entry["count"] == 6
    assert sorted(entry["discard_from"]) == sorted(
        [
            "2C",
            "3C",
            "4C",
            "T2",
            "T3",
            "T4",
            "T20",
            "T19",
            "T18",
            "T17",
            "T16",
            "T15",
            "T14",
            "T13",
            "T12",
            "T11",
            "T10",
        ]
    )
    rec["actions"].append({"seat": 1, "discard": ["2C", "3C", "4C", "T2", "T3", "T4"]})
    code, out = run(capsys, tmp_path, "legal", rec)
    assert out == {"seat": 1, "actions": [{"chelem": False}, {"chelem": True}]}
    rec["actions"].append({"seat": 1, "chelem": False})
    rec["actions"] += [{"seat": 1, "play": "T21"}]  # seat 1 leads? no: dealer 0, seat 1 leads
    code, out = run(capsys, tmp_path, "replay", rec)
    assert (code == 2 and out["error"]["action"] == 7 and out["error"]["rule"] == "out_of_turn") or code == 0


def test_legal_poignee_entry(tmp_path, capsys):
    hand = "KS KH KD KC T21 T1 EX T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10"
    deal = build(4, {0: hand}, dog="2C 3C 4C T2 T3 T4", dealer=3)
    rec = _hand_record(deal)
    rec["actions"] = [{"seat": 0, "bid": "garde"}] + [{"seat": s, "bid": "pass"} for s in (1, 2, 3)]
    rec["actions"] += [{"seat": 0, "discard": ["2C", "3C", "4C", "T2", "T3", "T4"]}, {"seat": 0, "chelem": False}]
    _code, out = run(capsys, tmp_path, "legal", rec)
    assert out["seat"] == 0
    plays = [a["play"] for a in out["actions"] if "play" in a]
    assert sorted(plays) == sorted(
        [*hand.split()[:7], "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "T12", "T11", "T10"]
    )
    entries = [a for a in out["actions"] if "poignee_from" in a]
    assert len(entries) == 1
    (entry,) = entries
    assert set(entry) == {"poignee_from", "sizes"}
    # 15 trumps in hand, 3 in the écart: 18, the Excuse not needed.
    assert entry["sizes"] == {"simple": 10, "double": 13, "triple": 15}
    assert "EX" not in entry["poignee_from"] and {"T2", "T3", "T4"} <= set(entry["poignee_from"])


def test_legal_poignee_with_the_excuse(tmp_path, capsys):
    s1 = "T2 T3 T4 T6 T7 T8 T9 T10 T11 EX 1S 2S 3S 4S 5S 6S 7S 8S"
    deal = build(4, {0: "KH", 1: s1}, dealer=3)
    to_play(deal, 0, GARDE_SANS)
    play(deal, "KH")
    _code, out = run(capsys, tmp_path, "legal", _hand_record(deal))
    (entry,) = [a for a in out["actions"] if "poignee_from" in a]
    assert entry["sizes"] == {"simple": 10} and "EX" in entry["poignee_from"]


def test_every_listed_legal_action_replays(tmp_path, capsys):
    rng = random.Random(5)
    for players in (3, 4, 5):
        deal = new_deal(RuleSet.make(players), 0, f"legal-{players}")
        for _ in range(40):
            if deal.phase == "end":
                break
            deal.apply(random_action(deal.legal_actions(), rng), deal.to_act)
        rec = to_record(deal)
        code, out = run(capsys, tmp_path, "legal", rec)
        assert code == 0 and out["seat"] == deal.to_act
        for entry in out["actions"]:
            if "discard_from" in entry or "poignee_from" in entry:
                continue
            code, _ = run(
                capsys, tmp_path, "replay", rec | {"actions": rec["actions"] + [{"seat": out["seat"], **entry}]}
            )
            assert code == 0, entry


# ---------------------------------------------------------------- errors


def _base():
    deal = build(4, dealer=3)
    rec = _hand_record(deal)
    rec["actions"] = [{"seat": 0, "bid": "garde_sans"}] + [{"seat": s, "bid": "pass"} for s in (1, 2, 3)]
    rec["actions"].append({"seat": 0, "chelem": False})
    return deal, rec


def test_illegal_action_error_names_the_action_and_rule(tmp_path, capsys):
    _deal, rec = _base()
    code, out = run(capsys, tmp_path, "replay", rec)
    assert code == 0 and out["next"] == 0
    hand = sorted(rec["hands"][0])
    not_held = next(c for c in rec["hands"][1])
    assert_error(
        capsys, tmp_path, rec | {"actions": rec["actions"] + [{"seat": 0, "play": not_held}]}, 5, "not_in_hand"
    )
    assert_error(capsys, tmp_path, rec | {"actions": rec["actions"] + [{"seat": 1, "play": hand[0]}]}, 5, "out_of_turn")
    assert_error(capsys, tmp_path, rec | {"actions": rec["actions"] + [{"seat": 0, "bid": "garde"}]}, 5, "wrong_phase")
    bad_bid = [rec["actions"][0], {"seat": 1, "bid": "prise"}]
    assert_error(capsys, tmp_path, rec | {"actions": bad_bid}, 1, "bid_too_low")
    assert_error(capsys, tmp_path, rec | {"actions": [{"seat": 2, "bid": "pass"}]}, 0, "out_of_turn")
    assert_error(capsys, tmp_path, rec | {"actions": rec["actions"] + [{"seat": 0, "play": "ZZ"}]}, 5, "card_code")
    for entry in (
        {"seat": 0},
        {"seat": 0, "play": "1S", "bid": "pass"},
        {"play": "1S"},
        {"seat": 9, "play": "1S"},
        {"seat": True, "play": "1S"},
        {"seat": 0, "bid": "petite"},
        {"seat": 0, "bid": ["pass"]},
        {"seat": 0, "bid": {"x": 1}},
        {"seat": 0, "chelem": "no"},
        {"seat": 0, "discard": "2C"},
        {"seat": 0, "play": 5},
        {"seat": 0, "play": None},
        {"seat": 0, "poignee": []},
        {"seat": 0, "poignee": ["T2", "T2"]},
        {"seat": 0, "call": "KH"},
        {"seat": 0, "petit_sec": "x"},
        {"seat": 0, "petit_sec": ["redeal"]},
        {"seat": 0, "jump": 1},
        [],
        "play",
        None,
        3,
    ):
        err = assert_error(capsys, tmp_path, rec | {"actions": rec["actions"] + [entry]}, 5)
        assert err["message"]


@pytest.mark.parametrize(
    "change,rule",
    [
        (lambda r: r["hands"][0].__setitem__(0, "XX"), "card_code"),
        (lambda r: r["hands"][0].__setitem__(0, 5), "card_code"),
        (lambda r: r["hands"][0].pop(), None),  # 77 cards
        (lambda r: r["hands"][0].__setitem__(0, r["hands"][0][1]), "duplicate_card"),
        (lambda r: r["hands"][1].__setitem__(0, r["hands"][0][0]), None),  # a card in two hands
        (lambda r: r["dog"].pop(), None),
        (lambda r: r["dog"].append(r["hands"][2].pop()), None),
        (lambda r: r.__setitem__("format", "tarot"), None),
        (lambda r: r.__setitem__("version", 2), None),
        (lambda r: r.pop("version"), None),
        (lambda r: r.__setitem__("players", 6), None),
        (lambda r: r.__setitem__("players", "4"), None),
        (lambda r: r.__setitem__("players", 4.0), None),
        (lambda r: r.__setitem__("players", True), None),
        (lambda r: r.__setitem__("players", None), None),
        (lambda r: r.__setitem__("dealer", 4), None),
        (lambda r: r.__setitem__("dealer", -1), None),
        (lambda r: r.__setitem__("dealer", 1.0), None),
        (lambda r: r.__setitem__("dealer", None), None),
        (lambda r: r.__setitem__("options", {"excuse": "x"}), None),
        (lambda r: r.__setitem__("options", {"petit_sec": "never"}), None),
        (lambda r: r.__setitem__("options", {"petit_sec": ["redeal"]}), None),
        (lambda r: r.__setitem__("options", []), None),
        (lambda r: r.__setitem__("seed", "abc"), None),  # seed and hands
        (lambda r: r.__setitem__("seed", 5), None),
        (lambda r: r.pop("hands"), None),
        (lambda r: r.pop("dog"), None),
        (lambda r: r.__setitem__("hands", r["hands"][:3]), None),
        (lambda r: r.__setitem__("hands", "KS"), None),
        (lambda r: r.__setitem__("hands", [None, None, None, None]), None),
        (lambda r: r.__setitem__("dog", "KS"), None),
        (lambda r: r.__setitem__("actions", {"seat": 1}), None),
    ],
)
def test_malformed_record(change, rule, tmp_path, capsys):
    _, rec = _base()
    rec = json.loads(json.dumps(rec))
    change(rec)
    for command in ("replay", "legal"):
        assert_error(capsys, tmp_path, rec, None, rule, command=command)


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "not json",
        "{",
        "[1, 2]",
        "null",
        "4",
        '"atout"',
        "[" * 100000 + "]" * 100000,
        '{"format": "atout-deal", "version": 1, "players": ' + "9" * 5000 + "}",
    ],
)
def test_not_a_record(raw, tmp_path, capsys):
    assert_error(capsys, tmp_path, None, None, raw=raw)
    assert_error(capsys, tmp_path, None, None, raw=raw, command="legal")


def test_missing_file_and_bytes(tmp_path, capsys):
    code = main(["replay", str(tmp_path / "nope.json"), "--json"])
    out, _ = capsys.readouterr()
    assert code == 2 and json.loads(out)["error"]["action"] is None
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    code = main(["legal", str(path), "--json"])
    out, _ = capsys.readouterr()
    assert code == 2 and json.loads(out)["error"]["action"] is None


def test_seed_record_is_the_same_deal_everywhere(tmp_path, capsys):
    rec = {"format": "atout-deal", "version": 1, "players": 4, "dealer": 1, "seed": "atout-golden", "actions": []}
    code, out = run(capsys, tmp_path, "legal", rec)
    assert code == 0 and out["seat"] == 2
    deal = replay(rec).deal
    from atout.engine.cards import codes

    assert codes(deal.initial_dog) == ["2S", "QS", "KS", "T8", "T11", "T16"]


def test_the_atout_command(tmp_path):
    deal = random_game(4, 3)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(to_record(deal)))
    exe = [sys.executable, "-m", "atout.cli.main"]
    out = subprocess.run([*exe, "replay", str(path), "--json"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and json.loads(out.stdout) == deal.result.to_json()
    rec = to_record(deal)
    rec["actions"].append({"seat": 0, "play": "KS"})
    path.write_text(json.dumps(rec))
    out = subprocess.run([*exe, "replay", str(path), "--json"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    err = json.loads(out.stdout)["error"]
    assert err["action"] == len(rec["actions"]) - 1 and err["rule"] == "deal_over"
    out = subprocess.run(
        [*exe, "legal", "-", "--json"], input=json.dumps(to_record(deal)), capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and json.loads(out.stdout) == {"seat": None, "actions": []}


# ---------------------------------------------------------------- fuzz

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from atout.engine.record import RecordError, legal_json, loads, outcome_json  # noqa: E402

_BASE_DEALS = [to_record(random_game(p, s)) for p in (3, 4, 5) for s in range(2)]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 100)
    | st.floats(allow_nan=False)
    | st.text(max_size=4)
    | st.sampled_from(["KS", "T21", "EX", "pass", "garde", "1S", "seat", "play"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, len(_BASE_DEALS) - 1),
    where=st.integers(0, 10**6),
    value=json_values,
    cut=st.integers(0, 120),
    delete=st.booleans(),
)
def test_mutated_records_never_crash(index, where, value, cut, delete):
    rec = json.loads(json.dumps(_BASE_DEALS[index]))
    rec["actions"] = rec["actions"][:cut]
    paths = [p for p in _paths(rec) if p]
    path = paths[where % len(paths)]
    parent = rec
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    text = json.dumps(rec)
    try:
        deal = replay(loads(text)).deal
    except RecordError as err:
        out = err.to_json()
        assert set(out["error"]) == {"action", "rule", "message"}
        assert out["error"]["action"] is None or 0 <= out["error"]["action"] < len(rec.get("actions", []))
        json.dumps(out)
        return
    json.dumps(outcome_json(deal))
    json.dumps(legal_json(deal))


def test_json_output_survives_an_ascii_terminal(tmp_path):
    rec = {
        "format": "atout-deal",
        "version": 1,
        "players": 4,
        "dealer": 0,
        "seed": "x",
        "actions": [
            {"seat": 1, "bid": "garde"},
            {"seat": 2, "bid": "pass"},
            {"seat": 3, "bid": "pass"},
            {"seat": 0, "bid": "pass"},
            {"seat": 1, "discard": ["1S"]},
        ],
    }
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    import os

    env = dict(os.environ, PYTHONIOENCODING="ascii")
    out = subprocess.run(
        [sys.executable, "-m", "atout.cli.main", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.returncode == 2, out.stderr
    err = json.loads(out.stdout)["error"]
    assert err["action"] == 4 and err["rule"] == "ecart_size" and "écart" in err["message"]
