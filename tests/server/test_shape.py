"""The server's house rules of size (issue 35): a module does one job, so none grows past 330 statements, and
a class past 30 methods (``Table`` had 105, ``Hub`` 67 before the wings). The import rules are
``lint-imports``' (pyproject.toml).

A module's size is its statements (Python's logical lines: tokenize's NEWLINE tokens), which no layout of the
code changes: the rule was 400 lines until ``ruff format`` laid each long call's arguments one a line (the same
code, 400 to 500 lines). 330 is a little over the largest module as it stands (``site/bus.py``, 324): none
grows further; the room's actor, at 307, is the next to split (issue 49)."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import atout.server

SERVER = Path(atout.server.__file__).parent
MODULE_STATEMENTS = 330
CLASS_METHODS = 30


def _modules() -> list[Path]:
    return sorted(p for p in SERVER.rglob("*.py") if "migrations" not in p.relative_to(SERVER).parts)


def statements(source: str) -> int:
    """Python's logical lines: a statement, however many lines its layout takes, is one."""
    return sum(1 for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.NEWLINE)


def test_no_server_module_is_over_330_statements() -> None:
    long = {str(p.relative_to(SERVER)): n for p in _modules() if (n := statements(p.read_text())) > MODULE_STATEMENTS}
    assert not long, f"split by job: {long}"
    assert statements("f(\n    1,\n    2,\n)\nx = 1  # two\n") == 2  # the measure itself


def test_no_server_class_has_over_30_methods() -> None:
    big = {}
    for p in _modules():
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ClassDef):
                methods = sum(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) for b in node.body)
                if methods > CLASS_METHODS:
                    big[f"{p.relative_to(SERVER)}:{node.name}"] = methods
    assert not big, f"give its jobs to collaborators: {big}"


def test_the_rules_see_the_whole_server() -> None:
    """A guard for the two above: they read every wing (a move that hid the modules would pass them)."""
    wings = {p.relative_to(SERVER).parts[0] for p in _modules() if len(p.relative_to(SERVER).parts) > 1}
    assert {"table", "room", "store", "features", "site", "http"} <= wings
    assert len(_modules()) > 50
