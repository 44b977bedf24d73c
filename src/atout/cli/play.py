"""``atout play`` and ``atout replay FILE`` (without --json): the Textual terminal game and viewer."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def play(args: argparse.Namespace) -> int:
    from ..bots import LEVELS
    from ..tui.app import AtoutApp
    from ..tui.game import Game, default_save_dir

    save_dir = Path(args.save_dir) if args.save_dir else default_save_dir()
    if args.level is not None and args.level not in LEVELS:
        print(f"atout play: unknown robot level {args.level!r}; levels are {', '.join(LEVELS)}", file=sys.stderr)
        return 2
    if args.deals is not None and args.deals < 1:
        print("atout play: --deals must be at least 1", file=sys.stderr)
        return 2
    game = None
    if args.resume is not None:
        path = Path(args.resume) if args.resume else save_dir / "game.json"
        try:
            game = Game.load(path, save_dir=save_dir if args.save_dir else path.parent)
        except (OSError, ValueError, KeyError, TypeError) as err:
            print(f"atout play: cannot resume {path}: {err}", file=sys.stderr)
            return 2
    # Any game setting on the command line skips the start screen.
    chosen = any(v is not None for v in (args.players, args.level, args.deals, args.seed))
    app = AtoutApp(game, players=args.players, level=args.level, deals=args.deals, seed=args.seed,
                   delay=max(0.0, args.delay), save_dir=save_dir, start_screen=game is None and not chosen)
    app.run()
    _farewell(app.game)
    return 0


def _farewell(game) -> None:
    """What the terminal keeps once the game's screen is gone."""
    if game is None:
        return
    from ..tui.game import seat_name

    if game.is_over:
        print(f"Final ranking after {game.deals_played} deal(s):")
        for place, seat, total in game.ranking():
            print(f"  {place}. {seat_name(seat):<8} {total:+d}")
    elif game.save_dir is not None:
        print(f"Game saved in {game.save_path()}; continue it with: atout play --resume")
    if game.save_dir is not None and game.sheet:
        print(f"Deal records: {game.records_dir()} (view one with: atout replay FILE)")


def replay_viewer(path: str) -> int:
    from ..engine.record import RecordError
    from ..tui.replay import ReplayApp
    from .records import _read

    try:
        record = _read(path)
        app = ReplayApp(record, name=Path(path).name if path != "-" else "stdin")
    except RecordError as err:
        print(f"atout replay: error at action {err.action}: {err.rule}: {err.message}", file=sys.stderr)
        return 2
    app.run()
    return 0
