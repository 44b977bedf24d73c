"""The game's accuracy on its last screen: what the person's choices cost against the expert's, over every deal.

The site's own measure (``bots.accuracy``, docs/analysis.md "Accuracy"): each finished deal's decisions of the
person scored by the analysis's search, a choice within the search's noise costing nothing, summed by phase. It
runs in a worker thread when the game's last result shows (about a second of CPU a deal), the line saying how far
it is; leaving the screen stops it.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static
from textual.worker import get_current_worker

from ..bots.accuracy import PHASES, combine, record_roles, seat_accuracy
from ..bots.analysis import WORLDS_FACTOR, analyse
from .game import HUMAN, Game
from .words import N_, _, n_, number

PHASE_WORDS = {
    "bid": N_("Bidding"),
    "ecart": N_("Écart"),
    "taker": N_("Play as taker"),
    "partner": N_("Play as partner"),
    "defence": N_("Play in defence"),
}
"""Each phase as the per-phase line names it."""
MOSTLY = {
    "bid": N_("the bidding"),
    "ecart": N_("the écart"),
    "taker": N_("the play as taker"),
    "partner": N_("the play as the taker's partner"),
    "defence": N_("the play in defence"),
}
"""Each phase as "mostly …" names it."""


def _minus(points: float) -> str:
    """Points lost shown as a loss: −3.5 (nothing lost: 0)."""
    return f"−{number(round(points, 1))}" if round(points, 1) > 0 else "0"


def accuracy_text(summary: dict[str, Any]) -> Text:
    """The game's accuracy (``bots.accuracy.combine`` of the person's deals) in words: the points lost in all and
    a deal, the phase that cost most, and each phase played, a deal where the person decided there."""
    deals = summary["deals"]
    if summary["loss"] <= 0:
        head = n_(
            "Your play in the game's deal: no points lost against the expert.",
            "Your play over the game's {n} deals: no points lost against the expert.",
            deals,
        )
    else:
        worst = max(PHASES, key=lambda p: (summary["phases"][p], -PHASES.index(p)))
        head = n_(
            "Your play in the game's deal: {loss} points against the expert, mostly {phase}.",
            "Your play over the game's {n} deals: {loss} points against the expert ({per} a deal), mostly {phase}.",
            deals,
            loss=_minus(summary["loss"]),
            per=_minus(summary["loss"] / deals),
            phase=_(MOSTLY[worst]),
        )
    played = summary["played"]
    parts = [
        _("{phase} {loss} ({n})", phase=_(PHASE_WORDS[p]), loss=_minus(summary["phases"][p] / played[p]), n=played[p])
        for p in PHASES
        if played[p]
    ]
    text = Text(head, style="bold")
    text.append("\n" + _("A deal, by phase (the deals in brackets): ") + " · ".join(parts))
    text.append("\n" + _("A choice within the search's noise costs nothing."), style="dim")
    return text


class GameAccuracy(Static):
    """The game's accuracy, measured in a worker thread once shown."""

    FACTOR = WORLDS_FACTOR  # the analysis's worlds, times the expert's (a test asks for fewer)

    def __init__(self, game: Game) -> None:
        super().__init__(Text(_("Your play against the expert: measuring…"), style="dim"), id="accuracy")
        self.game = game
        self.summary: dict[str, Any] | None = None

    def on_mount(self) -> None:
        records = self.game.finished_records()
        factor = self.FACTOR

        def work() -> None:
            worker = get_current_worker()
            items = []
            for n, record in enumerate(records, 1):
                if worker.is_cancelled:
                    return
                analysis = analyse(record, [HUMAN], "analysis", factor=factor).to_json()
                items.append(seat_accuracy(analysis, HUMAN, record_roles(record)[HUMAN]))
                if n < len(records):
                    self.app.call_from_thread(self.measuring, n + 1, len(records))
            if not worker.is_cancelled:
                self.app.call_from_thread(self.show, combine(items))

        if records:
            self.measuring(1, len(records))
            self.run_worker(work, thread=True, group="accuracy", exit_on_error=False)

    def measuring(self, n: int, of: int) -> None:
        self.update(Text(_("Your play against the expert: measuring… deal {n} of {of}", n=n, of=of), style="dim"))

    def show(self, summary: dict[str, Any]) -> None:
        self.summary = summary
        self.update(accuracy_text(summary))


__all__ = ["GameAccuracy", "accuracy_text"]
