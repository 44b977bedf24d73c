"""The table drawn as a table: every seat around a felt, you at the bottom, each card of the
trick in front of the player who played it.  Sizes itself to its space, from 80×24 up."""

from __future__ import annotations

import io

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ..engine import Bid, Phase
from .game import HUMAN, seat_name
from .text import contract_label
from .widgets import card_text
from .words import _, n_

# Where each seat sits, by the number of players: play goes anticlockwise, so the next
# player (seat 1) is on your right, as at a real table.
PLACES = {
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
    5: ("bottom", "right", "top-right", "top-left", "left"),
}


FELT = "on #0f3b24"  # the green cloth the cards lie on


class Canvas:
    """Rows of styled text written at (row, column), for drawing the table."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.cells: list[list[tuple[str, Style | str]]] = [[(" ", "")] * width for _ in range(height)]

    def fill(self, top: int, left: int, bottom: int, right: int, style: str) -> None:
        """Paint the background of a rectangle (the felt) under whatever is written on it later."""
        for row in range(max(0, top), min(self.height, bottom + 1)):
            for col in range(max(0, left), min(self.width, right + 1)):
                self.cells[row][col] = (" ", style)

    def put(self, row: int, col: int, text: Text | str, style: str = "") -> None:
        if isinstance(text, str):
            text = Text(text, style=style)
        text = text.copy()
        if not 0 <= row < self.height:
            return
        col = max(0, col)
        for char, char_style in _chars(text):
            if col >= self.width:
                return
            under = self.cells[row][col][1]
            if under and not char_style.bgcolor:  # keep the felt under the cards
                char_style = (Style.parse(under) if isinstance(under, str) else under) + char_style
            self.cells[row][col] = (char, char_style)
            col += 1

    def centre(self, row: int, middle: int, text: Text | str, style: str = "") -> None:
        length = text.cell_len if isinstance(text, Text) else len(text)
        self.put(row, middle - length // 2, text, style)

    def text(self) -> Text:
        """The drawing as one Text, a span per run of equal style (not one per cell)."""
        out = Text(no_wrap=True, overflow="crop")
        for i, row in enumerate(self.cells):
            if i:
                out.append("\n")
            run: list[str] = []
            run_style = row[0][1]
            for char, style in row:
                if style != run_style:
                    out.append("".join(run), style=run_style or None)
                    run, run_style = [], style
                run.append(char)
            out.append("".join(run), style=run_style or None)
        return out


def _chars(text: Text) -> list[tuple[str, Style]]:
    """Each character of ``text`` with its whole style (the text's own and its spans')."""
    base = Style.parse(text.style) if isinstance(text.style, str) else text.style
    styles = [base] * len(text.plain)
    for span in text.spans:
        extra = Style.parse(span.style) if isinstance(span.style, str) else span.style
        for i in range(span.start, min(span.end, len(styles))):
            styles[i] = styles[i] + extra
    return list(zip(text.plain, styles, strict=True))


class TableView(Widget):
    """The seats around the felt; the current trick (or the last one, with its winner) on it."""

    DEFAULT_CSS = """
    TableView { height: 1fr; width: 1fr; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.obs = None

    def show(self, obs) -> None:
        self.obs = obs
        self.refresh()

    def render(self) -> Text:
        if self.obs is None:
            return Text("")
        return table_picture(self.obs, self.size.width, self.size.height).text()


def seat_lines(obs, seat: int, won: list[int], bids: dict[int, str], wide: bool | str) -> list[Text]:
    """A seat's words: name (► when it is to act), role, then cards left and tricks won or its bid."""
    name = Text("► " if obs.to_act == seat and obs.phase != Phase.END else "", style="bold yellow")
    name.append(seat_name(seat), style="bold" if seat == HUMAN else "bold cyan" if seat == obs.taker else "")
    roles = []
    if seat == obs.taker and obs.phase not in (Phase.BIDDING, Phase.PETIT_SEC):
        roles.append(Text(_("TAKER"), style="bold cyan"))
    elif obs.partner is not None and seat == obs.partner and seat != obs.taker:
        roles.append(Text(_("partner"), style="cyan"))
    if seat == obs.dealer:
        roles.append(Text(_("dealer"), style="dim"))
    if obs.phase in (Phase.BIDDING, Phase.PETIT_SEC):
        info = Text(bids.get(seat, ""), style="cyan")
    else:
        info = Text(n_("{n} card", "{n} cards", obs.hand_sizes[seat]), style="dim")
        if obs.phase in (Phase.PLAY, Phase.END):
            info.append(" · " + n_("{n} trick", "{n} tricks", won[seat]), style="dim")
    if wide:
        line = name.copy()
        for role in roles:
            if role.plain == _("dealer") and wide == "corner":
                continue  # a corner's first line has room for the name and one role
            line.append(" · ")
            line.append_text(role)
        if wide == "corner" and seat == obs.dealer:
            return [line, Text(_("dealer"), style="dim"), info]
        return [line, info]
    if obs.phase in (Phase.PLAY, Phase.END):  # narrow: cards and tricks on lines of their own
        infos = [
            Text(n_("{n} card", "{n} cards", obs.hand_sizes[seat]), style="dim"),
            Text(n_("{n} trick", "{n} tricks", won[seat]), style="dim"),
        ]
    else:
        infos = [info]
    return [name, *roles, *infos]


def table_picture(obs, width: int, height: int) -> Canvas:
    """Draw the table for ``obs`` in ``width``×``height``: the layout grows with the space."""
    canvas = Canvas(width, height)
    n = obs.rules.players if hasattr(obs.rules, "players") else len(obs.hand_sizes)
    places = PLACES[n]
    bids: dict[int, str] = {}
    for seat, action in obs.history:
        if isinstance(action, Bid):
            bids[seat] = (
                _("bid {contract}", contract=contract_label(action.contract)) if action.contract else _("passed")
            )
    won = [0] * n
    for trick in obs.tricks:
        won[trick.winner] += 1
    trick = dict(obs.trick)
    last = None
    if not obs.trick and obs.tricks:
        last = obs.tricks[-1]
        trick = dict(last.plays)

    side_w = max(10, min(16, width // 5))
    top_rows = 3 if height >= 13 else 2
    felt_top, felt_bottom = top_rows, height - 3
    felt_left, felt_right = side_w, width - side_w - 1
    if felt_bottom - felt_top < 6 or felt_right - felt_left < 16:  # too small: a plain list
        for seat in range(n):
            line = Text().join(seat_lines(obs, seat, won, bids, True))
            canvas.put(seat, 0, line)
        return canvas
    # The felt.
    inner = felt_right - felt_left - 1
    canvas.fill(felt_top, felt_left, felt_bottom, felt_right, FELT)
    canvas.put(felt_top, felt_left, "╭" + "─" * inner + "╮", "green")
    canvas.put(felt_bottom, felt_left, "╰" + "─" * inner + "╯", "green")
    for row in range(felt_top + 1, felt_bottom):
        canvas.put(row, felt_left, "│", "green")
        canvas.put(row, felt_right, "│", "green")
    middle_col = (felt_left + felt_right) // 2
    middle_row = (felt_top + felt_bottom) // 2
    # On a big felt the cards come in from the edges, towards the middle, as on a real table.
    inset_rows = max(0, (felt_bottom - felt_top - 10) // 4)
    inset_cols = max(0, (inner - 30) // 4)
    # The seats and their cards.
    for seat, place in enumerate(places):
        wide = place in ("bottom", "top") or ("corner" if place.startswith("top-") else False)
        lines = seat_lines(obs, seat, won, bids, wide)
        card = None
        if seat in trick and (obs.phase in (Phase.PLAY, Phase.END) or last is not None):
            card = card_text(trick[seat], None if last is None else "bold" if seat == last.winner else "dim")
            if last is not None and seat == last.winner:
                card.append(" ★", style="bold yellow")
        if place == "bottom":
            for i, line in enumerate(lines):
                canvas.centre(felt_bottom + 1 + i, middle_col, line)
            if card is not None:
                canvas.centre(felt_bottom - 1 - inset_rows, middle_col, card)
        elif place in ("top", "top-left", "top-right"):
            col = {"top": middle_col, "top-left": width // 4, "top-right": width - width // 4}[place]
            if len(lines) > top_rows:  # a small terminal: the dealer's mark is in the log already
                lines = [lines[0], lines[-1]]
            first = felt_top - len(lines)
            for i, line in enumerate(lines):
                canvas.centre(first + i, col, line if place == "top" else _fit(line, width // 2 - 1))
            if card is not None:  # under its player, inside the felt
                if place != "top":
                    col = (felt_left + middle_col) // 2 if place == "top-left" else (middle_col + felt_right) // 2
                col = max(felt_left + 2 + card.cell_len // 2, min(felt_right - 1 - (card.cell_len + 1) // 2, col))
                canvas.centre(felt_top + 1 + inset_rows, col, card)
        else:
            first = middle_row  # the name level with the card, the rest below
            wrapped = [part for line in lines for part in _wrap(line, side_w - 1)]
            first = min(first, felt_bottom + 2 - len(wrapped))
            for i, line in enumerate(wrapped):
                if place == "left":
                    canvas.put(first + i, 0, line)
                else:
                    canvas.put(first + i, felt_right + 2, line)
            if card is not None:
                if place == "left":
                    canvas.put(middle_row, felt_left + 2 + inset_cols, card)
                else:
                    canvas.put(middle_row, felt_right - 1 - inset_cols - card.cell_len, card)
    # What the felt says in its middle.
    centre = Text()
    if obs.phase in (Phase.BIDDING, Phase.PETIT_SEC):
        if obs.taker is not None:
            centre = Text(
                _(
                    "best bid so far: {name}, {contract}",
                    name=seat_name(obs.taker),
                    contract=contract_label(obs.contract),
                ),
                style="dim",
            )
        else:
            centre = Text(_("bidding"), style="dim")
    elif last is not None and obs.phase in (Phase.PLAY, Phase.END):
        said = (
            _("You win trick {n}", n=len(obs.tricks))
            if last.winner == HUMAN
            else _("{name} wins trick {n}", name=seat_name(last.winner), n=len(obs.tricks))
        )
        centre = Text(said, style="yellow")
    elif obs.phase == Phase.PLAY:
        centre = Text(_("trick {n}", n=len(obs.tricks) + 1), style="dim")
    if centre.plain:
        row = middle_row - 2
        for i, line in enumerate(_wrap(centre, inner - 2)):
            canvas.centre(max(felt_top + 2, row) + i, middle_col, line)
    return canvas


def _wrap(text: Text, width: int) -> list[Text]:
    """A side seat's line over as many lines as its narrow room needs ("Garde" / "contre")."""
    if text.cell_len <= width:
        return [text]
    lines = list(text.wrap(_CONSOLE, width))
    for line in lines:
        line.rstrip()
    return lines


_CONSOLE = Console(file=io.StringIO(), width=200)


def _fit(text: Text, width: int) -> Text:
    """Shorten a seat's line to its room (names are short; this only trims long role lines)."""
    if text.cell_len <= width:
        return text
    out = text.copy()
    out.truncate(max(1, width - 1))
    out.append("…")
    return out
