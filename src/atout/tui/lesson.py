"""One guided lesson in the terminal (``atout learn``): the table as ``atout play`` draws it, the hand, and the
lesson's panel (its intro, the verdict on the last answer with its why, what happened since, the question).

The lesson is ``atout.learn``'s, as the site plays it: the engine judges every move, the words are the same
files (``learn/texts``); this screen only asks and shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Static

from ..engine import Play
from ..engine.cards import SUITS, card_code, parse_card
from ..engine.ecart import ecart_refusal
from ..engine.kinds import Contract, EcartRefusal
from ..learn import LEARNER, Answer, Ask, Lesson, LessonRun, Verdict, WrongAnswer, replay
from ..learn.texts import CARD_ARGS, CARDS_ARGS, paragraphs, words
from .boxes import previous_trick_box
from .game import seat_name
from .table import TableView
from .text import contract_label, describe
from .widgets import Footer, HandView, card_word, cards_text
from .words import N_, _, language, number

SUIT_WORDS = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))


def written(name: str, value: Any) -> str:
    """A placeholder's value in the terminal's words: cards as the log names them, a suit, a number."""
    if name in CARD_ARGS:
        return card_word(parse_card(value))
    if name in CARDS_ARGS:
        return cards_text([parse_card(c) for c in value]).plain
    if name == "suit":
        return _(SUIT_WORDS[SUITS.index(value)])
    return number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def say(key: str, args: dict[str, Any] | None = None) -> str:
    """A lesson text in the terminal's language, its placeholders filled."""
    text = words(language().value).get(key, key)
    values = {name: written(name, value) for name, value in (args or {}).items()}
    out = text.format_map(_Blank(values))
    return out[:1].upper() + out[1:] if text.startswith("{") else out


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


class LessonScreen(Screen):
    """A lesson played: each answer judged, a right one moving the deal on; the progress kept by ``keep``."""

    BINDINGS = [
        Binding("p", "previous", N_("Prev trick")),
        Binding("i", "intro", N_("About")),
        Binding("n", "next", N_("Next lesson")),
        Binding("r", "again", N_("Again")),
        Binding("q,escape", "back", N_("Lessons")),
        *[Binding(str(i), f"button({i})", show=False) for i in range(1, 10)],
    ]

    def __init__(
        self,
        lesson: Lesson,
        index: int,
        total: int,
        answers: list[Answer],
        keep: Callable[[LessonRun], None],
        following: Callable[[], None] | None,
    ) -> None:
        super().__init__()
        self.lesson = lesson
        self.index = index
        self.total = total
        self.keep = keep
        self.following = following  # opens the next lesson (None after the last)
        try:
            self.run = replay(lesson, answers)
        except WrongAnswer:  # a kept run the lessons no longer replay: from the start
            self.run = LessonRun(lesson)
        self.begun = bool(self.run.answers)
        self.verdict: Verdict | None = None
        self.chosen = 0  # an écart's or a poignée's cards being chosen
        self.show_intro = not self.begun
        self.buttons_shown: list[tuple[str | None, str, bool]] = []
        self.bindings_done = False

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield TableView(id="table")
                yield Static(id="notes")
            with VerticalScroll(id="panel"):
                yield Static(id="lesson")
        yield Static(id="message")
        yield HandView(id="hand")
        yield Horizontal(id="actions")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(HandView).focus()
        self.refresh_all()

    # ------------------------------------------------------------------ drawing
    def lesson_title(self) -> str:
        return say(f"{self.lesson.id}.title")

    def refresh_all(self) -> None:
        run = self.run
        obs = run.deal.observation(LEARNER)
        status = _("Lesson {n} of {of}: {title}", n=self.index + 1, of=self.total, title=self.lesson_title())
        if run.done:
            status += " · " + _("finished")
        elif self.begun:
            status += " · " + _("step {n} of {of}", n=run.step + 1, of=len(self.lesson.steps))
        self.query_one("#status", Static).update(Text(status, style="bold"))
        self.query_one(TableView).show(obs)
        self.query_one("#notes", Static).update(self.notes(obs))
        self.query_one("#lesson", Static).update(self.panel_text())
        hand = self.query_one(HandView)
        hand.hand = obs.hand
        hand.marked = obs.hand  # every card bright: a lesson lets you try any, and says why not
        hand.selected = self.chosen
        hand.choosing = not run.done  # Enter on a card: the lesson begins (the intro showing), or the card is chosen
        self.query_one("#message", Static).update(self.message())
        self.set_buttons()
        if self.bindings_done != run.done:  # n and r come with the lesson's end (the footer is drawn again)
            self.bindings_done = run.done
            self.refresh_bindings()
        if not obs.hand:  # the deal is over (the scoring lesson): the keys go to the buttons, Enter to the first
            self.call_after_refresh(self.focus_buttons)

    def focus_buttons(self) -> None:
        first = next(iter(self.query("#actions Button").results(Button)), None)
        if first is not None:
            first.focus()

    def notes(self, obs: Any) -> Text:
        out = Text()
        if obs.dog is not None:
            out.append(_("Dog:") + " ", style="dim")
            out.append_text(cards_text(obs.dog))
        return out

    def panel_text(self) -> Text:
        run = self.run
        out = Text()
        if self.show_intro or not self.begun:
            for part in paragraphs(say(f"{self.lesson.id}.intro")):
                out.append(part + "\n\n")
        verdict = self.verdict
        if verdict is not None:
            if verdict.right:
                out.append("✓ " + say(verdict.key, verdict.args) + "\n", style="bold green")
            else:
                out.append(
                    "✗ " + _("Not this one.") + " " + say(verdict.key, verdict.args) + " " + _("Try again.") + "\n",
                    style="bold red",
                )
        if verdict is None or verdict.right:
            for line in self.events():
                out.append("  ")
                out.append_text(line)
                out.append("\n")
        if run.done:
            out.append("\n" + _("Lesson finished") + "\n", style="bold")
            out.append(say(f"{self.lesson.id}.end") + "\n")
        elif self.begun:
            ask = run.current
            assert ask is not None
            out.append("\n")
            out.append(say(f"{self.lesson.id}.{ask.name}.ask", self.ask_args()) + "\n", style="bold yellow")
        return out

    def ask_args(self) -> dict[str, Any]:
        step = self.run.current
        return dict(step.args(self.run.deal, None)) if step is not None and step.args else {}

    def events(self) -> list[Text]:
        """What happened since the last right answer: each action as the game's log says it, each trick's winner."""
        run = self.run
        obs = run.deal.observation(LEARNER)
        active = run.deal.settings.active
        lines, plays = [], 0
        for index, (seat, action) in enumerate(obs.history):
            if isinstance(action, Play):
                plays += 1
            if index < run.mark:
                continue
            lines.append(describe(seat, action))
            if isinstance(action, Play) and plays % active == 0:
                n = plays // active
                winner = obs.tricks[n - 1].winner
                lines.append(
                    Text(
                        _("You win trick {n}", n=n)
                        if winner == LEARNER
                        else _("{name} wins trick {n}", name=seat_name(winner), n=n),
                        style="yellow",
                    )
                )
        return lines

    def message(self) -> Text:
        run = self.run
        if not self.begun:
            return Text(_("Read the lesson, then start it (Enter or 1)."), style="dim")
        step = run.current
        if step is None:
            return Text(_("n: the next lesson · r: this lesson again · q: the lessons"), style="dim")
        if step.ask in (Ask.PICK, Ask.PLAY):
            return Text(_("Choose a card of your hand (arrows, then Enter)."), style="dim")
        if step.ask in (Ask.ECART, Ask.POIGNEE):
            return Text(
                _(
                    "Choose the cards one by one (Enter), then confirm with the buttons: {k} chosen.",
                    k=self.chosen.bit_count(),
                ),
                style="dim",
            )
        return Text(_("Answer with the buttons (1 to 9)."), style="dim")

    def set_buttons(self) -> None:
        buttons: list[Button] = []
        run = self.run
        step = run.current
        if not self.begun:
            buttons.append(Button(_("Start"), variant="primary", compact=True, name="begin"))
        elif step is None:
            if self.following is not None:
                buttons.append(Button(_("Next lesson"), variant="primary", compact=True, name="next"))
            buttons.append(Button(_("Again"), compact=True, name="again"))
            buttons.append(Button(_("Lessons"), compact=True, name="back"))
        elif step.ask is Ask.CHOOSE and step.options is not None:
            for option in step.options(run.deal):
                label = say(f"{self.lesson.id}.{step.name}.{option}") if step.worded else number(float(option))
                buttons.append(Button(label, compact=True, name=f"choice:{option}"))
        elif step.ask is Ask.BID:
            buttons += [Button(contract_label(c.rank), compact=True, name=f"bid:{c.value}") for c in Contract]
        elif step.ask is Ask.CALL:
            buttons += [
                Button(_("Call {card}", card=card_word(c)), compact=True, name=f"call:{c}")
                for c in run.deal.callable_cards()
            ]
        elif step.ask is Ask.ECART:
            buttons.append(
                Button(
                    _("Lay aside ({k}/{count})", k=self.chosen.bit_count(), count=run.deal.settings.dog_size),
                    variant="primary",
                    compact=True,
                    name="cards",
                )
            )
            buttons.append(Button(_("Clear"), compact=True, name="clear"))
        elif step.ask is Ask.POIGNEE:
            buttons.append(
                Button(
                    _("Show these {k}", k=self.chosen.bit_count()),
                    variant="primary",
                    compact=True,
                    name="cards",
                    disabled=not self.chosen,
                )
            )
            buttons.append(Button(_("No poignée"), compact=True, name="none"))
        for i, button in enumerate(buttons, 1):
            button.label = f"{i} {button.label}"
        spec = [(b.name, str(b.label), b.disabled) for b in buttons]
        if spec == self.buttons_shown:  # the same buttons (a wrong answer): left as they are, the focus with them
            return
        shown = list(self.query("#actions Button").results(Button))
        if [name for name, _label, _off in spec] == [b.name for b in shown]:  # a count changed: its label only
            for button, (_name, label, off) in zip(shown, spec, strict=True):
                button.label, button.disabled = label, off
            self.buttons_shown = spec
            return
        self.buttons_shown = spec
        bar = self.query_one("#actions")
        bar.remove_children()
        row = Horizontal()
        bar.mount(row)
        row.mount_all(buttons)

    # ------------------------------------------------------------------ answers
    def answer(self, answer: Answer) -> None:
        run = self.run
        if run.done:
            return
        verdict = self.verdict = run.answer(answer)
        if verdict.right:
            self.chosen = 0
            self.show_intro = False
            self.keep(run)
        else:
            self.app.bell()
        self.refresh_all()
        self.query_one("#panel", VerticalScroll).scroll_end(animate=False)

    @on(HandView.Chosen)
    def card_chosen(self, event: HandView.Chosen) -> None:
        step = self.run.current
        if not self.begun:  # Enter on the hand while the intro shows: it starts the lesson, and chooses nothing
            self.begin()
            return
        if step is None:
            return
        if step.ask in (Ask.PICK, Ask.PLAY):
            self.answer(Answer(card=event.card))
        elif step.ask in (Ask.ECART, Ask.POIGNEE):
            bit = 1 << event.card
            if step.ask is Ask.ECART and not self.chosen & bit:  # a king, a bout, a trump: refused as chosen
                reason = ecart_refusal(
                    self.run.deal.hands[LEARNER], self.run.deal.settings.dog_size, event.card, self.chosen
                )
                if reason is not None and reason is not EcartRefusal.FULL:
                    self.verdict = Verdict(False, f"rule.ecart.{reason.value}", {"cards": [card_code(event.card)]})
                    self.app.bell()
                    self.refresh_all()
                    return
            self.chosen ^= bit
            self.refresh_all()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        name = event.button.name or ""
        kind, _sep, value = name.partition(":")
        if kind == "begin":
            self.begin()
        elif kind == "choice":
            self.answer(Answer(choice=value))
        elif kind == "bid":
            self.answer(Answer(bid=value))
        elif kind == "call":
            self.answer(Answer(card=int(value)))
        elif kind == "cards":
            self.answer(Answer(cards=self.chosen))
        elif kind == "none":
            self.answer(Answer(cards=0))
        elif kind == "clear":
            self.chosen = 0
            self.refresh_all()
        elif kind == "next" and self.following is not None:
            self.following()
        elif kind == "again":
            self.action_again()
        elif kind == "back":
            self.action_back()

    def begin(self) -> None:
        self.begun = True
        self.show_intro = False
        self.refresh_all()

    # ------------------------------------------------------------------ keys
    def action_button(self, index: int) -> None:
        buttons = list(self.query("#actions Button").results(Button))
        if 0 < index <= len(buttons) and not buttons[index - 1].disabled:
            buttons[index - 1].press()

    def action_previous(self) -> None:
        box = previous_trick_box(self.run.deal.observation(LEARNER))
        if box is not None:
            self.app.push_screen(box)

    def action_intro(self) -> None:
        self.show_intro = not self.show_intro
        self.refresh_all()

    def action_again(self) -> None:
        self.run = LessonRun(self.lesson)
        self.verdict = None
        self.chosen = 0
        self.begun = True
        self.refresh_all()

    def action_back(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The next lesson and the lesson again only once it is over (and the next one only if there is one)."""
        if action == "next":
            return self.run.done and self.following is not None
        if action == "again":
            return self.run.done
        return True

    def action_next(self) -> None:
        if self.run.done and self.following is not None:
            self.following()


__all__ = ["LessonScreen", "say", "written"]
