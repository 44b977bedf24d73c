"""``atout arena``: options checked before a run, results on stdout, a file only when asked."""

from __future__ import annotations

import json

import pytest

from atout.arena import run as arena_run
from atout.cli.main import main

QUICK = ["arena", "--players", "3", "--candidate", "random", "--baseline", "random", "--deals", "1", "--quiet"]


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--jobs", "0"], "--jobs"),
        (["--budget", "-1"], "--budget"),
        (["--start", "-2"], "--start"),
        (["--deals", "0"], "--deals"),
        (["--out", "/no/such/folder/x.json"], "--out"),
    ],
)
def test_bad_options_exit_2_naming_the_option_before_any_deal(extra, named, capsys, monkeypatch) -> None:
    monkeypatch.setattr(arena_run, "run_arena", lambda *a, **k: pytest.fail("ran despite a bad option"))
    assert main([*QUICK, *extra]) == 2
    assert named in capsys.readouterr().err


def test_no_file_unless_asked_and_the_file_when_asked(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(QUICK) == 0
    assert list(tmp_path.iterdir()) == []
    assert "random vs random, 3 players" in capsys.readouterr().out  # the results are on stdout
    assert main([*QUICK, "--out", "r.json"]) == 0
    assert json.loads((tmp_path / "r.json").read_text())["config"]["deals"] == 1


def test_a_write_that_fails_at_the_end_prints_the_results(tmp_path, monkeypatch, capsys) -> None:
    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(arena_run, "write_json", full_disk)
    assert main([*QUICK, "--out", str(tmp_path / "r.json")]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out[out.index("{") :])["config"]["players"] == 3
    assert "could not write" in err and "No space left" in err and "Traceback" not in err


def test_the_report_reads_as_words() -> None:
    from atout.arena.run import report

    ci = {"mean": 1.0, "low": None, "high": None, "n": 1}
    summary = {
        "deals": 1,
        "points_per_deal": ci,
        "by_role": {"taker": ci, "void": ci},
        "taker_success": {"candidate": None},
        "decision_seconds": {"count": 0},
    }
    config = {"candidate": "expert", "baseline": "heuristic", "players": 4, "seed": "s"}
    text = report(summary, config)
    assert "1 duplicate deal," in text and "deals" not in text.splitlines()[0]
    assert "  as void:" not in text and "where the deal was void (all passed" in text
