"""The terminal game driven headless with Textual's pilot, as a person plays it."""

from __future__ import annotations

import io
import json
import random
import re
import threading
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import RadioButton

from atout.engine import GARDE, PASS, PRISE, Bid, Deal, Poignee
from atout.engine.cards import KINGS, SPADES, TRUMPS, english_name, parse_card, suit_card
from atout.engine.ecart import ecart_refusal
from atout.engine.kinds import EcartRefusal
from atout.engine.record import replay
from atout.tui.app import AtoutApp, GameScreen, HelpScreen, InfoScreen, LeaveScreen, ResultScreen, StartScreen
from atout.tui.game import HUMAN, Game
from atout.tui.widgets import HandView

from .helpers import (
    SIZE,
    WITHIN,
    buttons,
    choose_card,
    human_taker,
    message,
    play_through,
    poignee_game,
    settle,
    until,
)


def plain(renderable) -> str:
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("players", [3, 4, 5])
async def test_whole_game(players, tmp_path):
    deals = 2 if players == 4 else 1  # from one deal to the next once; each size plays a whole game
    game = Game(players=players, level="random", deals=deals, seed=f"whole{players}", save_dir=tmp_path)
    app = AtoutApp(game, delay=0, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        seen = await play_through(app, pilot, random.Random(players), bid="take")
    assert game.is_over
    assert game.deals_played == deals
    assert {"result", "final", "play", "bid"} <= seen
    assert sum(game.totals) == 0
    # Every finished deal was saved as a deal record that replays to the same scores.
    for line in game.sheet:
        with open(line.record, encoding="utf-8") as f:
            record = json.load(f)
        assert record["format"] == "atout-deal"
        assert replay(record).deal.result.scores == line.scores


async def test_taker_phases_dog_ecart_and_refusals(tmp_path):
    game = human_taker(4, "ecart", PRISE, save_dir=tmp_path)
    app = AtoutApp(game, delay=0, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        # The dog is shown to all before the écart.
        assert isinstance(app.screen, InfoScreen) and app.screen.kind == "dog"
        await pilot.press("enter")
        await settle(app, pilot)
        screen = app.screen
        assert screen.prompt.mode == "ecart"
        assert screen.query_one(HandView).choosing and "Choose card" in footer_text(app)  # Enter's hint now
        hand = screen.query_one(HandView)
        assert hand.tagged == game.deal.dog  # the dog's cards are marked in the hand
        # A king or a bout is refused with the reason.
        forbidden = [c for c in hand.cards if (1 << c) & KINGS or c in (56, 76, 77)]
        assert forbidden
        await choose_card(pilot, hand, forbidden[0], arrows=True)
        assert "Refused" in message(app) and "may never be laid aside" in message(app)
        assert screen.prompt.ecart == 0
        # Every card's reason is the engine's, in words: a king, a bout, a trump while others may go.
        mask = game.deal.hands[game.deal.taker]
        words = {
            EcartRefusal.KING: "a king may never",
            EcartRefusal.BOUT: "a bout (21, Petit, Excuse) may never",
            EcartRefusal.TRUMP: "a trump may be laid aside only when",
        }
        for card in hand.cards:
            why = ecart_refusal(mask, 6, card)
            said = screen.prompt.ecart_pick_reason(card)
            assert (said is None) == (why is None)
            if why is not None:
                assert words[why] in said
        # Too early to confirm; then pick the right number and one too many.
        assert buttons(app)[0].disabled
        allowed = [c for c in hand.cards if screen.prompt.ecart_pick_reason(c) is None]
        for card in allowed[:6]:
            await choose_card(pilot, hand, card)
        assert screen.prompt.ecart.bit_count() == 6
        extra = next((c for c in allowed[6:]), None)
        if extra is not None:
            await choose_card(pilot, hand, extra)
            assert "take one back first" in message(app)
        # Unpick and repick one card, then lay aside.
        await choose_card(pilot, hand, allowed[0])
        assert screen.prompt.ecart.bit_count() == 5
        await choose_card(pilot, hand, allowed[0])
        assert not buttons(app)[0].disabled
        await pilot.press("1")
        await settle(app, pilot)
        assert game.deal.ecart.bit_count() == 6
        assert app.screen.prompt.mode == "chelem"
        assert [b.label.plain for b in buttons(app)] == ["1 No chelem", "2 Announce a chelem"]
        await pilot.press("1")
        await settle(app, pilot)
        assert game.deal.chelem_announced is False
        assert game.deal.phase == "play"


async def test_trump_in_ecart_refused_when_not_needed():
    game = human_taker(4, "ecart", PRISE)
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        hand = app.screen.query_one(HandView)
        trumps = [c for c in hand.cards if 56 < c < 76]
        assert trumps
        await choose_card(pilot, hand, trumps[0])
        assert "a trump may be laid aside only when too few other cards may be" in message(app)


async def test_illegal_card_refused_with_reason_and_mouse_play():
    for i in range(50):
        game = Game(players=4, level="random", deals=1, seed=f"refuse{i}")
        game.start_deal()
        app = AtoutApp(game, delay=0)
        async with app.run_test(size=SIZE) as pilot:
            rng = random.Random(i)
            # Pass until the play, then find a turn with a card that may not be played.
            for _ in range(200):
                await settle(app, pilot)
                screen = app.screen
                if not isinstance(screen, GameScreen):
                    break
                hand = screen.query_one(HandView)
                if screen.prompt.mode == "bid":
                    await pilot.press("1")
                    continue
                if screen.prompt.mode == "play":
                    bad = [c for c in hand.cards if not hand.marked >> c & 1]
                    if bad:
                        before = list(game.deal.history)
                        await choose_card(pilot, hand, bad[0], arrows=True)
                        text = message(app)
                        assert "Refused" in text
                        assert any(w in text for w in ("follow suit", "trump", "called"))
                        # Cards as the screen names them (K♠, trump 18), never record codes (KS, T18).
                        assert not re.search(r"\b(?:T\d{1,2}|EX|(?:10|[1-9JNQK])[SHDC])\b", text), text
                        assert game.deal.history == before  # nothing changed
                        # Now play a playable card with the mouse.
                        good = next(c for c in hand.cards if hand.marked >> c & 1)
                        await pilot.click(HandView, offset=hand.position_of(good))
                        await pilot.pause()
                        assert game.deal.history[len(before)][1].card == good
                        return
                    playable = [c for c in hand.cards if hand.marked >> c & 1]
                    await choose_card(pilot, hand, rng.choice(playable))
                else:
                    await pilot.press("1")
    pytest.fail("no refused card found")


def footer_text(app) -> str:
    """The key hints the footer shows now."""
    return " ".join(
        str(binding.description)
        for _, binding, enabled, _ in app.screen.active_bindings.values()
        if binding.show and enabled
    )


async def test_five_player_call():
    game = human_taker(5, "call", GARDE)
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert screen.prompt.mode == "call"
        labels = [b.label.plain for b in buttons(app)]
        assert labels[:4] == ["1 Call K♠", "2 Call K♥", "3 Call K♦", "4 Call K♣"]
        # Clicking a card at the call is refused: the call uses the buttons; Enter is no card's key here
        # (its hint shows only while a card is to be chosen).
        hand = app.screen.query_one(HandView)
        assert not hand.choosing and "Choose card" not in footer_text(app)
        await pilot.click(HandView, offset=hand.position_of(hand.cards[0]))
        assert "call a card" in message(app)
        await pilot.click(buttons(app)[1])
        await settle(app, pilot)
        assert game.deal.called == parse_card("KH")
        status = str(app.screen.query_one("#status").render()) if isinstance(app.screen, GameScreen) else ""
        if isinstance(app.screen, GameScreen):
            assert "called K♥" in status


async def test_poignee_choice_of_trumps():
    game = poignee_game()
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert screen.prompt.mode == "play"
        labels = [b.label.plain for b in buttons(app)]
        assert labels == ["1 Show simple (10)", "2 No poignée"]
        await pilot.press("1")
        assert screen.prompt.mode == "poignee"
        assert screen.prompt.poignee.bit_count() == 10
        hand = screen.query_one(HandView)
        # Swap: take back the 2, show the 11 instead.
        t2, t11 = parse_card("T2"), parse_card("T11")
        assert screen.prompt.poignee >> t2 & 1 and not screen.prompt.poignee >> t11 & 1
        await choose_card(pilot, hand, t11)
        assert "take one back first" in message(app)
        await choose_card(pilot, hand, t2)
        assert buttons(app)[0].disabled
        plain = next(c for c in hand.cards if c < 56)
        await choose_card(pilot, hand, plain)
        assert "a poignée shows only trumps" in message(app)
        await choose_card(pilot, hand, t11)
        await pilot.press("1")
        await settle(app, pilot)
        shown = [a for s, a in game.deal.history if isinstance(a, Poignee)]
        assert len(shown) == 1 and shown[0].cards >> t11 & 1 and not shown[0].cards >> t2 & 1
        assert shown[0].cards & ~TRUMPS == 0


async def test_save_and_resume(tmp_path):
    game = Game(players=4, level="random", deals=1, seed="resume", save_dir=tmp_path)
    app = AtoutApp(game, delay=0, save_dir=tmp_path)
    rng = random.Random(5)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(40):
            await settle(app, pilot)
            screen = app.screen
            if isinstance(screen, InfoScreen):
                await pilot.press("enter")
                continue
            if screen.prompt.mode == "play" and len(game.deal.tricks) >= 3:
                break
            if screen.prompt.mode == "play":
                hand = screen.query_one(HandView)
                await choose_card(pilot, hand, rng.choice([c for c in hand.cards if hand.marked >> c & 1]))
            elif screen.prompt.mode == "ecart":
                await play_through_ecart(app, pilot)
            else:
                await pilot.press("1")
        assert game.deal.phase == "play"
        await pilot.press("s")
        assert "saved" in message(app)
        history = list(game.deal.history)
        await pilot.press("q")
        assert isinstance(app.screen, LeaveScreen)
        await pilot.press("y")
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["format"] == "atout-game"
    resumed = Game.load(tmp_path / "game.json")
    assert resumed.deal.history == history
    app = AtoutApp(resumed, delay=0, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.screen.query_one(HandView).hand == resumed.deal.hands[HUMAN]
        await play_through(app, pilot, random.Random(9))
    assert resumed.is_over and resumed.deals_played == 1
    assert resumed.deal.history[: len(history)] == history


async def play_through_ecart(app, pilot):
    screen = app.screen
    hand = screen.query_one(HandView)
    for card in list(hand.cards):
        if screen.prompt.ecart.bit_count() < 6 and screen.prompt.ecart_pick_reason(card) is None:
            await choose_card(pilot, hand, card)
    await pilot.press("1")


async def test_result_screen_and_score_sheet():
    game = Game(players=3, level="random", deals=2, seed="sheet")
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        rng = random.Random(1)
        while True:
            await settle(app, pilot)
            if isinstance(app.screen, ResultScreen):
                break
            screen = app.screen
            if isinstance(screen, InfoScreen):
                await pilot.press("enter")
            elif screen.prompt.mode == "play":
                hand = screen.query_one(HandView)
                await choose_card(pilot, hand, rng.choice([c for c in hand.cards if hand.marked >> c & 1]))
            elif screen.prompt.mode == "ecart":
                await play_through_ecart(app, pilot)
            else:
                await pilot.press("1")
        text = str(app.screen.query_one("#result").render())
        result = game.deal.result
        if not result.void:
            assert f"needed {result.target}" in text
            assert f"{result.points:g} points with {result.bouts} bout" in text
            assert "Petit au bout" in text and "Poignées" in text and "Chelem" in text
            assert f"×{result.multiplier}" in text
        sheet = plain(app.screen.query_one("#sheet").content)
        assert "Total" in sheet and "Anna" in sheet
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, GameScreen)


async def test_help_previous_trick_hint_and_shown_cards():
    game = poignee_game()
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("p")
        assert "No trick" in message(app)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("h")
        await until(pilot, lambda: "Hint:" in message(app), "no hint came")
        assert "Hint: the" in message(app)
        # Show the poignée, play one trick, then look back at it.
        await pilot.press("2")  # no poignée
        hand = app.screen.query_one(HandView)
        await choose_card(pilot, hand, next(c for c in hand.cards if hand.marked >> c & 1))
        for _ in range(200):
            await settle(app, pilot)
            if game.deal.tricks:
                break
        await pilot.press("p")
        assert isinstance(app.screen, InfoScreen) and app.screen.kind == "previous"
        await pilot.press("escape")
        await pilot.press("c")
        assert isinstance(app.screen, InfoScreen) and app.screen.kind == "shown"


async def test_start_screen_choices(tmp_path):
    app = AtoutApp(None, delay=0, save_dir=tmp_path, start_screen=True, level="random")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        await pilot.click("#players RadioButton")  # 3 players
        deals = app.screen.query_one("#deals")
        deals.value = ""
        await pilot.click("#deals")
        await pilot.press("2")
        await pilot.click("#start")
        await settle(app, pilot)
        assert isinstance(app.screen, (GameScreen, InfoScreen, ResultScreen))
        assert app.game.players == 3 and app.game.deals == 2


@pytest.mark.parametrize(("keys", "players"), [((), 4), (("down",), 5), (("up",), 3)])
async def test_start_screen_lights_the_chosen_option_and_enter_begins_with_it(tmp_path, keys, players):
    """The cursor starts on the option chosen (4 players, the default level), not on the first (it lit "3
    players" and the first Enter switched to 3); Enter begins with the option under the cursor."""
    app = AtoutApp(None, delay=0, save_dir=tmp_path, start_screen=True, level="random")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StartScreen)
        for choice in screen.query("#players, #level"):
            lit = [str(b.label) for b in choice.query(RadioButton) if b.has_class("-selected")]
            assert lit == [str(choice.pressed_button.label)], choice.id
        assert str(screen.query_one("#players").pressed_button.label) == "4 players"
        assert screen.query_one("#players").has_focus
        for key in keys:
            await pilot.press(key)
        await pilot.press("enter")
        await until(pilot, lambda: app.game is not None, "Enter did not begin the game")
        assert app.game.players == players and app.game.level == "random" and app.game.deals == 4


@pytest.mark.parametrize(("keys", "players"), [(("down",), 5), (("down", "down"), 3)])
async def test_start_screen_arrows_choose_before_tab_and_start(tmp_path, keys, players):
    """The arrows choose the option they move to, not only a highlight: a person chose 5 players with them,
    went on with Tab and Start, and got a game of 4."""
    app = AtoutApp(None, delay=0, save_dir=tmp_path, start_screen=True, level="beginner")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        await pilot.press(*keys)  # on the players
        await pilot.press("tab", "down")  # to the level, and one on
        await pilot.press("tab")  # away from the level, to the deals
        await pilot.pause()
        chosen = {c.id: str(c.pressed_button.label) for c in app.screen.query("#players, #level")}
        assert chosen["players"] == f"{players} players", chosen
        await pilot.click("#start")
        await until(pilot, lambda: app.game is not None, "Start did not begin the game")
        assert app.game.players == players and app.game.level == "club"


async def test_start_screen_refuses_zero_deals():
    app = AtoutApp(None, delay=0, start_screen=True)
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#deals").value = "0"
        await pilot.click("#start")
        assert isinstance(app.screen, StartScreen)
        assert "at least one deal" in str(app.screen.query_one("#error").render())


async def test_robots_pause_so_a_person_can_follow():
    game = Game(players=4, level="random", deals=1, seed="slow")
    game.start_deal()
    while game.deal.is_over or game.deal.to_act == HUMAN:
        game.start_deal() if game.deal.is_over else game.apply(game.robot_choice()[1], seat=HUMAN)
    paused: list[float] = []
    over = threading.Event()

    def pause(seconds: float) -> None:
        """The robot's pause, held until the test has seen it: no guess of how long a moment is."""
        paused.append(seconds)
        assert over.wait(WITHIN), "the test never ended the pause"

    app = AtoutApp(game, delay=1.5, pause=pause)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(paused), "the robot never paused")
        assert 0 < paused[0] <= 1.5  # what was left of the 1.5 s once it had chosen
        assert app.screen.robot_busy and len(game.deal.history) == 0
        assert "thinking" in message(app)
        over.set()
        await settle(app, pilot)
        assert len(game.deal.history) >= 1


async def test_start_screen_resumes_the_saved_game(tmp_path):
    game = Game(players=5, level="random", deals=2, seed="again", save_dir=tmp_path)
    game.start_deal()
    game.save()
    app = AtoutApp(None, delay=0, save_dir=tmp_path, start_screen=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#resume")
        await settle(app, pilot)
        assert app.game.players == 5 and app.game.seed == "again"
        assert app.game.deal.seed == game.deal.seed


async def test_a_failing_robot_does_not_end_the_game(monkeypatch):
    game = Game(players=3, level="random", deals=1, seed="fail")
    game.start_deal()

    def broken(self, observation, budget=None):
        raise RuntimeError("boom")

    robot = game.robot(1)
    monkeypatch.setattr(type(robot), "choose", broken)
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_through(app, pilot, random.Random(2), bid="pass")
    assert game.deals_played == 1


async def test_robots_wait_while_the_help_is_open():
    game = Game(players=4, level="random", deals=1, seed="wait")
    game.start_deal()
    while game.deal.is_over or game.deal.to_act == HUMAN:
        game.start_deal() if game.deal.is_over else game.apply(game.robot_choice()[1], seat=HUMAN)
    helped = threading.Event()
    choose = game.robot_choice

    def after_the_help_opens():
        """The robot decides only once the help is open, however fast or slow the machine."""
        assert helped.wait(WITHIN), "the help never opened"
        return choose()

    game.robot_choice = after_the_help_opens
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        table = app.screen_stack[-2]
        helped.set()
        await until(pilot, lambda: bool(table._pending), "the robot never chose")
        assert len(game.deal.history) == 0  # ...but its move waits for the help to close
        await pilot.press("escape")
        await until(pilot, lambda: bool(game.deal.history), "the robot's move never came")


async def test_hint_at_the_ecart_chooses_a_legal_ecart():
    game = human_taker(4, "hint", PRISE)
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")  # the dog
        await settle(app, pilot)
        await pilot.press("h")
        await until(pilot, lambda: "Hint:" in message(app), "no hint came")
        # and why, in the search's figures (bots/reasons.py): what it wins over the next best écart
        assert "deals searched" in message(app) and "points" in message(app), message(app)
        screen = app.screen
        assert screen.prompt.ecart.bit_count() == 6
        await pilot.press("1")
        await settle(app, pilot)
        assert game.deal.phase == "chelem" and game.deal.ecart == screen.prompt.ecart


async def test_all_pass_is_a_void_deal_that_does_not_count(monkeypatch):
    from atout.bots.random_bot import RandomBot
    from atout.engine import Bid

    original = RandomBot.choose

    def passing(self, observation, budget=None):
        if observation.phase == "bidding":
            return Bid(0)
        return original(self, observation, budget)

    monkeypatch.setattr(RandomBot, "choose", passing)
    game = Game(players=4, level="random", deals=1, seed="allpass")
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first_dealer = game.deal.dealer
        await pilot.press("1")  # pass
        await settle(app, pilot)
        assert isinstance(app.screen, ResultScreen)
        assert "void" in str(app.screen.query_one("#result").render())
        assert game.deals_played == 0 and not game.is_over
        await pilot.press("enter")
        await settle(app, pilot)
        assert game.deal.dealer == (first_dealer + 1) % 4
        assert "Deal 1/1" in str(app.screen.query_one("#status").render())


async def test_ecart_with_trumps_when_too_few_other_cards():
    from atout.engine import Deal
    from atout.engine.cards import mask_of

    kings = [13, 27, 41, 55]
    trumps = list(range(56, 78))  # T1..T21 and the Excuse
    human = kings + trumps[:14]  # 4 kings, T1..T14: no plain card
    dog = [0, 1, 2, *trumps[14:17]]  # three low spades, T15..T17
    rest = [c for c in range(78) if c not in human and c not in dog]
    hands = [mask_of(human)] + [mask_of(rest[18 * k : 18 * k + 18]) for k in range(3)]
    game = Game(players=4, level="random", deals=1, seed="trump-ecart")
    game.deal = Deal(game.rules, 3, hands, mask_of(dog))
    game.deal_index = 1
    from .helpers import bid_to

    bid_to(game, PRISE)
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")  # the dog
        await settle(app, pilot)
        screen = app.screen
        hand = screen.query_one(HandView)
        picks = [parse_card(c) for c in ("T2", "T3", "T4")]
        for card in picks:
            await choose_card(pilot, hand, card)
        assert screen.prompt.ecart.bit_count() == 3
        await choose_card(pilot, hand, parse_card("T5"))
        assert "trump 5: only 3 trumps may be laid aside" in message(app)
        await choose_card(pilot, hand, parse_card("KS"))
        assert "a king may never be laid aside" in message(app)
        for card in (0, 1, 2):
            await choose_card(pilot, hand, card)
        await pilot.press("1")
        await settle(app, pilot)
        assert game.deal.ecart == mask_of([*picks, 0, 1, 2])
        table = str(app.screen.query_one("#notes").render())
        assert "Écart trumps: trumps 4 3 2" in table


async def test_nobody_is_called_taker_while_the_bidding_is_open():
    game = Game(players=4, level="random", deals=1, seed="bidding-open")
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        deal = game.deal
        # The same deal from its start: the first to speak takes a Prise, and a best bid stands.
        fresh = Deal(deal.rules, deal.dealer, list(deal.initial_hands), deal.initial_dog, seed=deal.seed)
        bidder = fresh.to_act
        fresh.apply(Bid(PRISE), seat=bidder)
        obs = fresh.observation(HUMAN)
        assert obs.phase == "bidding" and obs.taker == bidder
        assert "best bid so far" in plain(screen.board.status_text(obs))
        assert "TAKER" not in plain(screen.board.table_text(obs))
        while fresh.phase == "bidding":
            fresh.apply(Bid(PASS))
        obs = fresh.observation(HUMAN)
        assert obs.phase == "discard"
        assert "TAKER" in plain(screen.board.table_text(obs))
        assert "best bid so far" not in plain(screen.board.status_text(obs))


async def test_q_asks_before_leaving_and_says_where_the_game_is_saved(tmp_path):
    game = Game(players=4, level="random", deals=2, seed="leave", save_dir=tmp_path)
    app = AtoutApp(game, delay=0, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("q")
        assert isinstance(app.screen, LeaveScreen)
        where = str(app.screen.query_one("#where").render())
        assert str(tmp_path / "game.json") in where and "atout play --resume" in where
        await pilot.press("n")  # stay: the game goes on
        assert isinstance(app.screen, GameScreen) and app.is_running
        await pilot.press("q")
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
    assert Game.load(tmp_path / "game.json").deal.seed == game.deal.seed


async def test_leaving_after_a_failed_save_says_it_could_not_be_saved(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    game = Game(players=4, level="random", deals=2, seed="leave", save_dir=blocker / "atout")
    app = AtoutApp(game, delay=0, save_dir=blocker / "atout")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("q")
        assert isinstance(app.screen, LeaveScreen)
        where = str(app.screen.query_one("#where").render())
        assert "could not be saved" in where and "saved in" not in where.replace("could not be saved in", "")
        await pilot.press("y")
    assert game.save_error


async def test_help_spells_out_the_card_letters_and_points():
    """The help and docs/terminal-game.md spell out the letters the cards show (they said R D C V while the
    hand showed K Q C J): English letters, the French names beside them."""
    game = poignee_game()
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        hand = app.screen.query_one(HandView)
        shown = hand.render().plain
        faces = [c for c in hand.cards if c < 56 and c % 14 >= 10]
        assert faces, "the poignée game's hand has a face card"
        await pilot.press("question_mark")
        from rich.text import Text

        text = " ".join(Text.from_markup(str(app.screen.query_one("Static").content)).plain.split())
    docs = " ".join((Path(__file__).parents[2] / "docs" / "terminal-game.md").read_text().split())
    words = {14: "king, the Roi", 13: "queen, the Dame", 12: "knight, the Cavalier", 11: "jack, the Valet"}
    for card in faces:
        label = english_name(card)
        assert label in shown  # the face the hand shows
        assert f"{label[0]} ({words[card % 14 + 1]})" in text, label
    for rank, name in words.items():
        letter = english_name(suit_card(rank, SPADES))[0]
        assert f"{letter} ({name})" in text and f"`{letter}` ({name}" in docs, (letter, name)
    assert "R (Roi" not in text and "`R` (Roi" not in docs
    for words_ in (
        "a bout or a king 4½",
        "a queen 3½",
        "a knight 2½",
        "a jack 1½",
        "any other card ½",
        "1 Pass, 2 Prise, 3 Garde, 4 Garde sans, 5 Garde contre",
    ):
        assert words_ in text, words_


async def test_the_boxes_buttons_answer_clicks(tmp_path):
    """Each box's buttons are bound by id: OK closes the dog, Stay keeps the game, Leave ends it."""
    game = human_taker(4, "ecart", PRISE, save_dir=tmp_path)
    app = AtoutApp(game, delay=0, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, InfoScreen) and app.screen.kind == "dog"
        await pilot.click("#ok")
        await settle(app, pilot)
        assert isinstance(app.screen, GameScreen) and app.screen.prompt.mode == "ecart"
        await pilot.click("#clear-ecart")
        assert "0/6 chosen" in message(app)
        await pilot.press("q")
        assert isinstance(app.screen, LeaveScreen)
        await pilot.click("#stay")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "Stay did not close the box")
        await pilot.press("q")
        await pilot.click("#leave")
        await until(pilot, lambda: not app.is_running, "Leave did not end the game")


async def test_the_result_buttons_answer_clicks(monkeypatch):
    """The result's Next deal button is bound by id, as its Enter key is."""
    from atout.bots.random_bot import RandomBot

    original = RandomBot.choose

    def passing(self, observation, budget=None):
        return Bid(0) if observation.phase == "bidding" else original(self, observation, budget)

    monkeypatch.setattr(RandomBot, "choose", passing)
    game = Game(players=4, level="random", deals=1, seed="allpass")
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first_dealer = game.deal.dealer
        await pilot.press("1")  # pass: a void deal
        await settle(app, pilot)
        assert isinstance(app.screen, ResultScreen)
        await pilot.click("#next")
        await settle(app, pilot)
        assert isinstance(app.screen, GameScreen) and game.deal.dealer == (first_dealer + 1) % 4


async def test_the_start_screens_quit_button_quits():
    app = AtoutApp(start_screen=True)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, StartScreen)
        await pilot.click("#quit")
        await until(pilot, lambda: not app.is_running, "Quit did not end the app")


def test_the_shown_cards_say_whose_poignee_in_english() -> None:
    """ "Your simple poignée", never "You's"; a robot's with its name's possessive."""
    from types import SimpleNamespace

    from atout.engine.cards import parse_card
    from atout.tui.boxes import shown_cards_box
    from atout.tui.game import ROBOT_NAMES

    trumps = [parse_card(f"T{n}") for n in range(1, 11)]
    obs = SimpleNamespace(dog=None, ecart_trumps=[], poignees=[(0, trumps, "simple", 20), (1, trumps, "simple", 20)])
    text = shown_cards_box(obs).body.plain
    assert "Your simple poignée (20)" in text and f"{ROBOT_NAMES[0]}'s simple poignée (20)" in text, text
    assert "You's" not in text, text
