"""The lowest releases pyproject.toml allows, as a pip constraints file: CI installs the package against
it in a virtual environment of its own and runs the server's tests there (.ci/run), so that each lower
bound is a release the code was tested with, not a guess (``uvicorn>=0.30`` stood for a year, and 0.30
lacks a module the server imports: docs/dependencies.md).

Every runtime dependency is pinned at its floor, and so are the test tools the step runs (pytest and its
plugins, hypothesis, httpx): what they need of each other is part of the floor. The tools the step does
not run (``UNPINNED``) take their newest release: their floors are not what this step can check. Whatever
a pinned package needs besides takes its newest release too (the floors of pyproject.toml's own names are
the claim; a dependency's dependency is its own project's). A dependency without a lower bound fails:
it admits releases nobody ran.

Run: python .ci/floors.py > floors.txt && pip install -c floors.txt -e '.[test]'
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
UNPINNED = frozenset({"ruff", "mypy", "import-linter", "pip-audit", "playwright"})
"""Test tools the floors step does not run (the linters, the audit, the browser driver: the README's
command runs them at their newest)."""
LOWER = (">=", "==", "~=", "===")
"""The operators that name a lowest release."""


class NoFloor(ValueError):
    """A dependency that names no lowest release."""


def floor(requirement: Requirement) -> Version:
    """The lowest release ``requirement`` allows."""
    floors = [Version(s.version) for s in requirement.specifier if s.operator in LOWER]
    if not floors:
        raise NoFloor(f"{requirement} names no lowest release: give it one (>=) that the tests pass with")
    return max(floors)


def constraints(pyproject: dict) -> list[str]:
    """One constraint line for each pinned dependency: ``name==floor``, with its environment marker
    (a constraint takes no extras: ``psycopg[binary]`` pins ``psycopg``, whose extra pins its binary)."""
    project = pyproject.get("project", {})
    named = list(project.get("dependencies", [])) + list(project.get("optional-dependencies", {}).get("test", []))
    lines = []
    for line in named:
        requirement = Requirement(line)
        if canonicalize_name(requirement.name) in UNPINNED:
            continue
        marker = f"; {requirement.marker}" if requirement.marker else ""
        lines.append(f"{requirement.name}=={floor(requirement)}{marker}")
    return lines


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else PYPROJECT
    try:
        lines = constraints(tomllib.loads(path.read_text()))
    except NoFloor as err:
        print(f"floors: {err}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
