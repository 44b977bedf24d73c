"""``atout verify``: exit codes, plain and JSON output, the options, standard input."""

from __future__ import annotations

import io
import json
import random
import shutil
import subprocess
import sys

import pytest

from atout.cli import main as cli
from atout.engine import RuleSet, new_deal
from atout.engine.cards import codes
from atout.engine.choices import random_action
from atout.engine.fairness import commitment
from atout.engine.record import to_record
from atout.engine.state import Deal


def finished(players: int = 4, seed: str = "verify") -> Deal:
    for i in range(100):
        deal = new_deal(RuleSet(players), i % players, f"{seed}{i}")
        rng = random.Random(i)
        while not deal.is_over:
            deal.apply(random_action(deal.legal_actions(), rng))
        if not deal.void:
            return deal
    raise AssertionError("no deal that is not void")


@pytest.fixture
def deal_end(tmp_path):
    """A finished deal, and the file of what the server publishes at its end."""
    deal = finished()
    path = tmp_path / "deal_end.json"
    path.write_text(json.dumps({"commitment": commitment(deal.seed), "record": to_record(deal)}))
    return deal, path


def test_a_good_deal_exits_0_and_says_so(deal_end, capsys):
    deal, path = deal_end
    hand = ",".join(codes(deal.initial_hands[1]))
    assert cli.main(["verify", str(path), "--hand", f"1:{hand}"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("commitment  ok ") and commitment(deal.seed) in out[0]
    assert out[1].startswith("replay      ok ")
    assert out[2] == "hand        ok      seat 1 was dealt exactly the 18 cards seen"
    assert out[-1] == "verified: all 3 checks passed"


def test_json_lists_every_check(deal_end, capsys):
    deal, path = deal_end
    assert cli.main(["verify", str(path), "--json", "--commitment", commitment(deal.seed).upper()]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["passed"] is True and answer["seed"] == deal.seed
    assert [(c["check"], c["ok"]) for c in answer["checks"]] == [("commitment", True), ("replay", True)]


def test_a_wrong_commitment_exits_1(deal_end, capsys):
    deal, path = deal_end
    other = commitment(deal.seed + "!")
    assert cli.main(["verify", str(path), "--commitment", other]) == 1
    out = capsys.readouterr().out
    assert (
        f"commitment  FAILED  sha256 of the seed {deal.seed!r} is {commitment(deal.seed)}, "
        f"not the commitment {other} (given)" in out
    )
    assert out.splitlines()[-1] == "not verified: 1 of 2 checks failed"


def test_a_changed_seed_exits_1(tmp_path, capsys):
    deal = finished()
    record = to_record(deal)
    record["seed"] = "chosen after the fact"
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    assert cli.main(["verify", str(path), "--commitment", commitment(deal.seed), "--json"]) == 1
    checks = {c["check"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert not checks["commitment"]["ok"]
    assert checks["commitment"]["message"].startswith("sha256 of the seed 'chosen after the fact' is ")


def test_an_illegal_action_exits_1(deal_end, capsys):
    deal, path = deal_end
    published = json.loads(path.read_text())
    actions = published["record"]["actions"]
    i = next(k for k, a in enumerate(actions) if "play" in a)
    seat = actions[i]["seat"]
    stranger = codes(deal.initial_hands[(seat + 2) % 4])[0]
    actions[i]["play"] = stranger
    path.write_text(json.dumps(published))
    assert cli.main(["verify", str(path)]) == 1
    assert (
        f"replay      FAILED  action {i} (seat {seat}, play {stranger}) is illegal on the cards the seed "
        f"deals: seat {seat} does not hold {stranger}" in capsys.readouterr().out
    )


def test_a_wrong_seen_hand_exits_1(deal_end, capsys):
    deal, path = deal_end
    hand = codes(deal.initial_hands[2])
    stranger = codes(deal.initial_hands[0])[-1]
    assert cli.main(["verify", str(path), "--hand", "2:" + " ".join([*hand[:-1], stranger])]) == 1
    assert f"hand        FAILED  seat 2 was dealt {hand[-1]}, not {stranger}" in capsys.readouterr().out


def test_a_record_with_hands_exits_1_and_says_why(tmp_path, capsys):
    deal = finished()
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(to_record(deal, with_seed=False)))
    assert cli.main(["verify", str(path), "--commitment", commitment(deal.seed)]) == 1
    assert "cannot be checked against a commitment" in capsys.readouterr().out


def test_standard_input(deal_end, monkeypatch, capsys):
    _, path = deal_end
    monkeypatch.setattr(sys, "stdin", io.StringIO(path.read_text()))
    assert cli.main(["verify", "-"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "verified: all 2 checks passed"


@pytest.mark.parametrize(
    "text, options, words",
    [
        ("{", [], "not JSON: "),
        ("[]", [], "a published deal is a JSON object"),
        (
            '{"format": "atout-deal", "version": 1, "players": 4, "dealer": 9, "seed": "s"}',
            [],
            "dealer must be a seat from 0 to 3, not 9",
        ),
        ("GOOD", ["--commitment", "abc"], "the commitment (--commitment) must be 64 hexadecimal digits"),
        ("GOOD", ["--hand", "KS,T21"], "--hand takes SEAT:CODES"),
        ("GOOD", ["--hand", "7:KS"], "a seen hand needs a seat from 0 to 3, not 7"),
        ("GOOD", ["--hand", "1:KS,QQ"], "the hand seen by seat 1: unknown card code 'QQ'"),
        ("GOOD", ["--hand", "1:KS", "--hand", "1:QS"], "--hand gives seat 1 twice"),
    ],
)
def test_malformed_file_or_option_exits_2_naming_it(tmp_path, deal_end, capsys, text, options, words):
    path = tmp_path / "input.json"
    path.write_text(deal_end[1].read_text() if text == "GOOD" else text)
    assert cli.main(["verify", str(path), *options]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and words in captured.err and captured.err.startswith(f"atout verify: {path}: ")
    assert cli.main(["verify", str(path), *options, "--json"]) == 2
    assert words in json.loads(capsys.readouterr().out)["error"]["message"]


def test_a_missing_file_exits_2(tmp_path, capsys):
    assert cli.main(["verify", str(tmp_path / "nowhere.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("sha256sum") is None, reason="no sha256sum")
def test_sha256sum_of_the_seed_is_the_commitment():
    # docs/fairness.md: `printf '%s' SEED | sha256sum` checks a commitment without Atout.
    deal = finished()
    out = subprocess.run(["sha256sum"], input=deal.seed.encode(), capture_output=True, check=True).stdout
    assert out.decode().split()[0] == commitment(deal.seed)


def test_a_deal_downloaded_from_the_site_is_verified_and_replayed_alone(tmp_path, capsys):
    """The site's download is ``{"commitment", "seed", "record"}``: ``atout verify FILE`` checks it with
    nothing else given, and ``atout replay FILE`` replays it like a bare record."""
    deal = finished(seed="download")
    path = tmp_path / "atout-game-deal-1.json"
    record = {**to_record(deal), "names": ["Ann", "Bob", "Robot 3 (random)", "Dora"]}
    path.write_text(json.dumps({"commitment": commitment(deal.seed), "seed": deal.seed, "record": record}))
    assert cli.main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "verified: all 2 checks passed"
    assert cli.main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == list(deal.result.scores)
    assert cli.main(["replay", str(path)]) == 0  # without a terminal: the deal told in plain text
    assert "Ann" in capsys.readouterr().out
