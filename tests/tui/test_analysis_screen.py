"""The end-of-deal screen offers the analysis of the person's play: ``a`` shows its progress, then each
decision with what was better and the marks; asked again, it is not made again."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console
from textual.widgets._footer import FooterKey

from atout.bots.accuracy import combine, record_roles, seat_accuracy
from atout.bots.analysis import analyse
from atout.engine.cards import parse_card
from atout.engine.record import to_record
from atout.tui.accuracy import GameAccuracy
from atout.tui.analysis import AnalysisScreen
from atout.tui.app import AtoutApp, InfoScreen, ResultScreen
from atout.tui.game import HUMAN, Game
from atout.tui.widgets import HandView, card_word

from .helpers import buttons, choose_card, settle, until

FEWER_WORLDS = {"CARD_SAMPLES": {3: 12, 4: 12, 5: 12}, "BID_SAMPLES": 8, "ECART_SAMPLES": 8}
"""The expert's worlds for these tests (12 a card rather than 108): the plumbing is tested here, the search in
tests/bots; the screen's analysis and the one made here to compare it with search the same ones."""


@pytest.fixture(autouse=True)
def fewer_worlds(monkeypatch):
    for name, value in FEWER_WORLDS.items():
        for module in ("atout.bots.expert", "atout.bots.analysis"):
            monkeypatch.setattr(f"{module}.{name}", value)


async def _to_the_result(app, pilot) -> None:
    """Play the person's turns at random (taking when the bid allows) until the deal's result shows."""
    rng = random.Random(7)
    while True:
        await settle(app, pilot)
        screen = app.screen
        if isinstance(screen, ResultScreen):
            return
        if isinstance(screen, InfoScreen):
            await pilot.press("enter")
            continue
        hand = screen.query_one(HandView)
        if screen.prompt.mode == "play":
            await choose_card(pilot, hand, rng.choice([c for c in hand.cards if hand.marked >> c & 1]))
        elif screen.prompt.mode == "ecart":
            for card in list(hand.cards):
                if screen.prompt.ecart.bit_count() < 6 and screen.prompt.ecart_pick_reason(card) is None:
                    await choose_card(pilot, hand, card)
            await pilot.press("1")
        elif screen.prompt.mode == "bid":
            open_keys = [i for i, b in enumerate(buttons(app), 1) if not b.disabled]
            await pilot.press(str(open_keys[1] if len(open_keys) > 1 else 1))
        else:
            await pilot.press("1")


async def test_a_on_the_result_screen_analyses_the_persons_decisions():
    game = Game(players=4, level="heuristic", deals=2, seed="analysis-screen")
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=(110, 40)) as pilot:
        await _to_the_result(app, pilot)
        record = to_record(game.current)
        await pilot.press("a")
        await until(
            pilot,
            lambda: isinstance(app.screen, AnalysisScreen) and app.screen.analysis is not None,
            "the analysis never showed",
        )
        screen = app.screen
        expected = analyse(record, [HUMAN], "analysis", factor=1).to_json()
        assert screen.analysis.to_json() == expected
        mine = [d for d in expected["decisions"] if d["seat"] == HUMAN]
        summary = str(screen.query_one("#summary").render())
        assert f"{len(mine)} decision" in summary
        table = screen.query_one("#decisions").content
        lost = [d for d in mine if d["mark"] or d["loss"] >= 1]
        assert table.row_count == len(mine) + len(lost)  # a decision that lost something: a row of why beneath it
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(table)
        text = console.export_text()
        for d in mine:
            if d["mark"] or d["loss"] >= 1:
                assert f"{d['best_words']} (+{d['loss']:g})" in text
                assert d["reasons"] and d["reasons"][0]["kind"] in ("gain", "noise", "even")
            if "play" in d["action"]:  # the card as the terminal names it: "Play trump 20", never "Play 20"
                assert d["words"] == f"Play {card_word(parse_card(d['action']['play']))}"
                assert d["words"] in text
        assert not lost or "deals searched" in text  # why, in the hint's own words (tui/text.reason_words)
        marks = sum(1 for d in mine if d["mark"])
        assert ("no mark" in summary) == (marks == 0)
        done = screen.analysis
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the analysis did not close")
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AnalysisScreen), "the analysis did not open again")
        assert app.screen.analysis is done  # kept, not made again
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the analysis did not close")


async def test_the_last_results_enter_says_quit_and_an_a_after_it_opens_nothing():
    """After the last deal, the footer says what Enter does (quit, not "Continue"), and the screen the accuracy of
    the person's play over the game's deals (issue 50: measured as the site measures it, bots.accuracy over each
    deal's analysis); an ``a`` pressed just after Enter (the app closing) opens no analysis (it opened one on the
    closing app: NoMatches #progress, when the analysis had been made before)."""
    game = Game(players=4, level="random", deals=1, seed="last-result")
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=(110, 50)) as pilot:
        await _to_the_result(app, pilot)
        assert game.is_over
        keys = {widget.key: widget.description for widget in app.screen.query(FooterKey)}
        assert keys.get("enter") == "Quit" and "Continue" not in keys.values(), keys
        widget = app.screen.query_one(GameAccuracy)
        await until(pilot, lambda: widget.summary is not None, "the game's accuracy never showed")
        records = game.finished_records()
        assert len(records) == len(game.sheet) >= 1  # a void deal is a line of the sheet too
        expected = combine(
            seat_accuracy(analyse(r, [HUMAN], "analysis", factor=1).to_json(), HUMAN, record_roles(r)[HUMAN])
            for r in records
        )
        assert widget.summary == expected
        shown = str(widget.render())
        n = expected["deals"]
        head = "Your play in the game's deal: " if n == 1 else f"Your play over the game's {n} deals: "
        assert shown.startswith(head), shown
        assert "A deal, by phase (the deals in brackets): Bidding " in shown, shown
        if expected["loss"] > 0:
            assert f"−{round(expected['loss'], 1):g} points against the expert" in shown, shown
        await pilot.press("a")
        await until(
            pilot,
            lambda: isinstance(app.screen, AnalysisScreen) and app.screen.analysis is not None,
            "the analysis never showed",
        )
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the analysis did not close")
        screen = app.screen
        screen.action_next()  # Enter, and the a after it in the same breath
        screen.action_analyse()
        await until(pilot, lambda: not app.is_running, "Enter did not end the game")
    assert app.return_code == 0
