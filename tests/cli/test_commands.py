"""The ``atout`` command as a person meets it: options, help, pipes and plain text without a terminal."""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys

import pytest

from atout.cli.main import _parser, main
from atout.engine import RuleSet, new_deal
from atout.engine.choices import random_action
from atout.engine.record import to_record
from atout.tui.game import Game
from served import answered

ATOUT = [sys.executable, "-m", "atout.cli.main"]


def atout(*args: str, stdin: str | None = None, **kwargs) -> subprocess.CompletedProcess:
    """Run the command in a child process: no terminal, piped stdout, empty stdin."""
    return subprocess.run([*ATOUT, *args], capture_output=True, text=True, input=stdin or "", timeout=120, **kwargs)


def finished_record(players: int = 4) -> dict:
    for i in range(50):
        deal = new_deal(RuleSet(players), 0, f"cmd{i}")
        rng = random.Random(i)
        while not deal.is_over:
            deal.apply(random_action(deal.legal_actions(), rng))
        if not deal.void:
            return to_record(deal)
    raise RuntimeError


HIDDEN = {"atout serve --test-clock"}
"""Options kept out of ``--help``: for the browser tests, never for people."""


def test_every_option_in_help_has_a_line_and_its_default() -> None:
    parser = _parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = []
    for name, command in sub.choices.items():
        for action in command._actions:
            if not action.option_strings or isinstance(action, argparse._HelpAction):
                continue
            if action.help == argparse.SUPPRESS:  # hidden from people: only the tests' own options may be
                assert f"atout {name} {action.option_strings[0]}" in HIDDEN, action.option_strings
                continue
            if not action.help or "default" not in action.help:
                missing.append(f"atout {name} {action.option_strings[0]}")
    assert missing == []


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["play", "--delay", "-1"], "--delay"),
        (["play", "--deals", "0"], "--deals"),
        (["play", "--level", "nobody"], "robot level"),
        (["arena", "--jobs", "0", "--quiet"], "--jobs"),
        (["arena", "--budget", "-1", "--quiet"], "--budget"),
        (["arena", "--start", "-1", "--quiet"], "--start"),
        (["robot", "ws://localhost:1/ws", "--engine", "random", "--games", "0"], "--games"),
        (["robot", "ws://localhost:1/ws", "--engine", "random", "--timeout", "0"], "--timeout"),
    ],
)
def test_bad_options_exit_2_naming_the_option(args, named) -> None:
    out = atout(*args)
    assert out.returncode == 2, out
    assert named in out.stderr and "Traceback" not in out.stderr


def test_replay_without_a_terminal_tells_the_deal_in_plain_text(tmp_path) -> None:
    record = finished_record()
    record["names"] = ["You", "Anna", "Basile", "Chloé"]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    out = atout("replay", str(path))
    assert out.returncode == 0 and out.stderr == ""
    text = out.stdout
    assert "\x1b" not in text  # no screen codes: plain text
    assert text.startswith("deal.json: 4 players, You deal")
    assert "Trick 18:" in text and "Anna" in text and "This deal:" in text
    assert "Trick 1: " in text and " → " in text


def test_a_closed_pipe_ends_any_command_quietly(tmp_path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(finished_record()))
    for args in (
        ["replay", str(path)],
        ["replay", str(path), "--json"],
        ["--help"],
        ["play", "--robots-only", "--deals", "20", "--level", "random", "--seed", "p"],
    ):
        shell = " ".join([*ATOUT, *args]) + " | head -c 1"
        out = subprocess.run(["bash", "-o", "pipefail", "-c", shell], capture_output=True, text=True, timeout=120)
        assert "Traceback" not in out.stderr and "BrokenPipe" not in out.stderr, (args, out.stderr)


def test_replay_of_a_malformed_record_names_no_action_none(tmp_path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "atout-deal", "version": 1, "players": 7, "dealer": 0}))
    out = atout("replay", str(path))
    assert out.returncode == 2
    assert "None" not in out.stderr and "bad.json" in out.stderr and "players" in out.stderr


def test_robots_only_uses_the_default_level_and_tells_each_deal_in_words() -> None:
    out = atout("play", "--robots-only", "--players", "5", "--deals", "3", "--seed", "w")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "level club" in text  # the documented default (heuristic, shown by its name club), not random
    assert text.count("This deal:") == 3
    assert "took a" in text and "Poignées:" in text and "Chelem:" in text
    assert "MADE by" in text or "FAILED by" in text
    assert "-" not in text.split("Totals:")[1]  # one minus sign: −


def test_resuming_a_finished_game_says_so_and_how_to_start_anew(tmp_path) -> None:
    game = Game(players=3, level="random", deals=1, seed="done", save_dir=tmp_path)
    while not game.is_over:
        game.start_deal()
        while not game.deal.is_over:
            seat = game.deal.to_act
            game.apply(game.robot(seat).choose(game.deal.observation(seat)), seat=seat)
    game.save()
    out = atout("play", "--resume", "--save-dir", str(tmp_path))
    assert out.returncode == 0
    assert "is finished: its 1 deal was played" in out.stdout
    assert "Start a new game with: atout play" in out.stdout
    assert "Final ranking after 1 deal:" in out.stdout


def test_play_farewell_never_claims_a_failed_save(tmp_path, monkeypatch, capsys) -> None:
    from atout.tui.app import AtoutApp

    def run(self):
        game = Game(players=4, level="random", deals=2, seed="full", save_dir=tmp_path / "gone")
        game.start_deal()
        game.save_error = "No space left on device"
        self.game = game

    monkeypatch.setattr(AtoutApp, "run", run)
    assert main(["play", "--players", "4", "--save-dir", str(tmp_path / "gone")]) == 0
    out = capsys.readouterr().out
    assert "Game saved" not in out
    assert "could not be saved" in out and "No space left" in out


@pytest.mark.parametrize(
    ("args", "env", "says"),
    [
        (["--workers", "2", "--db", "postgresql://x@127.0.0.1/x"], {}, "--redis"),
        (["--redis", "redis://127.0.0.1:1/0", "--db", "sqlite:////tmp/x.db"], {}, "PostgreSQL"),
        ([], {"ATOUT_REDIS": "redis://127.0.0.1:1/0", "ATOUT_DB": "sqlite:////tmp/x.db"}, "PostgreSQL"),
        (["--workers", "0"], {}, "--workers"),
        (["--rate", "0"], {}, "--rate"),
        (["--host-name", "tarot.example.org:443"], {}, "--host-name"),
        (["--request-timeout", "0"], {}, "--request-timeout"),
        (["--password-costs", "low"], {}, "--password-costs"),
    ],
)
def test_serve_refuses_a_site_it_cannot_run(args: list[str], env: dict[str, str], says: str, tmp_path) -> None:
    """Several processes need PostgreSQL and Redis: said at once, by name, before anything starts. (The command
    as its own process, forked from the tests' warm fork server: a new interpreter for each refusal cost about half a
    second of CPU importing the server; the entry point's own start is tested above.)"""
    code, said = answered(["--port", "1", *args], {"XDG_DATA_HOME": str(tmp_path), **env}, tmp_path / "serve.log")
    assert code == 2, said
    assert says in said and "Traceback" not in said


def test_serve_answers_to_the_names_it_is_given_and_else_to_this_machines(monkeypatch) -> None:
    """``--host-name`` names the hosts (repeatable, comma-separated); without it, on 127.0.0.1 localhost and
    IP addresses alone (always allowed), on every address this machine's names too, and behind a proxy any
    host, with a warning (docs/security.md)."""
    from atout.cli import serve

    monkeypatch.setattr(serve.socket, "gethostname", lambda: "Tarotbox")
    monkeypatch.setattr(serve.socket, "getfqdn", lambda: "tarotbox")
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)

    def hosts(*args: str) -> tuple[list[str], str | None]:
        return serve.allowed_hosts(parser.parse_args(list(args)))

    assert hosts("--host-name", "Tarot.example.org,www.tarot.example.org", "--host-name", "tarot.example.net") == (
        ["tarot.example.org", "www.tarot.example.org", "tarot.example.net"],
        None,
    )
    assert hosts() == ([], None)
    assert hosts("--host", "0.0.0.0") == (["tarotbox", "tarotbox.local"], None)  # and any IP address (hosts.py)
    assert hosts("--host", "192.168.1.20") == (["tarotbox", "tarotbox.local"], None)
    anything, warning = hosts("--host", "0.0.0.0", "--behind-proxy")
    assert anything == ["*"] and warning is not None and "--host-name" in warning
    assert hosts("--behind-proxy")[0] == ["*"]  # nginx on this machine: its names are the site's
    assert hosts("--behind-proxy", "--host-name", "tarot.example.org") == (["tarot.example.org"], None)


def test_atout_robot_refuses_a_missing_token_or_an_unknown_engine_before_connecting() -> None:
    env = {k: v for k, v in os.environ.items() if k != "ATOUT_TOKEN"}
    missing = atout("robot", "ws://127.0.0.1:1/ws", "--engine", "random", env=env)
    assert missing.returncode == 2 and "no token" in missing.stderr and "ATOUT_TOKEN" in missing.stderr
    unknown = atout("robot", "ws://127.0.0.1:1/ws", "--engine", "nobody", env={**env, "ATOUT_TOKEN": "atr_x"})
    assert unknown.returncode == 2 and "unknown engine 'nobody'" in unknown.stderr
    gone = atout("robot", "ws://127.0.0.1:1/ws", "--engine", "random", "--token", "atr_x")
    assert gone.returncode == 1 and "the connection to ws://127.0.0.1:1/ws failed" in gone.stderr


def test_serve_prints_its_address_once_the_site_answers(tmp_path) -> None:
    """The start line comes when the address answers, never before: whoever opens it at once is served
    (printed before uvicorn listened, it named an address that refused connections for a second or more
    while the store migrated and the analysis workers warmed up)."""
    import socket
    import threading
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    server = subprocess.Popen(
        [*ATOUT, "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'a.db'}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    hang = threading.Timer(120, server.kill)  # bounds a hang only
    hang.start()
    try:
        line = server.stdout.readline()
        assert line.startswith(f"Atout is open at http://localhost:{port}/"), line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=60) as answer:  # no retry
            assert answer.status == 200
    finally:
        hang.cancel()
        server.terminate()
        server.wait(timeout=60)
