"""Robot accounts (as lichess's bot accounts): a registered person's program, playing on the site with an API
token. The token is shown once and kept as its SHA-256 (32 random bytes need no slow hash); revoking it
closes the robot's sockets and refuses it after. A robot account's id starts with ``b``: it is never ranked,
staked nor rewarded (``results.registered`` is for ``p`` ids), and sits at practice tables only."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ..store import Store
from ..store.db import players
from .accounts import Account, AccountError, check_name, name_key

TOKEN_PREFIX = "atr_"
"""How a robot's token begins: a hello's token that does not is a guest's, and a leaked one is recognisable."""
MAX_ROBOTS = 5
"""Robot accounts one person may own."""
NO_PASSWORD = "!robot"
"""A robot account's password hash: no password matches it (argon2 refuses it as a hash), so nobody logs in."""


def token_key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def is_robot_account(player_id: str | None) -> bool:
    """Whether a seat's player is a robot account (its id starts with ``b``)."""
    return player_id is not None and player_id.startswith("b")


@dataclass(frozen=True)
class RobotAccount(Account):
    """A robot account as a connection knows it: its owner's name for the tag "robot account of NAME"."""

    robot_of: str = ""


class RobotAccounts:
    """Robot accounts and their tokens in the store."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    def create(self, owner: Account, name: object) -> tuple[RobotAccount, str]:
        """A new robot account of ``owner`` called ``name``, and its token (given this once)."""
        if is_robot_account(owner.id):
            raise AccountError("robot_owner", "a robot account cannot own robots")
        name = check_name(name)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        robot = RobotAccount("b" + secrets.token_hex(8), name, "owl", robot_of=owner.name)
        try:
            with self.store.engine.begin() as conn:
                owned = conn.execute(
                    sa.select(sa.func.count()).select_from(players).where(players.c.robot_of == owner.id)
                ).scalar_one()
                if owned >= MAX_ROBOTS:
                    raise AccountError("too_many_robots", f"one person owns at most {MAX_ROBOTS} robot accounts")
                conn.execute(
                    players.insert().values(
                        id=robot.id,
                        name=name,
                        name_key=name_key(name),
                        password_hash=NO_PASSWORD,
                        avatar=robot.avatar,
                        created_at=self.clock(),
                        robot_of=owner.id,
                        token_hash=token_key(token),
                    )
                )
        except IntegrityError:
            raise AccountError("name_taken", f"the name {name!r} is taken") from None
        return robot, token

    def of(self, owner_id: str) -> list[dict[str, Any]]:
        """The robot accounts a person owns: name, when made, whether its token is in force."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(players.c.name, players.c.created_at, players.c.token_hash)
                .where(players.c.robot_of == owner_id, players.c.deleted_at.is_(None))
                .order_by(players.c.created_at)
            ).all()
        return [{"name": r.name, "created_at": r.created_at, "active": r.token_hash is not None} for r in rows]

    def revoke(self, owner_id: str, name: object) -> tuple[str, str] | None:
        """Revoke the token of ``owner_id``'s robot called ``name``: (the robot's id, the token's key) to
        close its sockets with, or None when the person owns no such robot with a token in force."""
        if not isinstance(name, str):
            return None
        with self.store.engine.begin() as conn:
            row = conn.execute(
                sa.select(players.c.id, players.c.token_hash).where(
                    players.c.robot_of == owner_id,
                    players.c.name_key == name_key(name),
                    players.c.token_hash.is_not(None),
                )
            ).first()
            if row is None:
                return None
            conn.execute(players.update().where(players.c.id == row.id).values(token_hash=None))
        return row.id, row.token_hash

    def by_token(self, token: str | None) -> RobotAccount | None:
        """The robot account a token opens, if it is one in force."""
        if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 100:
            return None
        owner = players.alias("owner")
        with self.store.engine.connect() as conn:
            row = conn.execute(
                sa.select(players.c.id, players.c.name, players.c.avatar, owner.c.name.label("owner"))
                .join(owner, owner.c.id == players.c.robot_of)
                .where(
                    players.c.token_hash == token_key(token),
                    players.c.deleted_at.is_(None),
                    owner.c.deleted_at.is_(None),
                )
            ).first()
        return None if row is None else RobotAccount(row.id, row.name, row.avatar, robot_of=row.owner)

    def live(self, keys: list[str]) -> set[str]:
        """Which of these token keys are still in force (the sessions' sweep asks for robots' sockets)."""
        if not keys:
            return set()
        with self.store.engine.connect() as conn:
            return set(conn.execute(sa.select(players.c.token_hash).where(players.c.token_hash.in_(keys))).scalars())

    def owner_of(self, player_id: str) -> str | None:
        """The name of the person who owns the robot account ``player_id`` (for its profile)."""
        owner = players.alias("owner")
        with self.store.engine.connect() as conn:
            return conn.execute(
                sa.select(owner.c.name).join(players, players.c.robot_of == owner.c.id).where(players.c.id == player_id)
            ).scalar()


__all__ = ["MAX_ROBOTS", "TOKEN_PREFIX", "RobotAccount", "RobotAccounts", "is_robot_account", "token_key"]
