"""CI's dependency audit: pip-audit over the installed packages, failing on a known vulnerability that a
newer release fixes.

pip-audit asks a vulnerability service for each installed package. A package it could not look up is
"skipped", and pip-audit then says "No known vulnerabilities found" all the same; when the service
answers for none of them (no network to it), this script says loudly that nothing was audited and does
not fail the run: a check that cannot run is not a vulnerability. A vulnerability with no fixed release
is printed, not failed on: there is nothing to upgrade to.

Run: python .ci/audit.py  (exit 1: a vulnerability with a fix; 0 otherwise, with what was not audited)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

NETWORK_WORDS = ("connection", "resolve", "timed out", "timeout", "max retries", "network", "unreachable")


def verdict(report: dict) -> tuple[int, list[str]]:
    """The exit code and the lines to print for pip-audit's JSON report."""
    dependencies = report.get("dependencies", [])
    skipped = [d for d in dependencies if d.get("skip_reason")]
    audited = [d for d in dependencies if not d.get("skip_reason")]
    fixable = [(d, v) for d in audited for v in d.get("vulns", []) if v.get("fix_versions")]
    unfixed = [(d, v) for d in audited for v in d.get("vulns", []) if not v.get("fix_versions")]
    lines = [f"FAIL {d['name']} {d['version']}: {v['id']} is fixed in {', '.join(v['fix_versions'])}"
             for d, v in fixable]
    lines += [f"warning: {d['name']} {d['version']}: {v['id']} has no fixed release yet" for d, v in unfixed]
    if dependencies and not audited:
        lines.append(f"*** pip-audit SKIPPED: the vulnerability service answered for none of the {len(skipped)} "
                     f"installed packages ({skipped[0]['skip_reason']}); NOTHING WAS AUDITED ***")
    elif skipped:
        lines.append(f"warning: {len(skipped)} packages not audited: "
                     + ", ".join(f"{d['name']} ({d['skip_reason']})" for d in skipped[:5]))
    if audited:
        lines.append(f"pip-audit: {len(audited)} packages audited, {len(fixable)} vulnerabilities with a fix, "
                     f"{len(unfixed)} without")
    return (1 if fixable else 0), lines


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "audit.json"
        run = subprocess.run([sys.executable, "-m", "pip_audit", "--skip-editable", "--progress-spinner", "off",
                              "--format", "json", "--output", str(out)], capture_output=True, text=True)
        if not out.exists() or not out.read_text().strip():
            reason = (run.stderr.strip().splitlines() or ["no output"])[-1]
            if any(word in run.stderr.lower() for word in NETWORK_WORDS):
                print(f"*** pip-audit SKIPPED: the vulnerability service cannot be reached ({reason}); "
                      "NOTHING WAS AUDITED ***")
                return 0
            print(f"pip-audit failed (exit {run.returncode}): {run.stderr.strip()[-2000:]}")
            return run.returncode or 1
        code, lines = verdict(json.loads(out.read_text()))
    print("\n".join(lines))
    return code


if __name__ == "__main__":
    sys.exit(main())
