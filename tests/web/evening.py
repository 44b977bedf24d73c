"""What the whole-evening test (test_evening.py) needs beyond pages.py: every error a person could see
(an error toast, a console error, a page error) kept across reloads, waits that fail saying what was
awaited, play until something happens, and the spectator's frames searched for hidden cards."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PageTimeout

from .pages import WAIT_MS, Person

ERROR_TOASTS = """(() => {
  const seen = new WeakSet();
  const look = () => {
    for (const el of document.querySelectorAll('.toast.error')) {
      if (seen.has(el)) continue;
      seen.add(el);
      window.__errorToast(location.hash + ': ' + (el.textContent || ''));
    }
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true });
})();"""
"""Every error toast the page shows, told to the test as it appears (a toast goes away after seconds)."""


class Guest(Person):
    """A person whose every error toast is kept by the test, whatever page or reload it came on."""

    def __init__(self, browser: Browser, site_url: str, name: str, viewport: dict | None = None) -> None:
        super().__init__(browser, site_url, name, viewport=viewport)
        self.toasts: list[str] = []
        self.context.expose_binding("__errorToast", lambda _source, text: self.toasts.append(text))
        self.context.add_init_script(ERROR_TOASTS)

    def arrive(self) -> Guest:
        super().arrive()
        return self

    def faults(self) -> list[str]:
        """What went wrong on this person's pages, as they saw it or the browser reported it."""
        return (
            [f"error toast {text!r}" for text in self.toasts]
            + [f"console error {text!r}" for text in self.console_errors]
            + [f"page error {f['error']!r}" for f in self.frames if f.get("type") == "pageerror"]
        )

    def wait(self, script: str, what: str, arg: Any = None, within_ms: float = WAIT_MS) -> Any:
        """wait_for_function, failing with what was awaited and what the page shows instead."""
        try:
            return self.page.wait_for_function(script, arg=arg, timeout=within_ms).json_value()
        except PageTimeout:
            raise AssertionError(f"{self.name}: {what} never came; the page shows {self.where()}") from None

    def where(self) -> dict[str, Any]:
        return self.page.evaluate("""() => { const v = window.atout && window.atout.view; const s = v && v.state;
          const d = s && s.deal; const q = (x) => { const e = document.querySelector(x);
            return e ? e.innerText : null; };
          return { hash: location.hash, you: s ? s.you : null, status: s && s.status, phase: d && d.phase,
            to_act: d && d.to_act,
                   seats: s && s.seats.map((x) => [x.name, x.kind, x.connected, x.present, x.automatic]),
                   actions: q('.actions'),
                     toasts: [...document.querySelectorAll('.toast')].map((t) => t.innerText) }; }""")

    def seat_view(self) -> dict[str, Any]:
        """What the person sees of their seat, at one moment: the state's facts and the page's cards."""
        return self.page.evaluate("""() => { const s = window.atout.view.state; const d = s.deal;
          return { you: s.you, name: s.you === null ? null : s.seats[s.you].name, hand: d && d.hand,
            trick: d && d.trick,
                   shown_hand: [...document.querySelectorAll('.hand-cards .card')].map((c) => c.dataset.card),
                   shown_trick: [...document.querySelectorAll('.trick .played')].map((c) => c.dataset.card) }; }""")


def calm(people: list[Guest], where: str) -> None:
    """Nobody saw an error so far."""
    faults = [f"{p.name}: {fault}" for p in people for fault in p.faults()]
    assert not faults, f"{where}: {faults}"


def play_until(
    people: list[Guest],
    done: Callable[[], bool],
    what: str,
    watching: list[Guest] = (),
    unless: str | None = None,
    timeout: float = 120.0,
) -> None:
    """Each person plays whenever it is their turn (tests/web/autoplay.js) until ``done()``, asked before
    every click (nobody: only the robots play), and never while the page's ``unless`` holds (Person.step);
    any error anyone saw fails it at once."""
    deadline = time.monotonic() + timeout  # bounds a hang only
    everyone = [*people, *watching]
    while True:
        moved = False
        for person in people:
            if done():
                return
            if person.step(unless) is not None:
                moved = True
            calm(everyone, what)
        if not people:
            calm(everyone, what)
        if not moved:
            if done():
                return
            assert time.monotonic() < deadline, f"{what} never came: {[p.where() for p in people]}"
            if people:
                people[0].idle()  # the robots' turn, or the pause between deals: until the table moves on
            else:
                everyone[0].page.wait_for_timeout(20)


def turn_of(person: Guest, phase: str, trick: int = 0) -> bool:
    """Whether it is this person's turn now, in ``phase``, with at least ``trick`` cards on the felt."""
    return person.page.evaluate(
        """([phase, trick]) => { const v = window.atout.view; const d = v && v.state && v.state.deal;
      return Boolean(d && v.isMyTurn() && d.phase === phase && d.trick.length >= trick); }""",
        [phase, trick],
    )


def _walk(value: Any, path: str = "") -> Iterator[tuple[str, str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield path, key, item
            yield from _walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, f"{path}[{i}]")


REVEALING = ("deal_end", "cancel_end")
"""The events after which a deal's cards are public: its record (every hand, the dog, the écart) and seed."""


def hidden_cards_seen(frames: list[dict]) -> list[str]:
    """Where a spectator's frames held a card nobody may see yet (docs/protocol.md, DealView): a hand, a
    choice (``legal``), an écart's cards, a record or a seed before the deal is over."""
    leaks = []
    for n, frame in enumerate(frames):
        parts = [frame]
        if frame.get("type") in ("table", "event"):  # a deal's end reveals it: that event's record is public
            events = [frame.get("event")] + [item.get("event") for item in frame.get("log") or []]
            public = [e for e in events if isinstance(e, dict) and e.get("type") in REVEALING]
            parts = [
                {k: v for k, v in frame.items() if k not in ("event", "log")},
                *[e for e in events if isinstance(e, dict) and e not in public],
            ]
        for part in parts:
            for path, key, value in _walk(part):
                if key == "hand" and value:
                    leaks.append(f"frame {n}{path}: a hand {value}")
                elif key == "legal" and value:
                    leaks.append(f"frame {n}{path}: choices {value}")
                elif key == "ecart" and isinstance(value, list) and value:
                    leaks.append(f"frame {n}{path}: an écart {value}")
                elif key in ("discard", "hands", "record", "seed") and value:
                    leaks.append(f"frame {n}{path}: {key} {str(value)[:80]}")
    return leaks
