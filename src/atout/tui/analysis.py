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
from textual.widgets import Label, ProgressBar, Static

from ..bots.analysis import WORLDS_FACTOR, Analysis, analyse
from ..bots.expert import NO_POIGNEE
from ..bots.explain import action_words
from ..engine import Bid, Call, Chelem, Discard, PetitSecDecision, Play, Poignee
from .text import contract_label, reason_words
from .widgets import Footer, card_word, cards_text
from .words import N_, Language, _, language, n_, number

MARK_STYLES = {"inaccuracy": "bold #e8c547", "mistake": "bold #ff8c1a", "blunder": "bold #ff4d5e"}
"""Yellow, orange, red: the colours chess sites give the three marks."""
MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
PHASES = {
    "bid": N_("bid"),
    "call": N_("call"),
    "ecart": N_("écart"),
    "chelem": N_("chelem"),
    "poignee": N_("poignée"),
    "petit_sec": N_("petit sec"),
    "card": N_("card"),
}
"""The decisions' kinds (bots.analysis.DecisionKind) in words."""
SHOWN_LOSS = 1.0
"""An unmarked decision that lost less than this many points shows no "better" (a fraction of a point is
within what the search cannot tell apart; the browser does the same)."""


def mark_words(mark: str, n: int) -> str:
    """ "1 mistake", "2 blunders"."""
    if mark == "inaccuracy":
        return n_("{n} inaccuracy", "{n} inaccuracies", n)
    if mark == "mistake":
        return n_("{n} mistake", "{n} mistakes", n)
    return n_("{n} blunder", "{n} blunders", n)


def decision_words(action: Any) -> str:
    """A decision as a player says it ("Garde", "Play K♥", "Écart 3♠ 5♠"), in the person's language (in English,
    the analysis's own words, as the site shows them)."""
    if language() is Language.EN:
        return action_words(action)
    if action is NO_POIGNEE:
        return _("Keep the poignée hidden")
    if isinstance(action, Bid):
        label = contract_label(action.contract)
        return _("{contract} with a chelem", contract=label) if action.chelem else label
    if isinstance(action, Play):
        return _("Play {card}", card=card_word(action.card))
    if isinstance(action, Call):
        return _("Call {card}", card=card_word(action.card))
    if isinstance(action, Discard):
        return _("Écart {cards}", cards=cards_text(action.cards).plain)
    if isinstance(action, Poignee):
        return _("Show a poignée of {n}", n=action.cards.bit_count())
    if isinstance(action, Chelem):
        return _("Announce a chelem") if action.announce else _("No chelem")
    if isinstance(action, PetitSecDecision):
        return _("Redeal (petit sec)") if action.redeal else _("Play on with the petit sec")
    return str(action)


def summary_text(total: dict[str, Any]) -> Text:
    """ "14 decisions, 24.9 points expected to be lost: 1 mistake, 1 inaccuracy" for a seat's totals."""
    count = total["decisions"]
    out = Text(
        n_(
            "{n} decision of yours, {loss} points expected to be lost against the expert's choices",
            "{n} decisions of yours, {loss} points expected to be lost against the expert's choices",
            count,
            loss=number(total["loss"]),
        )
    )
    marks = [(m, n) for m, n in reversed(total["marks"].items()) if n]
    if marks:
        out.append(": ")
        for i, (mark, n) in enumerate(marks):
            if i:
                out.append(", ")
            out.append(mark_words(mark, n), style=MARK_STYLES[mark])
    else:
        out.append(": " + _("no mark"))
    return out


def decisions_table(
    decisions: list[dict[str, Any]], actions: list[tuple[Any, Any]], whys: list[str] | None = None
) -> Table:
    """One row per decision: where, what was played, what was better by how much, the mark; ``actions``,
    each decision's (played, best), named in the person's language; ``whys``, each decision's reasons in
    words (``text.reason_words``: the same as the hint's), under a decision that lost something."""
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for name, justify in (
        ("", "right"),
        (_("trick"), "right"),
        (_("decision"), "left"),
        (_("you played"), "left"),
        (_("better"), "left"),
        (_("95% interval"), "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for n, (d, (played, best)) in enumerate(zip(decisions, actions, strict=True)):
        mark = d["mark"]
        style = MARK_STYLES.get(mark, "") if mark else ""
        lost = bool(mark) or d["loss"] >= SHOWN_LOSS
        better = f"{decision_words(best)} (+{number(d['loss'])})" if lost else ""
        low, high = d["interval"]
        table.add_row(
            Text(MARK_SIGNS.get(mark, "") if mark else "", style=style),
            str(d["trick"] or ""),
            _(PHASES.get(d["phase"], d["phase"])),
            decision_words(played),
            Text(better, style=style),
            _("[{low}, {high}]", low=number(low), high=number(high)) if lost else "",
        )
        if lost and whys and whys[n]:
            table.add_row("", "", "", "", Text(whys[n], style="dim"), "")
    return table


class AnalysisScreen(ModalScreen):
    """The person's decisions in a finished deal, scored by the expert's search (progress while it runs)."""

    BINDINGS = [Binding("escape,enter,a,q", "close", N_("Close"))]
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
            yield Label(Text(_("Your play, analysed by the expert"), style="bold"))
            yield ProgressBar(id="progress", show_eta=False)
            yield Static(id="summary")
            yield Static(id="decisions")
        yield Footer()

    def on_mount(self) -> None:
        if self.analysis is not None:
            self.show(self.analysis)
            return
        self.query_one("#summary", Static).update(Text(_("The expert is going over your decisions…"), style="dim"))

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
        actions = [(d.action, d.best) for d in analysis.decisions if d.seat == self.seat]
        whys = [" ".join(reason_words(r) for r in d.reasons) for d in analysis.decisions if d.seat == self.seat]
        self.query_one("#decisions", Static).update(decisions_table(mine, actions, whys) if mine else "")

    def action_close(self) -> None:
        self.dismiss(self.analysis)
