"""The person's turn: what the prompt asks, the choices as buttons, and what a chosen card means."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static
from textual.widgets.button import ButtonVariant

from ..engine import Bid, Call, Chelem, Discard, DiscardFrom, PetitSecDecision, Play, Poignee, PoigneeFrom
from ..engine.cards import EXCUSE_BIT, TRUMPS, display_order
from ..engine.ecart import ecart_allowed, ecart_refusal
from ..engine.kinds import EcartRefusal, Phase
from .game import HUMAN, Game
from .text import contract_label, hint_words, level_word, poignee_word
from .widgets import HandView, card_word
from .words import N_, _, n_

_ECART_REFUSALS = {
    EcartRefusal.NOT_IN_HAND: N_("not in your hand"),
    EcartRefusal.KING: N_("a king may never be laid aside"),
    EcartRefusal.BOUT: N_("a bout (21, Petit, Excuse) may never be laid aside"),
    EcartRefusal.TRUMP: N_("a trump may be laid aside only when too few other cards may be"),
}


class Offer(Button):
    """A button that makes one of the engine's legal actions as it stands (a bid, a call, a chelem...)."""

    def __init__(self, label: str, action, variant: ButtonVariant = "default", disabled: bool = False) -> None:
        super().__init__(label, variant=variant, compact=True, disabled=disabled)
        self.offered = action  # not `action`: a Button's own action is a Textual action string


def _button(
    label: str,
    id: str,
    variant: ButtonVariant = "default",
    disabled: bool = False,
    name: str | None = None,
    classes: str | None = None,
) -> Button:
    return Button(label, variant=variant, compact=True, disabled=disabled, id=id, name=name, classes=classes)


class Prompt(Vertical):
    """The message line, the person's hand and the buttons of their choices.

    ``act`` applies the person's action (False when refused); ``busy`` says a robot is still moving."""

    def __init__(self, game: Game, act: Callable[[object], bool], busy: Callable[[], bool]) -> None:
        super().__init__(id="prompt")
        self.game = game
        self.act = act
        self.busy = busy
        self._mode = ""  # what a chosen card means: bid, ecart, poignee, play...
        self.ecart = 0
        self.poignee = 0
        self.poignee_size = 0
        self.poignee_decided = False
        self.shown_row: Horizontal | None = None  # the buttons shown (the rows being removed do not count)

    def compose(self) -> ComposeResult:
        yield Static(id="message")
        yield HandView(id="hand")
        yield Horizontal(id="actions")

    @property
    def mode(self) -> str:
        return self._mode

    @mode.setter
    def mode(self, value: str) -> None:
        """What a chosen card means now; the hand offers Enter (its key's hint) only when a card is chosen."""
        self._mode = value
        for hand in self.query(HandView):
            hand.choosing = value in ("ecart", "poignee", "play")

    # ------------------------------------------------------------ drawing the prompt
    def say(self, text: Text | str) -> None:
        self.query_one("#message", Static).update(text)

    def refuse(self, reason: str) -> None:
        self.say(Text(_("Refused: {reason}", reason=reason), style="bold red"))
        self.app.bell()

    def show_hand(self, obs) -> None:
        hand = self.query_one(HandView)
        hand.hand = obs.hand
        hand.tagged = obs.dog if (obs.dog is not None and obs.phase == Phase.DISCARD and obs.taker == HUMAN) else 0

    def clear_actions(self) -> None:
        self.clear_buttons_only()
        hand = self.query_one(HandView)
        hand.marked = 0
        hand.selected = 0

    def clear_buttons_only(self) -> None:
        self.shown_row = None
        self.query_one("#actions").remove_children()

    def set_actions(self, buttons: list[Button]) -> None:
        """Show the person's choices as buttons, numbered for the keys 1-9 (a fresh row: the row being
        removed may still hold buttons of the same ids)."""
        for i, button in enumerate(buttons, 1):
            button.label = f"{i} {button.label}"
        bar = self.query_one("#actions")
        bar.remove_children()
        self.shown_row = row = Horizontal()
        bar.mount(row)
        row.mount_all(buttons)  # in the DOM at once: a key typed ahead finds its button

    def press(self, index: int) -> None:
        """Key ``index`` (1-9): the numbered button of the row shown."""
        buttons = list(self.shown_row.query(Button).results(Button)) if self.shown_row is not None else []
        if 0 < index <= len(buttons) and not buttons[index - 1].disabled:
            buttons[index - 1].press()

    # ------------------------------------------------------------ asking
    def begin_deal(self) -> None:
        self.poignee_decided = False

    def setup(self) -> None:
        """Ask the person for their move in the deal's phase."""
        obs = self.game.observation()
        hand = self.query_one(HandView)
        phase = obs.phase
        legal = obs.legal
        hand.selected = 0
        if phase == Phase.BIDDING:
            self.mode = "bid"
            hand.marked = obs.hand
            self.say(
                _("Your bid: 1 passes, 2 to 5 bid a contract; the greyed ones are no higher than the best bid so far.")
            )
            # One key per contract, the same all through the auction: unavailable ones are greyed.
            open_bids = {b.contract: b for b in legal if isinstance(b, Bid) and not b.chelem}
            buttons: list[Button] = [
                Offer(
                    contract_label(contract),
                    open_bids.get(contract),
                    variant="primary" if contract else "default",
                    disabled=contract not in open_bids,
                )
                for contract in range(5)
            ]
            buttons += [
                Offer(_("{contract} + chelem", contract=contract_label(b.contract)), b)
                for b in legal
                if isinstance(b, Bid) and b.chelem
            ]
            self.set_actions(buttons)
        elif phase == Phase.CALL:
            self.mode = "call"
            hand.marked = obs.hand
            self.say(_("Call a card: its holder will be your secret partner."))
            self.set_actions([Offer(_("Call {card}", card=card_word(c.card)), c) for c in legal if isinstance(c, Call)])
        elif phase == Phase.DISCARD:
            self.mode = "ecart"
            self.ecart = 0
            choice = next(c for c in legal if isinstance(c, DiscardFrom))
            hand.marked = choice.cards
            self.update_ecart()
        elif phase == Phase.CHELEM:
            self.mode = "chelem"
            hand.marked = obs.hand
            self.say(_("Do you announce a chelem (all the tricks)?"))
            self.set_actions(
                [Offer(_("No chelem"), Chelem(False), "primary"), Offer(_("Announce a chelem"), Chelem(True))]
            )
        elif phase == Phase.PETIT_SEC:
            self.mode = "petit_sec"
            hand.marked = obs.hand
            self.say(_("You hold the petit sec."))
            self.set_actions([Offer(_("Redeal"), PetitSecDecision(True)), Offer(_("Play on"), PetitSecDecision(False))])
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
                self.say(_("Your turn: play one of the bright cards."))
                self.clear_buttons_only()
        hand.focus()

    def update_ecart(self) -> None:
        count = self.game.current.settings.dog_size
        hand = self.query_one(HandView)
        hand.selected = self.ecart
        k = self.ecart.bit_count()
        self.say(
            Text(
                _(
                    "Lay aside {count} cards (dog cards underlined): choose them one by one; {k}/{count} chosen.",
                    count=count,
                    k=k,
                )
            )
        )
        self.set_actions(
            [
                _button(_("Lay aside ({k}/{count})", k=k, count=count), "lay-aside", "primary", disabled=k != count),
                _button(_("Clear"), "clear-ecart"),
            ]
        )

    def ecart_pick_reason(self, card: int) -> str | None:
        """Why ``card`` may not join the écart now, or None when it may: the engine's reason, in words."""
        deal = self.game.current
        count = deal.settings.dog_size
        hand = deal.observation(HUMAN).hand
        reason = ecart_refusal(hand, count, card, self.ecart)
        if reason is None:
            return None
        if reason is EcartRefusal.FULL:
            return _("the écart has {count} cards already: take one back first", count=count)
        if reason is EcartRefusal.TRUMPS_ENOUGH:
            trumps = count - (ecart_allowed(hand, count) & ~TRUMPS).bit_count()
            return _(
                "{card}: only {trumps} may be laid aside; lay aside your other allowed cards",
                card=card_word(card),
                trumps=n_("{n} trump", "{n} trumps", trumps),
            )
        return f"{card_word(card)}: {_(_ECART_REFUSALS[reason])}"

    def _poignee_offer(self) -> PoigneeFrom:
        return next(c for c in self.game.observation().legal if isinstance(c, PoigneeFrom))

    def offer_poignee(self, offer: PoigneeFrom) -> None:
        sizes = sorted(offer.sizes.items(), key=lambda kv: kv[1])
        trumps = (offer.cards & TRUMPS).bit_count()
        said = (
            _(
                "You may show a poignée ({n} trumps + the Excuse) before your first card, or just play a card "
                "to decline.",
                n=trumps,
            )
            if offer.cards & EXCUSE_BIT
            else _(
                "You may show a poignée ({n} trumps) before your first card, or just play a card to decline.", n=trumps
            )
        )
        self.say(Text(said))
        buttons = [
            _button(
                _("Show {size} ({n})", size=poignee_word(name), n=size),
                f"show-{size}",
                "primary",
                name=str(size),
                classes="poignee-size",
            )
            for name, size in sizes
        ]
        buttons.append(_button(_("No poignée"), "no-poignee"))
        self.set_actions(buttons)

    def choose_poignee(self, offer: PoigneeFrom, size: int) -> None:
        pool = offer.cards
        hand = self.game.observation().hand
        trumps = display_order(pool & TRUMPS)
        if len(trumps) + (1 if pool & EXCUSE_BIT else 0) == size or (len(trumps) == size and not pool & ~TRUMPS):
            cards = pool if len(trumps) < size else sum(1 << c for c in trumps)
            self.poignee_decided = True
            self.act(Poignee(cards))
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
        self.say(_("Choose the {n} trumps to show (click to swap): {k}/{n}.", n=self.poignee_size, k=k))
        self.set_actions(
            [
                _button(_("Show these {k}", k=k), "show-poignee", "primary", disabled=k != self.poignee_size),
                _button(_("Cancel"), "cancel-poignee"),
            ]
        )

    def show_hint(self, level: str, action, why: str = "") -> None:
        """The hint and its reasons (``why``: the search's figures, in words)."""
        self.say(
            Text(
                _("Hint: the {level} robot would {what}.", level=level_word(level), what=hint_words(action))
                + (" " + why if why else ""),
                style="bold cyan",
            )
        )
        if isinstance(action, Play):
            self.query_one(HandView).focus_card(action.card)
        elif isinstance(action, Discard) and self.mode == "ecart":
            self.ecart = action.cards  # highlighted: the person may confirm or change them
            self.update_ecart()
            self.say(
                Text(
                    _(
                        "Hint: the {level} robot would {what} (chosen for you: change them or lay them aside).",
                        level=level_word(level),
                        what=hint_words(action),
                    )
                    + (" " + why if why else ""),
                    style="bold cyan",
                )
            )

    # ------------------------------------------------------------ answers: a card
    @on(HandView.Chosen)
    def card_chosen(self, event: HandView.Chosen) -> None:
        card = event.card
        if not self.game.human_to_act or self.busy():
            self.refuse(_("wait for your turn"))
            return
        if self.mode == "play":
            self.poignee_decided = True
            self.act(Play(card))
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
            pool = self._poignee_offer().cards
            if self.poignee >> card & 1:
                self.poignee &= ~(1 << card)
            elif not pool >> card & 1:
                self.refuse(
                    _(
                        "{card}: a poignée shows only trumps (the Excuse only when you lack one trump)",
                        card=card_word(card),
                    )
                    if card == 77
                    else _("{card}: a poignée shows only trumps", card=card_word(card))
                )
                return
            elif self.poignee.bit_count() >= self.poignee_size:
                self.refuse(_("the poignée has {n} cards: take one back first", n=self.poignee_size))
                return
            else:
                self.poignee |= 1 << card
            self.update_poignee()
        elif self.mode == "bid":
            self.refuse(_("bid first: choose a contract or pass with the buttons"))
        elif self.mode == "call":
            self.refuse(_("call a card with the buttons"))
        else:
            self.refuse(_("choose with the buttons"))

    # ------------------------------------------------------------ answers: a button
    def _answered(self, event: Button.Pressed) -> bool:
        """The press is the prompt's own; it counts only on the person's turn (a late key press does not)."""
        event.stop()
        return self.game.human_to_act

    @on(Button.Pressed, "Offer")
    def _offer(self, event: Button.Pressed) -> None:
        if self._answered(event) and isinstance(event.button, Offer):
            self.act(event.button.offered)

    @on(Button.Pressed, "#lay-aside")
    def confirm_ecart(self, event: Button.Pressed) -> None:
        if not self._answered(event):
            return
        count = self.game.current.settings.dog_size
        if self.ecart.bit_count() != count:
            self.refuse(_("the écart has {count} cards: {k} chosen so far", count=count, k=self.ecart.bit_count()))
            return
        self.act(Discard(self.ecart))

    @on(Button.Pressed, "#clear-ecart")
    def clear_ecart(self, event: Button.Pressed) -> None:
        if self._answered(event):
            self.ecart = 0
            self.update_ecart()

    @on(Button.Pressed, ".poignee-size")
    def _poignee_size(self, event: Button.Pressed) -> None:
        if self._answered(event) and event.button.name is not None:
            self.choose_poignee(self._poignee_offer(), int(event.button.name))

    @on(Button.Pressed, "#no-poignee")
    def decline_poignee(self, event: Button.Pressed) -> None:
        if self._answered(event):
            self.poignee_decided = True
            self.setup()

    @on(Button.Pressed, "#show-poignee")
    def confirm_poignee(self, event: Button.Pressed) -> None:
        if self._answered(event) and self.act(Poignee(self.poignee)):
            self.poignee_decided = True

    @on(Button.Pressed, "#cancel-poignee")
    def cancel_poignee(self, event: Button.Pressed) -> None:
        if self._answered(event):
            self.poignee = 0
            self.setup()
