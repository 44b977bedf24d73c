"""The end of a deal: its result in detail, the score sheet, and the analysis of the person's play; at the game's
end, its ranking and the accuracy of the person's play over all its deals."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Label, Static

from .accuracy import GameAccuracy
from .analysis import AnalysisScreen
from .game import HUMAN, Game
from .text import ranking_text, result_text, sheet_table
from .widgets import Footer
from .words import N_, _


class ResultScreen(Screen):
    """The end of a deal: the result in detail and the running score sheet."""

    BINDINGS = [
        Binding("enter,n,space", "next", N_("Continue")),
        Binding("enter,n,space", "finish", N_("Quit")),  # the last deal's: the footer says what Enter does
        Binding("a", "analyse", N_("Analyse my play")),
        Binding("q", "app.quit_game", N_("Quit")),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.analysis = None  # the person's play analysed, once asked for (kept while the screen shows)
        self.leaving = False  # Enter (or the button) was pressed: the next deal comes, or the game ends

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter continues to the next deal, or after the last one quits: one binding shown of the two."""
        if action == "next":
            return not self.game.is_over
        if action == "finish":
            return self.game.is_over
        return True

    def compose(self) -> ComposeResult:
        game = self.game
        result = game.current.result
        assert result is not None  # this screen follows a finished deal
        last = game.sheet[-1]
        title = _("Void deal") if last.void else _("Deal {n} of {of}", n=last.number, of=game.deals)
        with VerticalScroll():
            yield Label(Text(title, style="bold reverse"))
            yield Static(result_text(game.players, result), id="result")
            yield Label(Text(_("Score sheet"), style="bold underline"))
            yield Static(sheet_table(game), id="sheet")
            if game.is_over:
                yield Label(Text(_("Final ranking"), style="bold underline"))
                yield Static(ranking_text(game), id="ranking")
                yield GameAccuracy(game)
            with Horizontal(id="result-actions"):
                if game.is_over:
                    yield Button(_("Quit"), variant="primary", compact=True, id="next")
                else:
                    yield Button(_("Next deal (Enter)"), variant="primary", compact=True, id="next")
                yield Button(_("Analyse my play (a)"), compact=True, id="analyse")
        yield Footer()

    @on(Button.Pressed, "#analyse")
    def action_analyse(self) -> None:
        """The person's decisions in this deal scored by the expert's search (docs/analysis.md); none once
        the screen is leaving (an ``a`` pressed just after Enter quit the game opened the analysis on an
        app closing, whose screen had no widgets left: NoMatches)."""
        if self.leaving:
            return
        record = self.game.named_record(self.game.current)

        def keep(analysis) -> None:
            self.analysis = analysis

        self.app.push_screen(AnalysisScreen(record, HUMAN, done=self.analysis), keep)

    @on(Button.Pressed, "#next")
    def action_next(self) -> None:
        if self.leaving:
            return
        self.leaving = True
        if self.game.is_over:
            self.app.exit()
        else:
            self.dismiss(True)

    def action_finish(self) -> None:
        self.action_next()
