"""``atout verify``: check a published deal's fair shuffle (docs/fairness.md)."""

from __future__ import annotations

import argparse
import re
import sys

from ..engine.fairness import Verification, normalize_commitment, verify
from ..engine.record import RecordError
from ..server.fair_sets import DAILY_FORMAT, TOURNAMENT_FORMAT, verify_daily, verify_tournament
from .records import _print_json, _read


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        help='the deal record, or the server\'s {"commitment", "record"}, or a daily deal\'s '
        "whole set (GET /api/daily/DATE/deals), or a finished tournament's deals (GET /api/tournaments/ID/deals); "
        "- for standard input",
    )
    parser.add_argument(
        "--commitment",
        metavar="HEX",
        help="the commitment published when the deal began (64 hex digits; default: the one in FILE, if any)",
    )
    parser.add_argument(
        "--hand",
        action="append",
        default=[],
        metavar="SEAT:CODES",
        help="the hand a seat was dealt, as you saw it, e.g. 2:KS,T21,EX,... (may be repeated; default: none)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the checks as one JSON object (default: one line per check)"
    )


def parse_hand(text: str) -> tuple[int, list[str]]:
    """``SEAT:CODES`` (codes separated by commas or spaces) as (seat, codes); RecordError if malformed."""
    seat, colon, cards = text.partition(":")
    if not colon or not seat.strip().isdigit():
        raise RecordError(None, "option", f"--hand takes SEAT:CODES, e.g. 2:KS,T21,EX; not {text!r}")
    return int(seat), [c for c in re.split(r"[,\s]+", cards) if c]


def _options(args: argparse.Namespace) -> tuple[str | None, dict[int, list[str]]]:
    given = None if args.commitment is None else normalize_commitment(args.commitment, "--commitment")
    seen: dict[int, list[str]] = {}
    for text in args.hand:
        seat, cards = parse_hand(text)
        if seat in seen:
            raise RecordError(None, "option", f"--hand gives seat {seat} twice")
        seen[seat] = cards
    return given, seen


def _print_text(result: Verification) -> None:
    for check in result.checks:
        print(f"{check.name:<11} {'ok' if check.ok else 'FAILED':<7} {check.message}")
    failed = len(result.failures)
    if result.passed:
        print(f"verified: all {len(result.checks)} checks passed")
    else:
        print(f"not verified: {failed} of {len(result.checks)} checks failed")


def run(args: argparse.Namespace) -> int:
    """Exit 0 when every check passes, 1 when one fails, 2 for a malformed file or option."""
    try:
        given, seen = _options(args)
        published = _read(args.file)
        if isinstance(published, dict) and published.get("format") == DAILY_FORMAT:
            result = verify_daily(published)  # a day's whole set, once its seed is revealed (docs/daily.md)
        elif isinstance(published, dict) and published.get("format") == TOURNAMENT_FORMAT:
            result = verify_tournament(published)  # every table's deals, once it is over (docs/tournaments.md)
        else:
            result = verify(published, given, seen)
    except RecordError as err:
        if args.json:
            _print_json(err.to_json())
        else:
            where = "" if err.action is None else f"action {err.action}: "
            print(f"atout verify: {args.file}: {where}{err.rule}: {err.message}", file=sys.stderr)
        return 2
    if args.json:
        _print_json(result.to_json())
    else:
        _print_text(result)
    return 0 if result.passed else 1
