"""``atout play``: one person against robots, in a terminal, with Textual.

The game screen drives the turns (whose turn, the robots' moves, the deal's flow); the board draws the
table (board.py), the prompt takes the person's cards and buttons (prompt.py); the look is atout.tcss."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from ..bots.analysis import WORLDS_FACTOR
from ..bots.hint import Hint
from ..engine import IllegalAction
from ..engine.choices import random_action
from ..engine.kinds import Phase
from .board import Board
from .boxes import HelpScreen, InfoScreen, LeaveScreen, previous_trick_box, shown_cards_box
from .game import HUMAN, Game, default_level, hint_level, seat_name
from .prompt import Prompt
from .result import ResultScreen
from .start import GameSettings, StartScreen
from .styling import StyledWhenMounted
from .text import contract_label, level_word, reason_words, refusal_words
from .widgets import Footer, HandView, cards_text
from .words import N_, _

__all__ = ["AtoutApp", "GameScreen", "HelpScreen", "InfoScreen", "LeaveScreen", "ResultScreen", "StartScreen", "run"]


class GameScreen(Screen):
    """The table of one game: drives its turns, the person's and the robots', from deal to deal."""

    BINDINGS = [
        Binding("h", "hint", N_("Hint")),
        Binding("p", "previous", N_("Prev trick")),
        Binding("c", "shown", N_("Shown cards")),
        Binding("question_mark,f1", "help", N_("Help")),
        Binding("s", "save", N_("Save")),
        Binding("q", "app.quit_game", N_("Quit")),
        *[Binding(str(i), f"button({i})", show=False) for i in range(1, 10)],
    ]
    HINT_FACTOR = WORLDS_FACTOR  # the hint's worlds, times the expert's: the analysis's own (a test asks for fewer)

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.board = Board(game)
        self.prompt = Prompt(game, act=self.human_acts, busy=lambda: self.robot_busy)
        self.dog_seen = False
        self.robot_busy = False
        self.token = 0  # a robot's move or a hint is taken only while nothing has happened since it was asked
        self._pending: list[Callable[[], object]] = []

    def compose(self) -> ComposeResult:
        yield self.board
        yield self.prompt
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(HandView).focus()
        self.begin_deal()

    # ------------------------------------------------------------ flow
    def begin_deal(self) -> None:
        """Show the deal in ``game.deal`` (new or resumed) and let it run."""
        self.dog_seen = False
        self.token += 1
        self.board.begin_deal()
        self.prompt.begin_deal()
        self.advance()

    def refresh_view(self) -> None:
        obs = self.game.observation()
        self.board.show(obs)
        self.prompt.show_hand(obs)

    def advance(self) -> None:
        """Move the game on: the person's turn, a robot's, or the deal's end."""
        game = self.game
        deal = game.current
        prompt = self.prompt
        self.refresh_view()
        if deal.is_over:
            prompt.clear_actions()
            self.robot_busy = False
            prompt.say(_("The deal is over."))
            if self.host.delay > 0:  # let the last trick be seen
                self.set_timer(self.host.delay * 2, self._show_result)
            else:
                self._show_result()
            return
        obs = game.observation()
        if obs.dog is not None and not self.dog_seen and not obs.tricks and not obs.trick:
            self.dog_seen = True
            assert obs.taker is not None  # the dog is shown once someone took
            taker = seat_name(obs.taker)
            body = Group(
                Text(
                    _("You took a {contract}; the dog is shown to all:", contract=contract_label(obs.contract))
                    if obs.taker == HUMAN
                    else _(
                        "{taker} took a {contract}; the dog is shown to all:",
                        taker=taker,
                        contract=contract_label(obs.contract),
                    )
                ),
                cards_text(obs.dog, sep="  "),
            )
            self.app.push_screen(InfoScreen(_("The dog"), body, kind="dog"), lambda _: self.advance())
            return
        if deal.to_act == HUMAN:
            self.robot_busy = False
            prompt.setup()
        else:
            assert deal.to_act is not None  # the deal is not over here
            prompt.clear_actions()
            prompt.say(Text(_("{name} is thinking…", name=seat_name(deal.to_act)), style="dim"))
            self.schedule_robot()

    @property
    def host(self) -> AtoutApp:
        app = self.app
        assert isinstance(app, AtoutApp)  # this screen runs in the terminal game only
        return app

    def when_active(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` now, or when the person closes the box they opened (help, previous trick...)."""
        if self.app.screen is self:
            fn()
        else:
            self._pending.append(fn)

    def on_screen_resume(self) -> None:
        pending, self._pending = self._pending, []
        for fn in pending:
            fn()

    def _show_result(self) -> None:
        if self.game.save_error:  # kept on the game: leaving must not claim the game was saved
            self.app.notify(_("Could not save: {error}", error=self.game.save_error), severity="error")
        self.when_active(lambda: self.app.push_screen(ResultScreen(self.game), self._after_result))

    def _after_result(self, _=None) -> None:
        if self.game.is_over:
            self.app.exit()
            return
        self.game.start_deal()
        self.begin_deal()

    def schedule_robot(self) -> None:
        self.robot_busy = True
        token = self.token = self.token + 1
        delay, pause = self.host.delay, self.host.pause
        # Let the person see a finished trick a little longer before the next lead.
        deal = self.game.current
        if deal.phase == Phase.PLAY and not deal.trick and deal.tricks:
            delay *= 2

        def think() -> None:
            start = time.monotonic()
            seat = self.game.current.to_act
            assert seat is not None  # a robot is asked only while the deal runs
            try:
                seat, action = self.game.robot_choice()
            except Exception as err:  # a robot's bug must not end the person's game
                action = self.fallback_action(seat, err)
            rest = delay - (time.monotonic() - start)
            if rest > 0:
                pause(rest)
            with contextlib.suppress(RuntimeError):  # the app may close while a robot thinks
                self.app.call_from_thread(self.robot_acts, token, seat, action)

        self.run_worker(think, thread=True, group="robot", exit_on_error=True)

    def fallback_action(self, seat: int, err: Exception):
        """A random legal action for a robot that failed (and a note saying so)."""
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(
                self.app.notify,
                _(
                    "{name}'s robot failed ({error}); it plays a random legal move instead",
                    name=seat_name(seat),
                    error=err,
                ),
                severity="warning",
            )
        return random_action(self.game.current.legal_actions(), random.Random(len(self.game.current.history)))

    def robot_acts(self, token: int, seat: int, action) -> None:
        if self.app.screen is not self:  # wait until the person closes the box they opened
            self._pending.append(lambda: self.robot_acts(token, seat, action))
            return
        if token != self.token or self.game.current.to_act != seat:
            return
        try:
            self.game.apply(action, seat=seat)
        except IllegalAction as err:
            self.app.notify(
                _(
                    "{name}'s robot chose an illegal move ({error}); it plays a random legal move instead",
                    name=seat_name(seat),
                    error=refusal_words(err),
                ),
                severity="warning",
            )
            self.game.apply(random_action(self.game.current.legal_actions(), random.Random(0)), seat=seat)
        self.call_later(self.advance)

    def human_acts(self, action) -> bool:
        """Apply the person's action; refuse it with the rule's reason when illegal."""
        try:
            self.game.apply(action, seat=HUMAN)
        except IllegalAction as err:
            self.prompt.refuse(refusal_words(err))
            return False
        self.prompt.mode = ""
        self.token += 1
        if self.game.save_dir is not None and not self.game.current.is_over:
            self.autosave()
        self.advance()
        return True

    def autosave(self) -> None:
        try:
            self.game.save()
        except OSError as err:
            self.app.notify(_("Could not save the game: {error}", error=err), severity="error")

    # ------------------------------------------------------------ keys
    def action_button(self, index: int) -> None:
        self.prompt.press(index)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_previous(self) -> None:
        box = previous_trick_box(self.game.observation())
        if box is None:
            self.prompt.say(_("No trick has been played yet."))
        else:
            self.app.push_screen(box)

    def action_shown(self) -> None:
        self.app.push_screen(shown_cards_box(self.game.observation()))

    def action_save(self) -> None:
        if self.game.save_dir is None:
            self.prompt.say(_("No save directory: start with --save-dir to save."))
            return
        try:
            path = self.game.save()
        except OSError as err:
            self.prompt.refuse(_("could not save the game: {error}", error=err))
            return
        self.prompt.say(
            _("Game saved to {path}; resume it with: {command}", path=path, command=self.game.resume_command())
        )

    def action_hint(self) -> None:
        if not self.game.human_to_act:
            self.prompt.say(_("The hint is for your turn."))
            return
        level = hint_level()
        self.prompt.say(Text(_("The {level} robot is thinking…", level=level_word(level)), style="dim"))
        token = self.token

        def think() -> None:
            found = self.game.hint(self.HINT_FACTOR)
            with contextlib.suppress(RuntimeError):
                self.app.call_from_thread(self.show_hint, token, level, found)

        self.run_worker(think, thread=True, group="hint")

    def show_hint(self, token: int, level: str, found: Hint) -> None:
        if token != self.token:
            return
        self.last_hint = found.action
        self.prompt.show_hint(level, found.action, " ".join(reason_words(r) for r in found.reasons))


class AtoutApp(StyledWhenMounted):
    """The terminal game."""

    TITLE = "Atout"
    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = "atout.tcss"
    BINDINGS = [Binding("ctrl+q", "quit_game", N_("Quit"), show=False)]

    def __init__(
        self,
        game: Game | None = None,
        *,
        players: int | None = None,
        level: str | None = None,
        deals: int | None = None,
        seed: str | None = None,
        delay: float = 0.6,
        save_dir: Path | str | None = None,
        start_screen: bool | None = None,
        pause: Callable[[float], object] = time.sleep,
    ) -> None:
        """``pause``: how a robot's thread waits out the rest of ``delay`` (a test passes one it controls)."""
        super().__init__()
        self.game = game
        self.delay = delay
        self.pause = pause
        self.save_dir = Path(save_dir) if save_dir is not None else None
        self.settings: GameSettings = {"players": players or 4, "level": level, "deals": deals or 4, "seed": seed}
        self.start_screen = game is None if start_screen is None else start_screen

    def on_mount(self) -> None:
        if self.game is not None:
            self.open_game(self.game)
        elif self.start_screen:
            can_resume = self.saved_game() is not None
            self.push_screen(StartScreen(can_resume=can_resume, **self.settings))
        else:
            self.new_game(**self.settings)

    def new_game(self, players: int, level: str | None, deals: int, seed: str | None) -> None:
        game = Game(players=players, level=level or default_level(), deals=deals, seed=seed, save_dir=self.save_dir)
        self.open_game(game)

    def saved_game(self) -> Game | None:
        """The unfinished game in the save directory, if any."""
        if self.save_dir is None or not (self.save_dir / "game.json").exists():
            return None
        try:
            game = Game.load(self.save_dir / "game.json", save_dir=self.save_dir)
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return None if game.is_over else game

    def resume_game(self) -> None:
        game = self.saved_game()
        if game is None:
            self.notify(_("No unfinished game to resume."), severity="warning")
            return
        self.open_game(game)

    def open_game(self, game: Game) -> None:
        self.game = game
        if game.deal is None or game.deal.is_over:
            if game.is_over:
                self.exit()
                return
            game.start_deal()
        if isinstance(self.screen, StartScreen):
            self.switch_screen(GameScreen(game))
        else:
            self.push_screen(GameScreen(game))

    def action_quit_game(self) -> None:
        """Save, then ask before leaving a game in progress, saying where it is (or that it is not)."""
        game = self.game
        if isinstance(self.screen, LeaveScreen):
            return
        if game is None or game.is_over or isinstance(self.screen, StartScreen):
            self.exit()
            return
        where, saved = self.save_before_leaving(game)
        self.push_screen(LeaveScreen(where, saved), lambda leave: self.exit() if leave else None)

    @staticmethod
    def save_before_leaving(game: Game) -> tuple[str, bool]:
        """Save ``game`` now; the sentence that tells the person where it is, and whether it was saved."""
        if game.save_dir is None:
            return _("This game has no save directory (--save-dir): leaving ends it."), False
        try:
            path = game.save()
        except OSError as err:
            return _(
                "The game could not be saved in {path} ({error}): leaving loses it.",
                path=game.save_path(),
                error=err.strerror or err,
            ), False
        return _(
            "The game is saved in {path}. Continue it later with: {command}", path=path, command=game.resume_command()
        ), True


def run(game: Game | None = None, **kwargs) -> int:
    AtoutApp(game, **kwargs).run()
    return 0
