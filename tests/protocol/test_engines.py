"""``atout engine`` speaks the protocol, and the arena seats programs: Atout's own robots through the
pipe, and a robot in JavaScript (examples/simple_engine.js) on Node.js."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from atout.arena.engines import close_engines
from atout.cli.main import main

ROOT = Path(__file__).parents[2]
NODE_ENGINE = ROOT / "examples" / "simple_engine.js"
ENGINE = f"{sys.executable} -m atout.cli.main engine"


@pytest.fixture(autouse=True)
def _engines_closed():
    yield
    close_engines()


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("Node.js is missing: CI must run the JavaScript engine (examples/simple_engine.js)")
        pytest.skip("Node.js is missing (no `node` on PATH): the JavaScript engine's match is NOT tested")
    return node


def test_atout_engine_answers_the_hello_and_each_request():
    hello = {
        "type": "hello",
        "protocol": "atout-engine",
        "version": 1,
        "players": 4,
        "options": {},
        "seat": 1,
        "budget": None,
        "timeout": 30,
    }
    from atout.engine import RuleSet, new_deal
    from atout.protocol.messages import decide

    deal = new_deal(RuleSet(4), 0, "engine/cli")
    request = decide(5, deal.observation(1), None)
    lines = [
        hello,
        {"type": "deal", "number": 0, "dealer": 0, "seed": "abc"},
        {"type": "what_is_this"},
        request,
        {"type": "quit"},
    ]
    done = subprocess.run(
        [*ENGINE.split(), "--level", "heuristic"],
        input="".join(json.dumps(m) + "\n" for m in lines),
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == 0, done.stderr
    ready, action = (json.loads(line) for line in done.stdout.splitlines())
    assert ready == {"type": "ready", "protocol": "atout-engine", "version": 1, "name": "atout heuristic"}
    assert action["type"] == "action" and action["id"] == 5 and "bid" in action["action"]


def test_atout_engine_refuses_another_version_and_an_unknown_level():
    done = subprocess.run(
        [*ENGINE.split(), "--level", "heuristic"],
        timeout=120,
        capture_output=True,
        text=True,
        input='{"type": "hello", "protocol": "atout-engine", "version": 2}\n',
    )
    assert done.returncode == 1 and json.loads(done.stdout)["type"] == "error"
    done = subprocess.run([*ENGINE.split(), "--level", "grandmaster"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "unknown robot level 'grandmaster'" in done.stderr


def test_a_robot_through_the_pipe_plays_card_for_card_as_in_the_arena(tmp_path, capsys):
    """The heuristic chooses from what it sees alone: through the protocol it must make every choice it
    makes in process, so the duplicate difference is exactly nothing."""
    out = tmp_path / "same.json"
    code = main(
        [
            "arena",
            "--players",
            "5",
            "--deals",
            "2",
            "--seed",
            "pipe",
            "--quiet",
            "--candidate",
            "heuristic",
            "--baseline",
            f"cmd:{ENGINE} --level heuristic",
            "--out",
            str(out),
        ]
    )
    assert code == 0, capsys.readouterr().err
    results = json.loads(out.read_text())
    assert results["summary"]["faults"] == {}
    assert all(s["diff"] == 0 for d in results["deals"] for s in d["seats"])
    assert results["config"]["engine_logs"] == str(tmp_path / "same.json.engines")


@pytest.mark.parametrize("players", [3, 4])
def test_a_javascript_robot_plays_a_duplicate_match(players, tmp_path, capsys):
    node = _node()
    out = tmp_path / "node.json"
    logs = tmp_path / "logs"
    code = main(
        [
            "arena",
            "--players",
            str(players),
            "--deals",
            "3",
            "--seed",
            f"node{players}",
            "--quiet",
            "--candidate",
            "heuristic",
            "--baseline",
            f"cmd:{node} {NODE_ENGINE}",
            "--out",
            str(out),
            "--engine-logs",
            str(logs),
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0
    results = json.loads(out.read_text())
    deals = results["deals"]
    assert [d["index"] for d in deals] == [0, 1, 2] and results["summary"]["deals"] == 3
    assert results["summary"]["faults"] == {}, "every answer of the JavaScript robot was legal and in time"
    for d in deals:
        assert d["faults"] == [] and len(d["seats"]) == players
        assert sum(d["baseline_scores"]) == 0
    assert "engine faults" not in printed
    assert {p.name for p in logs.iterdir()} >= {f"baseline-seat{s}.log" for s in range(players)}
    assert "scored" in (logs / "baseline-seat0.log").read_text()  # its stderr, kept


def test_two_engines_at_once_each_seat_its_own_process(tmp_path, capsys):
    node = _node()
    out = tmp_path / "two.json"
    code = main(
        [
            "arena",
            "--players",
            "3",
            "--deals",
            "1",
            "--seed",
            "two",
            "--quiet",
            "--candidate",
            f"cmd:{node} {NODE_ENGINE}",
            "--baseline",
            f"cmd:{ENGINE} --level random",
            "--out",
            str(out),
        ]
    )
    assert code == 0, capsys.readouterr().err
    results = json.loads(out.read_text())
    assert results["summary"]["faults"] == {}
    logs = {p.name for p in (tmp_path / "two.json.engines").iterdir()}
    assert logs >= {f"{role}-seat{s}.log" for role in ("candidate", "baseline") for s in range(3)}


def test_an_engine_that_does_not_start_is_refused_before_the_run(tmp_path, capsys):
    code = main(["arena", "--deals", "1", "--baseline", "cmd:/nonexistent/engine", "--out", str(tmp_path / "x.json")])
    err = capsys.readouterr().err
    assert code == 2 and "the baseline 'cmd:/nonexistent/engine' does not start" in err and "could not start" in err
    assert not (tmp_path / "x.json").exists()
    code = main(
        [
            "arena",
            "--deals",
            "1",
            "--candidate",
            f"cmd:{sys.executable} -m no_such_robot_module",
            "--engine-logs",
            str(tmp_path / "logs"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "exited with code 1" in err and "No module named no_such_robot_module" in err
    code = main(["arena", "--deals", "1", "--candidate", "cmd:  "])
    assert code == 2 and "names no command" in capsys.readouterr().err


def test_magmacrunch_s_robot_plays_a_duplicate_match(tmp_path, capsys):
    """examples/magmacrunch_engine.py: an existing public tarot robot (the magmacrunch-tarot package's AI,
    an optional download under a noncommercial licence, so never a dependency) through the adapter."""
    try:
        from tarot import rules
    except ImportError:
        rules = None
    if rules is None or not hasattr(rules, "ai_card"):
        pytest.skip(
            "magmacrunch-tarot is not installed (pip install --no-deps magmacrunch-tarot): its robot's "
            "match is NOT tested"
        )
    out = tmp_path / "mm.json"
    code = main(
        [
            "arena",
            "--players",
            "4",
            "--deals",
            "3",
            "--seed",
            "magmacrunch",
            "--quiet",
            "--candidate",
            "heuristic",
            "--baseline",
            f"cmd:{sys.executable} {ROOT / 'examples' / 'magmacrunch_engine.py'}",
            "--out",
            str(out),
        ]
    )
    assert code == 0, capsys.readouterr().err
    results = json.loads(out.read_text())
    assert results["summary"]["deals"] == 3 and results["summary"]["faults"] == {}
    assert all(len(d["seats"]) == 4 and sum(d["baseline_scores"]) == 0 for d in results["deals"])


def test_a_stray_print_in_a_robot_goes_to_stderr_not_to_the_host(monkeypatch, capsys):
    import io

    from atout.engine import RuleSet, new_deal
    from atout.protocol import engine
    from atout.protocol.messages import decide

    real = engine.make_bot

    class Chatty:
        name = "chatty"

        def __init__(self, bot):
            self.bot = bot

        def choose(self, observation, budget=None):
            print("thinking out loud")
            return self.bot.choose(observation, budget)

    monkeypatch.setattr(engine, "make_bot", lambda level, seed=None: Chatty(real(level, seed)))
    deal = new_deal(RuleSet(3), 0, "engine/chatty")
    lines = [
        {"type": "hello", "protocol": "atout-engine", "version": 1, "players": 3, "options": {}, "seat": deal.to_act},
        decide(1, deal.observation(deal.to_act), None),
        {"type": "quit"},
    ]
    assert engine.serve("random", io.StringIO("".join(json.dumps(m) + "\n" for m in lines))) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["type"] for line in out.splitlines()] == ["ready", "action"]
    assert "thinking out loud" in err
