"""A seat's accuracy kept with its analysis (features/analysis.py, table ``accuracy``, migration 0020): stored
once per game, deal and seat with who played it, made for an analysis kept before accuracies were, and gone
with an account that is deleted."""

from __future__ import annotations

import sqlalchemy as sa

from atout.bots import make_bot
from atout.bots.accuracy import record_roles, seat_accuracy
from atout.bots.analysis import analyse
from atout.engine import RuleSet, new_deal
from atout.engine.record import to_record
from atout.server.features.analysis import accuracy_for, keep
from atout.server.features.erasure import erase
from atout.server.store import Store
from atout.server.store.db import accuracy


def _played(seed: str) -> dict:
    """A deal played by club robots in which somebody took (its seats have roles)."""
    for n in range(20):
        deal = new_deal(RuleSet(4), 0, f"{seed}/{n}")
        bots = [make_bot("club", f"{seed}/{n}/{s}") for s in range(4)]
        while deal.to_act is not None:
            seat = deal.to_act
            deal.apply(bots[seat].choose(deal.observation(seat)), seat)
        if deal.result is not None and deal.result.taker is not None:
            return to_record(deal)
    raise AssertionError("nobody took in 20 deals")


def _rows(store: Store, **where: object) -> list[sa.Row]:
    with store.engine.connect() as conn:
        query = sa.select(accuracy)
        for name, value in where.items():
            query = query.where(accuracy.c[name] == value)
        return list(conn.execute(query).all())


def test_an_analysis_keeps_its_seats_accuracy_and_an_older_one_gets_it_when_read(store: Store) -> None:
    record = _played("accuracy-store")
    roles = record_roles(record)
    taker = next(s for s, r in roles.items() if r == "taker")
    data = analyse(record, [taker], factor=1).to_json()
    expected = seat_accuracy(data, taker, "taker").to_json()
    made = keep(store.engine, "g1", 0, taker, data, 100.0, record, "p-ann")
    assert made == expected
    (row,) = _rows(store, game_id="g1")
    assert (row.player_id, row.players, row.role, row.seat, row.loss) == ("p-ann", 4, "taker", taker, expected["loss"])
    assert [row.bid, row.ecart, row.taker, row.partner, row.defence] == list(expected["phases"].values())
    # the habits (bots/accuracy.py habits), kept with it for the profile: their points are the same decisions'
    assert abs(sum(points for points, _ in row.habits.values()) - row.loss) <= 0.1 * len(row.habits)
    assert sum(count for _, count in row.habits.values()) == row.costly
    # read back, it is the same; kept again (another process made it too), still one row
    assert accuracy_for(store.engine, "g1", 0, taker, record, data, "p-ann", 200.0) == expected
    assert keep(store.engine, "g1", 0, taker, data, 300.0, record, "p-ann") == expected
    assert len(_rows(store, game_id="g1")) == 1
    # an analysis kept without its accuracy (before migration 0020): made when it is read
    defender = next(s for s, r in roles.items() if r == "defence")
    other = analyse(record, [defender], factor=1).to_json()
    assert keep(store.engine, "g1", 0, defender, other, 400.0) is None
    assert len(_rows(store, game_id="g1")) == 1
    found = accuracy_for(store.engine, "g1", 0, defender, record, other, "p-bob", 500.0)
    assert found == seat_accuracy(other, defender, "defence").to_json()
    assert found["phases"]["taker"] == found["phases"]["ecart"] == 0
    assert len(_rows(store, player_id="p-bob")) == 1


def test_a_deleted_account_takes_its_accuracy_with_it(store: Store) -> None:
    record = _played("accuracy-erased")
    data = analyse(record, [1], factor=1).to_json()
    keep(store.engine, "g2", 0, 1, data, 100.0, record, "p-gone")
    keep(store.engine, "g2", 0, 2, analyse(record, [2], factor=1).to_json(), 100.0, record, "p-stays")
    with store.engine.begin() as conn:
        erase(conn, "p-gone", 200.0)
    assert _rows(store, player_id="p-gone") == [] and len(_rows(store, player_id="p-stays")) == 1


def test_two_processes_storing_the_same_accuracy_at_once_both_answer_it(store: Store, monkeypatch) -> None:
    """The other process's row lands between this one's look and its insert: the insert fails on the key, the
    transaction is made again and reads the row."""
    from atout.server.features import analysis

    record = _played("accuracy-race")
    data = analyse(record, [0], factor=1).to_json()
    first = keep(store.engine, "g3", 0, 0, data, 100.0, record, "p-one")
    looked = []
    real = analysis._read_accuracy

    def late(conn, game, deal, seat):
        looked.append(seat)
        return None if len(looked) == 1 else real(conn, game, deal, seat)  # the first look missed the other's row

    monkeypatch.setattr(analysis, "_read_accuracy", late)
    assert accuracy_for(store.engine, "g3", 0, 0, record, data, "p-one", 200.0) == first
    assert keep(store.engine, "g3", 0, 0, data, 300.0, record, "p-one") == first
    assert len(looked) == 3 and len(_rows(store, game_id="g3")) == 1
