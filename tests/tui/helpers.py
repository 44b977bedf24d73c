"""Driving the terminal game headless, as a person would: keys and clicks only."""

from __future__ import annotations

import asyncio
import io
import random
import time
from collections.abc import Callable

from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.widgets import Button, RichLog, Static
from textual.widgets._footer import FooterKey

from atout.engine import PASS, Bid, Chelem, Deal
from atout.engine.cards import mask_of
from atout.tui.app import AtoutApp, GameScreen, InfoScreen, ResultScreen
from atout.tui.game import HUMAN, Game
from atout.tui.table import TableView
from atout.tui.widgets import HandView

SIZE = (80, 24)
WITHIN = 120.0
"""How long a wait may last before the test calls it a hang: only an upper bound, never a guess of how
long a robot or the app takes (a loaded machine may take many times what an idle one does)."""


async def until(pilot, done: Callable[[], bool], what: str, within: float = WITHIN) -> None:
    """Let the app run (its messages handled, its robots' threads thinking) until ``done()``.

    One of Textual's pauses first (what was pressed is handled), then short sleeps of the event loop the
    app runs in: a pause waits for the process to look idle, at least 20 ms and up to a second while a
    robot's thread is thinking, which made waits long without telling more."""
    end = time.monotonic() + within
    await pilot.pause()
    while not done():
        if time.monotonic() > end:
            raise AssertionError(f"{what} (not within {within:.0f} s)")
        await asyncio.sleep(0.002)
    await pilot.pause(0)  # the screen refreshed for what is now true


async def settle(app: AtoutApp, pilot) -> None:
    """Wait until the person must act, or a result or information box shows."""

    def waiting() -> bool:
        screen = app.screen
        if not app.is_running or isinstance(screen, (ResultScreen, InfoScreen)):
            return True
        return isinstance(screen, GameScreen) and screen.game.human_to_act and not screen.robot_busy

    await until(pilot, waiting, f"the game never waited for the person: {app.screen}")


def message(app: AtoutApp) -> str:
    return str(app.screen.query_one("#message").render())


def buttons(app: AtoutApp) -> list:
    return list(app.screen.query("#actions Button"))


async def choose_card(pilot, hand: HandView, card: int, arrows: bool = False) -> None:
    """Put the cursor on ``card`` (with the arrow keys when ``arrows``) and press Enter."""
    if arrows:
        await pilot.press("home")
        for _ in range(hand.cards.index(card)):
            await pilot.press("right")
        assert hand.cards[hand.cursor] == card
    else:
        hand.cursor = hand.cards.index(card)
    await pilot.press("enter")


async def play_through(app: AtoutApp, pilot, rng: random.Random, bid: str = "random", max_steps: int = 3000):
    """Play as a person until the game ends; returns the list of screens met (by kind)."""
    seen: set[str] = set()
    for _ in range(max_steps):
        await settle(app, pilot)
        if not app.is_running:
            return seen
        screen = app.screen
        if isinstance(screen, ResultScreen):
            seen.add("result")
            over = screen.game.is_over
            if over:
                assert screen.query("#ranking"), "the last result shows the final ranking"
                seen.add("final")
            await pilot.press("enter")
            if over:
                await pilot.pause()
                return seen
            continue
        if isinstance(screen, InfoScreen):
            seen.add(screen.kind)
            await pilot.press("enter")
            continue
        mode = screen.prompt.mode
        seen.add(mode)
        hand = screen.query_one(HandView)
        if mode == "bid":
            open_keys = [i for i, b in enumerate(buttons(app), 1) if not b.disabled]
            key = {"pass": 1, "take": open_keys[1] if len(open_keys) > 1 else 1}.get(bid, rng.choice(open_keys))
            await pilot.press(str(key))
        elif mode in ("call", "chelem", "petit_sec"):
            await pilot.press("1")
        elif mode == "ecart":
            count = screen.game.deal.settings.dog_size
            for card in list(hand.cards):
                if screen.prompt.ecart.bit_count() < count and screen.prompt.ecart_pick_reason(card) is None:
                    await choose_card(pilot, hand, card)
            await pilot.press("1")
        elif mode == "poignee":
            await pilot.press("1")
        elif mode == "play":
            if buttons(app) and rng.random() < 0.5:  # a poignée offer: show the first size
                await pilot.press("1")
                continue
            playable = [c for c in hand.cards if hand.marked >> c & 1]
            await choose_card(pilot, hand, rng.choice(playable))
        else:
            raise AssertionError(f"unknown mode {mode!r}")
    raise AssertionError("the game did not end")


def bid_to(game: Game, contract: int) -> None:
    """Everyone passes but the person, who bids ``contract`` (set up outside the app)."""
    deal = game.deal
    while deal.phase == "bidding":
        seat = deal.to_act
        game.apply(Bid(contract if seat == HUMAN else PASS), seat=seat)


def human_taker(players: int, seed: str, contract: int, **kwargs) -> Game:
    for i in range(200):
        game = Game(players=players, level="random", deals=1, seed=f"{seed}{i}", **kwargs)
        game.start_deal()
        if not game.deal.is_over:
            bid_to(game, contract)
            return game
    raise RuntimeError("no deal found")


def poignee_game(**kwargs) -> Game:
    """4 players; the person holds T1..T11 (a poignée simple of 10 with a choice), takes a garde sans."""
    rng = random.Random(3)
    trumps = list(range(56, 67))
    rest = [c for c in range(78) if c not in trumps]
    rng.shuffle(rest)
    hands = [mask_of(trumps + rest[:7])] + [mask_of(rest[7 + 18 * k : 25 + 18 * k]) for k in range(3)]
    dog = mask_of(rest[61:])
    game = Game(players=4, level="random", deals=1, seed="poignee", **kwargs)
    game.deal = Deal(game.rules, 3, hands, dog)
    game.deal_index = 1
    bid_to(game, 3)
    game.apply(Chelem(False), seat=HUMAN)
    return game


def shown(app: App) -> str:
    """Every word the screen shows: texts, the log, the table, buttons and the footer's keys."""
    parts = []
    for widget in app.screen.query("*"):
        if isinstance(widget, TableView | HandView):
            parts.append(widget.render().plain)
        elif isinstance(widget, Button):
            parts.append(str(widget.label))
        elif isinstance(widget, FooterKey):
            parts.append(widget.description)
        elif isinstance(widget, RichLog):
            parts.extend("".join(segment.text for segment in line) for line in widget.lines)
        elif isinstance(widget, Static):
            content = widget.content
            if isinstance(content, str | Text):
                parts.append(str(content))
            else:  # a Rich renderable (the score sheet's table): as a terminal prints it
                console = Console(width=120, record=True, file=io.StringIO())
                console.print(content)
                parts.append(console.export_text())
    return "\n".join(parts)
