"""``atout play`` and ``atout replay FILE`` (without --json): the Textual terminal game and viewer."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def speak(args: argparse.Namespace, command: str) -> bool:
    """Speak ``--lang``, else the locale's language (``atout play``, ``--robots-only``, ``atout replay``);
    False, the error said, for a language the game does not speak."""
    from ..tui.words import language_from_environment, parse_language, set_language

    try:
        set_language(parse_language(args.lang) if args.lang else language_from_environment())
    except ValueError as err:
        print(f"{command}: --lang: {err}", file=sys.stderr)
        return False
    return True


def play(args: argparse.Namespace) -> int:
    from ..bots import LEVELS
    from ..tui.app import AtoutApp
    from ..tui.game import Game, default_save_dir
    from ..tui.words import _, n_

    if not speak(args, "atout play"):
        return 2
    save_dir = Path(args.save_dir) if args.save_dir else default_save_dir()
    if args.level is not None and args.level not in LEVELS:
        print(
            "atout play: "
            + _("unknown robot level {level!r}; levels are {levels}", level=args.level, levels=", ".join(LEVELS)),
            file=sys.stderr,
        )
        return 2
    if args.deals is not None and args.deals < 1:
        print("atout play: " + _("--deals must be at least 1"), file=sys.stderr)
        return 2
    if not args.delay >= 0:  # also refuses nan
        print("atout play: " + _("--delay must be 0 seconds or more, not {delay:g}", delay=args.delay), file=sys.stderr)
        return 2
    game = None
    if args.resume is not None:
        path = Path(args.resume) if args.resume else save_dir / "game.json"
        try:
            game = Game.load(path, save_dir=save_dir if args.save_dir else path.parent)
        except (OSError, ValueError, KeyError, TypeError) as err:
            print("atout play: " + _("cannot resume {path}: {error}", path=path, error=err), file=sys.stderr)
            return 2
        if game.is_over:
            print(
                n_(
                    "The game in {path} is finished: its {n} deal was played.",
                    "The game in {path} is finished: all {n} deals were played.",
                    game.deals,
                    path=path,
                )
            )
            _ranking(game)
            print(_("Start a new game with: atout play"))
            return 0
    # Any game setting on the command line skips the start screen.
    chosen = any(v is not None for v in (args.players, args.level, args.deals, args.seed))
    from .warm import warm_robots

    warm_robots()  # the hint and the expert robots search with compiled code
    app = AtoutApp(
        game,
        players=args.players,
        level=args.level,
        deals=args.deals,
        seed=args.seed,
        delay=args.delay,
        save_dir=save_dir,
        start_screen=game is None and not chosen,
    )
    app.run()
    _farewell(app.game)
    return 0


def _ranking(game) -> None:
    from ..tui.game import seat_name
    from ..tui.widgets import signed
    from ..tui.words import n_

    print(n_("Final ranking after {n} deal:", "Final ranking after {n} deals:", game.deals_played))
    for place, seat, total in game.ranking():
        print(f"  {place}. {seat_name(seat):<8} {signed(total):>6}")


def _farewell(game) -> None:
    """What the terminal keeps once the game's screen is gone; "saved" only when the last save worked."""
    from ..tui.words import _

    if game is None:
        return
    if game.is_over:
        _ranking(game)
    elif game.save_dir is not None:
        if game.save_error is None and game.save_path().exists():
            print(
                _(
                    "Game saved in {path}; continue it with: {command}",
                    path=game.save_path(),
                    command=game.resume_command(),
                )
            )
        else:
            why = f" ({game.save_error})" if game.save_error else ""
            print(_("The game could not be saved in {path}{why}: it is lost.", path=game.save_path(), why=why))
    if game.save_dir is not None and any(line.record for line in game.sheet):
        print(_("Deal records: {path} (view one with: atout replay FILE)", path=game.records_dir()))


def replay_viewer(args: argparse.Namespace) -> int:
    """The trick-by-trick viewer in a terminal; without one, the deal told in plain text; in the game's
    language (``--lang`` or the locale's)."""
    from ..engine.record import RecordError
    from ..tui.replay import ReplayApp, replay_text
    from ..tui.words import _
    from .records import read_record

    if not speak(args, "atout replay"):
        return 2
    path = args.file
    name = Path(path).name if path != "-" else "stdin"
    try:
        record = read_record(path)
        if not (sys.stdout.isatty() and sys.stdin.isatty()) or path == "-":
            print(replay_text(record, title=name))
            return 0
        app = ReplayApp(record, name=name)
    except RecordError as err:
        where = "" if err.action is None else _("action {n}:", n=err.action) + " "
        print(f"atout replay: {path}: {where}{err.rule}: {err.message}", file=sys.stderr)
        return 2
    app.run()
    return 0
