"""``atout replay FILE``: step through a deal record in the terminal, trick by trick."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..engine import Bid, Deal, Play
from ..engine.record import parse_action, start_deal
from .styling import StyledWhenMounted
from .text import contract_label, describe, result_text
from .widgets import Footer, card_text, cards_text
from .words import N_, Language, _, catalogue, rich


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
    titles = [_("The deal")]
    for i, entry in enumerate(actions):
        seat, action = parse_action(entry, i, deal.players)
        before = len(deal.tricks)
        first_play = isinstance(action, Play) and not deal.tricks and not deal.trick
        if first_play:
            states.append(deal.clone())
            titles.append(_("Bidding done, écart laid aside") if deal.ecart else _("Bidding done"))
        try:
            deal.apply(action, seat=seat)
        except IllegalAction as err:
            raise RecordError(i, err.rule, err.message) from None
        if len(deal.tricks) > before:
            states.append(deal.clone())
            titles.append(_("Trick {n}", n=len(deal.tricks)))
    if deal.is_over and deal.void:
        states.append(deal.clone())
        titles.append(_("Void deal"))
    elif not deal.is_over and (len(states) == 1 or states[-1].history != deal.history):
        states.append(deal.clone())
        titles.append(_("Where the record stops"))
    return states, titles


def you_names() -> set[str]:
    """The person's name in every language the game speaks: a record written by ``atout play`` names its
    person "You", "Vous" or "Tú", as the game spoke then."""
    return {N_("You"), *(catalogue(language)[0]["You"] for language in Language if language is not Language.EN)}


def record_names(record: dict) -> list[str]:
    """The players' names a record carries (``atout play`` writes them), else ``Seat 0``...; the person
    ("You" in the record's language) is "You" in the replay's.

    Names are optional in a record (docs/record-format.md); a list of the wrong length or
    kind is ignored rather than refused, so any valid record still replays."""
    given = record.get("players")
    players = given if isinstance(given, int) else 0
    names = record.get("names")
    if isinstance(names, list) and len(names) == players and all(isinstance(n, str) and n for n in names):
        yous = you_names()
        return [_("You") if name in yous else name for name in names]
    return [_("Seat {n}", n=seat) for seat in range(max(players, 0))]


def deals(name: str) -> str:
    """ "Ann deals", and "You deal" (a terminal game's record names its person "You")."""
    return _("You deal") if name == _("You") else _("{name} deals", name=name)


def replay_text(record: dict, title: str = "") -> str:
    """A plain-text account of a whole deal record: hands, dog, every action, each trick
    with who played what, and the result; what ``atout replay FILE`` prints without a terminal."""
    states, _titles = replay_steps(record)
    names = record_names(record)
    deal = states[-1]
    lines = []
    head = _("{n} players", n=deal.players) + ", " + deals(names[deal.dealer])
    if deal.seed is not None:
        head += ", " + _("seed {seed}", seed=deal.seed)
    lines.append(f"{title}: {head}" if title else head)
    lines.append(_("Hands as dealt:"))
    dog = _("Dog")
    width = max(len(n) for n in [*names, dog])
    for seat in range(deal.players):
        lines.append(f"  {names[seat]:<{width}}  {cards_text(deal.initial_hands[seat]).plain}")
    lines.append(f"  {dog:<{width}}  {cards_text(deal.initial_dog).plain}")
    trick_no = 0
    for seat, action in deal.history:
        if not isinstance(action, Play):
            lines.append(describe(seat, action, name=names.__getitem__).plain)
    for trick in deal.tricks:
        trick_no += 1
        plays = ", ".join(f"{names[s]} {card_text(c).plain}" for s, c in trick.plays)
        lines.append(_("Trick {n}:", n=trick_no) + f" {plays} → {names[trick.winner]}")
    if deal.trick:
        plays = ", ".join(f"{names[s]} {card_text(c).plain}" for s, c in deal.trick)
        lines.append(_("Trick {n} (unfinished):", n=trick_no + 1) + f" {plays}")
    if deal.is_over and deal.result is not None:
        lines.extend(result_text(deal.players, deal.result, name=names.__getitem__).plain.splitlines())
    else:
        actor = deal.to_act
        assert actor is not None  # a deal that is not over has a seat to act
        lines.append(_("The record stops here: {name} is to act.", name=names[actor]))
    return "\n".join(line.rstrip() for line in lines)


class ReplayApp(StyledWhenMounted):
    """Shows every hand, the bidding, and the tricks one at a time."""

    TITLE = N_("Atout replay")
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [  # the keys' labels translated when the footer draws them
        Binding("right,n,space,l", "step(1)", N_("Next trick")),
        Binding("left,b,h", "step(-1)", N_("Previous")),
        Binding("home", "step(-999)", N_("Beginning")),
        Binding("end", "step(999)", N_("End")),
        Binding("q,escape", "quit", N_("Quit")),
    ]
    CSS_PATH = "replay.tcss"

    def __init__(self, record: dict, name: str = "") -> None:
        super().__init__()
        self.title = _(self.TITLE)
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
        out.append(_("{n} players", n=deal.players) + " · " + deals(name(deal.dealer)))
        if deal.seed is not None:
            out.append(" · " + _("seed {seed}", seed=deal.seed))
        if deal.taker is not None:
            out.append(" · " + _("{taker}: {contract}", taker=name(deal.taker), contract=contract_label(deal.contract)))
        if deal.called is not None:
            out.append_text(rich(" · " + _("called {card}"), card=card_text(deal.called)))
            if deal.partner_revealed or deal.is_over:
                out.append(f" ({name(deal.partner) if deal.partner is not None else _('alone')})")
        out.append("\n")
        bids = [describe(seat, action, name=name) for seat, action in deal.history if isinstance(action, Bid)]
        out.append(_("Bids:") + " ")
        out.append_text(Text(", ").join(bids) if bids else Text(_("none yet")))
        trick = dict(deal.tricks[-1].plays) if deal.tricks and not deal.trick else dict(deal.trick)
        if deal.tricks and not deal.trick:
            last = deal.tricks[-1]
            out.append(
                "\n"
                + _(
                    "Trick {n}: led by {leader}, won by {winner}",
                    n=len(deal.tricks),
                    leader=name(last.leader),
                    winner=name(last.winner),
                ),
                style="bold yellow",
            )
        hands = Table(box=None, show_header=True, header_style="dim", padding=(0, 1), expand=False)
        hands.add_column(_("player"), no_wrap=True, style="bold")
        if trick:
            hands.add_column(_("played"), no_wrap=True)
        hands.add_column(_("hand"), ratio=1)
        for seat in range(deal.players):
            role = (
                " " + _("(taker)")
                if seat == deal.taker
                else (" " + _("(partner)") if seat == deal.partner and (deal.partner_revealed or deal.is_over) else "")
            )
            cells = [Text(name(seat) + role)]
            if trick:
                cells.append(card_text(trick[seat]) if seat in trick else Text(""))
            cells.append(cards_text(deal.hands[seat]) if deal.hands[seat] else Text(_("(no cards)"), style="dim"))
            hands.add_row(*cells)
        rest = Text()
        if deal.dog or deal.ecart:
            rest.append(_("Dog:") + " ", style="bold")
            rest.append_text(cards_text(deal.initial_dog))
            if deal.ecart:
                rest.append("   " + _("Écart:") + " ", style="bold")
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
