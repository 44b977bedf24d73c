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
    parser.add_argument("file", help="a deal record (docs/record-format.md), or - for standard input")
    parser.add_argument("--seat", type=int, action="append", metavar="N",
                        help="the seat whose decisions to analyse (may be repeated; default: every seat)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object as docs/analysis.md says (default: a table per seat)")
    parser.add_argument("--seed", default="analysis",
                        help="the seed of the worlds searched: the same record and seed give the same "
                             "analysis (default 'analysis')")


def record_of(data: Any) -> Any:
    """The record in ``data``: a record, or an object holding one under ``record`` (as the server
    publishes a deal with its commitment)."""
    if isinstance(data, dict) and "format" not in data and isinstance(data.get("record"), dict):
        return data["record"]
    return data


class Progress:
    """``done/total decisions`` on standard error, rewritten in place; only on a terminal."""

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr  # read now: a default bound at import would outlive a replaced stderr
        self.shown = self.stream.isatty()
        self.start = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        if self.shown:
            width = 30
            bar = "#" * (width * done // max(total, 1))
            self.stream.write(f"\ranalysing [{bar:<{width}}] {done}/{total} decisions, "
                              f"{time.monotonic() - self.start:.0f} s")
            self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def run(args: argparse.Namespace) -> int:
    """Exit 0 with the analysis, 2 for a file, record or seat that is wrong."""
    from ..bots.analysis import analyse

    try:
        record = record_of(_read(args.file))
        deal = replay(record).deal
        seats = sorted(set(args.seat)) if args.seat else None
        for seat in seats or []:
            if not 0 <= seat < deal.players:
                raise RecordError(None, "option", f"--seat {seat}: the deal's seats are 0 to {deal.players - 1}")
        progress = Progress()
        try:
            analysis = analyse(record, seats, args.seed, progress)
        finally:
            progress.close()
    except RecordError as err:
        if args.json:
            _print_json(err.to_json())
        else:
            where = "" if err.action is None else f"action {err.action}: "
            print(f"atout analyse: {args.file}: {where}{err.rule}: {err.message}", file=sys.stderr)
        return 2
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
    lines = [f"Each decision scored by the expert's search (seed {data['seed']!r}); loss: the points of the "
             "deal expected to be lost against the best choice."]
    for total in data["totals"]:
        seat = total["seat"]
        who = f"Seat {seat}" + (f" ({names[seat]})" if names and seat < len(names) else "")
        marks = ", ".join(f"{n} {PLURALS[m] if n > 1 else m}" for m, n in reversed(total["marks"].items()) if n)
        count = total["decisions"]
        lines.append("")
        lines.append(f"{who}: {count} decision{'s' if count != 1 else ''}, expected loss {total['loss']:g} points"
                     + (f" ({marks})" if marks else "") + f"; {total['forced']} forced (no choice)")
        lines.append(f"  {'action':>8}  {'decision':<9} {'played':<30} {'best':<30} {'loss':>6}  {'95% interval':<15} mark")
        for d in data["decisions"]:
            if d["seat"] != seat:
                continue
            where = f"#{d['index']}" + (f" t{d['trick']}" if d["trick"] else "")
            best = "" if d["loss"] == 0 and d["best"] == d["action"] else d["best_words"]
            low, high = d["interval"]
            interval = f"[{low:.1f}, {high:.1f}]" if d["loss"] >= 0.05 else ""
            mark = f"{SYMBOLS[d['mark']]} {d['mark']}" if d["mark"] else ""
            line = (f"  {where:>8}  {d['phase']:<9} {d['words'][:30]:<30} {best[:30]:<30} {d['loss']:>6.1f}"
                    f"  {interval:<15} {mark}")
            lines.append(line.rstrip())
    return "\n".join(lines)
