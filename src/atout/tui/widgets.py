"""Widgets of the terminal game: the hand, the table, card labels."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from ..engine.cards import EXCUSE, SUIT_SYMBOLS, display_order
from .words import N_, Language, _, language, n_

CELL = 4  # columns per card in the hand
BOX_CELL = 6  # columns per drawn card (frame of 5 and a gap) in a large terminal


class Footer(TextualFooter):
    """Textual's footer, each key's label in the person's language (the labels are marked N_ where the
    keys are bound, and translated here, when drawn), drawn again only when what it shows changed."""

    _drawn: tuple[object, ...] | None = None

    def bindings_changed(self, screen: Screen) -> None:
        """Textual's footer builds its keys anew at each change of focus, though most change no key it shows
        (a card to the next, a prompt's button to another): a third of the styling in the terminal's tests
        went to the same keys again (tests/tui/test_app.py: 35,602 styles applied, 23,695 since)."""
        if self.is_attached and screen is self.screen and screen.app.app_focus:
            shown = (
                language(),
                tuple(
                    (binding.key, binding.action, binding.description, enabled, tooltip)
                    for (_, binding, enabled, tooltip) in screen.active_bindings.values()
                    if binding.show
                ),
            )
            if shown == self._drawn:
                return
            self._drawn = shown
        super().bindings_changed(screen)

    def compose(self):
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.description = _(widget.description)
                # Born in the footer's style: a key is born compact and bound to the footer's (not compact), so each
                # key's class was added then removed as it mounted, each change styling it anew (a tenth of the
                # terminal's whole-game test)
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget


def card_style(card: int) -> str:
    if card == EXCUSE:
        return "bold magenta"
    if card >= 56:
        return "bold yellow"
    return "bold red" if card // 14 in (1, 2) else "bold white"


LETTERS = {Language.FR: {14: "R", 13: "D", 12: "C", 11: "V"}}
"""The face cards' letters where the language's deck has its own (Roi, Dame, Cavalier, Valet); else K Q C J,
the corner letters of the French-suited decks sold in English- and Spanish-speaking countries."""


def card_label(card: int) -> str:
    """A card's short label in the hand: ``K♠`` (``R♠`` in French), ``10♥``, ``21``, ``Ex``."""
    if card == EXCUSE:
        return "Ex"
    if card >= 56:
        return str(card - 55)
    rank = card % 14 + 1
    letter = LETTERS.get(language(), {}).get(rank) or {14: "K", 13: "Q", 12: "C", 11: "J"}.get(rank, str(rank))
    return f"{letter}{SUIT_SYMBOLS[card // 14]}"


def card_word(card: int) -> str:
    """A card as every sentence, the table and the log name it: ``K♠``, ``trump 19``, ``Excuse``.

    The hand shows trumps by their number alone (on a yellow tile, in their own group), so
    the words here are what a person reads there, and refusals never use record codes (T19)."""
    if card == EXCUSE:
        return _("Excuse")
    if card >= 56:
        return _("trump {n}", n=card - 55)
    return card_label(card)


def card_text(card: int, style: str | None = None) -> Text:
    """A card's words (:func:`card_word`) in its colour: trumps yellow, red suits red."""
    return Text(card_word(card), style=style or card_style(card))


def cards_text(mask_or_cards, sep: str = " ") -> Text:
    """Several cards, trumps grouped: ``trumps 21 5, Excuse, 1♠ C♦`` (one ``trump 7`` alone).

    Grouping keeps a poignée of ten trumps short while each card reads as in the log. A wider ``sep`` (the
    dog's box: ``trump 12  3♠  K♥``) spaces every card alike, with no comma: a comma before a wide gap read
    as a card left out (``trump 12,  3♠``)."""
    cards = display_order(mask_or_cards) if isinstance(mask_or_cards, int) else list(mask_or_cards)
    trumps = [c for c in cards if 56 <= c < EXCUSE]
    others = [c for c in cards if not 56 <= c < EXCUSE]
    out = Text()
    if trumps:
        out.append(n_("trump", "trumps", len(trumps)) + " ", style=card_style(trumps[0]))
        for i, card in enumerate(trumps):
            if i:
                out.append(sep)
            out.append(str(card - 55), style=card_style(card))
    for i, card in enumerate(others):
        if i or trumps:
            grouped = (i == 0 and trumps) or card == EXCUSE or (i and others[i - 1] == EXCUSE)
            out.append("," + sep if grouped and sep == " " else sep)
        out.append_text(card_text(card))
    return out


def signed(number: int) -> str:
    """A score with its sign, ``+12`` or ``−12``: one minus sign everywhere, the formula's −."""
    return f"{number:+d}".replace("-", "−")


def group_of(card: int) -> int:
    """The hand's groups, each apart from the next: trumps, the Excuse, then each suit."""
    return 4 if 56 <= card < EXCUSE else 5 if card == EXCUSE else card // 14 + 6


class HandView(Widget, can_focus=True):
    """The person's hand, sorted (trumps, Excuse, suits), each group a little apart.

    Trumps are yellow tiles (number on a filled block), so they stand apart from the suit cards
    by shape as well as colour; in a terminal of 100×32 or more every card is drawn as a small
    card (a double frame for trumps).  Playable (or selectable) cards are bright, the others
    dim; selected cards are highlighted; the cursor is reversed.  Enter, space or a click
    chooses the card under the cursor: the screen decides what that means.
    """

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 2; }
    HandView:focus { background: $boost; }
    """

    BINDINGS = [
        Binding("left", "move(-1)", "◀", show=False),
        Binding("right", "move(1)", "▶", show=False),
        Binding("up", "move_row(-1)", show=False),
        Binding("down", "move_row(1)", show=False),
        Binding("home", "move(-99)", show=False),
        Binding("end", "move(99)", show=False),
        Binding("enter,space", "choose", N_("Choose card")),
    ]

    hand: reactive[int] = reactive(0, layout=True)
    marked: reactive[int] = reactive(0)  # bright cards
    selected: reactive[int] = reactive(0)  # highlighted cards
    tagged: reactive[int] = reactive(0)  # cards from the dog (underlined)
    cursor: reactive[int] = reactive(0)
    choosing: reactive[bool] = reactive(False, bindings=True)  # a card is chosen now (écart, poignée, play)

    class Chosen(Message):
        def __init__(self, card: int) -> None:
            super().__init__()
            self.card = card

    @property
    def cards(self) -> list[int]:
        return display_order(self.hand)

    def boxed(self) -> bool:
        """Small drawn cards when the terminal has room for them (100×32 or more)."""
        screen = self.screen.size if self.is_attached else self.size
        return screen.width >= 100 and screen.height >= 32

    def layout_cards(self, width: int | None = None) -> list[tuple[int, int, int]]:
        """(card, x, row) of every card: rows wrap at the widget's width, groups a column apart."""
        width = width or self.size.width or 80
        cell = BOX_CELL if self.boxed() else CELL
        out = []
        x, row, last = 1, 0, None
        for card in self.cards:
            gap = 1 if last is not None and group_of(card) != group_of(last) else 0
            if x + gap + cell > width and x > 1:
                x, row, gap = 1, row + 1, 0
            x += gap
            out.append((card, x, row))
            x += cell
            last = card
        return out

    def get_content_height(self, container, viewport, width: int) -> int:
        rows = max((row for _, _, row in self.layout_cards(width)), default=0) + 1
        return rows * (3 if self.boxed() else 1)

    def per_row(self) -> int:
        """Cards in the first row (kept for callers that page by rows)."""
        layout = self.layout_cards()
        return max(1, sum(1 for _, _, row in layout if row == 0))

    def watch_hand(self) -> None:
        self.cursor = min(self.cursor, max(0, len(self.cards) - 1))

    def card_style_now(self, index: int, card: int) -> str:
        style = card_style(card)
        if card >= 56 and card != EXCUSE:
            style = "bold black on yellow" if self.marked >> card & 1 else "black on #8a7a2a"
        elif not self.marked >> card & 1:
            style = "dim " + style.replace("bold ", "")
        if self.tagged >> card & 1:
            style += " underline"
        if self.selected >> card & 1:
            style += " on dark_green"
        if index == self.cursor and self.has_focus:
            style += " reverse"
        return style

    def render(self) -> Text:
        cards = self.cards
        if not cards:
            return Text(_("(no cards)"), style="dim")
        layout = self.layout_cards()
        boxed = self.boxed()
        rows = max(row for _, _, row in layout) + 1
        height = 3 if boxed else 1
        lines = [Text() for _ in range(rows * height)]
        used = [0] * len(lines)  # the columns each line fills so far

        def put(line: int, x: int, text: Text) -> None:
            if x > used[line]:
                lines[line].append(" " * (x - used[line]))
                used[line] = x
            lines[line].append_text(text)
            used[line] += text.cell_len

        for index, (card, x, row) in enumerate(layout):
            style = self.card_style_now(index, card)
            label = card_label(card)
            if not boxed:
                put(row, x, Text(label.rjust(3), style=style))
                continue
            trump = 56 <= card < EXCUSE
            frame = "dim" if not self.marked >> card & 1 else card_style(card).replace("bold ", "")
            if index == self.cursor and self.has_focus:
                frame = "bold reverse"
            top, side, bottom = ("╔═══╗", "║", "╚═══╝") if trump else ("┌───┐", "│", "└───┘")
            put(row * 3, x, Text(top, style=frame))
            middle = Text(side, style=frame)
            middle.append(label.rjust(3), style=style)
            middle.append(side, style=frame)
            put(row * 3 + 1, x, middle)
            put(row * 3 + 2, x, Text(bottom, style=frame))
        out = Text(no_wrap=True, overflow="crop")
        for i, text in enumerate(lines):
            if i:
                out.append("\n")
            out.append_text(text)
        return out

    def action_move(self, step: int) -> None:
        n = len(self.cards)
        if n:
            self.cursor = max(0, min(n - 1, self.cursor + step))

    def action_move_row(self, step: int) -> None:
        """Up and down go to the nearest card in the row above or below."""
        layout = self.layout_cards()
        if not layout:
            return
        _, x, row = layout[self.cursor]
        others = [(abs(cx - x), i) for i, (_, cx, r) in enumerate(layout) if r == row + step]
        if others:
            self.cursor = min(others)[1]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter's hint ("Choose card") only while a card is to be chosen, not during the auction."""
        if action == "choose":
            return self.choosing
        return True

    def action_choose(self) -> None:
        cards = self.cards
        if cards:
            self.post_message(self.Chosen(cards[self.cursor]))

    def position_of(self, card: int) -> tuple[int, int]:
        """Where to click for ``card`` (the middle of its label)."""
        height = 3 if self.boxed() else 1
        for c, x, row in self.layout_cards():
            if c == card:
                return x + 2, row * height + height // 2
        raise ValueError(f"card {card} is not in the hand")

    def card_at(self, x: int, y: int) -> int | None:
        boxed = self.boxed()
        cell = BOX_CELL if boxed else CELL
        row = y // (3 if boxed else 1)
        for card, cx, r in self.layout_cards():
            if r == row and cx <= x < cx + cell:
                return card
        return None

    def on_click(self, event: events.Click) -> None:
        card = self.card_at(event.x, event.y)
        if card is not None:
            self.cursor = self.cards.index(card)
            self.post_message(self.Chosen(card))

    def focus_card(self, card: int) -> None:
        cards = self.cards
        if card in cards:
            self.cursor = cards.index(card)
