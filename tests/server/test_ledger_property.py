"""Conservation of chips, as a property: whatever games are played, abandoned, cancelled, deserted or
unranked (one address), in whatever order they start and end, players + bank + pots in play are exactly
the chips ever granted, and no balance is ever negative. Real stores (SQLite and PostgreSQL), the real
write path (Store.append with bets and settlements), many random histories (hypothesis)."""

from __future__ import annotations

import itertools
import secrets

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout.server.features import ledger
from atout.server.features.accounts import Accounts
from atout.server.features.ledger import GameEnd, LedgerError, SeatResult
from atout.server.store import Append, GameRow, Store, StoredEvent, StoreError
from atout.server.store.db import ledger as ledger_table

from .helpers import LIGHT_ARGON2

DAY = 86400.0
START = 1_700_000_000.0


def check(store: Store) -> dict[str, int]:
    """The invariants; returns every holder's balance."""
    with store.engine.connect() as conn:
        totals = ledger.totals(conn)
        held = {
            h: int(a)
            for h, a in conn.execute(
                sa.select(ledger_table.c.holder, sa.func.sum(ledger_table.c.amount))
                .where(ledger_table.c.kind == "chips")
                .group_by(ledger_table.c.holder)
            )
        }
    assert totals["players"] + totals["bank"] + totals["pots"] == totals["granted"], totals
    assert all(amount >= 0 for amount in held.values()), {h: a for h, a in held.items() if a < 0}
    return held


class History:
    """One random history on a store: accounts, a table for the game rows, games waiting for their end."""

    names = itertools.count()

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tag = secrets.token_hex(3)
        accounts = Accounts(store, LIGHT_ARGON2)
        self.players = [accounts.register(f"h{self.tag}{next(self.names)}", "long enough secret").id for _ in range(5)]
        self.table = f"t{self.tag}"
        store.create_table(self.table, START, {"seq": 0}, 5)
        self.seq = 0
        self.running: list[tuple[str, list[str | None], list[int], bool, int]] = []
        self.games = itertools.count()

    def event(self, kind: str) -> list[StoredEvent]:
        self.seq += 1
        return [StoredEvent(self.seq, START, kind, {})]

    def start(self, data) -> None:
        size = data.draw(st.integers(3, 5), label="players")
        people = data.draw(
            st.lists(st.sampled_from([*self.players, None]), min_size=size, max_size=size), label="seats"
        )
        seated: list[str | None] = []
        for p in people:  # a person sits once; an extra pick is a robot
            seated.append(p if p is None or p not in seated else None)
        bet = data.draw(st.sampled_from([0, 1, 7, 100, 333, 1000, 1500]), label="bet")
        ranked = not data.draw(st.booleans(), label="same address")
        deals = data.draw(st.sampled_from([1, 2, 5]), label="deals")
        stakes = [bet if ranked and p is not None else 0 for p in seated]
        game = f"g{self.tag}{next(self.games)}"
        before = check(self.store)
        bets = ledger.Bets(game, tuple((p, s) for p, s in zip(seated, stakes, strict=True) if s), START)
        try:
            self.store.append([Append(self.table, self.event("game_start"), bets=bets if bets.stakes else None)])
        except StoreError as err:  # somebody short of the bet: refused, and nothing changed
            self.seq -= 1
            assert "less than the bet" in str(err)
            assert any(before.get(p, 0) < s for p, s in bets.stakes)
            assert check(self.store) == before
            return
        self.running.append((game, seated, stakes, ranked, deals))

    def end(self, data) -> None:
        game, seated, stakes, ranked, deals = self.running.pop(data.draw(st.integers(0, len(self.running) - 1)))
        n = len(seated)
        outcome = data.draw(st.sampled_from(["finished", "finished", "cancelled", "deserted"]), label="outcome")
        persons = [i for i, p in enumerate(seated) if p is not None]
        if outcome == "deserted":
            abandoned = set(persons)
        else:
            abandoned = set(
                data.draw(st.lists(st.sampled_from(persons), max_size=2), label="abandoned") if persons else []
            )
        totals = data.draw(st.lists(st.integers(-300, 300), min_size=n, max_size=n), label="totals")
        taker = data.draw(st.integers(0, n - 1), label="taker")
        partner = data.draw(st.sampled_from([None, *range(n)]), label="partner") if n == 5 else None
        single = {"taker": taker, "partner": partner, "made": data.draw(st.booleans(), label="made")}
        end = GameEnd(
            game,
            n,
            outcome,
            ranked,
            deals,
            tuple(SeatResult(i, p, totals[i], i in abandoned, stakes[i]) for i, p in enumerate(seated)),
            START + 1,
            single,
        )
        row = GameRow(game, self.table, n, "finished" if outcome == "finished" else "cancelled", START, START + 1, {})
        self.store.append(
            [Append(self.table, self.event("game_end"), game=None if outcome == "deserted" else row, settlement=end)]
        )
        held = check(self.store)
        assert held.get(ledger.pot_of(game), 0) == 0  # a settled pot is empty
        if not ranked or outcome != "finished":  # nothing won: each stays or gets their bet back
            for i, p in enumerate(seated):
                if p is not None and i not in abandoned:
                    assert self._received(game, p) == stakes[i]

    def _received(self, game: str, player: str) -> int:
        with self.store.engine.connect() as conn:
            return int(
                conn.execute(
                    sa.select(sa.func.coalesce(sa.func.sum(ledger_table.c.amount), 0)).where(
                        ledger_table.c.game_id == game,
                        ledger_table.c.holder == player,
                        ledger_table.c.amount > 0,
                        ledger_table.c.kind == "chips",
                    )
                ).scalar_one()
            )

    def claim(self, data) -> None:
        who = data.draw(st.sampled_from(self.players), label="claimer")
        day = data.draw(st.integers(0, 3), label="day")
        before = check(self.store)
        try:
            after = ledger.claim(self.store.engine, who, START + day * DAY)
        except LedgerError as err:
            assert err.code in ("claimed_today", "not_below")
            assert check(self.store) == before
            return
        assert before.get(who, 0) < ledger.CLAIM_BELOW and after == before.get(who, 0) + ledger.CLAIM_CHIPS


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=st.data())
def test_chips_are_neither_made_nor_lost(store: Store, data) -> None:
    history = History(store)
    for _ in range(data.draw(st.integers(1, 25), label="steps")):
        step = data.draw(
            st.sampled_from(["start", "start", "end", "claim"])
            if history.running
            else st.sampled_from(["start", "claim"]),
            label="step",
        )
        getattr(history, step)(data)
    while history.running:
        history.end(data)
    held = check(store)
    assert not any(held.get(ledger.pot_of(f"g{history.tag}{i}"), 0) for i in range(100))
