"""Make the SVG screenshots of every phase of ``atout play`` in docs/screenshots/.

Run:  python docs/make_screenshots.py            (python docs/make_screenshots.py 15-analysis: that one only)
Each game state is reached deterministically (fixed seeds, robots at level
random, no delay), then the Textual app is driven headless at 80×24 (NAME.svg)
and again at 120×40 (NAME-120x40.svg), where the table and the hand grow.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path

from atout.engine import GARDE, PASS, PRISE, Bid, Chelem, PoigneeFrom
from atout.engine.choices import random_discard
from atout.engine.record import to_record
from atout.tui.app import AtoutApp, GameScreen, InfoScreen, ResultScreen
from atout.tui.game import HUMAN, Game
from atout.tui.replay import ReplayApp
from atout.tui.widgets import HandView

OUT = Path(__file__).parent / "screenshots"
SIZES = ((80, 24), (120, 40))


def out_path(name: str, size: tuple[int, int]) -> Path:
    return OUT / (f"{name}.svg" if size == SIZES[0] else f"{name}-{size[0]}x{size[1]}.svg")


def bid_to(game: Game, contract: int) -> None:
    """Everyone passes but the person, who bids ``contract``."""
    deal = game.deal
    while deal.phase == "bidding":
        seat = deal.to_act
        game.apply(Bid(contract if seat == HUMAN else PASS), seat=seat)


def human_taker(players: int, seed: str, contract: int = PRISE) -> Game:
    for i in range(200):
        game = Game(players=players, level="random", deals=2, seed=f"{seed}{i}")
        game.start_deal()
        if game.deal.is_over:
            continue
        bid_to(game, contract)
        return game
    raise RuntimeError("no deal found")


def robots_until(game: Game, done) -> None:
    """Let robots (and the person, as a robot) act until ``done(deal)``."""
    import random

    rng = random.Random(7)
    deal = game.deal
    while not done(deal):
        seat = deal.to_act
        if seat == HUMAN:
            from atout.engine.choices import concrete

            legal = [c for c in deal.legal_actions() if not isinstance(c, PoigneeFrom)]
            action = concrete(rng.choice(legal), rng)
        else:
            action = game.robot_choice()[1]
        game.apply(action, seat=seat)


async def settle(app, pilot, steps: int = 400) -> None:
    """Wait until the person must act (or a result / information box shows)."""
    for _ in range(steps):
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, (ResultScreen, InfoScreen)):
            return
        if isinstance(screen, GameScreen) and screen.game.human_to_act and not screen.robot_busy:
            await pilot.pause()
            return


async def shoot(make, name: str, script=None, **kwargs) -> None:
    """Screenshot the game ``make()`` builds (a fresh copy per size) after ``script``."""
    for size in SIZES:
        game = make() if callable(make) else make
        app = AtoutApp(game, delay=0, save_dir=kwargs.get("save_dir"), start_screen=kwargs.get("start_screen"))
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            if script is not None:
                await script(app, pilot)
            await pilot.pause()
            app.save_screenshot(str(out_path(name, size)))
    print("wrote", name)


def poignee_seed() -> Game:
    """A 4-player deal where the person holds 11 trumps: a poignée simple (10) with a choice."""
    import random

    from atout.engine import Deal
    from atout.engine.cards import mask_of

    rng = random.Random(3)
    trumps = list(range(56, 67))  # T1 .. T11
    rest = [c for c in range(78) if c not in trumps]
    rng.shuffle(rest)
    human = trumps + rest[:7]
    rest = rest[7:]
    hands = [mask_of(human)] + [mask_of(rest[18 * k : 18 * k + 18]) for k in range(3)]
    dog = mask_of(rest[54:])
    game = Game(players=4, level="random", deals=1, seed="poignee")
    game.deal = Deal(game.rules, 3, hands, dog)
    game.deal_index = 1
    bid_to(game, 3)  # the person takes a garde sans, and leads
    game.apply(Chelem(False), seat=HUMAN)
    return game


def bidding_game() -> Game:
    """A 4-player auction where a robot bid a garde before you: the lower keys are greyed."""
    for i in range(200):
        game = Game(players=4, level="random", deals=3, seed=f"shot-bid{i}")
        game.start_deal()
        deal = game.deal
        if deal.is_over or deal.to_act == HUMAN:
            continue
        first = True
        while deal.to_act != HUMAN:
            game.apply(Bid(GARDE if first else PASS), seat=deal.to_act)
            first = False
        return game
    raise RuntimeError("no deal found")


def chelem_game() -> Game:
    import random

    game = human_taker(4, "shot-chelem", GARDE)
    game.apply(random_discard(game.deal.legal_actions()[0], random.Random(1)), seat=HUMAN)
    return game


def mid_deal(seed: str = "shot-play") -> Game:
    for i in range(200):
        game = Game(players=4, level="random", deals=2, seed=f"{seed}{i}")
        game.start_deal()
        robots_until(game, lambda d: d.is_over or (len(d.tricks) >= 4 and d.to_act == HUMAN and d.trick))
        if not game.deal.is_over:
            return game
    raise RuntimeError("no deal found")


def result_game() -> tuple[Game, object]:
    """A game at the last card of its second deal (the person to play it), and its first deal."""
    for i in range(100):
        game = Game(players=4, level="random", deals=3, seed=f"shot-result{i}")
        game.start_deal()
        robots_until(game, lambda d: d.is_over)
        if game.deal.void:
            continue
        first = game.deal
        game.start_deal()
        robots_until(game, lambda d: d.is_over or (len(d.tricks) == d.hand_size - 1 and d.to_act == HUMAN))
        if not game.deal.is_over:
            return game, first
    raise RuntimeError("no deal found")


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())

    # 1. Start screen.
    await shoot(None, "01-start", start_screen=True)

    # 2. Bidding: a garde before you, so Prise and Garde are greyed.
    await shoot(bidding_game, "02-bidding")

    # 3. The 5-player call.
    await shoot(lambda: human_taker(5, "shot-call", GARDE), "03-call")

    # 4. The dog shown to all, then the écart with a refused pick.
    await shoot(lambda: human_taker(4, "shot-dog", PRISE), "04-dog")

    async def ecart(app, pilot):
        await pilot.press("enter")  # close the dog
        await settle(app, pilot)
        screen = app.screen
        hand = screen.query_one(HandView)
        allowed = [c for c in hand.cards if screen.prompt.ecart_pick_reason(c) is None]
        for card in allowed[-2:]:
            hand.post_message(HandView.Chosen(card))
            await pilot.pause()
        refused = [c for c in hand.cards if screen.prompt.ecart_pick_reason(c) is not None]
        if refused:
            hand.post_message(HandView.Chosen(refused[0]))
            await pilot.pause()

    await shoot(lambda: human_taker(4, "shot-dog", PRISE), "05-ecart", ecart)

    # 5. Chelem announcement.
    await shoot(chelem_game, "06-chelem")

    # 6. Poignée offer, then the choice of trumps to show.
    await shoot(poignee_seed, "07-poignee")

    async def poignee_choice(app, pilot):
        await pilot.press("1")
        await pilot.pause()

    await shoot(poignee_seed, "08-poignee-choice", poignee_choice)

    # 7. Play, with a refused card, and the previous trick.
    async def refuse(app, pilot):
        screen = app.screen
        hand = screen.query_one(HandView)
        bad = [c for c in hand.cards if not hand.marked >> c & 1]
        if bad:
            hand.post_message(HandView.Chosen(bad[0]))
            await pilot.pause()

    await shoot(mid_deal, "09-play", refuse)

    async def previous(app, pilot):
        await pilot.press("p")

    await shoot(mid_deal, "10-previous-trick", previous)

    # 8. The end of a deal: result and score sheet.
    async def last_card(app, pilot):
        screen = app.screen
        if isinstance(screen, GameScreen):
            hand = screen.query_one(HandView)
            hand.post_message(HandView.Chosen(hand.cards[0]))
            await settle(app, pilot)

    await shoot(lambda: result_game()[0], "11-result", last_card)

    # 9. Help.
    async def help_screen(app, pilot):
        await pilot.press("question_mark")

    await shoot(bidding_game, "12-help", help_screen)

    # 10. Replay viewer, with the names atout play writes in its records.
    record = {**to_record(result_game()[1]), "names": ["You", "Anna", "Basile", "Chloé"]}
    (tmp / "deal.json").write_text(json.dumps(record))
    for size in SIZES:
        app = ReplayApp(record, name="deal.json")
        async with app.run_test(size=size) as pilot:
            for _ in range(5):
                await pilot.press("right")
            await pilot.pause()
            app.save_screenshot(str(out_path("13-replay", size)))
    print("wrote 13-replay")

    # 11. Leaving: q asks first and says where the game is saved.
    async def leave(app, pilot):
        await pilot.press("q")
        await pilot.pause()

    def saved_mid_deal() -> Game:
        game = mid_deal()
        game.save_dir = Path(tempfile.gettempdir()) / "atout"  # a short path to show
        return game

    await shoot(saved_mid_deal, "14-leave", leave)
    await analysis_shot()


async def analysis_shot() -> None:
    """The end of a deal, then ``a``: the person's decisions scored by the expert, with their marks."""

    async def analysed(app, pilot):
        screen = app.screen
        if isinstance(screen, GameScreen):
            hand = screen.query_one(HandView)
            hand.post_message(HandView.Chosen(hand.cards[0]))
            await settle(app, pilot)
        await pilot.press("a")
        from atout.tui.analysis import AnalysisScreen

        while not (isinstance(app.screen, AnalysisScreen) and app.screen.analysis is not None):
            await asyncio.sleep(0.05)
        await pilot.pause()

    await shoot(lambda: result_game()[0], "15-analysis", analysed)


if __name__ == "__main__":
    if sys.argv[1:] == ["15-analysis"]:
        sys.exit(asyncio.run(analysis_shot()))
    sys.exit(asyncio.run(main()))
