"""The ``atout`` command."""

from __future__ import annotations

import argparse
import contextlib
import sys


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("atout")
    except PackageNotFoundError:
        return "(not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="atout", description="French Tarot for 3, 4 and 5 players.")
    parser.add_argument("--version", action="version", version=f"atout {_version()}")
    sub = parser.add_subparsers(dest="command")

    play = sub.add_parser(
        "play",
        help="play a game against the computer in the terminal",
        description="A game against robots in the terminal (docs/terminal-game.md). "
        "Any of --players, --level, --deals, --seed skips the start screen.",
    )
    play.add_argument(
        "--players", type=int, choices=(3, 4, 5), default=None, help="players at the table, you included (default 4)"
    )
    play.add_argument(
        "--level",
        default=None,
        metavar="LEVEL",
        help="the robots' level: beginner, club (the same as heuristic), expert or random (default heuristic)",
    )
    play.add_argument(
        "--deals",
        type=int,
        default=None,
        help="deals that count in the game; void deals are redealt (default 4; 3 with --robots-only)",
    )
    play.add_argument("--seed", default=None, help="the same seed deals the same cards (default: a new shuffle)")
    play.add_argument(
        "--robots-only",
        action="store_true",
        help="print a game between robots, deal by deal, instead of playing (default off)",
    )
    play.add_argument(
        "--delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="seconds each robot pauses before its move, so you can follow (default 0.6)",
    )
    play.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="FILE",
        help="resume a saved game: FILE, or without FILE the save directory's game.json (default: a new game)",
    )
    play.add_argument(
        "--lang",
        default=None,
        metavar="LANG",
        help="the game's language: en, fr or es (default: the locale's, from LC_ALL, LC_MESSAGES or "
        "LANG; else English)",
    )
    play.add_argument(
        "--save-dir",
        default=None,
        metavar="DIR",
        help="where games and deal records are saved (default $XDG_DATA_HOME/atout, else ~/.local/share/atout)",
    )

    learn = sub.add_parser(
        "learn",
        help="learn tarot: guided lessons against robots in the terminal",
        description="Short prepared deals against robots, each asking one thing at a time and saying "
        'why an answer is right or wrong (docs/terminal-game.md, "Learn tarot"). '
        "The same lessons as the site's #/learn.",
    )
    learn.add_argument(
        "--lesson",
        default=None,
        metavar="ID",
        help="open this lesson at once (cards, follow, trumps, excuse, counting, bidding, ecart, defence, "
        "bonuses, five, scoring; default: the list of lessons)",
    )
    learn.add_argument(
        "--lang",
        default=None,
        metavar="LANG",
        help="the lessons' language: en, fr or es (default: the locale's, as atout play)",
    )
    learn.add_argument(
        "--save-dir",
        default=None,
        metavar="DIR",
        help="where the progress is kept, as lessons.json (default $XDG_DATA_HOME/atout, else ~/.local/share/atout)",
    )

    for name, text in (("replay", "replay a deal record"), ("legal", "what the next player may do")):
        p = sub.add_parser(name, help=text)
        p.add_argument("file", help="deal record (JSON), or - for standard input")
        p.add_argument(
            "--json",
            action="store_true",
            help="print JSON as docs/record-format.md says (default: "
            + (
                "a trick-by-trick viewer, or plain text without a terminal)"
                if name == "replay"
                else "off; legal always prints JSON)"
            ),
        )
        if name == "replay":
            p.add_argument(
                "--lang",
                default=None,
                metavar="LANG",
                help="the viewer's language: en, fr or es (default: the locale's, as atout play)",
            )
    from .arena import add_arguments

    add_arguments(sub.add_parser("arena", help="robots against robots on duplicate deals"))
    engine = sub.add_parser(
        "engine",
        help="a robot speaking the engine protocol on stdin and stdout",
        description="Atout's robot of LEVEL as an engine: one JSON object a line on stdin and stdout, "
        '"atout-engine 1" (docs/engine-protocol.md), so any host can seat it.',
    )
    engine.add_argument(
        "--level",
        default="expert",
        metavar="LEVEL",
        help="the robot: expert, heuristic, club, beginner or random (default expert)",
    )
    from .robot import add_arguments as add_robot_arguments

    add_robot_arguments(sub.add_parser("robot", help="an engine plays at a site's table as a robot account"))
    from .serve import add_arguments as add_serve_arguments

    add_serve_arguments(sub.add_parser("serve", help="the online tables and the browser client"))
    from .verify import add_arguments as add_verify_arguments

    add_verify_arguments(sub.add_parser("verify", help="check a deal's fair shuffle: seed, commitment, actions, hands"))
    from .analyse import add_arguments as add_analyse_arguments

    add_analyse_arguments(
        sub.add_parser(
            "analyse",
            help="each decision of a deal scored by the expert, with its mark",
            description="Each decision of a seat (bid, call, écart, poignée, chelem, every card) scored again by the "
            "expert's search from what that seat saw then: the expected points of the action taken and "
            "of the best, the loss, and a mark (docs/analysis.md). Progress on standard error.",
        )
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; a reader that closes the pipe early (``| head``) ends it quietly."""
    try:
        code = _run(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return 0
    return code


def _silence_stdout() -> None:
    """Point stdout at /dev/null so Python's own flush at exit does not raise again."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())


def _run(argv: list[str] | None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # the command as typed, for the files it writes
    if args.command in ("replay", "legal"):
        if args.json or args.command == "legal":
            from .records import run_json

            return run_json(args.command, args.file)
        from .play import replay_viewer

        return replay_viewer(args)
    if args.command == "arena":
        from .arena import arena

        return arena(args)
    if args.command == "engine":
        from ..bots import LEVELS, RETIRED_LEVELS

        if args.level in RETIRED_LEVELS:
            print(
                f"robot level {args.level!r} left the package (issue 39); it is the engine of its yardstick "
                f"{RETIRED_LEVELS[args.level].yardstick} now",
                file=sys.stderr,
            )
            return 2
        if args.level not in LEVELS:
            print(f"unknown robot level {args.level!r}; levels are {', '.join(LEVELS)}", file=sys.stderr)
            return 2
        from ..protocol.engine import serve as serve_engine

        return serve_engine(args.level)
    if args.command == "robot":
        from .robot import robot

        return robot(args)
    if args.command == "serve":
        from .serve import serve

        return serve(args)
    if args.command == "verify":
        from .verify import run as run_verify

        return run_verify(args)
    if args.command == "analyse":
        from .analyse import run as run_analyse

        return run_analyse(args)
    if args.command is None:
        from .play import play

        return play(parser.parse_args(["play"]))
    if args.command == "learn":
        from .learn import learn

        return learn(args)
    if args.command == "play":
        if args.robots_only:
            from .robots_game import robots_game

            return robots_game(args)
        from .play import play

        return play(args)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
