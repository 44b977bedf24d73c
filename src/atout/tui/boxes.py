"""The small boxes over the table: the help, a box of cards (dog, previous trick, shown cards), leaving."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from .game import HUMAN, seat_name
from .text import contract_label, contracts_text, poignee_word
from .widgets import card_text, cards_text
from .words import N_, _

HELP = N_("""\
[b]Atout — French Tarot against the computer[/b]
(Escape closes this help.)

[b]Keys[/b]
• ←/→ ↑/↓ Home End: move in your hand; Enter or Space: choose the card (or click it).
• 1…9: the numbered buttons, or Tab to them, or click. At the auction the keys never change: {auction_keys} (greyed when no higher than the best bid).
• h: hint, what the expert robot would do · p: the previous trick · c: cards shown to all (dog, trumps of the écart, poignées) · s: save · q: leave (asks first, and says where the game is saved) · ?: this help.

[b]Cards[/b]
Four suits, ♠ ♥ ♦ ♣, of 14 cards: K (king, the Roi), Q (queen, the Dame), C (knight, the Cavalier), J (jack, the Valet), then 10 down to 1. The 21 trumps, numbered 1 to 21, are yellow tiles in your hand ("trump 19" in sentences); the Excuse (Ex in your hand) is neither suit nor trump. The three bouts are the 21, the Petit (trump 1) and the Excuse.
Card points: a bout or a king 4½, a queen 3½, a knight 2½, a jack 1½, any other card ½ (91 in all).

[b]Bidding[/b]
Each player speaks once, higher than the last bid or passes: {contracts}. After a Prise or a Garde the dog is shown, taken, and an écart laid aside; after a Garde sans or a Garde contre nobody sees the dog. At 5 players the taker calls a King: its holder is the secret partner.

[b]Écart[/b]
Never a King or a bout; trumps only when too few other cards may be laid aside, and they are shown.

[b]Play[/b]
Follow the suit led; if you cannot, trump; over-trump when you can, even over a partner. The Excuse may always be played and stays with its owner.

[b]Score[/b]
The taker needs 56 points with no bout, 51 with 1, 41 with 2, 36 with 3. U = (25 + margin ± 10 for the petit au bout) × multiplier ± poignée ± chelem; each defender scores −U, the taker the rest. Poignée (shown before your first card): 10/13/15 trumps at 4 players, 13/15/18 at 3, 8/10/13 at 5, worth 20/30/40 to the winning side. Chelem (all the tricks): +400 announced, +200 unannounced, −200 announced but failed.
""")
"""The help (key ?), its {auction_keys} and {contracts} filled when shown, in the person's language."""


def help_text() -> str:
    auction_keys = ", ".join(f"{n} {contract_label(n - 1)}" for n in range(1, 6))
    return _(HELP, auction_keys=auction_keys, contracts=contracts_text())


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape,q,question_mark", "app.pop_screen", N_("Close"))]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(help_text())


class InfoScreen(ModalScreen):
    """A small box of text closed by Enter, Escape or its button (dog, previous trick...)."""

    BINDINGS = [Binding("escape,enter,space,p,c", "close", N_("Close"))]

    def __init__(self, title: str, body, kind: str = "info") -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.kind = kind
        self.closing = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self.title_text, style="bold"))
            yield Static(self.body)
            ok = Button(_("OK (Enter)"), variant="primary", compact=True, id="ok")
            ok.can_focus = False  # Enter is the box's own key: it must not reach the hand below
            yield ok

    @on(Button.Pressed, "#ok")
    def _ok(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_close()

    def action_close(self) -> None:
        if not self.closing:
            self.closing = True
            self.dismiss(True)


class LeaveScreen(ModalScreen[bool]):
    """Asked before leaving a game: says where it is saved, or that it could not be saved."""

    BINDINGS = [Binding("y,q,enter", "leave", N_("Leave")), Binding("n,escape", "stay", N_("Stay"))]

    def __init__(self, where: str, saved: bool) -> None:
        super().__init__()
        self.where = where
        self.saved = saved

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(_("Leave the game?"), style="bold"))
            yield Static(Text(self.where, style="" if self.saved else "bold red"), id="where")
            with Horizontal():
                leave = Button(_("Leave (y)"), variant="primary" if self.saved else "error", compact=True, id="leave")
                stay = Button(_("Stay (n)"), compact=True, id="stay")
                for button in (leave, stay):
                    button.can_focus = False  # y/n/Enter/Escape are the box's keys
                    yield button

    @on(Button.Pressed, "#leave")
    def _leave(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(True)

    @on(Button.Pressed, "#stay")
    def _stay(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(False)

    def action_leave(self) -> None:
        self.dismiss(True)

    def action_stay(self) -> None:
        self.dismiss(False)


def previous_trick_box(obs) -> InfoScreen | None:
    """The last trick played, its winner starred (key p); None before the first trick."""
    if not obs.tricks:
        return None
    trick = obs.tricks[-1]
    body = Text()
    for seat, card in trick.plays:
        body.append(f"{seat_name(seat):<8} ")
        body.append_text(card_text(card))
        if seat == trick.winner:
            body.append("   ★ " + _("wins the trick"), style="yellow")
        body.append("\n")
    return InfoScreen(_("Previous trick (trick {n})", n=len(obs.tricks)), body, kind="previous")


def shown_cards_box(obs) -> InfoScreen:
    """The cards shown to all (key c): the dog, the trumps of the écart, the poignées."""
    body = Text()
    if obs.dog is not None:
        body.append(_("Dog:") + " ")
        body.append_text(cards_text(obs.dog))
        body.append("\n")
    if obs.ecart_trumps:
        body.append(_("Trumps in the écart:") + " ")
        body.append_text(cards_text(obs.ecart_trumps))
        body.append("\n")
    for seat, cards, size, bonus in obs.poignees:
        said = (
            _("Your {size} poignée ({bonus}):", size=poignee_word(size), bonus=bonus)
            if seat == HUMAN
            else _("{name}'s {size} poignée ({bonus}):", name=seat_name(seat), size=poignee_word(size), bonus=bonus)
        )
        body.append(said + " ")
        body.append_text(cards_text(cards))
        body.append("\n")
    if not body.plain:
        body.append(_("No card has been shown yet."))
    return InfoScreen(_("Cards shown to all"), body, kind="shown")
