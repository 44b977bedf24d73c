"""CI's dependency audit (.ci/audit.py): pyproject.toml's lower bounds against the committed advisories
(offline), and pip-audit's JSON report: a bound admitting a release older than a fix fails the run, and
so does a vulnerability that a release fixes; one without a fix, and packages the service could not look
up, are said loudly and do not."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

from packaging.version import Version

SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "audit.py"
_spec = importlib.util.spec_from_file_location("ci_audit", SCRIPT)
assert _spec is not None and _spec.loader is not None
audit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(audit)

CLEAN = {"name": "starlette", "version": "0.47.2", "vulns": []}
FIXABLE = {
    "name": "jinja2",
    "version": "2.10",
    "vulns": [
        {
            "id": "PYSEC-2019-217",
            "fix_versions": ["2.10.1"],
            "aliases": ["CVE-2019-10906"],
            "description": "sandbox escape",
        }
    ],
}
UNFIXED = {
    "name": "ecdsa",
    "version": "0.19.0",
    "vulns": [
        {"id": "GHSA-wj6h-64fc-37mp", "fix_versions": [], "aliases": ["CVE-2024-23342"], "description": "timing"}
    ],
}
NOT_FOUND = {
    "name": "alembic",
    "skip_reason": "Dependency not found on PyPI and could not be audited: alembic (1.20.1)",
}


def test_a_vulnerability_with_a_fixed_release_fails_the_run() -> None:
    code, lines = audit.verdict({"dependencies": [CLEAN, FIXABLE, UNFIXED], "fixes": []})
    assert code == 1
    assert "FAIL jinja2 2.10: PYSEC-2019-217 is fixed in 2.10.1" in lines
    assert any("ecdsa" in line and "no fixed release" in line for line in lines)


def test_a_vulnerability_without_a_fix_is_said_and_passes() -> None:
    code, lines = audit.verdict({"dependencies": [CLEAN, UNFIXED], "fixes": []})
    assert code == 0 and any(line.startswith("warning: ecdsa") for line in lines)
    assert lines[-1] == "pip-audit: 2 packages audited, 0 vulnerabilities with a fix, 1 without"


def test_a_service_that_answers_for_nothing_is_a_loud_skip_not_a_pass() -> None:
    """pip-audit itself says "No known vulnerabilities found" when it could look up no package at all."""
    code, lines = audit.verdict({"dependencies": [NOT_FOUND, {**NOT_FOUND, "name": "anyio"}], "fixes": []})
    assert code == 0
    assert lines == [
        f"*** pip-audit SKIPPED: the vulnerability service answered for none of the 2 installed "
        f"packages ({NOT_FOUND['skip_reason']}); NOTHING WAS AUDITED ***"
    ]
    code, lines = audit.verdict({"dependencies": [CLEAN, FIXABLE, NOT_FOUND]})
    assert code == 1 and any("1 packages not audited: alembic" in line for line in lines)


ADVISORIES = tomllib.loads(audit.ADVISORIES.read_text())


def _pyproject(*dependencies: str) -> dict:
    return {"project": {"dependencies": list(dependencies), "optional-dependencies": {"test": ["pytest>=8.0"]}}}


def test_a_lower_bound_that_admits_a_known_bad_release_fails_naming_the_advisory_and_the_bound() -> None:
    code, lines = audit.bounds_verdict(_pyproject("starlette>=0.37", "orjson", "redis>=5.0"), ADVISORIES)
    assert code == 1
    assert any(
        line.startswith(
            "FAIL starlette>=0.37 allows 0.37, older than the fix of GHSA-f96h-pmfr-66vw / CVE-2024-47874 in 0.40.0"
        )
        and line.endswith("Raise the bound to >=0.40.0")
        for line in lines
    ), lines
    assert any("FAIL orjson has no lower bound" in line and "GHSA-pwr2-4v36-6qpr" in line for line in lines), lines
    assert not any("redis" in line for line in lines)
    code, lines = audit.bounds_verdict(
        _pyproject("starlette>=0.49.1", "orjson>=3.9.15", "uvloop>=0.19; sys_platform != 'win32'"), ADVISORIES
    )
    assert code == 0 and lines == ["bounds: 4 advisories checked against pyproject.toml's lower bounds, 0 admitted"]


def test_the_projects_own_bounds_admit_no_known_bad_release() -> None:
    """Fails here, offline, when pyproject.toml allows a release an advisory names (issue 37: starlette>=0.37
    and orjson>=3.9 did)."""
    code, lines = audit.bounds_verdict(tomllib.loads(audit.PYPROJECT.read_text()), ADVISORIES)
    assert code == 0, lines


def test_every_advisory_names_its_package_its_identifier_and_its_fixed_release() -> None:
    assert len(ADVISORIES["advisory"]) >= 7
    for advisory in ADVISORIES["advisory"]:
        assert re.fullmatch(r"GHSA(-[23456789cfghjmpqrvwx]{4}){3}", advisory["id"]), advisory
        assert re.fullmatch(r"CVE-\d{4}-\d{4,}", advisory["cve"]), advisory
        assert Version(advisory["fixed"]) and advisory["package"] and advisory["what"], advisory
