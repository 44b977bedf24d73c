"""``atout replay FILE``: step through a deal record in the terminal, trick by trick."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ..engine import Bid, Deal, Play
from ..engine.record import parse_action, start_deal
from .text import contract_label, describe, result_text
from .widgets import card_text, cards_text


def replay_steps(record: dict) -> tuple[list[Deal], list[str]]:
    """The deal after the bidding and écart, then after each trick (and the end), with titles.

    Raises RecordError for a malformed record or an illegal action.
    """
    from ..engine import IllegalAction
    from ..engine.record import RecordError

    deal = start_deal(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(None, "record", "actions must be a list")
    states = [deal.clone()]
    titles = ["The deal"]
    for i, entry in enumerate(actions):
        seat, action = parse_action(entry, i, deal.players)
        before = len(deal.tricks)
        first_play = isinstance(action, Play) and not deal.tricks and not deal.trick
        if first_play:
            states.append(deal.clone())
            titles.append("Bidding done" + (", écart laid aside" if deal.ecart else ""))
        try:
            deal.apply(action, seat=seat)
        except IllegalAction as err:
            raise RecordError(i, err.rule, err.message) from None
        if len(deal.tricks) > before:
            states.append(deal.clone())
            titles.append(f"Trick {len(deal.tricks)}")
    if deal.is_over and deal.void:
        states.append(deal.clone())
        titles.append("Void deal")
    elif not deal.is_over and (len(states) == 1 or states[-1].history != deal.history):
        states.append(deal.clone())
        titles.append("Where the record stops")
    return states, titles


def _name(seat: int) -> str:
    return f"Seat {seat}"


class ReplayApp(App):
    """Shows every hand, the bidding, and the tricks one at a time."""

    TITLE = "Atout replay"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("right,n,space,l", "step(1)", "Next trick"),
        Binding("left,b,h", "step(-1)", "Previous"),
        Binding("home", "step(-999)", "Start"),
        Binding("end", "step(999)", "End"),
        Binding("q,escape", "quit", "Quit"),
    ]
    CSS = """
    #title { height: 1; background: $primary; padding: 0 1; }
    #body { padding: 0 1; }
    """

    def __init__(self, record: dict, name: str = "") -> None:
        super().__init__()
        self.record = record
        self.file_name = name
        self.states, self.titles = replay_steps(record)
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with VerticalScroll(id="body"):
            yield Static(id="view")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def action_step(self, step: int) -> None:
        self.index = max(0, min(len(self.states) - 1, self.index + step))
        self.show()

    def show(self) -> None:
        deal = self.states[self.index]
        title = f"{self.file_name}  {self.titles[self.index]}  ({self.index + 1}/{len(self.states)})"
        self.query_one("#title", Static).update(Text(title, style="bold"))
        self.query_one("#view", Static).update(self.view(deal))

    def view(self, deal: Deal) -> Text:
        out = Text()
        out.append(f"{deal.players} players · dealer seat {deal.dealer}")
        if deal.seed is not None:
            out.append(f" · seed {deal.seed}")
        if deal.taker is not None:
            out.append(f" · seat {deal.taker} {contract_label(deal.contract)}")
        if deal.called is not None:
            out.append(" · called ")
            out.append_text(card_text(deal.called))
            if deal.partner_revealed or deal.is_over:
                out.append(f" (seat {deal.partner})" if deal.partner is not None else " (alone)")
        out.append("\n")
        bids = Text("Bids: ")
        for seat, action in deal.history:
            if isinstance(action, Bid):
                bids.append(f"{seat}:{contract_label(action.contract)}  ")
        out.append_text(bids)
        out.append("\n")
        trick = dict(deal.tricks[-1].plays) if deal.tricks and not deal.trick else dict(deal.trick)
        if deal.tricks and not deal.trick:
            last = deal.tricks[-1]
            out.append(f"Trick {len(deal.tricks)}: led by seat {last.leader}, won by seat {last.winner}\n",
                       style="bold yellow")
        for seat in range(deal.players):
            role = "taker" if seat == deal.taker else (
                "partner" if seat == deal.partner and (deal.partner_revealed or deal.is_over) else "")
            out.append(f"{_name(seat)} {role}".ljust(15), style="bold")
            if seat in trick:
                played = card_text(trick[seat])
                out.append("[")
                out.append_text(played)
                out.append("]" + " " * (4 - len(played.plain)))
            else:
                out.append(" " * 7 if deal.tricks or deal.trick else "")
            out.append_text(cards_text(deal.hands[seat]))
            out.append("\n")
        if deal.dog:
            out.append("Dog: ", style="bold")
            out.append_text(cards_text(deal.dog if not deal.ecart else deal.initial_dog))
            if deal.ecart:
                out.append("   Écart: ", style="bold")
                out.append_text(cards_text(deal.ecart))
            out.append("\n")
        for seat, action in deal.history:
            if not isinstance(action, (Bid, Play)):
                out.append_text(describe(seat, action, name=_name))
                out.append("\n")
        if deal.is_over and deal.result is not None:
            out.append_text(result_text(deal.players, deal.result, name=_name))
        return out


__all__ = ["ReplayApp", "replay_steps"]
