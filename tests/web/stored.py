"""Games played out in the test's own process by the server's own table, and stored where a running
``atout serve`` reads them: so a page shows a game whose shape the test chose (a void deal first, two
registered people at a betting table) without playing it click by click. Nothing is faked: the table
makes every event, the engine checks every action, the store writes the game, its standings and its
settlement in one transaction, as the server does."""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from atout.engine.choices import random_action
from atout.engine.kinds import Void
from atout.engine.record import action_to_json
from atout.server.features.bookkeeping import book
from atout.server.kinds import TableStatus
from atout.server.options import TableOptions
from atout.server.results import Bets, GameOver
from atout.server.store import Append, Store, StoredEvent
from atout.server.table import Table, decided, finisher, play, seating


def play_and_store(
    db_url: str,
    people: list[tuple[str, str]],
    players: int = 4,
    deals: int = 1,
    bet: int = 0,
    void_first: bool = False,
    at: float | None = None,
    seed: int = 0,
    no_void: bool = False,
) -> str:
    """A game of ``deals`` deals between ``people`` ((id, name): registered ids start with p) and robots,
    everyone playing at random (every seat passing in the first deal when ``void_first``; dealt again from the
    start if another deal is void when ``no_void``: the table's cards are not the seed's); stored as played at time
    ``at`` (default: now). Returns its id."""
    rng = random.Random(seed)
    at = time.time() if at is None else at
    options = TableOptions().changed(deals=deals, competitive=True, bet=bet, robot_level="random")
    table = Table("s" + secrets.token_hex(5), players, options)
    master = people[0][0]
    events = decided(table, at, seating.create, master, people[0][1])
    for seat, (player, name) in enumerate(people[1:], start=1):
        events += decided(table, at, seating.sit, player, name, seat, table.seq)
    for seat in range(len(people), players):
        events += decided(table, at, seating.add_robot, master, seat, "random", table.seq)
    events += decided(table, at, play.start, master, table.seq)
    concluded: list[Bets | GameOver] = []
    while table.status == TableStatus.PLAYING:
        deal = table.deal
        assert deal is not None
        if deal.is_over:
            if void_first and not table.records[1:] and deal.void is not Void.ALL_PASS:
                # the cards voided it first (a petit sec): deal the game again, for a first deal everyone passed
                return play_and_store(db_url, people, players, deals, bet, void_first, at, seed)
            if no_void and deal.void is not None and (table.records[1:] or not void_first):  # one void: the first
                return play_and_store(db_url, people, players, deals, bet, void_first, at, seed, no_void)
            events += decided(table, at, play.next_deal)
            continue
        legal = deal.legal_actions()
        seat = deal.to_act
        if void_first and len(table.records) == 0:
            action = next(a for a in legal if getattr(a, "contract", None) == 0)  # pass: the first deal is void
        else:
            action = random_action(legal, rng)
        body = action_to_json(seat, action)
        del body["seat"]
        events += decided(table, at, play.play, seat, body, by="robot")
    concluded += table.take_concluded()
    over = next(c for c in concluded if isinstance(c, GameOver))
    bets = next((c for c in concluded if isinstance(c, Bets)), None)
    store = Store(db_url, book=book)
    try:
        store.create_table(table.id, at, {"seq": 0}, players)
        store.append(
            [
                Append(
                    table.id,
                    [StoredEvent(e["seq"], e["at"], e["type"], e) for e in events],
                    snapshot=(table.seq, table.snapshot()),
                    status="closed",
                    game=finisher.game_row(over),
                    bets=bets,
                    settlement=finisher.settlement(over),
                )
            ]
        )
    finally:
        store.close()
    assert over.game_id is not None
    return over.game_id


def player_id(db_url: str, name: str) -> str:
    """The id of the registered player called ``name``."""
    import sqlalchemy as sa

    from atout.server.store.db import players

    store = Store(db_url, book=book)
    try:
        with store.engine.connect() as conn:
            return conn.execute(sa.select(players.c.id).where(players.c.name == name)).scalar_one()
    finally:
        store.close()


def insert(db_url: str, table: Any, rows: list[dict[str, Any]]) -> None:
    """Rows written straight to one of the store's tables (badges, as a finished game would award them);
    none is nothing (an empty insert would be one row of defaults)."""
    if not rows:
        return
    store = Store(db_url, book=book)
    try:
        with store.engine.begin() as conn:
            conn.execute(table.insert(), rows)
    finally:
        store.close()


def dealt_table(
    db_url: str, person: tuple[str, str], players: int, wanted: Callable[[Table], bool], at: float | None = None
) -> str:
    """An open table as a running server would have stored it: ``person`` ((id, name)) at seat 0 and its
    master, robots in the other seats, a one-deal game started, its deal dealt from a seed drawn at random
    as the server draws it, drawn again until ``wanted(table)`` holds (a rare hand, as a poignée). A server
    started afterwards serves it (every open table is loaded at the start). Returns its id."""
    at = time.time() if at is None else at
    options = TableOptions().changed(deals=1, turn_seconds=0, competitive=False, robot_level="random")
    for _ in range(100_000):
        table = Table("s" + secrets.token_hex(5), players, options)
        events = decided(table, at, seating.create, person[0], person[1])
        for seat in range(1, players):
            events += decided(table, at, seating.add_robot, person[0], seat, "random", table.seq)
        events += decided(table, at, play.start, person[0], table.seq)
        if wanted(table):
            break
    else:
        raise AssertionError("no deal drawn was wanted")
    store = Store(db_url, book=book)
    try:
        store.create_table(table.id, at, {"seq": 0}, players)
        store.append(
            [
                Append(
                    table.id,
                    [StoredEvent(e["seq"], e["at"], e["type"], e) for e in events],
                    snapshot=(table.seq, table.snapshot()),
                )
            ]
        )
    finally:
        store.close()
    return table.id
