"""``atout arena``: duplicate deals between two robots, Atout's levels or outside engines (``cmd:``)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..arena.engines import EngineSettings


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, choices=(3, 4, 5), default=4, help="players at each table (default 4)")
    p.add_argument(
        "--candidate",
        default="expert",
        help="robot tested: a level (an unknown one is refused with the list of levels) or cmd:COMMAND, "
        "a program speaking docs/engine-protocol.md, one process per seat (default expert)",
    )
    p.add_argument(
        "--baseline", default="heuristic", help="robot it is compared with: a level or cmd:COMMAND (default heuristic)"
    )
    p.add_argument("--deals", type=int, default=100, help="duplicate deals to play (default 100)")
    p.add_argument("--seed", default="arena", help="names the deals: the same seed, the same deals (default arena)")
    p.add_argument(
        "--seeding",
        choices=("common", "level"),
        default="common",
        help="the robots' own random draws: common (default), seeded by deal and seat and restarted at "
        "each decision, so candidate and baseline search the same worlds and a robot against a copy "
        "of itself measures 0; level, seeded by level name too, as before issue 39 (to reproduce "
        "earlier figures)",
    )
    p.add_argument("--budget", type=float, default=None, help="seconds per decision (robot default if unset)")
    p.add_argument("--jobs", type=int, default=1, help="processes (decision times are per process; default 1)")
    p.add_argument("--start", type=int, default=0, help="first deal number, to split a long run (default 0)")
    p.add_argument(
        "--out",
        default=None,
        metavar="PATH",
        help="also write every deal and the summary as JSON to PATH (default: no file)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="seconds an engine (cmd:) may take per decision before the heuristic plays its seat "
        "for the rest of the deal (default 30)",
    )
    p.add_argument(
        "--engine-logs",
        default=None,
        metavar="DIR",
        help="folder for the engines' stderr, one log per entrant and seat (default: PATH.engines "
        "next to --out, else a new folder in the temporary directory)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress line on stderr (default: progress shown)")
    p.add_argument(
        "--ladder",
        action="store_true",
        help="rank --entrants instead of one match: each against --baseline (the yardstick, 0 by "
        "definition), or every pair with --round-robin; --out PATH writes the JSON, and PATH's "
        ".md table and .svg picture beside it (default: one match)",
    )
    p.add_argument(
        "--entrants",
        nargs="+",
        default=["random", "beginner", "club", "expert"],
        metavar="ENTRANT",
        help="the ladder's robots: levels, cmd:COMMAND, commit:HASH:LEVEL (default random beginner club expert)",
    )
    p.add_argument(
        "--round-robin",
        action="store_true",
        help="the ladder plays every pair of entrants, rated by a weighted least-squares fit "
        "(default: each against --baseline)",
    )


def _writable(path: str) -> str | None:
    """Why ``path`` cannot be written, or None; checked before a long run, leaving nothing behind."""
    target = Path(path)
    existed = target.exists()
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as err:
        return err.strerror or str(err)
    if not existed:
        target.unlink()
    return None


def _engine_settings(args: argparse.Namespace) -> EngineSettings | None:
    """Where the engines' stderr goes (made now, so a bad folder is said before the run); None if it cannot be."""
    from ..arena.engines import EngineSettings

    if args.engine_logs is not None:
        folder = Path(args.engine_logs)
    elif args.out is not None:
        folder = Path(args.out).with_name(Path(args.out).name + ".engines")
    else:
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="atout-engines-"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        print(f"atout arena: cannot make the engine log folder {folder}: {err.strerror or err}", file=sys.stderr)
        return None
    return EngineSettings(timeout=args.timeout, logs=str(folder))


def _try_engine(spec: str, players: int, engines: EngineSettings) -> str | None:
    """Why the engine ``spec`` cannot sit at a table (started, said hello, said quit), or None; the
    reason ends with the last lines it wrote on stderr (a missing module, a syntax error, ...)."""
    from ..arena.engines import command_of
    from ..engine import RuleSet
    from ..protocol import EngineFault
    from ..protocol.host import EngineBot

    log = Path(engines.logs) / "start.log" if engines.logs else None
    try:
        EngineBot(command_of(spec) or "", RuleSet(players), 0, None, engines.timeout, log).close()
    except EngineFault as fault:
        said = []
        if log is not None and log.exists():
            said = [line for line in log.read_text(errors="replace").splitlines() if not line.startswith("--- ")]
        return fault.message + "".join(f"\n  {line}" for line in said[-5:])
    return None


def entrant_error(spec: str) -> str | None:
    """Why entrant ``spec`` cannot play, or None: an unknown level, an empty command, a yardstick that
    does not build (built here, once: ``arena.yardsticks``).  The engines are tried later, at a table."""
    from ..arena import yardsticks
    from ..arena.engines import PREFIX
    from ..bots import LEVELS, RETIRED_LEVELS

    if spec.startswith(PREFIX):
        if not spec[len(PREFIX) :].strip():
            return f"{spec!r} names no command (cmd:COMMAND, such as cmd:python -m mybot)"
        return None
    if yardsticks.is_yardstick(spec):
        try:
            rev, level = yardsticks.parse(spec)
            yardsticks.build(rev, warm=level not in yardsticks.UNCOMPILED)
        except yardsticks.YardstickError as err:
            return str(err)
        return None
    if spec in RETIRED_LEVELS:
        return (
            f"{spec!r} left the package (issue 39): it is a yardstick of an earlier commit now, "
            f"{RETIRED_LEVELS[spec].yardstick} (benchmarks/results/strength.md names the yardsticks)"
        )
    if spec not in LEVELS:
        return (
            f"unknown robot level {spec!r}; levels are {', '.join(LEVELS)}, or cmd:COMMAND for a program "
            "speaking the engine protocol, or commit:HASH:LEVEL for a level of an earlier commit"
        )
    return None


def _refused(args: argparse.Namespace, specs: list[str]) -> str | None:
    """Why the run cannot start: the first entrant that is no robot, else a number out of its range."""
    for spec in dict.fromkeys(specs):
        if (why := entrant_error(spec)) is not None:
            return why
    return _bad_numbers(args)


def _bad_numbers(args: argparse.Namespace) -> str | None:
    """What is wrong with the run's numbers or its --out, or None (said before any deal)."""
    for name, bad, rule in (
        ("deals", args.deals < 1, "at least 1"),
        ("jobs", args.jobs < 1, "at least 1"),
        ("start", args.start < 0, "0 or more"),
        ("budget", args.budget is not None and not args.budget > 0, "more than 0 seconds"),
        ("timeout", not args.timeout > 0, "more than 0 seconds"),
    ):
        if bad:
            return f"--{name} must be {rule}"
    if args.out is not None and (why := _writable(args.out)) is not None:
        return f"cannot write --out {args.out}: {why}"
    return None


def _started_engines(args: argparse.Namespace, entrants: list[tuple[str, str]]) -> EngineSettings | None:
    """The engine settings, every engine of ``entrants`` (role, spec) tried at a table first; None (said)
    if the log folder cannot be made or an engine does not start."""
    from ..arena.engines import is_engine

    engines = _engine_settings(args)
    if engines is None:
        return None
    for role, spec in entrants:
        if is_engine(spec) and (why := _try_engine(spec, args.players, engines)) is not None:
            print(
                f"atout arena: the {role} {spec!r} does not start (its stderr: {engines.logs}/start.log): {why}",
                file=sys.stderr,
            )
            return None
    return engines


def ladder(args: argparse.Namespace) -> int:
    """``--ladder``: every match of the entrants (``arena.ladder``), the ranking printed and written."""
    from ..arena.engines import is_engine
    from ..arena.ladder import markdown, run_ladder, svg
    from ..arena.run import run_arena, stderr_progress, summarize

    entrants = list(dict.fromkeys(args.entrants))  # each once, in the order given
    yardstick = None if args.round_robin else args.baseline
    if len(entrants) < 2 and yardstick is None:
        print("atout arena: a round robin needs two --entrants or more", file=sys.stderr)
        return 2
    everyone = entrants + ([] if yardstick is None else [yardstick])
    if (why := _refused(args, everyone)) is not None:
        print(f"atout arena: {why}", file=sys.stderr)
        return 2
    engines = None
    if any(is_engine(spec) for spec in everyone):
        engines = _started_engines(args, [("entrant", spec) for spec in dict.fromkeys(everyone)])
        if engines is None:
            return 2

    def play(candidate: str, baseline: str) -> dict:
        return summarize(
            run_arena(
                args.players,
                candidate,
                baseline,
                args.deals,
                args.seed,
                budget=args.budget,
                jobs=args.jobs,
                start=args.start,
                engines=engines,
                seeding=args.seeding,
                progress=None if args.quiet else stderr_progress,
            )
        )

    def say(line: str) -> None:
        if not args.quiet:
            print(f"== {line}", file=sys.stderr, flush=True)

    result = run_ladder(entrants, yardstick, play, say)
    invocation = "atout " + " ".join(shlex.quote(a) for a in getattr(args, "argv", ["arena", "--ladder"]))
    config = {
        "players": args.players,
        "entrants": entrants,
        "yardstick": yardstick,
        "deals": args.deals,
        "start": args.start,
        "seed": args.seed,
        "seeding": args.seeding,
        "budget": args.budget,
        "jobs": args.jobs,
        "invocation": invocation,
    }
    out = Path(args.out) if args.out is not None else None
    picture = out.with_suffix(".svg") if out is not None else None
    table = markdown(result, config, picture.name if picture is not None else None)
    print(table)
    if out is None:
        return 0
    try:
        out.write_text(json.dumps({"config": config, **result}, indent=1) + "\n", encoding="utf-8")
        out.with_suffix(".md").write_text(table, encoding="utf-8")
        assert picture is not None
        picture.write_text(
            svg(result, f"Robots' ladder: {args.players} players, {args.deals} duplicate deals a match"),
            encoding="utf-8",
        )
    except OSError as err:
        print(f"atout arena: could not write the ladder beside {out} ({err.strerror or err})", file=sys.stderr)
        return 1
    print(f"ladder written to {out}, {out.with_suffix('.md')} and {picture}")
    return 0


def arena(args: argparse.Namespace) -> int:
    # the robots (and numba) load only for a run: the parser and the other commands start without them
    from ..arena.engines import is_engine
    from ..arena.run import report, run_arena, stderr_progress, summarize, write_json

    if args.ladder:
        return ladder(args)
    if args.round_robin:
        print("atout arena: --round-robin ranks a --ladder's entrants; add --ladder", file=sys.stderr)
        return 2
    if (why := _refused(args, [args.candidate, args.baseline])) is not None:
        print(f"atout arena: {why}", file=sys.stderr)
        return 2
    engines = None
    if is_engine(args.candidate) or is_engine(args.baseline):
        engines = _started_engines(args, [("candidate", args.candidate), ("baseline", args.baseline)])
        if engines is None:
            return 2
    config = {
        "players": args.players,
        "candidate": args.candidate,
        "baseline": args.baseline,
        "deals": args.deals,
        "start": args.start,
        "seed": args.seed,
        "seeding": args.seeding,
        "budget": args.budget,
        "jobs": args.jobs,
    }
    if engines is not None:
        config["timeout"] = engines.timeout
        config["engine_logs"] = engines.logs
    records = run_arena(
        args.players, args.candidate, args.baseline, args.deals, args.seed,
        budget=args.budget, jobs=args.jobs, start=args.start, engines=engines, seeding=args.seeding,
        progress=None if args.quiet else stderr_progress,
    )  # fmt: skip
    summary = summarize(records)
    print(report(summary, config))
    if args.out is None:
        return 0
    try:
        write_json(args.out, config, summary, records)
    except OSError as err:
        print(json.dumps({"config": config, "summary": summary, "deals": records}, indent=1))
        print(
            f"atout arena: could not write {args.out} ({err.strerror or err}); the JSON results are printed "
            "above instead",
            file=sys.stderr,
        )
        return 1
    print(f"results written to {args.out}")
    return 0
