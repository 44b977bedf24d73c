"""The start screen: the players, the robots' level, the number of deals and maybe a seed."""

from __future__ import annotations

from typing import Protocol, TypedDict, runtime_checkable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static

from ..bots import OFFERED_LEVELS
from .game import default_level
from .text import level_word
from .widgets import Footer
from .words import N_, _


def offered_levels(current: str) -> tuple[list[str], str]:
    """The levels the start screen offers (beginner, club, expert), with ``current`` among them:
    ``heuristic`` is shown by its people's name, club, and any other level asked for is added."""
    current = "club" if current == "heuristic" else current
    levels = list(OFFERED_LEVELS)
    if current not in levels:
        levels.insert(0, current)
    return levels, current


@runtime_checkable
class GameHost(Protocol):
    """What this screen asks of the app it runs in: a new game with the settings chosen, or the saved one."""

    def new_game(self, players: int, level: str | None, deals: int, seed: str | None) -> None: ...

    def resume_game(self) -> None: ...


class Choice(RadioSet):
    """One of the start screen's choices: its cursor starts on the option chosen (Textual's starts on the
    first, so "3 players" was lit while 4 was chosen, and the first Enter switched to 3); the arrows choose
    the option they move to (Textual's only move a highlight: a person who chose 5 players with them, then
    went on with Tab or a click on Start, got 4); Enter takes the option under the cursor and begins, as
    Enter does everywhere on the start screen; Space chooses."""

    BINDINGS = [Binding("enter", "begin", N_("Start"), show=False)]

    def on_mount(self) -> None:
        self.call_after_refresh(self._on_chosen)  # after RadioSet's own mount, which lights the first option

    def _on_chosen(self) -> None:
        if self.pressed_index >= 0:
            self._selected = self.pressed_index

    def action_next_button(self) -> None:
        super().action_next_button()
        self._choose_highlighted()

    def action_previous_button(self) -> None:
        super().action_previous_button()
        self._choose_highlighted()

    def _choose_highlighted(self) -> None:
        """The option highlighted is chosen (not on mount, where Textual's set moves to its first option
        before it knows the one chosen)."""
        if self.pressed_index >= 0 and self._selected is not None and self._selected != self.pressed_index:
            self.action_toggle_button()

    begin = False  # Enter took another option: the game begins once the set has taken it

    def action_begin(self) -> None:
        if self._selected is not None and self._selected != self.pressed_index:
            self.begin = True
            self.action_toggle_button()
        else:
            self.screen.action_start()  # type: ignore[attr-defined]

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        if self.begin and event.radio_set is self:
            self.begin = False
            self.screen.action_start()  # type: ignore[attr-defined]


class GameSettings(TypedDict):
    """What the start screen asks before a game: the players, the robots' level, the deals, a seed."""

    players: int
    level: str | None
    deals: int
    seed: str | None


class StartScreen(Screen):
    """Choose the players, the robots' level, the length and maybe a seed."""

    BINDINGS = [Binding("q,escape", "app.quit", N_("Quit")), Binding("enter", "start", N_("Start"))]

    def __init__(
        self,
        players: int = 4,
        level: str | None = None,
        deals: int = 4,
        seed: str | None = None,
        can_resume: bool = False,
    ) -> None:
        super().__init__()
        self.players = players
        self.level = level or default_level()
        self.deals = deals
        self.seed = seed
        self.can_resume = can_resume

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(_("Atout — French Tarot against the computer"), style="bold"))
            with Horizontal():
                with Choice(id="players"):
                    for n in (3, 4, 5):
                        yield RadioButton(_("{n} players", n=n), value=n == self.players)
                with Choice(id="level"):
                    levels, current = offered_levels(self.level)
                    for level in levels:
                        yield RadioButton(_("robots: {level}", level=level_word(level)), value=level == current)
            with Horizontal():
                with Vertical(classes="field"):
                    yield Label(_("Number of deals"))
                    yield Input(str(self.deals), placeholder=_("number of deals"), id="deals", type="integer")
                with Vertical(classes="field"):
                    yield Label(_("Seed (optional)"))
                    yield Input(self.seed or "", placeholder=_("same seed, same deals"), id="seed")
            with Horizontal():
                yield Button(_("Start"), variant="primary", id="start")
                if self.can_resume:
                    yield Button(_("Resume saved game"), id="resume")
                yield Button(_("Quit"), id="quit")
            yield Static(
                Text(
                    _(
                        "Tab moves between the choices, arrows and Space choose, Enter begins (with "
                        "the option under the cursor)."
                    ),
                    style="dim",
                )
            )
            yield Static("", id="error")
        yield Footer()

    def settings(self) -> GameSettings:
        players = (3, 4, 5)[max(0, self.query_one("#players", RadioSet).pressed_index)]
        levels, _current = offered_levels(self.level)
        index = self.query_one("#level", RadioSet).pressed_index
        level = levels[index] if index >= 0 else default_level()
        text = self.query_one("#deals", Input).value.strip() or "4"
        deals = int(text) if text.lstrip("-").isdigit() else 0
        if deals < 1:
            raise ValueError(_("the game needs at least one deal"))
        seed = self.query_one("#seed", Input).value.strip() or None
        return {"players": players, "level": level, "deals": deals, "seed": seed}

    def action_start(self) -> None:
        try:
            settings = self.settings()
        except ValueError as err:
            self.query_one("#error", Static).update(Text(f"{err}", style="red"))
            return
        self._host().new_game(**settings)

    def _host(self) -> GameHost:
        """The terminal game this screen runs in (named by what it does: the app imports this screen)."""
        app = self.app
        assert isinstance(app, GameHost)  # this screen runs in the terminal game only
        return app

    @on(Input.Submitted)
    @on(Button.Pressed, "#start")
    def _submitted(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#resume")
    def _resume(self) -> None:
        self._host().resume_game()

    @on(Button.Pressed, "#quit")
    def _quit(self) -> None:
        self.app.exit()
