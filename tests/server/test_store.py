"""The store on SQLite and PostgreSQL: round trips, no event twice, group commit, migrations, a SIGKILL."""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from atout.server.features.bookkeeping import book
from atout.server.store import Append, GameRow, Store, StoredEvent, StoreError, StoreWriter
from atout.server.store.db import metadata


def ev(seq: int, kind: str = "action") -> StoredEvent:
    return StoredEvent(seq, 1000.0 + seq, kind, {"type": kind, "seq": seq, "note": "é"})


def test_round_trip_snapshot_and_later_events(store: Store) -> None:
    store.create_table("t1", 1.0, {"seq": 0, "x": 1}, 4)
    store.create_table("t2", 2.0, {"seq": 0}, 3)
    store.append([Append("t1", [ev(1), ev(2)]), Append("t2", [ev(1)])])
    store.append([Append("t1", [ev(3)], snapshot=(3, {"seq": 3, "x": 2})), Append("t1", [ev(4), ev(5)])])
    t1 = store.table("t1")
    assert t1.snapshot == {"seq": 3, "x": 2} and t1.snapshot_seq == 3
    assert [e.seq for e in t1.events] == [4, 5] and t1.events[0].data == ev(4).data
    assert [e.seq for e in store.events_after("t1", 1)] == [2, 3, 4, 5]
    assert [e.seq for e in store.events_after("t1", 1, limit=2)] == [2, 3]
    store.append([Append("t2", [ev(2, "closed")], status="closed")])
    assert [t.table_id for t in store.open_tables()] == ["t1"]
    game = GameRow("g1", "t1", 4, "finished", 10.0, 20.0, {"totals": [1, -1, 0, 0]})
    store.append([Append("t1", [ev(6, "game_end")], game=game)])
    assert store.games("t1") == [game] and store.games() == [game]
    assert store.table("nope") is None


def test_an_event_is_never_stored_twice_and_a_refused_batch_changes_nothing(store: Store) -> None:
    store.create_table("t1", 1.0, {"seq": 0}, 4)
    store.append([Append("t1", [ev(1), ev(2)])])
    with pytest.raises(StoreError):
        store.append([Append("t1", [ev(3)]), Append("t1", [ev(2)])])
    assert [e.seq for e in store.events_after("t1", 0)] == [1, 2]
    game = GameRow("g1", "t1", 4, "finished", 1.0, 2.0, {})
    store.append([Append("t1", [ev(3)], game=game)])
    with pytest.raises(StoreError):  # a game is settled once
        store.append([Append("t1", [ev(4)], game=game)])
    with pytest.raises(StoreError):
        store.append([Append("ghost", [ev(1)], snapshot=(1, {}))])


def test_a_store_built_without_a_book_refuses_a_game_s_end_and_writes_nothing(store: Store, db_url: str) -> None:
    """The store knows no feature: a game's row, bets or settlement need the book it is built with
    (features/bookkeeping.py). Without one, such an append is refused whole, naming what is missing."""
    store.create_table("t1", 1.0, {"seq": 0}, 4)
    bare = Store(db_url)
    try:
        bare.append([Append("t1", [ev(1)])])  # events alone need no book
        with pytest.raises(StoreError, match="books no game's end") as refused:
            bare.append([Append("t1", [ev(2, "game_end")], game=GameRow("g1", "t1", 4, "finished", 1.0, 2.0, {}))])
        assert "book=" in str(refused.value)
    finally:
        bare.close()
    assert [e.seq for e in store.events_after("t1", 0)] == [1] and store.games("t1") == []


def test_the_writer_s_connection_stores_events_exactly_as_the_pooled_path(store: Store) -> None:
    """The writer's own path (on PostgreSQL one statement carrying the rows as JSON) keeps every value: text
    with quotes, escapes and accents, floats to the last bit, big integers, nulls, nesting; several tables, one
    of them fenced, in one transaction; and a batch with an event already stored is refused whole."""
    data = {
        "text": 'é ♥ "quoted" \\ back\nslash',
        "x": 0.1 + 0.2,
        "big": 2**40,
        "none": None,
        "cards": [[1, 2], {"k": True}],
        "empty": {},
    }
    at = 1_795_715_547.910547 + 1e-6
    for table_id in ("a", "b", "c"):
        store.create_table(table_id, 0.0, {"seq": 0}, 4)
    token = store.acquire_lease("b", "me", now=100.0, ttl=5.0)
    held = store.engine.connect()
    store.append(
        [
            Append("a", [StoredEvent(1, at, "chat", data), StoredEvent(2, at + 1, "card", {"seat": 3})]),
            Append("b", [StoredEvent(1, 0.5, "bid", data)], fence=("me", token)),
            Append("c", [StoredEvent(1, 2.0, "card", {})]),
        ],
        held,
    )
    assert [(e.seq, e.at, e.kind, e.data) for e in store.events_after("a", 0)] == [
        (1, at, "chat", data),
        (2, at + 1, "card", {"seat": 3}),
    ]
    assert [(e.at, e.data) for e in store.events_after("b", 0)] == [(0.5, data)]
    assert [e.data for e in store.events_after("c", 0)] == [{}]
    with pytest.raises(StoreError) as refused:  # b's fence no longer holds: nothing of the batch is stored
        store.append(
            [
                Append("a", [StoredEvent(3, at, "card", {})]),
                Append("b", [StoredEvent(2, 1.0, "card", {})], fence=("me", token + 1)),
            ],
            held,
        )
    assert refused.value.fenced == "b"
    with pytest.raises(StoreError, match="refused by the database"):  # c's first event again: all refused
        store.append(
            [Append("a", [StoredEvent(3, at, "card", {})]), Append("c", [StoredEvent(1, 3.0, "card", {})])], held
        )
    assert [len(store.events_after(t, 0)) for t in "abc"] == [2, 1, 1]
    store.append([Append("a", [StoredEvent(3, at, "card", {})])], held)  # the connection still works
    assert [e.seq for e in store.events_after("a", 0)] == [1, 2, 3]
    held.close()


async def test_a_small_batch_waits_its_linger_for_writes_that_come_after_it(store: Store) -> None:
    """Two writes from two turns of the event loop share one transaction when the first lingers (the
    second comes microseconds later; a whole second of linger leaves no doubt on a loaded machine)."""
    writer = StoreWriter(store, linger=1.0)
    await writer.start()
    store.create_table("t1", 1.0, {"seq": 0}, 4)
    store.create_table("t2", 1.0, {"seq": 0}, 4)
    first = asyncio.ensure_future(writer.write(Append("t1", [ev(1)])))
    await asyncio.sleep(0)  # the first write's turn ends: it is handed to the writer thread alone
    await asyncio.sleep(0)
    second = asyncio.ensure_future(writer.write(Append("t2", [ev(1)])))
    await asyncio.gather(first, second)
    assert writer.items == 2
    assert writer.commits == 1
    await writer.stop()


async def test_writer_commits_before_answering_and_isolates_a_bad_item(store: Store, db_url: str) -> None:
    writer = StoreWriter(store)
    await writer.start()
    reader = Store(db_url, book=book)
    for t in range(50):
        store.create_table(f"t{t}", 1.0, {"seq": 0}, 4)

    async def table(t: int) -> None:
        for seq in range(1, 41):
            await writer.write(Append(f"t{t}", [ev(seq)]))
            if seq % 13 == 0:  # answered means committed: another connection sees it
                assert reader.events_after(f"t{t}", seq - 1)[0].seq == seq

    await asyncio.gather(*(table(t) for t in range(50)))
    assert all([e.seq for e in reader.events_after(f"t{t}", 0)] == list(range(1, 41)) for t in range(50))
    assert writer.commits < writer.items  # many tables shared a transaction
    good, bad = writer.write(Append("t0", [ev(41)])), writer.write(Append("t1", [ev(40)]))
    results = await asyncio.gather(good, bad, return_exceptions=True)
    assert results[0] is None and isinstance(results[1], StoreError)
    assert reader.events_after("t0", 40)[0].seq == 41
    await writer.stop()
    reader.close()


def test_migrations_give_the_models_schema_and_run_twice(empty_db_url: str) -> None:
    store = Store(empty_db_url, book=book)
    store.migrate()
    store.migrate()
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)
    assert diff == []
    store.close()


def test_a_store_at_the_newest_schema_runs_no_migration(db_url: str, monkeypatch) -> None:
    """Every server start and every test's store migrates: at the newest schema, Alembic is not run at all (it
    reads its environment and every migration's file each time), and an older schema still is."""
    from atout.server.store import store as stored

    runs: list[str] = []
    monkeypatch.setattr(stored.command, "upgrade", lambda config, revision: runs.append(revision))
    store = Store(db_url, book=book)
    store.migrate()
    assert runs == []
    with store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = 'an older one'")
    store.migrate()
    assert runs == ["head"]
    store.close()


WRITER = textwrap.dedent("""
    import asyncio, sys
    from atout.server.store import Append, Store, StoredEvent, StoreWriter

    async def main(url):
        store = Store(url)  # events only: no game's end to book
        writer = StoreWriter(store)
        await writer.start()
        seq = 0
        while True:
            seq += 1
            await writer.write(Append("k", [StoredEvent(seq, 0.0, "action", {"seq": seq, "pad": "x" * 200})]))
            print(seq, flush=True)

    asyncio.run(main(sys.argv[1]))
""")


def test_every_answered_write_survives_a_sigkill(store: Store, db_url: str, tmp_path) -> None:
    store.create_table("k", 1.0, {"seq": 0}, 4)
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    child = subprocess.Popen([sys.executable, str(script), db_url], stdout=subprocess.PIPE, text=True)
    lines: queue.SimpleQueue[str] = queue.SimpleQueue()  # read aside: a stuck writer fails, never hangs, the test
    threading.Thread(target=lambda: [lines.put(x) for x in child.stdout], daemon=True).start()
    answered = 0
    deadline = time.monotonic() + 30
    while answered < 300 and time.monotonic() < deadline:
        try:
            answered = int(lines.get(timeout=max(0.01, deadline - time.monotonic())))
        except queue.Empty:
            break
    os.kill(child.pid, signal.SIGKILL)
    child.wait(10)
    assert answered >= 300, "the writer did not get going"
    stored = [e.seq for e in Store(db_url, book=book).events_after("k", 0)]
    assert len(stored) >= answered  # every answered write is there (one more may have committed unanswered)
    assert stored == list(range(1, len(stored) + 1))  # in order, none twice, none missing


def test_a_first_release_database_with_tables_in_play_upgrades_to_head(empty_db_url: str) -> None:
    """The first release's schema (migration 0001) with a table mid-game in it: the upgrade keeps every row."""
    old = Store(empty_db_url, book=book)
    old.migrate("0001")
    old.create_table("t1", 1.0, {"seq": 0, "note": "before"}, 4)
    old.append([Append("t1", [ev(1), ev(2)], snapshot=(2, {"seq": 2, "note": "mid-game"}))])
    old.append([Append("t1", [ev(3, "game_end")], game=GameRow("g1", "t1", 4, "finished", 1.0, 3.0, {"x": 1}))])
    old.close()
    new = Store(empty_db_url, book=book)
    new.migrate()
    table = new.open_tables()[0]
    assert (table.table_id, table.snapshot, [e.seq for e in table.events]) == (
        "t1",
        {"seq": 2, "note": "mid-game"},
        [3],
    )
    assert new.games("t1")[0].data == {"x": 1}
    with new.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)
    assert diff == []
    new.close()


def test_a_database_before_the_ledger_upgrades_and_its_accounts_get_their_chips(empty_db_url: str) -> None:
    """Migration 0005's schema with accounts, a finished game and standings in it: at head every row is
    kept, each account holds the 1,000 chips of a new account (as a ledger row), and settling works."""
    import sqlalchemy as sa

    from atout.server.features import ledger
    from atout.server.store.db import game_players, players, standings

    old = Store(empty_db_url, book=book)
    old.migrate("0005")
    with old.engine.begin() as conn:
        for pid, name in (("pa", "Ann"), ("pb", "Bob")):
            conn.execute(
                players.insert().values(
                    id=pid, name=name, name_key=name.lower(), password_hash="x", avatar="fox", created_at=5.0
                )
            )
        conn.execute(
            standings.insert().values(
                player_id="pa", players=4, period="all", period_start=0.0, points=30, games=1, wins=1
            )
        )
    old.create_table("t1", 1.0, {"seq": 0}, 4)
    old.append([Append("t1", [ev(1, "game_end")], game=GameRow("g1", "t1", 4, "finished", 1.0, 3.0, {"x": 1}))])
    old.close()
    new = Store(empty_db_url, book=book)
    new.migrate()
    with new.engine.connect() as conn:
        assert ledger.balances(conn, ["pa", "pb"]) == {"pa": 1000, "pb": 1000}
        assert ledger.totals(conn) == {"players": 2000, "bank": 0, "pots": 0, "granted": 2000}
        assert conn.execute(sa.select(standings.c.points)).scalar_one() == 30
        assert conn.execute(sa.select(sa.func.count()).select_from(game_players)).scalar_one() == 0
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)
    assert diff == [] and new.games("t1")[0].data == {"x": 1}
    with new.engine.begin() as conn:  # the new tables work on the upgraded database
        ledger.take_bets(conn, ledger.Bets("g2", (("pa", 10), ("pb", 10)), 4.0))
        ledger.settle(
            conn,
            ledger.GameEnd(
                "g2",
                2,
                "cancelled",
                True,
                1,
                (ledger.SeatResult(0, "pa", 0, stake=10), ledger.SeatResult(1, "pb", 0, stake=10)),
                5.0,
            ),
        )
    with new.engine.connect() as conn:
        assert ledger.balances(conn, ["pa", "pb"]) == {"pa": 1000, "pb": 1000}
    new.close()


@pytest.mark.parametrize("kept", [False, True], ids=["pooled", "writer's connection"])
def test_a_process_that_lost_its_lease_cannot_write(store, kept: bool) -> None:
    """Fencing: once another process took the table's lease (the first let it expire), the first one's
    writes are refused whole, and the new owner's go through; on a pooled connection as on the store
    writer's own (its driver-level path for events)."""
    from atout.server.store import Append, StoredEvent, StoreError

    held = store.engine.connect() if kept else None

    def append(items: list[Append]) -> None:
        store.append(items, held)

    store.create_table("t1", 0.0, {"id": "t1", "seq": 0}, 4)
    old = store.acquire_lease("t1", "old", now=100.0, ttl=5.0)
    assert old == 1
    assert store.acquire_lease("t1", "new", now=103.0, ttl=5.0) is None  # still held
    append([Append("t1", [StoredEvent(1, 1.0, "chat", {"seq": 1})], fence=("old", old))])
    new = store.acquire_lease("t1", "new", now=106.0, ttl=5.0)  # expired: taken over
    assert new == 2
    assert store.renew_leases("old", {"t1": old}, now=106.5, ttl=5.0) == {"t1"}
    with pytest.raises(StoreError) as refused:
        append([Append("t1", [StoredEvent(2, 2.0, "chat", {"seq": 2})], fence=("old", old))])
    assert refused.value.fenced == "t1"
    assert [e.seq for e in store.events_after("t1", 0)] == [1]
    append([Append("t1", [StoredEvent(2, 2.0, "chat", {"seq": 2})], fence=("new", new))])
    assert [e.seq for e in store.events_after("t1", 0)] == [1, 2]
    assert store.unowned_tables(now=107.0) == []
    assert store.unowned_tables(now=200.0) == ["t1"]
    store.release_lease("t1", "new", new)
    assert store.unowned_tables(now=107.0) == ["t1"]
    if held is not None:
        held.close()


def test_a_lease_given_up_stays_given_up_when_its_owner_renews_the_others(store: Store) -> None:
    """A renewal extends the leases its process still runs, not one it released (a closed table, a table handed
    home, a lease given up after a failed load): renewed, a released lease kept the table from every other
    process as long as its old owner lived (seen as test_release's closed lease found renewed)."""
    for table_id in ("t1", "t2"):
        store.create_table(table_id, 0.0, {"id": table_id, "seq": 0}, 4)
    one = store.acquire_lease("t1", "p1", now=100.0, ttl=5.0)
    two = store.acquire_lease("t2", "p1", now=100.0, ttl=5.0)
    assert one is not None and two is not None
    store.release_lease("t1", "p1", one)
    assert store.renew_leases("p1", {"t2": two}, now=101.0, ttl=5.0) == set()
    released, renewed = store.lease("t1"), store.lease("t2")
    assert released is not None and released.expires_at == 0.0
    assert renewed is not None and renewed.expires_at == 106.0
    assert store.unowned_tables(now=101.0) == ["t1"]


def test_names_stored_before_casefold_get_their_new_keys(empty_db_url: str) -> None:
    """Migration 0009: a key is the name casefolded (ß is ss); an account whose new key another already
    holds keeps its old one, and nothing else changes."""
    import sqlalchemy as sa

    from atout.server.store.db import players

    old = Store(empty_db_url, book=book)
    old.migrate("0008")
    with old.engine.begin() as conn:
        for pid, name, key, at in (
            ("pa", "Strasse", "strasse", 1.0),
            ("pb", "Straße", "straße", 2.0),
            ("pc", "Weiß", "weiß", 3.0),
            ("pd", "Zoé", "zoe", 4.0),
        ):
            conn.execute(
                players.insert().values(id=pid, name=name, name_key=key, password_hash="x", avatar="fox", created_at=at)
            )
    old.close()
    new = Store(empty_db_url, book=book)
    new.migrate()
    with new.engine.connect() as conn:
        keys = dict(conn.execute(sa.select(players.c.name, players.c.name_key)).all())
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)
    assert keys == {"Strasse": "strasse", "Straße": "straße", "Weiß": "weiss", "Zoé": "zoe"}
    assert diff == []
    new.close()


@pytest.mark.parametrize("locker", ["renewal", "writer's batch", "fence check"])
def test_a_process_locks_its_leases_in_the_tables_order(pg_url: str, locker: str) -> None:
    """A renewal and a batch of the same process's writes lock that process's leases in one order, the
    tables': in the rows' physical order they could each hold a lease the other waits for, and PostgreSQL
    would end one of them as a deadlock (seen once in benchmarks/scale.py). The leases are stored in the
    reverse of the tables' order; another transaction holds the middle one; the locker, waiting on it, must
    hold every lease before it and none after it."""
    import sqlalchemy as sa

    store = Store(pg_url, book=book)
    store.migrate()
    ids = [f"t{k:02d}" for k in range(10)]
    tokens = {}
    for table_id in reversed(ids):  # stored last-first: a scan meets them in the reverse order
        store.create_table(table_id, 0.0, {"id": table_id, "seq": 0}, 4)
        tokens[table_id] = store.acquire_lease(table_id, "p1", now=100.0, ttl=50.0)
    middle = ids[5]
    blocker = store.engine.connect()
    blocker.begin()
    blocker.execute(sa.text("SELECT 1 FROM table_leases WHERE table_id = :t FOR UPDATE"), {"t": middle})
    writer = store.engine.connect()
    errors: list[BaseException] = []

    def lock() -> None:
        try:
            if locker == "renewal":
                store.renew_leases("p1", tokens, now=101.0, ttl=50.0)
            elif locker == "writer's batch":
                store.append([Append(t, [ev(1)], fence=("p1", tokens[t])) for t in reversed(ids)], writer)
            else:
                with store.engine.begin() as conn:
                    store._check_fences(conn, {t: ("p1", tokens[t]) for t in reversed(ids)})
        except BaseException as err:  # reported by the test, from its thread
            errors.append(err)

    thread = threading.Thread(target=lock)
    thread.start()
    probe = store.engine.connect()

    def locked(table_id: str) -> bool:
        with probe.begin():
            try:
                probe.execute(
                    sa.text("SELECT 1 FROM table_leases WHERE table_id = :t FOR UPDATE NOWAIT"), {"t": table_id}
                )
                return False
            except sa.exc.OperationalError:  # lock_not_available
                return True

    deadline = time.monotonic() + 60
    while not locked(ids[0]):  # readiness: the locker has started and holds the first table's lease
        assert thread.is_alive() and time.monotonic() < deadline, errors
        time.sleep(0.01)
    assert [t for t in ids if locked(t)] == ids[:6]  # up to the middle one (the blocker's), nothing after
    blocker.rollback()
    blocker.close()
    thread.join(60)
    assert not errors
    probe.close()
    writer.close()
    store.close()
