"""CI's dependency audit, in two parts: pyproject.toml's lower bounds against a committed list of known
vulnerabilities (offline: it always runs), then pip-audit over the installed packages (online), each
failing on a known vulnerability that a newer release fixes.

The bounds: a dependency whose lowest allowed release is older than the fix of an advisory in
``.ci/advisories.toml`` fails the run (an install elsewhere may resolve to it), naming the advisory and
the bound to raise to. A dependency without a lower bound admits every old release.

pip-audit asks a vulnerability service for each installed package. A package it could not look up is
"skipped", and pip-audit then says "No known vulnerabilities found" all the same; when the service
answers for none of them (no network to it), this script says loudly that nothing was audited and does
not fail the run: a check that cannot run is not a vulnerability. A vulnerability with no fixed release
is printed, not failed on: there is nothing to upgrade to.

Run: python .ci/audit.py  (exit 1: a bound admitting a known-bad release, or a vulnerability with a fix;
0 otherwise, with what was not audited)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

HERE = Path(__file__).resolve().parent
ADVISORIES = HERE / "advisories.toml"
PYPROJECT = HERE.parent / "pyproject.toml"
FLOORS = (">=", "==", "~=", "===", ">")
"""The operators that set a lowest release (``>`` an exclusive one: close enough for a bound)."""
NETWORK_WORDS = ("connection", "resolve", "timed out", "timeout", "max retries", "network", "unreachable")


def lowest(requirement: Requirement) -> Version | None:
    """The lowest release a requirement allows by its bounds; None when it has no lower bound."""
    floors = [Version(s.version) for s in requirement.specifier if s.operator in FLOORS]
    return max(floors) if floors else None


def requirements(pyproject: dict) -> list[Requirement]:
    """Every dependency pyproject.toml names: the package's own and each optional group's (the tests')."""
    project = pyproject.get("project", {})
    named = list(project.get("dependencies", []))
    for group in project.get("optional-dependencies", {}).values():
        named += group
    return [Requirement(line) for line in named]


def bounds_verdict(pyproject: dict, advisories: dict) -> tuple[int, list[str]]:
    """The exit code and the lines to print for pyproject.toml's lower bounds against the advisories."""
    known: dict[str, list[dict]] = {}
    for advisory in advisories.get("advisory", []):
        known.setdefault(canonicalize_name(advisory["package"]), []).append(advisory)
    lines, checked = [], 0
    for requirement in requirements(pyproject):
        floor = lowest(requirement)
        for advisory in known.get(canonicalize_name(requirement.name), []):
            checked += 1
            if floor is None or floor < Version(advisory["fixed"]):
                allowed = f"allows {floor}" if floor is not None else "has no lower bound"
                names = " / ".join(filter(None, (advisory["id"], advisory.get("cve"))))
                lines.append(
                    f"FAIL {requirement} {allowed}, older than the fix of {names} in "
                    f"{advisory['fixed']}: {advisory['what']}. Raise the bound to >={advisory['fixed']}"
                )
    lines.append(f"bounds: {checked} advisories checked against pyproject.toml's lower bounds, {len(lines)} admitted")
    return (1 if len(lines) > 1 else 0), lines


def verdict(report: dict) -> tuple[int, list[str]]:
    """The exit code and the lines to print for pip-audit's JSON report."""
    dependencies = report.get("dependencies", [])
    skipped = [d for d in dependencies if d.get("skip_reason")]
    audited = [d for d in dependencies if not d.get("skip_reason")]
    fixable = [(d, v) for d in audited for v in d.get("vulns", []) if v.get("fix_versions")]
    unfixed = [(d, v) for d in audited for v in d.get("vulns", []) if not v.get("fix_versions")]
    lines = [
        f"FAIL {d['name']} {d['version']}: {v['id']} is fixed in {', '.join(v['fix_versions'])}" for d, v in fixable
    ]
    lines += [f"warning: {d['name']} {d['version']}: {v['id']} has no fixed release yet" for d, v in unfixed]
    if dependencies and not audited:
        lines.append(
            f"*** pip-audit SKIPPED: the vulnerability service answered for none of the {len(skipped)} "
            f"installed packages ({skipped[0]['skip_reason']}); NOTHING WAS AUDITED ***"
        )
    elif skipped:
        lines.append(
            f"warning: {len(skipped)} packages not audited: "
            + ", ".join(f"{d['name']} ({d['skip_reason']})" for d in skipped[:5])
        )
    if audited:
        lines.append(
            f"pip-audit: {len(audited)} packages audited, {len(fixable)} vulnerabilities with a fix, "
            f"{len(unfixed)} without"
        )
    return (1 if fixable else 0), lines


def main() -> int:
    bounds, lines = bounds_verdict(tomllib.loads(PYPROJECT.read_text()), tomllib.loads(ADVISORIES.read_text()))
    print("\n".join(lines))
    return max(bounds, pip_audit())


def pip_audit() -> int:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "audit.json"
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip_audit",
                "--skip-editable",
                "--progress-spinner",
                "off",
                "--format",
                "json",
                "--output",
                str(out),
            ],
            capture_output=True,
            text=True,
        )
        if not out.exists() or not out.read_text().strip():
            reason = (run.stderr.strip().splitlines() or ["no output"])[-1]
            if any(word in run.stderr.lower() for word in NETWORK_WORDS):
                print(
                    f"*** pip-audit SKIPPED: the vulnerability service cannot be reached ({reason}); "
                    "NOTHING WAS AUDITED ***"
                )
                return 0
            print(f"pip-audit failed (exit {run.returncode}): {run.stderr.strip()[-2000:]}")
            return run.returncode or 1
        code, lines = verdict(json.loads(out.read_text()))
    print("\n".join(lines))
    return code


if __name__ == "__main__":
    sys.exit(main())
