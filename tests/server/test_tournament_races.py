"""Registration is closed by the database (issue 37, item 2; ASVS 11.1.6): ten registrations at once to a
small tournament accepted two or three times its places, started it with people left unseated and two
people of one entry number. Here many threads register, unregister and start at the same instant on the
real store (SQLite and PostgreSQL, each thread its own connection): the places are never exceeded, each
entry number is one person's, the one who fills it is told so, and whoever is registered at the start is
seated (and no one else)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from atout.server.features import tournaments
from atout.server.features.tournaments import Spec, TournamentError
from atout.server.store import Store
from atout.server.store.db import players, tournament_entries

START = 1_700_000_000.0
CROWD = 50


def _people(store: Store, count: int) -> list[str]:
    ids = [f"p{i:03d}" for i in range(count)]
    with store.engine.begin() as conn:
        conn.execute(
            players.insert(),
            [
                {"id": p, "name": p, "name_key": p, "password_hash": "x", "avatar": "a", "created_at": START}
                for p in ids
            ],
        )
    return ids


def _at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Every call in its own thread, all released together; each one's answer or the error it raised."""
    gate = threading.Barrier(len(calls))
    out: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        gate.wait()
        try:
            out[i] = calls[i]()
        except Exception as err:  # the answer under test: kept, not raised
            out[i] = err

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def _entries(store: Store, tid: str) -> list[tuple[str, int]]:
    with store.engine.connect() as conn:
        return [
            (r.player_id, r.number)
            for r in conn.execute(
                sa.select(tournament_entries.c.player_id, tournament_entries.c.number).where(
                    tournament_entries.c.tournament_id == tid
                )
            )
        ]


def _seated(opened: tournaments.Round) -> list[str]:
    return [s[0] for _, _, seats in opened.tables for s in seats if s is not None]


def test_fifty_registrations_at_once_fill_the_places_exactly_and_it_starts(store: Store) -> None:
    crowd = _people(store, CROWD + 1)
    size = tournaments.fewest(4)  # the smallest tournament there is: five places, two tables of four
    tid = tournaments.create(store.engine, Spec("Rush", 1, 4, 1, None, size, False), crowd[-1], "club", START)
    answers = _at_once([lambda p=p: tournaments.register(store.engine, tid, p, START) for p in crowd[:CROWD]])

    accepted = [p for p, a in zip(crowd, answers, strict=False) if isinstance(a, bool)]
    refused = Counter(a.code for a in answers if isinstance(a, TournamentError))
    others = [a for a in answers if not isinstance(a, bool | TournamentError)]
    assert others == [], others  # no other failure (a deadlock, a busy database)
    assert (len(accepted), refused) == (size, Counter({"tournament_full": CROWD - size})), (len(accepted), refused)
    assert sum(a is True for a in answers) == 1  # the one who filled it is told so: it starts then
    entries = _entries(store, tid)
    assert sorted(p for p, _ in entries) == sorted(accepted)
    assert sorted(n for _, n in entries) == list(range(1, size + 1))  # one entry number each, none twice

    assert tournaments.due(store.engine, START)[0] == [tid]  # full: due at once, whatever became of that start
    opened = tournaments.start(store.engine, tid, START, iter(f"t{i}" for i in range(99)).__next__)
    assert opened is not None and len(opened.tables) == 2
    assert sorted(_seated(opened)) == sorted(accepted)
    by_number = [p for p, _ in sorted(entries, key=lambda e: e[1])]
    assert [s and s[0] for _, _, seats in opened.tables for s in seats] == [*by_number, None, None, None]
    assert tournaments.due(store.engine, START)[0] == []


def test_unregistering_at_the_start_either_leaves_before_it_or_is_refused(store: Store) -> None:
    """People leave as the tournament starts: each who was told "unregistered" is seated nowhere, each
    refused ("tournament_started") is seated, and every seat is a registered person's."""
    crowd = _people(store, 13)
    tid = tournaments.create(store.engine, Spec("Leaving", 1, 4, 1, START + 60, None, False), crowd[-1], "club", START)
    for p in crowd[:12]:
        tournaments.register(store.engine, tid, p, START)
    leaving = crowd[:6]
    ids = iter(f"t{i}" for i in range(99))
    calls: list[Callable[[], Any]] = [lambda p=p: tournaments.unregister(store.engine, tid, p) for p in leaving]
    calls.insert(3, lambda: tournaments.start(store.engine, tid, START + 60, ids.__next__))
    answers = _at_once(calls)
    opened = answers.pop(3)
    assert isinstance(opened, tournaments.Round), opened
    left = [p for p, a in zip(leaving, answers, strict=True) if a is None]
    stayed = [p for p, a in zip(leaving, answers, strict=True) if isinstance(a, TournamentError)]
    assert all(a is None or (isinstance(a, TournamentError) and a.code == "tournament_started") for a in answers), (
        answers
    )
    seated = _seated(opened)
    assert sorted(seated) == sorted(set(crowd[:12]) - set(left))  # the stayers seated, the leavers not
    assert set(stayed) <= set(seated)
    assert sorted(p for p, _ in _entries(store, tid)) == sorted(seated)  # the store's entries are the seats


def test_accounts_deleted_at_the_start_either_leave_before_it_or_keep_their_seat(store: Store) -> None:
    """Accounts deleted as the tournament starts: each deletion takes the tournament's turn, so whoever is
    seated has an entry and whoever kept no entry is seated nowhere (the deletion once removed entries the
    start had already read, seating people the tournament no longer listed)."""
    from atout.server.features.erasure import erase

    crowd = _people(store, 13)
    tid = tournaments.create(store.engine, Spec("Leaving", 1, 4, 1, START + 60, None, False), crowd[-1], "club", START)
    for p in crowd[:12]:
        tournaments.register(store.engine, tid, p, START)
    deleted = crowd[:6]

    def delete(player: str) -> None:
        with store.engine.begin() as conn:
            erase(conn, player, START + 60)

    ids = iter(f"t{i}" for i in range(99))
    calls: list[Callable[[], Any]] = [lambda p=p: delete(p) for p in deleted]
    calls.insert(3, lambda: tournaments.start(store.engine, tid, START + 60, ids.__next__))
    answers = _at_once(calls)
    opened = answers.pop(3)
    assert isinstance(opened, tournaments.Round), opened
    assert answers == [None] * len(deleted), answers  # every deletion done, none refused nor deadlocked
    seated = _seated(opened)
    entries = sorted(p for p, _ in _entries(store, tid))
    assert sorted(seated) == entries  # the store's entries are the seats
    assert set(crowd[6:12]) <= set(seated)  # the others seated whatever the order


def test_twenty_creations_at_once_by_one_person_make_five(store: Store) -> None:
    """A person's tournaments waiting for their start are capped (OPEN_PER_PERSON), however many creations
    arrive together (each counted apart, all of them once found fewer than five waiting)."""
    creator = _people(store, 1)[0]
    answers = _at_once(
        [
            lambda i=i: tournaments.create(
                store.engine, Spec(f"Cup {i}", 1, 4, 1, START + 60, None, False), creator, "club", START
            )
            for i in range(20)
        ]
    )
    made = [a for a in answers if isinstance(a, str)]
    refused = Counter(a.code for a in answers if isinstance(a, TournamentError))
    assert (len(made), refused) == (tournaments.OPEN_PER_PERSON, Counter({"too_many_tournaments": 20 - len(made)})), (
        answers
    )


def test_a_store_with_two_people_of_one_entry_number_upgrades_keeping_the_order(empty_db_url: str) -> None:
    """Migration 0015: the numbers the race left twice are made distinct, in the order they had."""
    old = Store(empty_db_url)
    old.migrate("0014")
    crowd = _people(old, 4)
    tid = tournaments.create(old.engine, Spec("Old", 1, 4, 1, START + 60, None, False), crowd[0], "club", START)
    with old.engine.begin() as conn:
        conn.execute(
            tournament_entries.insert(),
            [
                {"tournament_id": tid, "player_id": p, "number": n, "registered_at": START}
                for p, n in zip(crowd, [1, 2, 2, 3], strict=True)
            ],
        )
    old.close()
    new = Store(empty_db_url)
    new.migrate()
    assert sorted(_entries(new, tid), key=lambda e: e[1]) == list(zip(crowd, [1, 2, 3, 4], strict=True))
    new.close()
