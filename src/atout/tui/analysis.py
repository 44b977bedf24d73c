"""The analysis of the person's play in a deal just finished: a key on the result screen (``a``).

The expert's search scores each of the person's decisions again (``bots.analysis``) in a worker
thread, the screen showing its progress; then one line per decision: what was played, what was
better and by how much, and the mark (docs/analysis.md).
"""

from __future__ import annotations

import contextlib
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, ProgressBar, Static

from ..bots.analysis import WORLDS_FACTOR, Analysis, analyse

MARK_STYLES = {"inaccuracy": "bold #e8c547", "mistake": "bold #ff8c1a", "blunder": "bold #ff4d5e"}
"""Yellow, orange, red: the colours chess sites give the three marks."""
MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
SHOWN_LOSS = 1.0
"""An unmarked decision that lost less than this many points shows no "better" (a fraction of a point is
within what the search cannot tell apart; the browser does the same)."""


def summary_text(total: dict[str, Any]) -> Text:
    """"14 decisions, 24.9 points expected to be lost: 1 mistake, 1 inaccuracy" for a seat's totals."""
    count = total["decisions"]
    out = Text(f"{count} decision{'s' if count != 1 else ''} of yours, {total['loss']:g} points expected "
               "to be lost against the expert's choices")
    marks = [(m, n) for m, n in reversed(total["marks"].items()) if n]
    if marks:
        out.append(": ")
        for i, (mark, n) in enumerate(marks):
            if i:
                out.append(", ")
            out.append(f"{n} {PLURALS[mark] if n > 1 else mark}", style=MARK_STYLES[mark])
    else:
        out.append(": no mark")
    return out


def decisions_table(decisions: list[dict[str, Any]]) -> Table:
    """One row per decision: where, what was played, what was better by how much, the mark."""
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for name, justify in (("", "right"), ("trick", "right"), ("decision", "left"), ("you played", "left"),
                          ("better", "left"), ("95% interval", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for d in decisions:
        mark = d["mark"]
        style = MARK_STYLES.get(mark, "") if mark else ""
        lost = bool(mark) or d["loss"] >= SHOWN_LOSS
        better = f"{d['best_words']} (+{d['loss']:g})" if lost else ""
        low, high = d["interval"]
        table.add_row(Text(MARK_SIGNS.get(mark, "") if mark else "", style=style), str(d["trick"] or ""),
                      d["phase"].replace("_", " "), d["words"], Text(better, style=style),
                      f"[{low:g}, {high:g}]" if lost else "")
    return table


class AnalysisScreen(ModalScreen):
    """The person's decisions in a finished deal, scored by the expert's search (progress while it runs)."""

    BINDINGS = [Binding("escape,enter,a,q", "close", "Close")]
    FACTOR = WORLDS_FACTOR  # times the expert's worlds each decision searches (a test asks for fewer)
    DEFAULT_CSS = """
    AnalysisScreen { align: center middle; }
    AnalysisScreen > VerticalScroll { width: 100%; max-width: 110; height: 100%; max-height: 40;
                                      background: $panel; border: round $accent; padding: 0 1; }
    AnalysisScreen ProgressBar { margin: 1 0; }
    """

    def __init__(self, record: dict, seat: int, seed: str = "analysis", done: Analysis | None = None) -> None:
        super().__init__()
        self.record = record
        self.seat = seat
        self.seed = seed
        self.analysis = done

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Label(Text("Your play, analysed by the expert", style="bold"))
            yield ProgressBar(id="progress", show_eta=False)
            yield Static(id="summary")
            yield Static(id="decisions")
        yield Footer()

    def on_mount(self) -> None:
        if self.analysis is not None:
            self.show(self.analysis)
            return
        self.query_one("#summary", Static).update(Text("The expert is going over your decisions…", style="dim"))

        def work() -> None:
            analysis = analyse(self.record, [self.seat], self.seed, self.progress, self.FACTOR)
            with contextlib.suppress(RuntimeError):  # the app may close meanwhile
                self.app.call_from_thread(self.show, analysis)

        self.run_worker(work, thread=True, group="analysis", exit_on_error=False)

    def progress(self, done: int, total: int) -> None:
        """Called in the worker thread after each decision."""
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(self.advance, done, total)

    def advance(self, done: int, total: int) -> None:
        self.query_one("#progress", ProgressBar).update(total=total, progress=done)

    def show(self, analysis: Analysis) -> None:
        self.analysis = analysis
        bar = self.query_one("#progress", ProgressBar)
        bar.display = False
        data = analysis.to_json()
        [total] = [t for t in data["totals"] if t["seat"] == self.seat]
        self.query_one("#summary", Static).update(summary_text(total))
        mine = [d for d in data["decisions"] if d["seat"] == self.seat]
        self.query_one("#decisions", Static).update(decisions_table(mine) if mine else "")

    def action_close(self) -> None:
        self.dismiss(self.analysis)
