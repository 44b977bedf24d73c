"""CI's dependency audit (.ci/audit.py) decides from pip-audit's JSON report: a vulnerability that a
release fixes fails the run; one without a fix, and packages the service could not look up, are said
loudly and do not."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "audit.py"
_spec = importlib.util.spec_from_file_location("ci_audit", SCRIPT)
assert _spec is not None and _spec.loader is not None
audit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(audit)

CLEAN = {"name": "starlette", "version": "0.47.2", "vulns": []}
FIXABLE = {"name": "jinja2", "version": "2.10", "vulns": [
    {"id": "PYSEC-2019-217", "fix_versions": ["2.10.1"], "aliases": ["CVE-2019-10906"], "description": "sandbox escape"}]}
UNFIXED = {"name": "ecdsa", "version": "0.19.0", "vulns": [
    {"id": "GHSA-wj6h-64fc-37mp", "fix_versions": [], "aliases": ["CVE-2024-23342"], "description": "timing"}]}
NOT_FOUND = {"name": "alembic", "skip_reason": "Dependency not found on PyPI and could not be audited: alembic (1.20.1)"}


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
    assert lines == [f"*** pip-audit SKIPPED: the vulnerability service answered for none of the 2 installed "
                     f"packages ({NOT_FOUND['skip_reason']}); NOTHING WAS AUDITED ***"]
    code, lines = audit.verdict({"dependencies": [CLEAN, FIXABLE, NOT_FOUND]})
    assert code == 1 and any("1 packages not audited: alembic" in line for line in lines)
