"""``atout analyse FILE``: each decision of a deal scored by the expert's search, with its mark (docs/analysis.md)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..engine.record import RecordError, replay
from .records import _print_json, _read

SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""Each mark's sign beside a decision, as chess writes them."""
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="+",
        metavar="FILE",
        help="a deal record (docs/record-format.md), or - for standard input; with --summary, any number of "
        "records (a game's, as /api/games/ID gives it, counts each of its deals)",
    )
    parser.add_argument(
        "--summary",
        action="store_true",
        help="the accuracy over every FILE's deal instead: what each player's choices cost against the expert's, "
        "per deal and by phase (bid, écart, play as taker, partner, defender; docs/analysis.md); "
        "default: off, one FILE's decisions",
    )
    parser.add_argument(
        "--worlds",
        type=int,
        default=None,
        metavar="N",
        help="search N times the expert's worlds (default 8, the site's: fewer is quicker and less sure)",
    )
    parser.add_argument(
        "--seat",
        type=int,
        action="append",
        metavar="N",
        help="the seat whose decisions to analyse (may be repeated; default: every seat)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object as docs/analysis.md says (default: a table per seat)"
    )
    parser.add_argument(
        "--seed",
        default="analysis",
        help="the seed of the worlds searched: the same record and seed give the same analysis (default 'analysis')",
    )


def record_of(data: Any) -> Any:
    """The record in ``data``: a record, or an object holding one under ``record`` (as the server
    publishes a deal with its commitment)."""
    if isinstance(data, dict) and "format" not in data and isinstance(data.get("record"), dict):
        return data["record"]
    return data


class Progress:
    """``done/total decisions`` on standard error, rewritten in place; only on a terminal."""

    def __init__(self, stream=None, unit: str = "decisions") -> None:
        self.unit = unit
        self.stream = stream or sys.stderr  # read now: a default bound at import would outlive a replaced stderr
        self.shown = self.stream.isatty()
        self.start = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        if self.shown:
            width = 30
            bar = "#" * (width * done // max(total, 1))
            self.stream.write(
                f"\ranalysing [{bar:<{width}}] {done}/{total} {self.unit}, {time.monotonic() - self.start:.0f} s"
            )
            self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def run(args: argparse.Namespace) -> int:
    """Exit 0 with the analysis, 2 for a file, record or seat that is wrong."""
    from ..bots.analysis import WORLDS_FACTOR, analyse

    if args.summary:
        return run_summary(args)
    factor = WORLDS_FACTOR if args.worlds is None else args.worlds
    if len(args.file) > 1:
        print("atout analyse: one FILE at a time (--summary sums the accuracy over several)", file=sys.stderr)
        return 2
    try:
        if factor < 1:
            raise RecordError(None, "option", "--worlds: 1 or more")
        args.file = args.file[0]
        record = record_of(_read(args.file))
        deal = replay(record).deal
        seats = sorted(set(args.seat)) if args.seat else None
        for seat in seats or []:
            if not 0 <= seat < deal.players:
                raise RecordError(None, "option", f"--seat {seat}: the deal's seats are 0 to {deal.players - 1}")
        progress = Progress()
        try:
            analysis = analyse(record, seats, args.seed, progress, factor)
        finally:
            progress.close()
    except RecordError as err:
        return _refused(err, args.json, f"{args.file}: ")
    data = analysis.to_json()
    if args.json:
        _print_json(data)
        return 0
    names = record.get("names") if isinstance(record.get("names"), list) else None
    if not deal.is_over:
        print(f"The deal is not finished: the decisions of its first {len(deal.history)} actions.")
    print(text_report(data, names))
    return 0


def text_report(data: dict[str, Any], names: list[str] | None = None) -> str:
    """The analysis as a table per seat: each decision, what was played and what was best, the loss
    with its interval, and the mark."""
    lines = [
        f"Each decision scored by the expert's search (seed {data['seed']!r}); loss: the points of the "
        "deal expected to be lost against the best choice."
    ]
    for total in data["totals"]:
        seat = total["seat"]
        who = f"Seat {seat}" + (f" ({names[seat]})" if names and seat < len(names) else "")
        marks = ", ".join(f"{n} {PLURALS[m] if n > 1 else m}" for m, n in reversed(total["marks"].items()) if n)
        count = total["decisions"]
        lines.append("")
        lines.append(
            f"{who}: {count} decision{'s' if count != 1 else ''}, expected loss {total['loss']:g} points"
            + (f" ({marks})" if marks else "")
            + f"; {total['forced']} forced (no choice)"
        )
        lines.append(
            f"  {'action':>8}  {'decision':<9} {'played':<30} {'best':<30} {'loss':>6}  {'95% interval':<15} mark"
        )
        for d in data["decisions"]:
            if d["seat"] != seat:
                continue
            where = f"#{d['index']}" + (f" t{d['trick']}" if d["trick"] else "")
            best = "" if d["loss"] == 0 and d["best"] == d["action"] else d["best_words"]
            low, high = d["interval"]
            interval = f"[{low:.1f}, {high:.1f}]" if d["loss"] >= 0.05 else ""
            mark = f"{SYMBOLS[d['mark']]} {d['mark']}" if d["mark"] else ""
            line = (
                f"  {where:>8}  {d['phase']:<9} {d['words'][:30]:<30} {best[:30]:<30} {d['loss']:>6.1f}"
                f"  {interval:<15} {mark}"
            )
            lines.append(line.rstrip())
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ --summary
PHASE_NAMES = {"bid": "bid", "ecart": "écart", "taker": "as taker", "partner": "as partner", "defence": "in defence"}
"""Each phase of ``bots.accuracy.PHASES`` as the summary's table heads it."""
MOSTLY = {
    "bid": "the bidding",
    "ecart": "the écart",
    "taker": "the play as taker",
    "partner": "the play as the taker's partner",
    "defence": "the play in defence",
}


def records_in(data: Any) -> list[Any]:
    """The deal records a file holds: a record, a published deal (its ``record``), a game (its ``records``, as
    ``/api/games/ID`` gives it), or a list of any of these."""
    if isinstance(data, list):
        return [r for item in data for r in records_in(item)]
    if isinstance(data, dict) and "format" not in data and isinstance(data.get("records"), list):
        names = [s.get("name") for s in data.get("seats", []) if isinstance(s, dict)]
        out = []
        for record in data["records"]:
            if isinstance(record, dict) and "names" not in record and names and all(names):
                record = {**record, "names": names}
            out.append(record)
        return out
    return [record_of(data)]


def run_summary(args: argparse.Namespace) -> int:
    """``atout analyse --summary FILE…``: each finished deal's seats analysed, their accuracy summed per player
    (by the records' ``names``, else by seat) and by phase. Exit 2 for a file or a record that is wrong."""
    from ..bots.accuracy import combine, record_roles, seat_accuracy
    from ..bots.analysis import WORLDS_FACTOR, analyse

    factor = WORLDS_FACTOR if args.worlds is None else args.worlds
    by_player: dict[str, list[Any]] = {}
    deals = unfinished = 0
    try:
        if factor < 1:
            raise RecordError(None, "option", "--worlds: 1 or more")
        found = [(path, record) for path in args.file for record in records_in(_read(path))]
        progress = Progress(unit="deals")
        try:
            for n, (path, record) in enumerate(found):
                try:
                    deal = replay(record).deal
                    if not deal.is_over:
                        unfinished += 1
                        continue
                    seats = [s for s in range(deal.players) if not args.seat or s in args.seat]
                    names = record.get("names") if isinstance(record.get("names"), list) else None
                    analysis = analyse(record, seats, args.seed, factor=factor).to_json()
                    roles = record_roles(record)
                except RecordError as err:
                    raise RecordError(err.action, err.rule, f"{path}: {err.message}") from None
                deals += 1
                progress(n + 1, len(found))
                for seat in seats:
                    who = str(names[seat]) if names and seat < len(names) else f"seat {seat}"
                    by_player.setdefault(who, []).append(seat_accuracy(analysis, seat, roles[seat]))
        finally:
            progress.close()
    except RecordError as err:
        return _refused(err, args.json)
    players = [{"name": who, **combine(items)} for who, items in by_player.items()]
    if args.json:
        _print_json(
            {
                "format": "atout-accuracy",
                "seed": args.seed,
                "deals": deals,
                "unfinished": unfinished,
                "players": players,
            }
        )
        return 0
    print(summary_report(players, deals, unfinished))
    return 0


def summary_report(players: list[dict[str, Any]], deals: int, unfinished: int = 0) -> str:
    """The summary as a table: per player, the points lost a deal, and per phase the points lost a deal in
    which the player decided something there (that many deals in brackets)."""
    from ..bots.accuracy import PHASES

    lines = [
        f"Accuracy over {deals} deal{'s' if deals != 1 else ''}: the points each player's choices cost against "
        "the expert's (a choice within the search's noise costs nothing),",
        "a deal and, by phase, a deal in which the player decided something there (that many deals in brackets).",
    ]
    if unfinished:
        lines.append(f"{unfinished} unfinished deal{'s' if unfinished != 1 else ''} left out.")
    width = max([len(p["name"]) for p in players] + [6])
    lines.append("")
    lines.append(
        f"{'player':<{width}}  {'deals':>5}  {'a deal':>7}  " + "  ".join(f"{PHASE_NAMES[p]:>12}" for p in PHASES)
    )
    for p in players:
        cells = []
        for phase in PHASES:
            played = p["played"][phase]
            cells.append(f"{_minus(p['phases'][phase] / played)} ({played})" if played else "-")
        mean = _minus(p["loss"] / p["deals"]) if p["deals"] else "-"
        lines.append(f"{p['name']:<{width}}  {p['deals']:>5}  {mean:>7}  " + "  ".join(f"{c:>12}" for c in cells))
    lines.append("")
    for p in players:
        worst = max(PHASES, key=lambda phase: p["phases"][phase])
        if p["phases"][worst] > 0:
            lines.append(f"{p['name']}: {_minus(p['loss'])} points in all, mostly {MOSTLY[worst]}.")
        else:
            lines.append(f"{p['name']}: no points lost against the expert.")
    return "\n".join(lines)


def _minus(points: float) -> str:
    """Points lost as a loss: "-3.5" (nothing lost: "0")."""
    return f"-{points:.1f}" if round(points, 1) > 0 else "0"


def _refused(err: RecordError, json: bool, file: str = "") -> int:
    """A record (or an option) refused: its error as JSON or a line naming the rule, and the exit code 2."""
    if json:
        _print_json(err.to_json())
    else:
        where = "" if err.action is None else f"action {err.action}: "
        print(f"atout analyse: {file}{where}{err.rule}: {err.message}", file=sys.stderr)
    return 2
