"""The robots' types, held to a baseline that may only shrink.

``mypy`` alone checks the engine, the server, the arena, the command line and the terminal, with zero
errors (pyproject.toml).  The robots still have errors: each is listed in ``mypy-baseline.txt`` by file, message
and code (line numbers move with every edit, so they are left out).  This test fails on an error that is
not listed, or listed fewer times.  After fixing some, write the smaller list with
``python tests/test_types.py --update`` (it refuses to write a longer one).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BASELINE = Path(__file__).resolve().parent / "mypy-baseline.txt"
CHECKED = ["src/atout/bots"]
_ERROR = re.compile(r"^(?P<path>[^:]+):\d+: error: (?P<message>.*)$")


def mypy_errors() -> Counter[str]:
    """Each mypy error of ``CHECKED`` as ``path: message  [code]``, counted."""
    from mypy import api

    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), *CHECKED])
    if status not in (0, 1) or err.strip():
        raise RuntimeError(f"mypy did not run (status {status}): {err or out}")
    errors: Counter[str] = Counter()
    for line in out.splitlines():
        match = _ERROR.match(line)
        if match:
            errors[f"{match['path']}: {match['message']}"] += 1
    return errors


def read_baseline() -> Counter[str]:
    lines = BASELINE.read_text(encoding="utf-8").splitlines()
    return Counter(line for line in lines if line and not line.startswith("#"))


def write_baseline(errors: Counter[str]) -> None:
    head = ("# mypy errors left in src/atout/bots (tests/test_types.py): this list may only\n"
            "# shrink. Regenerate with: python tests/test_types.py --update\n")
    BASELINE.write_text(head + "".join(f"{e}\n" for e in sorted(errors.elements())), encoding="utf-8")


@pytest.mark.slow
def test_no_type_error_beyond_the_baseline(monkeypatch):
    monkeypatch.chdir(ROOT)  # mypy names files relative to the directory it runs in
    errors = mypy_errors()
    baseline = read_baseline()
    new = errors - baseline
    assert not new, "mypy errors not in tests/mypy-baseline.txt:\n" + "\n".join(sorted(new.elements()))
    assert sum(errors.values()) <= sum(baseline.values())


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/test_types.py --update  (writes the baseline, only ever smaller)")
    import os

    os.chdir(ROOT)
    found = mypy_errors()
    if BASELINE.exists() and found - read_baseline():
        sys.exit("new mypy errors: fix them rather than list them\n" + "\n".join(sorted((found - read_baseline()).elements())))
    write_baseline(found)
    print(f"{sum(found.values())} errors listed in {BASELINE.relative_to(ROOT)}")
