"""``atout play``: one person against robots, in a terminal, with Textual."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypedDict

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, RadioButton, RadioSet, RichLog, Static
from textual.widgets.button import ButtonVariant

from ..bots import OFFERED_LEVELS
from ..engine import (
    Bid,
    Call,
    Chelem,
    Discard,
    DiscardFrom,
    IllegalAction,
    PetitSecDecision,
    Play,
    Poignee,
    PoigneeFrom,
)
from ..engine.cards import EXCUSE_BIT, TRUMPS, display_order
from ..engine.ecart import ecart_allowed, ecart_refusal
from ..engine.kinds import EcartRefusal, Phase
from ..engine.record import to_record
from .analysis import AnalysisScreen
from .game import HUMAN, Game, default_level, hint_level, seat_name
from .table import TableView, table_picture
from .text import (
    contract_label,
    contracts_text,
    describe,
    hint_words,
    ranking_text,
    result_text,
    rule_words,
    sheet_table,
)
from .widgets import HandView, card_text, card_word, cards_text, plural

_ECART_REFUSALS = {
    EcartRefusal.NOT_IN_HAND: "not in your hand",
    EcartRefusal.KING: "a king may never be laid aside",
    EcartRefusal.BOUT: "a bout (21, Petit, Excuse) may never be laid aside",
    EcartRefusal.TRUMP: "a trump may be laid aside only when too few other cards may be",
}
_AUCTION_KEYS = ", ".join(f"{n} {contract_label(n - 1)}" for n in range(1, 6))
HELP = f"""\
[b]Atout — French Tarot against the computer[/b]
(Escape closes this help.)

[b]Keys[/b]
• ←/→ ↑/↓ Home End: move in your hand; Enter or Space: choose the card (or click it).
• 1…9: the numbered buttons, or Tab to them, or click. At the auction the keys never change: {_AUCTION_KEYS} (greyed when no higher than the best bid).
• h: hint, what the expert robot would do · p: the previous trick · c: cards shown to all (dog, trumps of the écart, poignées) · s: save · q: leave (asks first, and says where the game is saved) · ?: this help.

[b]Cards[/b]
Four suits, ♠ ♥ ♦ ♣, of 14 cards: K (king, the Roi), Q (queen, the Dame), C (knight, the Cavalier), J (jack, the Valet), then 10 down to 1. The 21 trumps, numbered 1 to 21, are yellow tiles in your hand ("trump 19" in sentences); the Excuse (Ex in your hand) is neither suit nor trump. The three bouts are the 21, the Petit (trump 1) and the Excuse.
Card points: a bout or a king 4½, a queen 3½, a knight 2½, a jack 1½, any other card ½ (91 in all).

[b]Bidding[/b]
Each player speaks once, higher than the last bid or passes: {contracts_text()}. After a Prise or a Garde the dog is shown, taken, and an écart laid aside; after a Garde sans or a Garde contre nobody sees the dog. At 5 players the taker calls a King: its holder is the secret partner.

[b]Écart[/b]
Never a King or a bout; trumps only when too few other cards may be laid aside, and they are shown.

[b]Play[/b]
Follow the suit led; if you cannot, trump; over-trump when you can, even over a partner. The Excuse may always be played and stays with its owner.

[b]Score[/b]
The taker needs 56 points with no bout, 51 with 1, 41 with 2, 36 with 3. U = (25 + margin ± 10 for the petit au bout) × multiplier ± poignée ± chelem; each defender scores −U, the taker the rest. Poignée (shown before your first card): 10/13/15 trumps at 4 players, 13/15/18 at 3, 8/10/13 at 5, worth 20/30/40 to the winning side. Chelem (all the tricks): +400 announced, +200 unannounced, −200 announced but failed.
"""


def _button(label: str, fn: Callable[..., object], variant: ButtonVariant = "default", disabled: bool = False) -> Button:
    button = Button(label, variant=variant, compact=True, disabled=disabled)
    button.action_fn = fn  # type: ignore[attr-defined]
    return button



def offered_levels(current: str) -> tuple[list[str], str]:
    """The levels the start screen offers (beginner, club, expert), with ``current`` among them:
    ``heuristic`` is shown by its people's name, club, and any other level asked for is added."""
    current = "club" if current == "heuristic" else current
    levels = list(OFFERED_LEVELS)
    if current not in levels:
        levels.insert(0, current)
    return levels, current

class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape,q,question_mark", "app.pop_screen", "Close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 100%; max-width: 100; height: 100%; max-height: 34;
                                  background: $panel; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(HELP)


class InfoScreen(ModalScreen):
    """A small box of text closed by Enter, Escape or its button (dog, previous trick...)."""

    BINDINGS = [Binding("escape,enter,space,p,c", "close", "Close")]
    DEFAULT_CSS = """
    InfoScreen { align: center middle; }
    InfoScreen > Vertical { width: 70; height: auto; max-height: 22; background: $panel;
                            border: round $accent; padding: 0 1; }
    InfoScreen Button { margin-top: 1; }
    """

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
            ok = Button("OK (Enter)", variant="primary", compact=True, id="ok")
            ok.can_focus = False  # Enter is the box's own key: it must not reach the hand below
            yield ok

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_close()

    def action_close(self) -> None:
        if not self.closing:
            self.closing = True
            self.dismiss(True)


class LeaveScreen(ModalScreen[bool]):
    """Asked before leaving a game: says where it is saved, or that it could not be saved."""

    BINDINGS = [Binding("y,q,enter", "leave", "Leave"), Binding("n,escape", "stay", "Stay")]
    DEFAULT_CSS = """
    LeaveScreen { align: center middle; }
    LeaveScreen > Vertical { width: 70; height: auto; background: $panel; border: round $warning;
                             padding: 0 1; }
    LeaveScreen Horizontal { height: auto; margin-top: 1; }
    LeaveScreen Button { margin-right: 2; }
    """

    def __init__(self, where: str, saved: bool) -> None:
        super().__init__()
        self.where = where
        self.saved = saved

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text("Leave the game?", style="bold"))
            yield Static(Text(self.where, style="" if self.saved else "bold red"), id="where")
            with Horizontal():
                leave = Button("Leave (y)", variant="primary" if self.saved else "error", compact=True, id="leave")
                stay = Button("Stay (n)", compact=True, id="stay")
                for button in (leave, stay):
                    button.can_focus = False  # y/n/Enter/Escape are the box's keys
                    yield button

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "leave")

    def action_leave(self) -> None:
        self.dismiss(True)

    def action_stay(self) -> None:
        self.dismiss(False)


class Choice(RadioSet):
    """One of the start screen's choices: its cursor starts on the option chosen (Textual's starts on the
    first, so "3 players" was lit while 4 was chosen, and the first Enter switched to 3), and Enter takes
    the option under the cursor and begins, as Enter does everywhere on the start screen; Space chooses."""

    BINDINGS = [Binding("enter", "begin", "Start", show=False)]

    def on_mount(self) -> None:
        self.call_after_refresh(self._on_chosen)  # after RadioSet's own mount, which lights the first option

    def _on_chosen(self) -> None:
        if self.pressed_index >= 0:
            self._selected = self.pressed_index

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

    BINDINGS = [Binding("q,escape", "app.quit", "Quit"), Binding("enter", "start", "Start")]
    DEFAULT_CSS = """
    StartScreen { align: center middle; }
    StartScreen > Vertical { width: 70; height: auto; padding: 0 1; border: round $accent; }
    StartScreen RadioSet { width: 1fr; height: auto; }
    StartScreen Horizontal { height: auto; }
    StartScreen Input { width: 1fr; }
    StartScreen .field { width: 1fr; height: auto; }
    StartScreen .field Label { padding: 0 1; }
    StartScreen Button { margin: 1 1 0 0; }
    """

    def __init__(self, players: int = 4, level: str | None = None, deals: int = 4, seed: str | None = None,
                 can_resume: bool = False) -> None:
        super().__init__()
        self.players = players
        self.level = level or default_level()
        self.deals = deals
        self.seed = seed
        self.can_resume = can_resume

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text("Atout — French Tarot against the computer", style="bold"))
            with Horizontal():
                with Choice(id="players"):
                    for n in (3, 4, 5):
                        yield RadioButton(f"{n} players", value=n == self.players)
                with Choice(id="level"):
                    levels, current = offered_levels(self.level)
                    for level in levels:
                        yield RadioButton(f"robots: {level}", value=level == current)
            with Horizontal():
                with Vertical(classes="field"):
                    yield Label("Number of deals")
                    yield Input(str(self.deals), placeholder="number of deals", id="deals", type="integer")
                with Vertical(classes="field"):
                    yield Label("Seed (optional)")
                    yield Input(self.seed or "", placeholder="same seed, same deals", id="seed")
            with Horizontal():
                yield Button("Start", variant="primary", id="start")
                if self.can_resume:
                    yield Button("Resume saved game", id="resume")
                yield Button("Quit", id="quit")
            yield Static(Text("Tab moves between the choices, arrows and Space choose, Enter begins (with "
                              "the option under the cursor).", style="dim"))
            yield Static("", id="error")
        yield Footer()

    def settings(self) -> GameSettings:
        players = (3, 4, 5)[max(0, self.query_one("#players", RadioSet).pressed_index)]
        levels, _ = offered_levels(self.level)
        index = self.query_one("#level", RadioSet).pressed_index
        level = levels[index] if index >= 0 else default_level()
        text = self.query_one("#deals", Input).value.strip() or "4"
        deals = int(text)
        if deals < 1:
            raise ValueError("the game needs at least one deal")
        seed = self.query_one("#seed", Input).value.strip() or None
        return {"players": players, "level": level, "deals": deals, "seed": seed}

    def action_start(self) -> None:
        try:
            settings = self.settings()
        except ValueError as err:
            self.query_one("#error", Static).update(Text(f"{err}", style="red"))
            return
        app = self.app
        assert isinstance(app, AtoutApp)  # this screen runs in the terminal game only
        app.new_game(**settings)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "resume":
            app = self.app
            assert isinstance(app, AtoutApp)
            app.resume_game()
        elif event.button.id == "quit":
            self.app.exit()


class ResultScreen(Screen):
    """The end of a deal: the result in detail and the running score sheet."""

    BINDINGS = [Binding("enter,n,space", "next", "Continue"), Binding("a", "analyse", "Analyse my play"),
                Binding("q", "app.quit_game", "Quit")]
    DEFAULT_CSS = """
    ResultScreen > VerticalScroll { padding: 0 1; }
    ResultScreen Button { margin-top: 1; margin-right: 1; }
    ResultScreen #result-actions { height: auto; }
    """

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.analysis = None  # the person's play analysed, once asked for (kept while the screen shows)

    def compose(self) -> ComposeResult:
        game = self.game
        result = game.current.result
        assert result is not None  # this screen follows a finished deal
        last = game.sheet[-1]
        title = "Void deal" if last.void else f"Deal {last.number} of {game.deals}"
        with VerticalScroll():
            yield Label(Text(title, style="bold reverse"))
            yield Static(result_text(game.players, result), id="result")
            yield Label(Text("Score sheet", style="bold underline"))
            yield Static(sheet_table(game), id="sheet")
            if game.is_over:
                yield Label(Text("Final ranking", style="bold underline"))
                yield Static(ranking_text(game), id="ranking")
            with Horizontal(id="result-actions"):
                if game.is_over:
                    yield Button("Quit", variant="primary", compact=True, id="next")
                else:
                    yield Button("Next deal (Enter)", variant="primary", compact=True, id="next")
                yield Button("Analyse my play (a)", compact=True, id="analyse")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "analyse":
            self.action_analyse()
        else:
            self.action_next()

    def action_analyse(self) -> None:
        """The person's decisions in this deal scored by the expert's search (docs/analysis.md)."""
        record = {**to_record(self.game.current), "names": [seat_name(s) for s in range(self.game.players)]}

        def keep(analysis) -> None:
            self.analysis = analysis

        self.app.push_screen(AnalysisScreen(record, HUMAN, done=self.analysis), keep)

    def action_next(self) -> None:
        if self.game.is_over:
            self.app.exit()
        else:
            self.dismiss(True)


class GameScreen(Screen):
    """The table: status line, players, game log, prompt, your hand and your choices."""

    BINDINGS = [
        Binding("h", "hint", "Hint"),
        Binding("p", "previous", "Prev trick"),
        Binding("c", "shown", "Shown cards"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("s", "save", "Save"),
        Binding("q", "app.quit_game", "Quit"),
        *[Binding(str(i), f"button({i})", show=False) for i in range(1, 10)],
    ]
    DEFAULT_CSS = """
    #status { height: 1; background: $primary; color: $text; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 3fr; padding: 0 1; }
    #notes { height: auto; }
    #log { width: 2fr; min-width: 28; border-left: vkey $primary; scrollbar-size: 1 1; }
    #message { height: auto; min-height: 1; max-height: 4; padding: 0 1; background: $surface; }
    #actions { height: 1; padding: 0 1; }
    #actions Button { margin-right: 1; min-width: 0; width: auto; padding: 0 1; }
    """

    @property
    def mode(self) -> str:
        return self._mode

    @mode.setter
    def mode(self, value: str) -> None:
        """What a chosen card means now; the hand offers Enter (its key's hint) only when a card is chosen."""
        self._mode = value
        for hand in self.query(HandView):
            hand.choosing = value in ("ecart", "poignee", "play")

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self._mode = ""  # what a chosen card means: bid, ecart, poignee, play...
        self.ecart = 0
        self.poignee = 0
        self.poignee_size = 0
        self.poignee_decided = False
        self.dog_seen = False
        self.logged = 0
        self.tricks_logged = 0
        self.robot_busy = False
        self.token = 0
        self._pending: list = []

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield TableView(id="table")
                yield Static(id="notes")
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Static(id="message")
        yield HandView(id="hand")
        yield Horizontal(id="actions")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(HandView).focus()
        self.begin_deal()

    # ------------------------------------------------------------ flow
    def begin_deal(self) -> None:
        """Show the deal in ``game.deal`` (new or resumed) and let it run."""
        self.logged = 0
        self.tricks_logged = 0
        self.poignee_decided = False
        self.dog_seen = False
        self.token += 1
        log = self.query_one(RichLog)
        log.clear()
        deal = self.game.current
        dealer = "You deal" if deal.dealer == HUMAN else f"{seat_name(deal.dealer)} deals"
        log.write(Text(f"Deal {self.game.deal_number} of {self.game.deals}: {dealer}.", style="bold"))
        self.advance()

    def advance(self) -> None:
        """Move the game on: the person's turn, a robot's, or the deal's end."""
        game = self.game
        deal = game.current
        self.refresh_view()
        if deal.is_over:
            self.clear_actions()
            self.robot_busy = False
            self.say("The deal is over.")
            app = self.app
            assert isinstance(app, AtoutApp)
            if app.delay > 0:  # let the last trick be seen
                self.set_timer(app.delay * 2, self._show_result)
            else:
                self._show_result()
            return
        obs = game.observation()
        if obs.dog is not None and not self.dog_seen and not obs.tricks and not obs.trick:
            self.dog_seen = True
            assert obs.taker is not None  # the dog is shown once someone took
            taker = seat_name(obs.taker)
            body = Group(
                Text(f"{taker} took a {contract_label(obs.contract)}; the dog is shown to all:"),
                cards_text(obs.dog, sep="  "),
            )
            self.app.push_screen(InfoScreen("The dog", body, kind="dog"), lambda _: self.advance())
            return
        if deal.to_act == HUMAN:
            self.robot_busy = False
            self.setup_human()
        else:
            assert deal.to_act is not None  # the deal is not over here
            self.clear_actions()
            self.say(Text(f"{seat_name(deal.to_act)} is thinking…", style="dim"))
            self.schedule_robot()

    def when_active(self, fn) -> None:
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
            self.app.notify(f"Could not save: {self.game.save_error}", severity="error")
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
        app = self.app
        assert isinstance(app, AtoutApp)  # this screen runs in the terminal game only
        delay, pause = app.delay, app.pause
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
        import random

        from ..engine.choices import random_action

        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(self.app.notify, f"{seat_name(seat)}'s robot failed ({err}); "
                                      "it plays a random legal move instead", severity="warning")
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
            import random

            from ..engine.choices import random_action

            self.app.notify(f"{seat_name(seat)}'s robot chose an illegal move ({rule_words(err.message)}); "
                            "it plays a random legal move instead", severity="warning")
            self.game.apply(random_action(self.game.current.legal_actions(), random.Random(0)), seat=seat)
        self.call_later(self.advance)

    def human_acts(self, action) -> bool:
        """Apply the person's action; refuse it with the rule's reason when illegal."""
        try:
            self.game.apply(action, seat=HUMAN)
        except IllegalAction as err:
            self.refuse(rule_words(err.message))
            return False
        self.mode = ""
        self.token += 1
        if self.game.save_dir is not None and not self.game.current.is_over:
            self.autosave()
        self.advance()
        return True

    def autosave(self) -> None:
        try:
            self.game.save()
        except OSError as err:
            self.app.notify(f"Could not save the game: {err}", severity="error")

    # ------------------------------------------------------------ view
    def say(self, text: Text | str) -> None:
        self.query_one("#message", Static).update(text)

    def refuse(self, reason: str) -> None:
        self.say(Text("Refused: " + reason, style="bold red"))
        self.app.bell()

    def clear_actions(self) -> None:
        self.query_one("#actions").remove_children()
        hand = self.query_one(HandView)
        hand.marked = 0
        hand.selected = 0

    def set_actions(self, buttons: list[Button]) -> None:
        """Show the person's choices as buttons, numbered for the keys 1-9."""
        for i, button in enumerate(buttons, 1):
            button.label = f"{i} {button.label}"
        bar = self.query_one("#actions")
        bar.remove_children()
        bar.mount_all(buttons)

    def refresh_view(self) -> None:
        obs = self.game.observation()
        self.query_one("#status", Static).update(self.status_text(obs))
        self.query_one("#table", TableView).show(obs)
        self.query_one("#notes", Static).update(self.notes_text(obs))
        hand = self.query_one(HandView)
        hand.hand = obs.hand
        hand.tagged = obs.dog if (obs.dog is not None and obs.phase == Phase.DISCARD and obs.taker == HUMAN) else 0
        self.log_new(obs)

    def status_text(self, obs) -> Text:
        game = self.game
        out = Text(f"Deal {game.deal_number}/{game.deals} · ")
        if obs.phase in (Phase.PETIT_SEC, Phase.BIDDING):
            out.append("bidding")
            if obs.taker is not None:  # the best bid so far: nobody takes until all have spoken
                out.append(f" · best bid so far {seat_name(obs.taker)}: {contract_label(obs.contract)}")
        elif obs.taker is not None:
            out.append(f"{seat_name(obs.taker)}: {contract_label(obs.contract)}")
            if obs.called is not None:
                out.append(" · called ")
                out.append(card_word(obs.called))
                if obs.partner is not None:
                    out.append(f" · partner {seat_name(obs.partner)}"
                               if obs.partner != obs.taker else " · taker alone")
                elif obs.taker == HUMAN and obs.hand >> obs.called & 1:
                    out.append(" · you play alone")
                elif obs.dog is not None and obs.dog >> obs.called & 1:
                    out.append(" · in the dog: taker alone")
                elif obs.phase == Phase.END:
                    out.append(" · taker alone")
                else:
                    out.append(" · partner unknown")
        if obs.phase == Phase.PLAY:
            out.append(f" · trick {min(len(obs.tricks) + 1, obs.rules.settings.hand_size)}")
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
            out.append("Dog: ", style="dim")
            out.append_text(cards_text(obs.dog))
            out.append("\n")
        if obs.ecart_trumps:
            out.append("Écart trumps: ", style="dim")
            out.append_text(cards_text(obs.ecart_trumps))
            out.append("\n")
        for seat, cards, size, _bonus in obs.poignees:
            out.append(f"Poignée {size}, {seat_name(seat)}: ", style="dim")
            out.append(f"{plural(cards.bit_count(), 'card')} (c to see)\n")
        if obs.partner == HUMAN and obs.taker != HUMAN:
            out.append("You hold the called card: you are the taker's partner.\n", style="cyan")
        out.rstrip()
        return out

    def log_new(self, obs) -> None:
        log = self.query_one(RichLog)
        history = obs.history
        for seat, action in history[self.logged :]:
            if isinstance(action, Play):
                continue
            log.write(describe(seat, action))
        self.logged = len(history)
        for i in range(self.tricks_logged, len(obs.tricks)):
            trick = obs.tricks[i]
            line = Text(f"Trick {i + 1}: ", style="bold")
            for j, (seat, card) in enumerate(trick.plays):
                if j:
                    line.append(", ")
                line.append(seat_name(seat) + " ")
                line.append_text(card_text(card))
            line.append(f" → {seat_name(trick.winner)}", style="bold yellow" if trick.winner == HUMAN else "yellow")
            log.write(line)
        self.tricks_logged = len(obs.tricks)

    # ------------------------------------------------------------ the person's turn
    def setup_human(self) -> None:
        obs = self.game.observation()
        hand = self.query_one(HandView)
        phase = obs.phase
        legal = obs.legal
        hand.selected = 0
        if phase == Phase.BIDDING:
            self.mode = "bid"
            hand.marked = obs.hand
            self.say("Your bid: 1 passes, 2 to 5 bid a contract; the greyed ones are no higher than the "
                     "best bid so far.")
            # One key per contract, the same all through the auction: unavailable ones are greyed.
            open_bids = {b.contract: b for b in legal if isinstance(b, Bid) and not b.chelem}
            buttons = [_button(contract_label(contract), lambda c=contract: self.human_acts(open_bids[c]),
                               variant="primary" if contract else "default", disabled=contract not in open_bids)
                       for contract in range(5)]
            buttons += [_button(f"{contract_label(b.contract)} + chelem", lambda b=b: self.human_acts(b))
                        for b in legal if isinstance(b, Bid) and b.chelem]
            self.set_actions(buttons)
        elif phase == Phase.CALL:
            self.mode = "call"
            hand.marked = obs.hand
            self.say("Call a card: its holder will be your secret partner.")
            self.set_actions([_button(f"Call {card_word(c.card)}", lambda c=c: self.human_acts(c))
                              for c in legal if isinstance(c, Call)])
        elif phase == Phase.DISCARD:
            self.mode = "ecart"
            self.ecart = 0
            choice = next(c for c in legal if isinstance(c, DiscardFrom))
            hand.marked = choice.cards
            self.update_ecart()
        elif phase == Phase.CHELEM:
            self.mode = "chelem"
            hand.marked = obs.hand
            self.say("Do you announce a chelem (all the tricks)?")
            self.set_actions([_button("No chelem", lambda: self.human_acts(Chelem(False)), "primary"),
                              _button("Announce a chelem", lambda: self.human_acts(Chelem(True)))])
        elif phase == Phase.PETIT_SEC:
            self.mode = "petit_sec"
            hand.marked = obs.hand
            self.say("You hold the petit sec.")
            self.set_actions([_button("Redeal", lambda: self.human_acts(PetitSecDecision(True))),
                              _button("Play on", lambda: self.human_acts(PetitSecDecision(False)))])
        elif phase == Phase.PLAY:
            self.mode = "play"
            plays = 0
            offer = None
            for c in legal:
                if isinstance(c, Play):
                    plays |= 1 << c.card
                elif isinstance(c, PoigneeFrom):
                    offer = c
            hand.marked = plays
            if offer is not None and not self.poignee_decided:
                self.offer_poignee(offer)
            else:
                self.say("Your turn: play one of the bright cards.")
                self.clear_buttons_only()
        hand.focus()

    def clear_buttons_only(self) -> None:
        self.query_one("#actions").remove_children()

    def update_ecart(self) -> None:
        count = self.game.current.settings.dog_size
        hand = self.query_one(HandView)
        hand.selected = self.ecart
        k = self.ecart.bit_count()
        self.say(Text(f"Lay aside {count} cards (dog cards underlined): choose them one by one; "
                      f"{k}/{count} chosen."))
        self.set_actions([
            _button(f"Lay aside ({k}/{count})", self.confirm_ecart, "primary", disabled=k != count),
            _button("Clear", self.clear_ecart),
        ])

    def clear_ecart(self) -> None:
        self.ecart = 0
        self.update_ecart()

    def confirm_ecart(self) -> None:
        count = self.game.current.settings.dog_size
        if self.ecart.bit_count() != count:
            self.refuse(f"the écart has {count} cards: {self.ecart.bit_count()} chosen so far")
            return
        self.human_acts(Discard(self.ecart))

    def ecart_pick_reason(self, card: int) -> str | None:
        """Why ``card`` may not join the écart now, or None when it may: the engine's reason, in words."""
        deal = self.game.current
        count = deal.settings.dog_size
        hand = deal.observation(HUMAN).hand
        reason = ecart_refusal(hand, count, card, self.ecart)
        if reason is None:
            return None
        if reason is EcartRefusal.FULL:
            return f"the écart has {count} cards already: take one back first"
        if reason is EcartRefusal.TRUMPS_ENOUGH:
            trumps = count - (ecart_allowed(hand, count) & ~TRUMPS).bit_count()
            return (f"{card_word(card)}: only {plural(trumps, 'trump')} may be laid aside; "
                    "lay aside your other allowed cards")
        return f"{card_word(card)}: {_ECART_REFUSALS[reason]}"

    def offer_poignee(self, offer: PoigneeFrom) -> None:
        sizes = sorted(offer.sizes.items(), key=lambda kv: kv[1])
        trumps = (offer.cards & TRUMPS).bit_count()
        self.say(Text(f"You may show a poignée ({trumps} trumps"
                      f"{' + the Excuse' if offer.cards & EXCUSE_BIT else ''}) before your first card, "
                      "or just play a card to decline."))
        buttons = [_button(f"Show {name} ({size})", lambda n=size: self.choose_poignee(offer, n), "primary")
                   for name, size in sizes]
        buttons.append(_button("No poignée", self.decline_poignee))
        self.set_actions(buttons)

    def decline_poignee(self) -> None:
        self.poignee_decided = True
        self.setup_human()

    def choose_poignee(self, offer: PoigneeFrom, size: int) -> None:
        pool = offer.cards
        hand = self.game.observation().hand
        trumps = display_order(pool & TRUMPS)
        if len(trumps) + (1 if pool & EXCUSE_BIT else 0) == size or (len(trumps) == size and not pool & ~TRUMPS):
            cards = pool if len(trumps) < size else sum(1 << c for c in trumps)
            self.poignee_decided = True
            self.human_acts(Poignee(cards))
            return
        # A choice: preselect the lowest trumps (cards not in the hand first), let the person change them.
        outside = pool & TRUMPS & ~hand
        chosen = outside
        for card in reversed(trumps):
            if chosen.bit_count() >= size:
                break
            chosen |= 1 << card
        self.mode = "poignee"
        self.poignee = chosen
        self.poignee_size = size
        self.query_one(HandView).marked = pool & hand
        self.update_poignee()

    def update_poignee(self) -> None:
        hand = self.query_one(HandView)
        hand.selected = self.poignee
        k = self.poignee.bit_count()
        self.say(f"Choose the {self.poignee_size} trumps to show (click to swap): {k}/{self.poignee_size}.")
        self.set_actions([
            _button(f"Show these {k}", self.confirm_poignee, "primary", disabled=k != self.poignee_size),
            _button("Cancel", self.cancel_poignee),
        ])

    def cancel_poignee(self) -> None:
        self.poignee = 0
        self.setup_human()

    def confirm_poignee(self) -> None:
        if self.human_acts(Poignee(self.poignee)):
            self.poignee_decided = True

    @on(HandView.Chosen)
    def card_chosen(self, event: HandView.Chosen) -> None:
        card = event.card
        game = self.game
        if not game.human_to_act or self.robot_busy:
            self.refuse("wait for your turn")
            return
        if self.mode == "play":
            self.poignee_decided = True
            self.human_acts(Play(card))
        elif self.mode == "ecart":
            if self.ecart >> card & 1:
                self.ecart &= ~(1 << card)
            else:
                reason = self.ecart_pick_reason(card)
                if reason:
                    self.refuse(reason)
                    return
                self.ecart |= 1 << card
            self.update_ecart()
        elif self.mode == "poignee":
            pool = next(c for c in game.observation().legal if isinstance(c, PoigneeFrom)).cards
            if self.poignee >> card & 1:
                self.poignee &= ~(1 << card)
            elif not pool >> card & 1:
                self.refuse(f"{card_word(card)}: a poignée shows only trumps"
                            + (" (the Excuse only when you lack one trump)" if card == 77 else ""))
                return
            elif self.poignee.bit_count() >= self.poignee_size:
                self.refuse(f"the poignée has {self.poignee_size} cards: take one back first")
                return
            else:
                self.poignee |= 1 << card
            self.update_poignee()
        elif self.mode == "bid":
            self.refuse("bid first: choose a contract or pass with the buttons")
        elif self.mode == "call":
            self.refuse("call a card with the buttons")
        else:
            self.refuse("choose with the buttons")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        fn = getattr(event.button, "action_fn", None)
        if fn is not None:
            event.stop()
            if not self.game.human_to_act:
                return
            fn()

    def action_button(self, index: int) -> None:
        buttons = list(self.query("#actions Button").results(Button))
        if 0 < index <= len(buttons) and not buttons[index - 1].disabled:
            buttons[index - 1].press()

    # ------------------------------------------------------------ keys
    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_previous(self) -> None:
        obs = self.game.observation()
        if not obs.tricks:
            self.say("No trick has been played yet.")
            return
        trick = obs.tricks[-1]
        body = Text()
        for seat, card in trick.plays:
            body.append(f"{seat_name(seat):<8} ")
            body.append_text(card_text(card))
            if seat == trick.winner:
                body.append("   ★ wins the trick", style="yellow")
            body.append("\n")
        self.app.push_screen(InfoScreen(f"Previous trick (trick {len(obs.tricks)})", body, kind="previous"))

    def action_shown(self) -> None:
        obs = self.game.observation()
        body = Text()
        if obs.dog is not None:
            body.append("Dog: ")
            body.append_text(cards_text(obs.dog))
            body.append("\n")
        if obs.ecart_trumps:
            body.append("Trumps in the écart: ")
            body.append_text(cards_text(obs.ecart_trumps))
            body.append("\n")
        for seat, cards, size, bonus in obs.poignees:
            body.append(f"{seat_name(seat)}'s {size} poignée ({bonus}): ")
            body.append_text(cards_text(cards))
            body.append("\n")
        if not body.plain:
            body.append("No card has been shown yet.")
        self.app.push_screen(InfoScreen("Cards shown to all", body, kind="shown"))

    def action_save(self) -> None:
        if self.game.save_dir is None:
            self.say("No save directory: start with --save-dir to save.")
            return
        try:
            path = self.game.save()
        except OSError as err:
            self.refuse(f"could not save the game: {err}")
            return
        self.say(f"Game saved to {path}; resume it with: {self.game.resume_command()}")

    def action_hint(self) -> None:
        if not self.game.human_to_act:
            self.say("The hint is for your turn.")
            return
        level = hint_level()
        self.say(Text(f"The {level} robot is thinking…", style="dim"))
        token = self.token

        def think() -> None:
            action = self.game.hint()
            with contextlib.suppress(RuntimeError):
                self.app.call_from_thread(self.show_hint, token, level, action)

        self.run_worker(think, thread=True, group="hint")

    def show_hint(self, token: int, level: str, action) -> None:
        if token != self.token:
            return
        self.last_hint = action
        self.say(Text(f"Hint: the {level} robot would {hint_words(action)}.", style="bold cyan"))
        if isinstance(action, Play):
            self.query_one(HandView).focus_card(action.card)
        elif isinstance(action, Discard) and self.mode == "ecart":
            self.ecart = action.cards  # highlighted: the person may confirm or change them
            self.update_ecart()
            self.say(Text(f"Hint: the {level} robot would {hint_words(action)} (chosen for you: "
                          "change them or lay them aside).", style="bold cyan"))


class AtoutApp(App):
    """The terminal game."""

    TITLE = "Atout"
    ENABLE_COMMAND_PALETTE = False
    CSS = "Screen { background: $background; }"
    BINDINGS = [Binding("ctrl+q", "quit_game", "Quit", show=False)]

    def __init__(self, game: Game | None = None, *, players: int | None = None, level: str | None = None,
                 deals: int | None = None, seed: str | None = None, delay: float = 0.6,
                 save_dir: Path | str | None = None, start_screen: bool | None = None,
                 pause: Callable[[float], object] = time.sleep) -> None:
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
        game = Game(players=players, level=level or default_level(), deals=deals, seed=seed,
                    save_dir=self.save_dir)
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
            self.notify("No unfinished game to resume.", severity="warning")
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
            return "This game has no save directory (--save-dir): leaving ends it.", False
        try:
            path = game.save()
        except OSError as err:
            return (f"The game could not be saved in {game.save_path()} ({err.strerror or err}): "
                    "leaving loses it."), False
        return f"The game is saved in {path}. Continue it later with: {game.resume_command()}", True


def run(game: Game | None = None, **kwargs) -> int:
    AtoutApp(game, **kwargs).run()
    return 0
