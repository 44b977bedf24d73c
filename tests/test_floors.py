"""CI's floors (.ci/floors.py): the constraints that pin each dependency at the lowest release
pyproject.toml allows, for the step of .ci/run that runs the tests on them (docs/dependencies.md)."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("ci_floors", ROOT / ".ci" / "floors.py")
assert _spec is not None and _spec.loader is not None
floors = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(floors)


def test_each_dependency_is_pinned_at_its_floor_with_its_marker_and_without_its_extras() -> None:
    pyproject = {
        "project": {
            "dependencies": [
                "uvicorn>=0.52.1",
                "psycopg[binary]>=3.1.4",
                "uvloop>=0.19; sys_platform != 'win32'",
                "sqlalchemy>=2.0.5.post1,<3",
            ],
            "optional-dependencies": {"test": ["pytest>=8.2", "ruff>=0.5"], "docs": ["sphinx>=7"]},
        }
    }
    assert floors.constraints(pyproject) == [
        "uvicorn==0.52.1",
        "psycopg==3.1.4",
        'uvloop==0.19; sys_platform != "win32"',
        "sqlalchemy==2.0.5.post1",
        "pytest==8.2",
    ]  # not ruff (the step does not run it), nor the docs group


def test_a_dependency_without_a_floor_is_refused() -> None:
    with pytest.raises(floors.NoFloor, match="redis"):
        floors.constraints({"project": {"dependencies": ["redis"]}})
    with pytest.raises(floors.NoFloor, match="numpy"):
        floors.constraints({"project": {"dependencies": ["numpy<3"]}})


def test_pyproject_s_every_runtime_dependency_has_a_floor_the_step_pins() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pinned = {Requirement(line).name for line in floors.constraints(pyproject)}
    assert {Requirement(line).name for line in pyproject["project"]["dependencies"]} <= pinned
    assert {"pytest", "pytest-asyncio", "pytest-xdist", "hypothesis", "httpx"} <= pinned
