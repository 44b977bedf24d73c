"""Only ``Table.evolve`` writes a table's state (docs/server.md, "Who writes what"): no module of the server
but the table's state and its handlers assigns to a table's fields, or changes one in place."""

from __future__ import annotations

import ast
from pathlib import Path

from atout.server.table import Table

SERVER = Path(__file__).resolve().parents[2] / "src" / "atout" / "server"
WRITERS = {SERVER / "table" / "state.py", SERVER / "table" / "evolving.py"}
FIELDS = frozenset(vars(Table("t", 3)))
MUTATORS = frozenset(
    {
        "append",
        "appendleft",
        "add",
        "clear",
        "discard",
        "extend",
        "insert",
        "pop",
        "popitem",
        "remove",
        "setdefault",
        "update",
    }
)
TABLES = frozenset({"table", "t"})
"""The names a table goes by in the server (``room.table``, ``b.table``, ``self.table`` end the same way)."""


def _table_field(node: ast.expr) -> str | None:
    """The table's field that ``node`` (a write's target) lands in, if it is one: ``table.seats[i].absent``
    lands in ``seats``."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        inner = node.value
        if (
            isinstance(node, ast.Attribute)
            and node.attr in FIELDS
            and (
                (isinstance(inner, ast.Name) and inner.id in TABLES)
                or (isinstance(inner, ast.Attribute) and inner.attr == "table")
            )
        ):
            return node.attr
        node = inner
    return None


def writes(source: str) -> list[tuple[int, str]]:
    """(line, field) for each write to a table's field in ``source``."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            targets = [node.func.value]
        out += [(node.lineno, field) for target in targets if (field := _table_field(target)) is not None]
    return out


def test_the_check_catches_a_write_to_a_table() -> None:
    assert writes("table.gone_since.pop(seat, None)") == [(1, "gone_since")]
    assert writes("room.table.vote['started'] = now") == [(1, "vote")]
    assert writes("b.table.seats[2].absent = True") == [(1, "seats")]
    assert writes("self.table.paused = why") == [(1, "paused")]
    assert writes("seats = table.seats[:]; table.seat_of('p1'); room.history.append(e)") == []


def test_only_evolve_writes_a_table() -> None:
    found = [
        f"{path.relative_to(SERVER)}:{line}: {field}"
        for path in sorted(SERVER.rglob("*.py"))
        if path not in WRITERS
        for line, field in writes(path.read_text())
    ]
    assert not found, f"a table's state written outside Table.evolve: {found}"
