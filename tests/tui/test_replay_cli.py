"""``atout replay FILE`` (the trick-by-trick viewer) and the ``atout play`` command line."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator

import pytest
from rich.console import Console

from atout.cli import main as cli
from atout.engine import RuleSet, new_deal
from atout.engine.choices import random_action
from atout.engine.record import to_record
from atout.tui.replay import ReplayApp, replay_steps
from atout.tui.widgets import cards_text
from atout.tui.words import Language, set_language

from .helpers import SIZE, shown

ENGLISH = re.compile(
    r"\b(the|you|deals?|tricks?|seats?|bids?|players?|played|seed|dog|hands?|taker|partner|passes|called|alone|"
    r"none|record|stops|next|previous|beginning|end|quit|led|won|totals|counted|level|takes?|took|made|failed|"
    r"points|with|each|scores|unit)\b",
    re.IGNORECASE,
)
"""English words a Spanish replay or robots' game must not show (robots' names, cards' K Q C J letters aside;
"robots" is Spanish too, docs/glossary-es.md)."""


def finished_record(players: int = 4, seed: str = "rp") -> dict:
    for i in range(50):
        deal = new_deal(RuleSet(players), 0, f"{seed}{i}")
        rng = random.Random(i)
        while not deal.is_over:
            deal.apply(random_action(deal.legal_actions(), rng))
        if not deal.void:
            return to_record(deal)
    raise RuntimeError


def test_steps_trick_by_trick():
    record = finished_record(5)
    states, titles = replay_steps(record)
    hand_size = RuleSet(5).settings.hand_size
    assert titles[0] == "The deal" and titles[1].startswith("Bidding done")
    assert titles[2:] == [f"Trick {k}" for k in range(1, hand_size + 1)]
    assert [len(s.tricks) for s in states[2:]] == list(range(1, hand_size + 1))
    assert states[-1].is_over


def test_incomplete_record_stops_where_it_stops():
    record = finished_record(3)
    record["actions"] = record["actions"][:-2]
    states, titles = replay_steps(record)
    assert titles[-1] == "Where the record stops"
    assert not states[-1].is_over


async def test_viewer_steps_with_keys():
    record = finished_record(4)
    app = ReplayApp(record, name="deal.json")
    async with app.run_test(size=SIZE) as pilot:
        title = app.query_one("#title")
        assert "The deal" in str(title.render())
        await pilot.press("right", "right", "right")
        assert app.index == 3 and "Trick 2" in str(title.render())
        await pilot.press("left")
        assert app.index == 2
        await pilot.press("end")
        assert app.index == len(app.states) - 1
        view = rendered(app.view(app.states[-1]))
        assert "points with" in view and "Seat 0" in view
        await pilot.press("home")
        assert app.index == 0


def rendered(renderable, width: int = 78) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


async def test_viewer_uses_the_players_names_and_fits_80_columns():
    record = finished_record(3)  # 24 cards a hand: the longest lines
    record["names"] = ["You", "Anna", "Basile"]
    app = ReplayApp(record, name="deal.json")
    async with app.run_test(size=SIZE):
        for state in app.states:
            text = rendered(app.view(state))
            assert "Seat" not in text and "seat" not in text
            assert all(len(line) <= 78 for line in text.splitlines())
            for seat in range(3):  # every card of every hand is there, none cut off
                for word in cards_text(state.hands[seat]).plain.replace(",", "").split():
                    assert word in text
        assert "Anna" in rendered(app.view(app.states[1]))


def test_replay_without_json_opens_the_viewer(tmp_path, monkeypatch):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(finished_record()))
    opened = []
    monkeypatch.setattr(ReplayApp, "run", lambda self: opened.append(self))
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    assert cli.main(["replay", str(path)]) == 0
    assert len(opened) == 1 and opened[0].file_name == "deal.json"


def test_replay_of_a_bad_record_fails(tmp_path, capsys):
    path = tmp_path / "bad.json"
    record = finished_record()
    record["actions"][0] = {"seat": 3, "bid": "garde"}
    path.write_text(json.dumps(record))
    assert cli.main(["replay", str(path)]) == 2
    assert "bad.json: action 0: " in capsys.readouterr().err


def test_play_options_reach_the_app(tmp_path, monkeypatch):
    from atout.tui.app import AtoutApp

    apps = []
    monkeypatch.setattr(AtoutApp, "run", lambda self: apps.append(self))
    assert (
        cli.main(
            [
                "play",
                "--players",
                "3",
                "--level",
                "random",
                "--deals",
                "2",
                "--seed",
                "s",
                "--delay",
                "0",
                "--save-dir",
                str(tmp_path),
            ]
        )
        == 0
    )
    app = apps[-1]
    assert app.settings == {"players": 3, "level": "random", "deals": 2, "seed": "s"}
    assert app.delay == 0 and not app.start_screen and app.save_dir == tmp_path
    assert cli.main(["play", "--save-dir", str(tmp_path)]) == 0
    assert apps[-1].start_screen
    assert cli.main(["play", "--level", "nobody"]) == 2


def test_play_resume_loads_the_saved_game(tmp_path, monkeypatch):
    from atout.tui.app import AtoutApp
    from atout.tui.game import Game

    game = Game(players=4, level="random", deals=2, seed="r", save_dir=tmp_path)
    game.start_deal()
    game.save()
    apps = []
    monkeypatch.setattr(AtoutApp, "run", lambda self: apps.append(self))
    assert cli.main(["play", "--resume", "--save-dir", str(tmp_path)]) == 0
    assert apps[-1].game.deal.seed == game.deal.seed
    assert cli.main(["play", "--resume", str(tmp_path / "missing.json")]) == 2


def test_the_command_said_to_continue_a_game_saved_elsewhere_continues_it(tmp_path, monkeypatch, capsys):
    """``atout play --save-dir DIR`` said "continue it with: atout play --resume", which looked in the
    default folder and failed: the command said is the one that works."""
    import shlex

    from atout.cli.play import _farewell
    from atout.tui.app import AtoutApp
    from atout.tui.game import Game

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "elsewhere"))  # the default folder holds no game
    saved = tmp_path / "my games"
    game = Game(players=4, level="random", deals=2, seed="r", save_dir=saved)
    game.start_deal()
    game.save()
    _farewell(game)
    said = capsys.readouterr().out.split("continue it with: ", 1)[1].splitlines()[0]
    words = shlex.split(said)
    assert words[:3] == ["atout", "play", "--resume"]
    apps = []
    monkeypatch.setattr(AtoutApp, "run", lambda self: apps.append(self))
    assert cli.main(words[1:]) == 0
    assert apps[-1].game.deal.seed == game.deal.seed
    default = Game(players=4, level="random", deals=2, seed="d", save_dir=tmp_path / "elsewhere" / "atout")
    assert default.resume_command() == "atout play --resume"  # the default folder's game needs no file


def test_robots_only_still_prints(capsys):
    assert (
        cli.main(["play", "--robots-only", "--players", "3", "--deals", "1", "--seed", "x", "--level", "random"]) == 0
    )
    assert "Totals" in capsys.readouterr().out


def test_play_prints_the_final_ranking(tmp_path, monkeypatch, capsys):
    from atout.tui.app import AtoutApp
    from atout.tui.game import Game

    def run(self):
        game = Game(players=3, level="random", deals=1, seed="bye", save_dir=tmp_path)
        while not game.is_over:
            game.start_deal()
            while not game.deal.is_over:
                seat = game.deal.to_act
                game.apply(game.robot(seat).choose(game.deal.observation(seat)), seat=seat)
        self.game = game

    monkeypatch.setattr(AtoutApp, "run", run)
    assert cli.main(["play", "--players", "3", "--save-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Final ranking after 1 deal:" in out and "You" in out and "Deal records" in out


@pytest.fixture
def english_after() -> Iterator[None]:
    """The command sets the language for the whole process: English again for the tests after."""
    try:
        yield
    finally:
        set_language(Language.EN)


def test_robots_only_speaks_spanish(capsys, english_after):
    assert (
        cli.main(
            [
                "play",
                "--robots-only",
                "--lang",
                "es",
                "--players",
                "5",
                "--deals",
                "2",
                "--seed",
                "x",
                "--level",
                "random",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("5 robots de nivel al azar, 2 rondas que cuentan, semilla x\n"), out
    assert "Ronda 1 (cuenta: 1 de 2): reparte Asiento 0 (semilla x/0)" in out and "Totales: Asiento 0 " in out
    assert not (found := ENGLISH.search(out)), f"English in the Spanish robots' game: {found.group(0)!r}\n{out}"


def test_a_language_the_game_does_not_speak_is_refused_by_every_command(capsys, english_after):
    assert cli.main(["play", "--robots-only", "--lang", "de", "--deals", "1"]) == 2
    assert cli.main(["replay", "--lang", "de", "no-such-file.json"]) == 2
    err = capsys.readouterr().err
    assert "atout play: --lang: no 'de' language" in err and "atout replay: --lang: no 'de' language" in err


def test_the_plain_replay_speaks_the_language_asked(tmp_path, capsys, english_after):
    path = tmp_path / "ronda.json"
    path.write_text(json.dumps({**finished_record(4), "names": ["You", "Anna", "Basile", "Chloé"]}))
    assert cli.main(["replay", "--lang", "es", str(path)]) == 0  # standard output is no terminal here
    out = capsys.readouterr().out
    assert out.startswith("ronda.json: 4 jugadores, Repartes tú, semilla ") and "Las manos repartidas:" in out
    assert "Baza 1: " in out and "Esta ronda: Tú " in out, out
    assert not (found := ENGLISH.search(out)), f"English in the Spanish replay: {found.group(0)!r}\n{out}"


async def test_the_replay_viewer_in_spanish_shows_no_english(english_after):
    set_language(Language.ES)
    record = {**finished_record(5), "names": ["You", "Anna", "Basile", "Chloé", "Denis"]}
    record["actions"] = record["actions"][:-3]  # the record stops mid-trick: its last step's words too
    app = ReplayApp(record, name="ronda.json")
    async with app.run_test(size=(100, 40)) as pilot:
        for step in range(len(app.states)):
            await pilot.pause()
            text = shown(app)
            assert not (found := ENGLISH.search(text)), f"English at step {step}: {found.group(0)!r}\n{text}"
            await pilot.press("right")
        assert "Donde termina el registro" in text and "(declarante)" in text and "Tú" in text, text
        assert {"Baza siguiente", "Anterior", "Salir"} <= set(text.splitlines()), text
        assert app.title == "Atout: repaso"
