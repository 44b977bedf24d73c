"""``atout play`` loads the expert's compiled code first, and says so when that takes a while."""

from __future__ import annotations

import io
import threading

from atout.bots import warm
from atout.cli.warm import warm_robots


class Screen(io.StringIO):
    """An output that tells when something was written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.written = threading.Event()

    def write(self, text: str) -> int:
        count = super().write(text)
        self.written.set()
        return count


def test_a_slow_warm_up_is_announced(monkeypatch):
    out = Screen()
    # a warm-up that lasts until the notice shows: longer than the notice's wait, however slow the machine
    monkeypatch.setattr(warm, "warm_up", lambda: out.written.wait(120))
    warm_robots(out, notice_after=0.01)
    assert "compiled once on this machine" in out.getvalue()


def test_a_quick_warm_up_says_nothing(monkeypatch):
    calls = []
    monkeypatch.setattr(warm, "warm_up", lambda: calls.append(1))
    out = io.StringIO()
    warm_robots(out, notice_after=120)  # returns once the notice is known not to come
    assert calls == [1] and out.getvalue() == ""
