"""The ``atout`` command."""

from __future__ import annotations

import argparse
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

    play = sub.add_parser("play", help="play a game against the computer in the terminal")
    play.add_argument("--players", type=int, choices=(3, 4, 5), default=None)
    play.add_argument("--level", default=None, help="robots' level")
    play.add_argument("--deals", type=int, default=None, help="number of deals in the game")
    play.add_argument("--seed", default=None)
    play.add_argument("--robots-only", action="store_true", help="print a game between robots instead")
    play.add_argument("--delay", type=float, default=0.6, help="seconds each robot pauses before its move")
    play.add_argument("--resume", nargs="?", const="", default=None, metavar="FILE",
                      help="resume a saved game (default: the save directory's game.json)")
    play.add_argument("--save-dir", default=None,
                      help="where games and deal records are saved (default ~/.local/share/atout)")

    for name, text in (("replay", "replay a deal record"), ("legal", "what the next player may do")):
        p = sub.add_parser(name, help=text)
        p.add_argument("file", help="deal record (JSON), or - for standard input")
        p.add_argument("--json", action="store_true", help="print JSON as docs/record-format.md says")
    from .arena import add_arguments

    add_arguments(sub.add_parser("arena", help="robots against robots on duplicate deals"))
    from .serve import add_arguments as add_serve_arguments

    add_serve_arguments(sub.add_parser("serve", help="the online tables and the browser client"))
    from .verify import add_arguments as add_verify_arguments

    add_verify_arguments(sub.add_parser("verify", help="check a deal's fair shuffle: seed, commitment, actions, hands"))
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command in ("replay", "legal"):
        if args.json or args.command == "legal":
            from .records import run_json

            return run_json(args.command, args.file)
        from .play import replay_viewer

        return replay_viewer(args.file)
    if args.command == "arena":
        from .arena import arena

        return arena(args)
    if args.command == "serve":
        from .serve import serve

        return serve(args)
    if args.command == "verify":
        from .verify import run as run_verify

        return run_verify(args)
    if args.command is None:
        from .play import play

        return play(parser.parse_args(["play"]))
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
