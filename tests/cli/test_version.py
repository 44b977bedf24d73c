"""``atout --version`` names the installed version."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version


def test_version() -> None:
    out = subprocess.run([sys.executable, "-m", "atout.cli.main", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == f"atout {version('atout')}"
