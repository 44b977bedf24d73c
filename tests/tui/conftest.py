"""The terminal's tests: its searches (a hint, an analysis, the game's accuracy shown once it ends) at the fewest
worlds. Each test here drives the screens; the search itself is tested in tests/bots. At the expert's own count of
worlds, the accuracy that the result screen measures in a thread took a fifth of a whole game's test (py-spy's
samples), for a number no test here reads."""

from __future__ import annotations

import pytest

from atout.tui.accuracy import GameAccuracy
from atout.tui.analysis import AnalysisScreen
from atout.tui.app import GameScreen


@pytest.fixture(autouse=True)
def fewest_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GameAccuracy, "FACTOR", 1)
    monkeypatch.setattr(AnalysisScreen, "FACTOR", 1)
    monkeypatch.setattr(GameScreen, "HINT_FACTOR", 1)
