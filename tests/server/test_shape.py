"""The server's house rules of size (issue 35): a module does one job, so none grows past 400 lines, and a
class past 30 methods (``Table`` had 105, ``Hub`` 67 before the wings). The import rules are
``lint-imports``' (pyproject.toml)."""

from __future__ import annotations

import ast
from pathlib import Path

import atout.server

SERVER = Path(atout.server.__file__).parent
MODULE_LINES = 400
CLASS_METHODS = 30


def _modules() -> list[Path]:
    return sorted(p for p in SERVER.rglob("*.py") if "migrations" not in p.relative_to(SERVER).parts)


def test_no_server_module_is_over_400_lines() -> None:
    long = {str(p.relative_to(SERVER)): n for p in _modules() if (n := len(p.read_text().splitlines())) > MODULE_LINES}
    assert not long, f"split by job: {long}"


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
