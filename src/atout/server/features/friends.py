"""Friends between registered players: a request, accepted or refused; either side may remove it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from ..results import robot_account
from ..store import Store
from ..store.db import friendships, players
from .accounts import Account, AccountError, Accounts


class Friends:
    """Requests and friendships in the store; every refusal names why and changes nothing."""

    def __init__(self, store: Store, accounts: Accounts, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.accounts = accounts
        self.clock = clock

    def _other(self, me: Account, name: object) -> Account:
        if not isinstance(name, str):
            raise AccountError("bad_name", "name the player")
        other = self.accounts.find(name)
        if other is None or robot_account(other.id):  # a robot account is a program: nobody's friend
            raise AccountError("no_player", f"no registered player is called {name!r}")
        if other.id == me.id:
            raise AccountError("friend_self", "you cannot be your own friend")
        return other

    def _row(self, conn: sa.Connection, a: str, b: str) -> sa.Row[Any] | None:
        return conn.execute(
            sa.select(friendships).where(
                sa.or_(
                    sa.and_(friendships.c.requester == a, friendships.c.addressee == b),
                    sa.and_(friendships.c.requester == b, friendships.c.addressee == a),
                )
            )
        ).first()

    def request(self, me: Account, name: object) -> tuple[Account, str]:
        """Ask ``name`` to be friends; if they had asked you, you are friends at once."""
        other = self._other(me, name)
        with self.store.engine.begin() as conn:
            row = self._row(conn, me.id, other.id)
            if row is None:
                conn.execute(
                    friendships.insert().values(
                        requester=me.id, addressee=other.id, status="requested", created_at=self.clock()
                    )
                )
                return other, "requested"
            if row.status == "friends":
                raise AccountError("already_friends", f"you and {other.name} are friends already")
            if row.requester == me.id:
                raise AccountError("already_requested", f"you have asked {other.name} already")
            conn.execute(
                friendships.update()
                .where(friendships.c.requester == other.id, friendships.c.addressee == me.id)
                .values(status="friends")
            )
            return other, "friends"

    def answer(self, me: Account, name: object, accept: bool) -> Account:
        other = self._other(me, name)
        with self.store.engine.begin() as conn:
            row = self._row(conn, me.id, other.id)
            if row is None or row.status != "requested" or row.addressee != me.id:
                raise AccountError("no_request", f"{other.name} has not asked to be your friend")
            where = sa.and_(friendships.c.requester == other.id, friendships.c.addressee == me.id)
            if accept:
                conn.execute(friendships.update().where(where).values(status="friends"))
            else:
                conn.execute(friendships.delete().where(where))
        return other

    def remove(self, me: Account, name: object) -> Account:
        other = self._other(me, name)
        with self.store.engine.begin() as conn:
            row = self._row(conn, me.id, other.id)
            if row is None:
                raise AccountError("not_friends", f"you and {other.name} are not friends")
            conn.execute(
                friendships.delete().where(
                    friendships.c.requester == row.requester, friendships.c.addressee == row.addressee
                )
            )
        return other

    def of(self, player_id: str) -> dict[str, list[str]]:
        """Names of ``player_id``'s friends, and of the requests to and from them."""
        out: dict[str, list[str]] = {"friends": [], "incoming": [], "outgoing": []}
        other_side = sa.case(
            (friendships.c.requester == player_id, friendships.c.addressee), else_=friendships.c.requester
        )
        query = (
            sa.select(players.c.name, friendships.c.status, friendships.c.requester)
            .join(players, players.c.id == other_side)
            .where(sa.or_(friendships.c.requester == player_id, friendships.c.addressee == player_id))
            .order_by(players.c.name_key)
        )
        with self.store.engine.connect() as conn:
            for name, status, requester in conn.execute(query):
                if status == "friends":
                    out["friends"].append(name)
                else:
                    out["outgoing" if requester == player_id else "incoming"].append(name)
        return out

    def named(self, player_id: str) -> dict[str, str]:
        """``player_id``'s friends: id -> name (for their presence)."""
        other_side = sa.case(
            (friendships.c.requester == player_id, friendships.c.addressee), else_=friendships.c.requester
        )
        query = (
            sa.select(players.c.id, players.c.name)
            .join(players, players.c.id == other_side)
            .where(
                friendships.c.status == "friends",
                sa.or_(friendships.c.requester == player_id, friendships.c.addressee == player_id),
            )
        )
        with self.store.engine.connect() as conn:
            return {pid: name for pid, name in conn.execute(query)}

    def ids(self, player_id: str) -> set[str]:
        """The ids of ``player_id``'s friends (for who may see a private table)."""
        query = sa.select(friendships.c.requester, friendships.c.addressee).where(
            friendships.c.status == "friends",
            sa.or_(friendships.c.requester == player_id, friendships.c.addressee == player_id),
        )
        with self.store.engine.connect() as conn:
            return {a if b == player_id else b for a, b in conn.execute(query)}


__all__ = ["Friends"]
