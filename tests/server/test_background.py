"""Every finished deal's accuracy made in the background (features/background.py): a registered person's seats,
not the robots', the same as the analysis they could ask for, in worker processes at a lower priority than the
server, and never beyond the budget of CPU seconds an hour."""

from __future__ import annotations

import dataclasses
import os

import sqlalchemy as sa

from atout.bots.accuracy import record_roles, seat_accuracy
from atout.bots.analysis import analyse
from atout.server.features.background import Background, pending
from atout.server.store import Store
from atout.server.store.db import accuracy
from web.stored import play_and_store

from .helpers import SQLITE_ONLY, eventually, quick_config, running_server


def _people(db_url: str, void_first: bool = False) -> tuple[str, str]:
    """Ann, registered, and a game of two deals she played with robots, none void (or a void one first, dealt
    again: three records for two deals): her id and the game's."""
    from atout.server.features.accounts import Accounts

    from .helpers import LIGHT_ARGON2

    store = Store(db_url)
    try:
        store.migrate()
        ann = Accounts(store, LIGHT_ARGON2).register("Ann", "a long enough secret")
    finally:
        store.close()
    return ann.id, play_and_store(db_url, [(ann.id, "Ann")], deals=2, seed=3, void_first=void_first, no_void=True)


def _rows(engine: sa.Engine) -> list[sa.Row]:
    with engine.connect() as conn:
        return list(conn.execute(sa.select(accuracy).order_by(accuracy.c.deal)).all())


async def test_a_persons_finished_deals_get_their_accuracy_in_niced_workers(db_url: str) -> None:
    ann, game = _people(db_url)
    config = dataclasses.replace(quick_config(), insights_budget=3600.0, analysis_worlds=1)
    async with running_server(db_url, config) as server:
        background: Background = server.app.state.background
        engine = server.hub.store.engine
        await eventually(lambda: background.made >= 2, "the background never made the two deals' accuracies")
        (worker,) = background.executor._processes  # type: ignore[union-attr]
        assert os.getpriority(os.PRIO_PROCESS, worker) >= os.getpriority(os.PRIO_PROCESS, 0) + 10
        rows = _rows(engine)
        assert [(r.game_id, r.deal, r.seat, r.player_id) for r in rows] == [(game, 0, 0, ann), (game, 1, 0, ann)]
        records = server.hub.store.game(game).data["records"]
        for row, record in zip(rows, records, strict=True):
            expected = seat_accuracy(analyse(record, [0], "analysis", factor=1).to_json(), 0, record_roles(record)[0])
            assert (row.loss, row.role) == (expected.total, expected.role)
        assert background.spent_last_hour() > 0
        # nothing more to make: a scan finds nothing
        assert pending(engine, server.hub.clock.now(), set()) == ([], set())


async def test_a_game_with_a_void_deal_gets_the_accuracy_of_each_of_its_deals_the_void_one_too(db_url: str) -> None:
    """Three records for two counted deals: each gets its accuracy (the void deal's is its bids), whatever the
    order they are made in (seen: a test read two of the three and took them for the whole game)."""
    _, game = _people(db_url, void_first=True)
    config = dataclasses.replace(quick_config(), insights_budget=3600.0, analysis_worlds=1)
    async with running_server(db_url, config) as server:
        background: Background = server.app.state.background
        records = server.hub.store.game(game).data["records"]
        assert len(records) == 3  # the void deal, then the two that count
        await eventually(lambda: background.made >= 3, "the background never made the three deals' accuracies")
        assert [r.deal for r in _rows(server.hub.store.engine)] == [0, 1, 2]
        assert pending(server.hub.store.engine, server.hub.clock.now(), set()) == ([], set())


@SQLITE_ONLY
async def test_the_background_waits_when_its_hours_budget_is_spent(db_url: str) -> None:
    _people(db_url)
    now = [0.0]
    config = dataclasses.replace(quick_config(), analysis_worlds=1)
    async with running_server(db_url, config) as server:
        background = Background(server.hub.store.engine, budget=1e-6, factor=1, scan_every=0.05, clock=lambda: now[0])
        background.start()
        try:
            await eventually(lambda: background.state == "over budget", "the budget never stopped the background")
            assert background.made == 0 and background.decisions == 1  # one decision, then it waits
            now[0] += 3601.0  # an hour later, that spending no longer counts: one more decision, and it waits again
            background.poke.set()
            await eventually(lambda: background.decisions == 2, "the background never went on")
            await eventually(lambda: background.state == "over budget", "it did not stop again")
            assert background.decisions == 2 and len(background.spent) == 1
        finally:
            await background.stop()
