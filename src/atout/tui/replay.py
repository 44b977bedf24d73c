"""``atout replay FILE``: step through a deal record in the terminal, trick by trick."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..engine import Bid, Deal, Play
from ..engine.record import parse_action, start_deal
from .text import contract_label, describe, result_text
from .widgets import Footer, card_text, cards_text


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


def record_names(record: dict) -> list[str]:
    """The players' names a record carries (``atout play`` writes them), else ``Seat 0``...

    Names are optional in a record (docs/record-format.md); a list of the wrong length or
    kind is ignored rather than refused, so any valid record still replays."""
    given = record.get("players")
    players = given if isinstance(given, int) else 0
    names = record.get("names")
    if isinstance(names, list) and len(names) == players and all(isinstance(n, str) and n for n in names):
        return list(names)
    return [f"Seat {seat}" for seat in range(max(players, 0))]


def deals(name: str) -> str:
    """"Ann deals", and "You deal" (a terminal game's record names its person "You")."""
    return "You deal" if name == "You" else f"{name} deals"


def replay_text(record: dict, title: str = "") -> str:
    """A plain-text account of a whole deal record: hands, dog, every action, each trick
    with who played what, and the result; what ``atout replay FILE`` prints without a terminal."""
    states, _ = replay_steps(record)
    names = record_names(record)
    deal = states[-1]
    lines = []
    head = f"{deal.players} players, {deals(names[deal.dealer])}"
    if deal.seed is not None:
        head += f", seed {deal.seed}"
    lines.append(f"{title}: {head}" if title else head)
    lines.append("Hands as dealt:")
    width = max(len(n) for n in names)
    for seat in range(deal.players):
        lines.append(f"  {names[seat]:<{width}}  {cards_text(deal.initial_hands[seat]).plain}")
    lines.append(f"  {'Dog':<{width}}  {cards_text(deal.initial_dog).plain}")
    trick_no = 0
    for seat, action in deal.history:
        if not isinstance(action, Play):
            lines.append(describe(seat, action, name=names.__getitem__).plain)
    for trick in deal.tricks:
        trick_no += 1
        plays = ", ".join(f"{names[s]} {card_text(c).plain}" for s, c in trick.plays)
        lines.append(f"Trick {trick_no}: {plays} → {names[trick.winner]}")
    if deal.trick:
        plays = ", ".join(f"{names[s]} {card_text(c).plain}" for s, c in deal.trick)
        lines.append(f"Trick {trick_no + 1} (unfinished): {plays}")
    if deal.is_over and deal.result is not None:
        lines.extend(result_text(deal.players, deal.result, name=names.__getitem__).plain.splitlines())
    else:
        actor = deal.to_act
        assert actor is not None  # a deal that is not over has a seat to act
        lines.append(f"The record stops here: {names[actor]} is to act.")
    return "\n".join(line.rstrip() for line in lines)


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
    CSS_PATH = "replay.tcss"

    def __init__(self, record: dict, name: str = "") -> None:
        super().__init__()
        self.record = record
        self.file_name = name
        self.names = record_names(record)
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

    def seat_label(self, seat: int) -> str:
        return self.names[seat]

    def view(self, deal: Deal) -> Group:
        """One step of the deal, in the players' names; long hands wrap inside 80 columns."""
        name = self.seat_label
        out = Text()
        out.append(f"{deal.players} players · {deals(name(deal.dealer))}")
        if deal.seed is not None:
            out.append(f" · seed {deal.seed}")
        if deal.taker is not None:
            out.append(f" · {name(deal.taker)}: {contract_label(deal.contract)}")
        if deal.called is not None:
            out.append(" · called ")
            out.append_text(card_text(deal.called))
            if deal.partner_revealed or deal.is_over:
                out.append(f" ({name(deal.partner)})" if deal.partner is not None else " (alone)")
        out.append("\n")
        bids = [f"{name(seat)} {contract_label(action.contract).lower() if action.contract else 'passes'}"
                for seat, action in deal.history if isinstance(action, Bid)]
        out.append("Bids: " + (", ".join(bids) if bids else "none yet"))
        trick = dict(deal.tricks[-1].plays) if deal.tricks and not deal.trick else dict(deal.trick)
        if deal.tricks and not deal.trick:
            last = deal.tricks[-1]
            out.append(f"\nTrick {len(deal.tricks)}: led by {name(last.leader)}, won by {name(last.winner)}",
                       style="bold yellow")
        hands = Table(box=None, show_header=True, header_style="dim", padding=(0, 1), expand=False)
        hands.add_column("player", no_wrap=True, style="bold")
        if trick:
            hands.add_column("played", no_wrap=True)
        hands.add_column("hand", ratio=1)
        for seat in range(deal.players):
            role = " (taker)" if seat == deal.taker else (
                " (partner)" if seat == deal.partner and (deal.partner_revealed or deal.is_over) else "")
            cells = [Text(name(seat) + role)]
            if trick:
                cells.append(card_text(trick[seat]) if seat in trick else Text(""))
            cells.append(cards_text(deal.hands[seat]) if deal.hands[seat] else Text("(no cards)", style="dim"))
            hands.add_row(*cells)
        rest = Text()
        if deal.dog or deal.ecart:
            rest.append("Dog: ", style="bold")
            rest.append_text(cards_text(deal.initial_dog))
            if deal.ecart:
                rest.append("   Écart: ", style="bold")
                rest.append_text(cards_text(deal.ecart))
            rest.append("\n")
        for seat, action in deal.history:
            if not isinstance(action, (Bid, Play)):
                rest.append_text(describe(seat, action, name=name))
                rest.append("\n")
        if deal.is_over and deal.result is not None:
            rest.append_text(result_text(deal.players, deal.result, name=name))
        return Group(out, hands, rest)


__all__ = ["ReplayApp", "record_names", "replay_steps", "replay_text"]
