"""``atout play`` loads the expert's compiled code first, and says so when that takes a while."""

from __future__ import annotations

import io
import time

from atout.bots import fastplay
from atout.cli.warm import warm_robots


def test_a_slow_warm_up_is_announced(monkeypatch):
    monkeypatch.setattr(fastplay, "warm_up", lambda: time.sleep(1.3))
    out = io.StringIO()
    warm_robots(out)
    assert "compiled once on this machine" in out.getvalue()


def test_a_quick_warm_up_says_nothing(monkeypatch):
    calls = []
    monkeypatch.setattr(fastplay, "warm_up", lambda: calls.append(1))
    out = io.StringIO()
    warm_robots(out)
    time.sleep(1.1)  # the notice would have come by now
    assert calls == [1] and out.getvalue() == ""
