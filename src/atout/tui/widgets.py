"""Widgets of the terminal game: the hand, the table, card labels."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ..engine.cards import EXCUSE, display_order, french_name

CELL = 4  # columns per card in the hand


def card_style(card: int) -> str:
    if card == EXCUSE:
        return "bold magenta"
    if card >= 56:
        return "bold yellow"
    return "bold red" if card // 14 in (1, 2) else "bold white"


def card_word(card: int) -> str:
    """A card as every sentence, the table and the log name it: ``R♠``, ``trump 19``, ``Excuse``.

    The hand shows trumps by their number alone (on a yellow tile, in their own group), so
    the words here are what a person reads there, and refusals never use record codes (T19)."""
    if card == EXCUSE:
        return "Excuse"
    if card >= 56:
        return f"trump {card - 55}"
    return french_name(card)


def card_text(card: int, style: str | None = None) -> Text:
    """A card's words (:func:`card_word`) in its colour: trumps yellow, red suits red."""
    return Text(card_word(card), style=style or card_style(card))


def cards_text(mask_or_cards, sep: str = " ") -> Text:
    """Several cards, trumps grouped: ``trumps 21 5, Excuse, 1♠ C♦`` (one ``trump 7`` alone).

    Grouping keeps a poignée of ten trumps short while each card reads as in the log."""
    cards = display_order(mask_or_cards) if isinstance(mask_or_cards, int) else list(mask_or_cards)
    trumps = [c for c in cards if 56 <= c < EXCUSE]
    others = [c for c in cards if not 56 <= c < EXCUSE]
    out = Text()
    if trumps:
        out.append("trump " if len(trumps) == 1 else "trumps ", style=card_style(trumps[0]))
        for i, card in enumerate(trumps):
            if i:
                out.append(sep)
            out.append(str(card - 55), style=card_style(card))
    for i, card in enumerate(others):
        if i or trumps:
            out.append("," + sep if (i == 0 and trumps) or card == EXCUSE or (i and others[i - 1] == EXCUSE)
                       else sep)
        out.append_text(card_text(card))
    return out


def signed(number: int) -> str:
    """A score with its sign, ``+12`` or ``−12``: one minus sign everywhere, the formula's −."""
    return f"{number:+d}".replace("-", "−")


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 bout``, ``2 bouts``: counts in sentences agree with their noun."""
    return f"{count} {word if count == 1 else many or word + 's'}"


class HandView(Widget, can_focus=True):
    """The person's hand, sorted (trumps, Excuse, suits).

    Playable (or selectable) cards are bright, the others dim; selected cards
    are highlighted; the cursor is reversed.  Enter, space or a click chooses
    the card under the cursor: the screen decides what that means.
    """

    DEFAULT_CSS = """
    HandView { height: 3; padding: 0 1; }
    HandView:focus { background: $boost; }
    """

    BINDINGS = [
        Binding("left", "move(-1)", "◀", show=False),
        Binding("right", "move(1)", "▶", show=False),
        Binding("up", "move_row(-1)", show=False),
        Binding("down", "move_row(1)", show=False),
        Binding("home", "move(-99)", show=False),
        Binding("end", "move(99)", show=False),
        Binding("enter,space", "choose", "Choose card"),
    ]

    hand: reactive[int] = reactive(0)
    marked: reactive[int] = reactive(0)  # bright cards
    selected: reactive[int] = reactive(0)  # highlighted cards
    tagged: reactive[int] = reactive(0)  # cards from the dog (underlined)
    cursor: reactive[int] = reactive(0)

    class Chosen(Message):
        def __init__(self, card: int) -> None:
            super().__init__()
            self.card = card

    @property
    def cards(self) -> list[int]:
        return display_order(self.hand)

    def per_row(self) -> int:
        return max(1, (self.size.width - 2) // CELL)

    def watch_hand(self) -> None:
        self.cursor = min(self.cursor, max(0, len(self.cards) - 1))

    def render(self) -> Text:
        cards = self.cards
        per_row = self.per_row()
        out = Text(no_wrap=True)
        if not cards:
            out.append("(no cards)", style="dim")
            return out
        for i, card in enumerate(cards):
            if i and i % per_row == 0:
                out.append("\n")
            style = card_style(card)
            if not self.marked >> card & 1:
                style = "dim " + style.replace("bold ", "")
            if self.tagged >> card & 1:
                style += " underline"
            if self.selected >> card & 1:
                style += " on dark_green"
            if i == self.cursor and self.has_focus:
                style += " reverse"
            out.append(french_name(card).rjust(3), style=style)
            out.append(" ")
        return out

    def action_move(self, step: int) -> None:
        n = len(self.cards)
        if n:
            self.cursor = max(0, min(n - 1, self.cursor + step))

    def action_move_row(self, step: int) -> None:
        self.action_move(step * self.per_row())

    def action_choose(self) -> None:
        cards = self.cards
        if cards:
            self.post_message(self.Chosen(cards[self.cursor]))

    def card_at(self, x: int, y: int) -> int | None:
        col = (x - 1) // CELL
        if x < 1 or col >= self.per_row():
            return None
        index = y * self.per_row() + col
        cards = self.cards
        return cards[index] if 0 <= index < len(cards) else None

    def on_click(self, event: events.Click) -> None:
        card = self.card_at(event.x, event.y)
        if card is not None:
            self.cursor = self.cards.index(card)
            self.post_message(self.Chosen(card))

    def focus_card(self, card: int) -> None:
        cards = self.cards
        if card in cards:
            self.cursor = cards.index(card)
