"""Drawing the table: the status line, the seats and the trick, the cards shown to all, and the game log."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import RichLog, Static

from ..engine import Play
from ..engine.kinds import Phase
from .game import HUMAN, Game, seat_name
from .table import TableView, table_picture
from .text import contract_label, describe, poignee_word
from .widgets import card_text, card_word, cards_text
from .words import _, n_


class Board(Vertical):
    """What everyone at the table can see, redrawn from the person's observation after each move."""

    def __init__(self, game: Game) -> None:
        super().__init__(id="board")
        self.game = game
        self.logged = 0  # actions of the deal already in the log
        self.tricks_logged = 0

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield TableView(id="table")
                yield Static(id="notes")
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)

    def begin_deal(self) -> None:
        """A fresh log headed by the deal's number and its dealer."""
        self.logged = 0
        self.tricks_logged = 0
        log = self.query_one(RichLog)
        log.clear()
        deal = self.game.current
        dealer = _("You deal") if deal.dealer == HUMAN else _("{name} deals", name=seat_name(deal.dealer))
        log.write(
            Text(
                _("Deal {n} of {of}: {dealer}.", n=self.game.deal_number, of=self.game.deals, dealer=dealer),
                style="bold",
            )
        )

    def show(self, obs) -> None:
        self.query_one("#status", Static).update(self.status_text(obs))
        self.query_one("#table", TableView).show(obs)
        self.query_one("#notes", Static).update(self.notes_text(obs))
        self.log_new(obs)

    def status_text(self, obs) -> Text:
        game = self.game
        out = Text(_("Deal {n}/{of}", n=game.deal_number, of=game.deals) + " · ")
        if obs.phase in (Phase.PETIT_SEC, Phase.BIDDING):
            out.append(_("bidding"))
            if obs.taker is not None:  # the best bid so far: nobody takes until all have spoken
                out.append(
                    " · "
                    + _(
                        "best bid so far {name}: {contract}",
                        name=seat_name(obs.taker),
                        contract=contract_label(obs.contract),
                    )
                )
        elif obs.taker is not None:
            out.append(f"{seat_name(obs.taker)}: {contract_label(obs.contract)}")
            if obs.called is not None:
                out.append(" · " + _("called {card}", card=card_word(obs.called)))
                if obs.partner is not None:
                    out.append(
                        " · "
                        + (
                            _("partner {name}", name=seat_name(obs.partner))
                            if obs.partner != obs.taker
                            else _("taker alone")
                        )
                    )
                elif obs.taker == HUMAN and obs.hand >> obs.called & 1:
                    out.append(" · " + _("you play alone"))
                elif obs.dog is not None and obs.dog >> obs.called & 1:
                    out.append(" · " + _("in the dog: taker alone"))
                elif obs.phase == Phase.END:
                    out.append(" · " + _("taker alone"))
                else:
                    out.append(" · " + _("partner unknown"))
        if obs.phase == Phase.PLAY:
            out.append(" · " + _("trick {n}", n=min(len(obs.tricks) + 1, obs.rules.settings.hand_size)))
        return out

    def table_text(self, obs, width: int = 46, height: int = 14) -> Text:
        """The table as drawn at ``width``×``height``, then its notes (for tests and screenshots)."""
        out = table_picture(obs, width, height).text()
        out.append("\n")
        out.append_text(self.notes_text(obs))
        return out

    def notes_text(self, obs) -> Text:
        """Under the table: the cards shown to all (dog, écart trumps, poignées) and your side."""
        out = Text()
        if obs.dog is not None:
            out.append(_("Dog:") + " ", style="dim")
            out.append_text(cards_text(obs.dog))
            out.append("\n")
        if obs.ecart_trumps:
            out.append(_("Écart trumps:") + " ", style="dim")
            out.append_text(cards_text(obs.ecart_trumps))
            out.append("\n")
        for seat, cards, size, _bonus in obs.poignees:
            out.append(_("Poignée {size}, {name}:", size=poignee_word(size), name=seat_name(seat)) + " ", style="dim")
            out.append(_("{cards} (c to see)", cards=n_("{n} card", "{n} cards", cards.bit_count())) + "\n")
        if obs.partner == HUMAN and obs.taker != HUMAN:
            out.append(_("You hold the called card: you are the taker's partner.") + "\n", style="cyan")
        out.rstrip()
        return out

    def log_new(self, obs) -> None:
        """Write the actions and tricks not yet in the log (a trick's cards as one line once it is won)."""
        log = self.query_one(RichLog)
        history = obs.history
        for seat, action in history[self.logged :]:
            if isinstance(action, Play):
                continue
            log.write(describe(seat, action))
        self.logged = len(history)
        for i in range(self.tricks_logged, len(obs.tricks)):
            trick = obs.tricks[i]
            line = Text(_("Trick {n}:", n=i + 1) + " ", style="bold")
            for j, (seat, card) in enumerate(trick.plays):
                if j:
                    line.append(", ")
                line.append(seat_name(seat) + " ")
                line.append_text(card_text(card))
            line.append(f" → {seat_name(trick.winner)}", style="bold yellow" if trick.winner == HUMAN else "yellow")
            log.write(line)
        self.tricks_logged = len(obs.tricks)
