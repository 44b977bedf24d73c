"""The table as a person reads it: seats around a felt, each card in front of who played it,
trumps told apart by more than colour, fixed bid keys, and a layout that uses the terminal."""

from __future__ import annotations

import math
import re

import pytest

from atout.engine import GARDE, PASS, Bid
from atout.tui.app import AtoutApp, GameScreen
from atout.tui.game import HUMAN, Game, seat_name
from atout.tui.table import table_picture
from atout.tui.widgets import HandView, card_word

from .helpers import SIZE, buttons, message, settle


def robots_until(game: Game, done) -> None:
    deal = game.deal
    while not done(deal):
        seat = deal.to_act
        game.apply(game.robot(seat).choose(deal.observation(seat)), seat=seat)


def mid_trick(players: int, seed: str = "table", played: int | None = None) -> Game:
    """A deal in play with ``played`` cards of the current trick on the table (all but one by default)."""
    played = players - 1 if played is None else played
    for i in range(100):
        game = Game(players=players, level="random", deals=1, seed=f"{seed}{i}")
        game.start_deal()
        robots_until(game, lambda d: d.is_over or (len(d.tricks) >= 2 and len(d.trick) == played))
        if not game.deal.is_over:
            return game
    raise RuntimeError("no deal found")


def find(lines: list[str], word: str) -> tuple[int, int]:
    """Row and middle column of ``word`` (whole word) in the drawing."""
    hits = [
        (r, m.start() + len(word) / 2)
        for r, line in enumerate(lines)
        for m in re.finditer(rf"(?<![\w]){re.escape(word)}(?![\w])", line)
    ]
    assert len(hits) == 1, (word, hits, "\n".join(lines))
    return hits[0]


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("size", [(46, 14), (72, 30)])
def test_seats_around_the_felt_and_each_card_in_front_of_its_player(players, size):
    game = mid_trick(players)
    obs = game.observation()
    lines = table_picture(obs, *size).text().plain.splitlines()
    assert len(lines) == size[1] and all(len(line) <= size[0] for line in lines)
    where = {seat: find(lines, seat_name(seat)) for seat in range(players)}
    # You at the bottom, everyone else above you.
    assert all(where[HUMAN][0] > where[seat][0] for seat in range(1, players))
    assert where[HUMAN][0] >= size[1] - 3
    # The next player sits on your right, the last on your left.
    assert where[1][1] > size[0] / 2 > where[players - 1][1]
    # Each card lies between the middle of the table and its player: seen from the middle, in
    # the direction of the player who played it rather than of anyone else.
    middle = (size[1] / 2, size[0] / 2)

    def angle(point: tuple[float, float]) -> float:
        return math.atan2((point[0] - middle[0]) * 2, point[1] - middle[1])  # rows are twice as tall

    for seat, card in obs.trick:
        spot = angle(find(lines, card_word(card)))

        def turn(other: int, spot=spot) -> float:
            return abs((angle(where[other]) - spot + math.pi) % (2 * math.pi) - math.pi)

        assert min(range(players), key=turn) == seat, (seat, card_word(card), "\n".join(lines))


def test_the_last_trick_shows_its_winner_until_the_next_card():
    game = mid_trick(4, played=0)
    lines = table_picture(game.observation(), 46, 14).text().plain
    winner = game.deal.tricks[-1].winner
    assert "★" in lines and f"{seat_name(winner)} {'win' if winner == HUMAN else 'wins'} trick" in lines


async def test_bigger_terminal_bigger_table_and_hand_and_80x24_fits():
    sizes = {}
    for size in (SIZE, (120, 40)):
        game = mid_trick(4, played=0)
        robots_until(game, lambda d: d.to_act == HUMAN)
        app = AtoutApp(game, delay=0)
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            regions = {
                name: screen.query_one(f"#{name}").region
                for name in ("status", "table", "log", "message", "hand", "actions")
            }
            for name, region in regions.items():
                assert region.height >= 1 and region.bottom <= size[1] - 1, (name, region)  # above the footer
                assert region.right <= size[0], (name, region)
            hand = screen.query_one(HandView)
            assert all(x + 4 <= hand.size.width for _, x, _ in hand.layout_cards())  # no card off screen
            sizes[size] = regions
    small, large = sizes[SIZE], sizes[(120, 40)]
    assert large["table"].width > small["table"].width and large["table"].height > small["table"].height
    assert large["hand"].height > small["hand"].height  # drawn cards, not one-line labels


async def test_trumps_stand_apart_by_more_than_colour():
    game = mid_trick(3, played=0)
    robots_until(game, lambda d: d.to_act == HUMAN)
    hand_mask = game.deal.hands[HUMAN]
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        hand = app.screen.query_one(HandView)
        hand.blur()
        text = hand.render()
        rows = text.plain.split("\n")
        for card, x, row in hand.layout_cards():
            offset = sum(len(line) + 1 for line in rows[:row]) + x + 1
            style = text.get_style_at_offset(app.console, offset)
            is_trump = 56 <= card < 77
            assert bool(style.bgcolor) == is_trump, card  # a filled tile for each trump, none for suit cards
        # Groups are apart: a gap between the last trump and what follows.
        layout = hand.layout_cards()
        trumps = [i for i, (c, _, _) in enumerate(layout) if 56 <= c < 77]
        if trumps and trumps[-1] + 1 < len(layout) and layout[trumps[-1] + 1][2] == layout[trumps[-1]][2]:
            assert layout[trumps[-1] + 1][1] - layout[trumps[-1]][1] > 4
    assert hand_mask


async def test_the_log_says_who_played_what_in_each_trick():
    game = mid_trick(4, played=0)
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        log = app.screen.query_one("#log")
        lines = [strip.text for strip in log.lines]
        joined = " ".join(lines)
        for number, trick in enumerate(game.deal.tricks, 1):
            words = ", ".join(f"{seat_name(s)} {card_word(c)}" for s, c in trick.plays)
            assert f"Trick {number}: {words} → {seat_name(trick.winner)}" in joined.replace("  ", " ")


async def test_bid_keys_keep_their_meaning_and_unavailable_ones_are_greyed():
    for i in range(100):
        game = Game(players=4, level="random", deals=1, seed=f"bidkeys{i}")
        game.start_deal()
        deal = game.deal
        if deal.is_over or deal.to_act == HUMAN:
            continue
        # The robots before you: the first bids a garde, the others pass.
        first = True
        while deal.to_act != HUMAN:
            game.apply(Bid(GARDE if first else PASS), seat=deal.to_act)
            first = False
        break
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        labels = [b.label.plain for b in buttons(app)]
        assert labels == ["1 Pass", "2 Prise", "3 Garde", "4 Garde sans", "5 Garde contre"]
        assert [b.disabled for b in buttons(app)] == [False, True, True, False, False]
        await pilot.press("2")  # a prise is below the garde: nothing happens
        assert game.deal.to_act == HUMAN and app.screen.prompt.mode == "bid"
        await pilot.press("4")
        await settle(app, pilot)
        assert (HUMAN, Bid(3)) in game.deal.history


async def test_a_long_refusal_wraps_and_is_never_cut():
    game = mid_trick(4, played=0)
    robots_until(game, lambda d: d.to_act == HUMAN)
    app = AtoutApp(game, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = app.screen
        reason = (
            "trump 5: a trump may be laid aside only when too few other cards may be; keep trump 5 "
            "and lay aside 3♠ instead, or choose another card"
        )
        screen.prompt.refuse(reason)
        await pilot.pause()
        widget = screen.query_one("#message")
        assert reason in message(app).replace("\n", " ")
        assert widget.size.height >= 2
        assert widget.virtual_size.height <= widget.size.height
