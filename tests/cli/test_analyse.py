"""``atout analyse``: the JSON the issue asks for, the table, the seat option, clear errors."""

from __future__ import annotations

import json

import pytest

from atout.bots import make_bot
from atout.cli import main as cli
from atout.engine import RuleSet, new_deal
from atout.engine.record import to_record


@pytest.fixture(scope="module")
def record() -> dict:
    """A finished, taken deal played by beginners (they slip: there is something to mark)."""
    for i in range(30):
        deal = new_deal(RuleSet(4), i % 4, f"analyse-cli/{i}")
        bots = [make_bot("beginner", f"analyse-cli/{i}/{s}") for s in range(4)]
        while not deal.is_over:
            seat = deal.to_act
            deal.apply(bots[seat].choose(deal.observation(seat)), seat)
        if deal.taker is not None:
            return {**to_record(deal), "names": ["You", "Anna", "Basile", "Chloé"]}
    raise AssertionError("no taken deal")


def test_json_gives_each_decision_with_its_loss_and_mark_and_each_seats_total(record, tmp_path, capsys):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    assert cli.main(["analyse", str(path), "--seat", "1", "--json", "--seed", "s"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert captured.err == ""  # no progress when standard error is no terminal
    decisions = data["decisions"]
    assert decisions and {d["seat"] for d in decisions} == {1}
    for d in decisions:
        assert {"seat", "index", "phase", "action", "best", "loss", "mark"} <= d.keys()
        assert d["loss"] >= 0 and d["mark"] in (None, "inaccuracy", "mistake", "blunder")
        assert record["actions"][d["index"]]["seat"] == 1
        if d["phase"] == "card":
            assert d["action"] == {"play": record["actions"][d["index"]]["play"]}
        low, high = d["interval"]
        assert low <= d["loss"] <= high
    indexes = [d["index"] for d in decisions]
    assert indexes == sorted(indexes)
    [total] = data["totals"]
    assert total["seat"] == 1 and total["loss"] == pytest.approx(
        sum(d["loss"] for d in decisions), abs=0.1 * len(decisions)
    )
    assert total["decisions"] == len(decisions)
    # The table tells the same decisions.
    assert cli.main(["analyse", str(path), "--seat", "1", "--seed", "s"]) == 0
    text = capsys.readouterr().out
    assert "Seat 1 (Anna)" in text and f"{len(decisions)} decision" in text
    for d in decisions:
        if d["mark"]:
            assert d["mark"] in text


def test_a_seat_the_deal_lacks_and_a_broken_record_are_refused_by_name(record, tmp_path, capsys):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    assert cli.main(["analyse", str(path), "--seat", "4"]) == 2
    assert "--seat 4: the deal's seats are 0 to 3" in capsys.readouterr().err
    broken = {**record, "actions": [*record["actions"][:3], {"seat": 0, "play": "KS"}]}
    path.write_text(json.dumps(broken))
    assert cli.main(["analyse", str(path), "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["action"] == 3


def test_progress_is_drawn_on_a_terminal_and_wiped_at_the_end():
    import io

    from atout.cli.analyse import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    progress = Progress(out)
    progress(3, 12)
    assert "3/12 decisions" in out.getvalue() and out.getvalue().startswith("\r")
    progress.close()
    assert out.getvalue().endswith("\r\033[K")
    quiet = io.StringIO()
    Progress(quiet)(3, 12)
    assert quiet.getvalue() == ""


def test_summary_sums_each_players_accuracy_by_phase_over_the_files(record, tmp_path, capsys):
    """``atout analyse --summary FILE…``: every seat of every finished deal analysed, what each player's choices
    cost summed by name and phase (bots/accuracy.py), the same figures as the analysis of each deal gives."""
    from atout.bots.accuracy import combine, record_roles, seat_accuracy
    from atout.bots.analysis import analyse

    other = new_deal(RuleSet(4), 1, "analyse-cli/summary")
    bots = [make_bot("club", f"analyse-cli/summary/{s}") for s in range(4)]
    while not other.is_over:
        seat = other.to_act
        other.apply(bots[seat].choose(other.observation(seat)), seat)
    second = {**to_record(other), "names": ["You", "Anna", "Basile", "Chloé"]}
    unfinished = {**second, "actions": second["actions"][:3]}
    paths = []
    for name, data in (("a", record), ("b", second), ("c", unfinished)):
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(data))
    assert cli.main(["analyse", "--summary", *map(str, paths), "--json", "--worlds", "1", "--seed", "s"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["deals"], data["unfinished"]) == (2, 1)
    expected = {}
    for deal in (record, second):
        analysis, roles = analyse(deal, seed="s", factor=1).to_json(), record_roles(deal)
        for seat, name in enumerate(deal["names"]):
            expected.setdefault(name, []).append(seat_accuracy(analysis, seat, roles[seat]))
    assert data["players"] == [{"name": name, **combine(items)} for name, items in expected.items()]
    you = data["players"][0]
    assert you["name"] == "You" and you["deals"] == 2 and you["played"]["bid"] == 2
    assert round(sum(you["phases"].values()), 1) == you["loss"] >= 0
    # The table: a line per player, and the phase that cost each most.
    assert cli.main(["analyse", "--summary", *map(str, paths[:2]), "--worlds", "1", "--seed", "s", "--seat", "0"]) == 0
    text = capsys.readouterr().out
    assert "Accuracy over 2 deals" in text and "Anna" not in text
    line = next(row for row in text.splitlines() if row.startswith("You "))
    assert f"-{you['loss'] / 2:.1f}" in line or you["loss"] == 0
    assert text.strip().splitlines()[-1].startswith("You: ")
    # Several files without --summary: refused; a file that is not a record: refused, by name.
    assert cli.main(["analyse", str(paths[0]), str(paths[1])]) == 2
    assert "--summary" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "atout-record", "version": 1}')
    assert cli.main(["analyse", "--summary", str(paths[0]), str(bad), "--worlds", "1"]) == 2
    assert "bad.json" in capsys.readouterr().err
