"""``atout replay`` and ``atout legal`` with ``--json``: exactly as docs/record-format.md says."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..engine.record import RecordError, legal_json, loads, outcome_json, published_record, replay


def _read(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8") if path != "-" else sys.stdin.read()
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(None, "file", f"cannot read {path}: {err}") from None
    return loads(text)


def read_record(path: str) -> Any:
    """The deal record in a file: a record, or a deal as the server publishes it (with its commitment)."""
    return published_record(_read(path))


def _print_json(obj: object) -> None:
    """One line of JSON; escaped to ASCII when standard output cannot take UTF-8."""
    try:
        print(json.dumps(obj, ensure_ascii=False))
    except UnicodeEncodeError:
        print(json.dumps(obj))


def run_json(command: str, path: str) -> int:
    """Print the JSON answer of ``command`` (replay or legal) for the record at ``path``."""
    try:
        replayed = replay(read_record(path))
    except RecordError as err:
        _print_json(err.to_json())
        return 2
    deal = replayed.deal
    answer = outcome_json(deal) if command == "replay" else legal_json(deal)
    _print_json(answer)
    return 0
