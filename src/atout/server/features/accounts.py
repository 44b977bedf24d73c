"""Registered players: names, argon2id passwords, sessions, and the limits on guessing.

Hashing is slow on purpose, so it runs off the event loop (the callers use
``asyncio.to_thread``). A wrong name and a wrong password get the same answer.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.exc import IntegrityError

from ..store import Store
from ..store.db import players, sessions
from . import erasure, ledger, passwords

NAME = re.compile(r"^[A-Za-z0-9_\-\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u00FF\u0152\u0153\u0178]{3,20}$")
"""A name: 3 to 20 Latin letters, accented ones included (Zoé, Hélène, Œdipe), digits, _ or -. Other
scripts stay out: a Cyrillic о looks like a Latin o, and a name must not pass for another's."""
NAME_RULE = "a name has 3 to 20 letters (accents allowed), digits, _ or -"
MAX_PASSWORD = passwords.MAX_LENGTH
SESSION_DAYS = 30
INACTIVE_DAYS = 14
"""A session unused this long is over, whatever its 30 days say: a forgotten browser does not stay logged in."""
TOUCH_SECONDS = 3600.0
"""How often a session in use records it (one write an hour, not one per request)."""
AVATARS = ("fox", "owl", "bear", "cat", "stag", "hare", "boar", "heron")
WRONG = "wrong name or password"


class AccountError(ValueError):
    """A refused account request: ``code`` for programs, the message for people, and ``extra`` fields for
    programs too (a weak password's ``reason``)."""

    def __init__(self, code: str, message: str, **extra: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    avatar: str


def normal_name(name: str) -> str:
    """One spelling of a name (NFC), without the spaces around it: a keyboard may send an é as one
    character or as e and an accent, and a pasted name often brings a space along."""
    return unicodedata.normalize("NFC", name.strip())


def name_key(name: str) -> str:
    """What makes two names one, so nobody takes a look-alike of another's: compatibility forms, case
    and accents aside (NFKD, accents dropped, casefold, NFKC: Zoé, ZOE and zoe are one name, and so are
    Straße and STRASSE). Any spelling of an é gives the same key, so no ``normal_name`` first. At most
    twice the name's length (casefold spells ß out as ss): the column holds 40."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return unicodedata.normalize("NFKC", bare.casefold())


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME.match(name := normal_name(name)):
        raise AccountError("bad_name", NAME_RULE)
    return name


def check_password(password: object, name: str) -> str:
    """A new password for the account ``name``, or AccountError ``weak_password`` with its ``reason``
    (``passwords.Weakness``): only a password being set is judged, never one logging in."""
    why = passwords.weakness(password, name) if isinstance(password, str) else passwords.Weakness.TOO_SHORT
    if why is not None:
        raise AccountError("weak_password", passwords.MESSAGES[why], reason=str(why))
    return str(password)


def session_key(token: str) -> str:
    """What the store keeps of a session's token (its SHA-256): a stolen table of sessions opens nothing.
    A session's ``id``, as its owner sees it listed, is the first SESSION_ID characters of it."""
    return hashlib.sha256(token.encode()).hexdigest()


SESSION_ID = re.compile(r"^[0-9a-f]{16}$")

PASSWORD_COSTS = {
    "recommended": PasswordHasher(),  # argon2-cffi's: RFC 9106's second recommendation, 64 MiB, 3 passes, 4 lanes
    "minimum": PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1),  # OWASP's least for argon2id
}
"""argon2id's costs by name (``atout serve --password-costs``): the library's recommended ones (0.2 s of CPU a
hash), or OWASP's minimum (Password Storage Cheat Sheet: 19 MiB, 2 passes, 1 lane; 0.04 s) for a small
machine, and the tests' servers. A hash names its own costs: a password set under either logs in under both."""

UNKNOWN_NAME_HASHES = (
    "$argon2id$v=19$m=65536,t=3,p=4$Bwi05H7uRJxgoVJqnQw7gA$+0opQqKQL6HIBWS5H5PxUBRjmDXbTxuwLILPFMH0neM",
    "$argon2id$v=19$m=19456,t=2,p=1$THfJz+VlG4su36idSBDZ/w$TcAJxr3RWwLw5Ex53O7U/WcC/JiOEmboi3CcbnPOfEA",
)
"""Hashes of random passwords no account has, at each of ``PASSWORD_COSTS``: a log-in with a name no account has
verifies against the one at the site's costs, so that it costs what a known name's does. Written here rather
than hashed at each start (0.15 s of CPU a start); a hasher of other costs hashes its own."""


class Accounts:
    """Players and sessions in the store."""

    def __init__(
        self, store: Store, hasher: PasswordHasher | None = None, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.hasher = hasher or PASSWORD_COSTS["recommended"]
        self.clock = clock
        self._dummy = next(  # so an unknown name costs a verify too, as long as a known one's
            (digest for digest in UNKNOWN_NAME_HASHES if not self.hasher.check_needs_rehash(digest)), None
        ) or self.hasher.hash(secrets.token_hex(8))

    def register(self, name: object, password: object, avatar: str | None = None) -> Account:
        name = check_name(name)
        password = check_password(password, name)
        if avatar is not None and avatar not in AVATARS:
            raise AccountError("bad_avatar", f"an avatar is one of {', '.join(AVATARS)}")
        account = Account("p" + secrets.token_hex(8), name, avatar or secrets.choice(AVATARS))
        digest = self.hasher.hash(password)
        try:
            with self.store.engine.begin() as conn:
                conn.execute(
                    players.insert().values(
                        id=account.id,
                        name=name,
                        name_key=name_key(name),
                        password_hash=digest,
                        avatar=account.avatar,
                        created_at=self.clock(),
                    )
                )
                ledger.grant_new_account(conn, account.id, self.clock())  # the account and its chips, together
        except IntegrityError:
            raise AccountError("name_taken", f"the name {name!r} is taken") from None
        return account

    def find(self, name: str) -> Account | None:
        """The account called ``name`` (any case or accents); None, without asking the store, for what
        cannot be a name (PostgreSQL refuses a NUL in a query: that would be a failure, not a no)."""
        if not isinstance(name, str) or not NAME.match(normal_name(name)):
            return None
        with self.store.engine.connect() as conn:
            row = conn.execute(
                sa.select(players.c.id, players.c.name, players.c.avatar).where(players.c.name_key == name_key(name))
            ).first()
        return None if row is None else Account(row.id, row.name, row.avatar)

    def login(
        self, name: object, password: object, address: str | None = None, agent: str | None = None
    ) -> tuple[Account, str]:
        """The account and a new session token (``address`` and ``agent``, the browser's, kept for its owner
        to see); AccountError ``wrong`` for any bad pair."""
        row = None
        if (
            isinstance(name, str)
            and NAME.match(name := normal_name(name))
            and isinstance(password, str)
            and len(password) <= MAX_PASSWORD
        ):
            with self.store.engine.connect() as conn:
                row = conn.execute(sa.select(players).where(players.c.name_key == name_key(name))).first()
        try:
            self.hasher.verify(row.password_hash if row else self._dummy, password if isinstance(password, str) else "")
        except (VerificationError, InvalidHashError):
            raise AccountError("wrong", WRONG) from None
        if row is None:
            raise AccountError("wrong", WRONG)
        return Account(row.id, row.name, row.avatar), self._new_session(row.id, address, agent)

    def _new_session(self, player_id: str, address: str | None, agent: str | None) -> str:
        token = secrets.token_urlsafe(32)
        now = self.clock()
        with self.store.engine.begin() as conn:
            conn.execute(
                sessions.insert().values(
                    token_hash=session_key(token),
                    player_id=player_id,
                    created_at=now,
                    expires_at=now + SESSION_DAYS * 86400,
                    last_seen_at=now,
                    address=(address or None) and address[:64],
                    agent=(agent or None) and agent[:200],
                )
            )
        return token

    def session(self, token: str | None) -> Account | None:
        """The account a session cookie belongs to, if it is valid and not expired."""
        if not token or len(token) > 100:
            return None
        key = session_key(token)
        with self.store.engine.connect() as conn:
            row = conn.execute(
                sa.select(
                    players.c.id,
                    players.c.name,
                    players.c.avatar,
                    sessions.c.expires_at,
                    sessions.c.created_at,
                    sessions.c.last_seen_at,
                )
                .join(sessions, sessions.c.player_id == players.c.id)
                .where(sessions.c.token_hash == key)
            ).first()
        now = self.clock()
        last_seen = (row.last_seen_at or row.created_at) if row is not None else 0.0
        if row is None or row.expires_at < now or last_seen + INACTIVE_DAYS * 86400 < now:
            return None
        if now - last_seen >= TOUCH_SECONDS:
            with self.store.engine.begin() as conn:
                conn.execute(sessions.update().where(sessions.c.token_hash == key).values(last_seen_at=now))
        return Account(row.id, row.name, row.avatar)

    def sessions_of(self, player_id: str, token: str | None) -> list[dict[str, Any]]:
        """A person's sessions still in force, the latest used first: when, from where, which is this one."""
        now = self.clock()
        current = session_key(token) if token else None
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(sessions).where(sessions.c.player_id == player_id)).all()
        out = [
            {
                "id": r.token_hash[:16],
                "created_at": r.created_at,
                "last_seen_at": r.last_seen_at or r.created_at,
                "address": r.address,
                "agent": r.agent,
                "current": r.token_hash == current,
            }
            for r in rows
            if r.expires_at >= now and (r.last_seen_at or r.created_at) + INACTIVE_DAYS * 86400 >= now
        ]
        return sorted(out, key=lambda s: -s["last_seen_at"])

    def end_sessions(self, player_id: str, keep: str | None = None) -> list[str]:
        """End every session of a person but ``keep``'s (a token); the keys of those that ended."""
        where = sessions.c.player_id == player_id
        if keep:
            where = sa.and_(where, sessions.c.token_hash != session_key(keep))
        with self.store.engine.begin() as conn:
            ended = [r.token_hash for r in conn.execute(sa.select(sessions.c.token_hash).where(where))]
            if ended:
                conn.execute(sessions.delete().where(sessions.c.token_hash.in_(ended)))
        return ended

    def end_session(self, player_id: str, session_id: object) -> str | None:
        """End the session of ``player_id`` listed with ``session_id``: its key, or None when the person
        has no such session (another's is no different from none)."""
        if not isinstance(session_id, str) or not SESSION_ID.match(session_id):
            return None
        with self.store.engine.begin() as conn:
            key = conn.execute(
                sa.select(sessions.c.token_hash).where(
                    sessions.c.player_id == player_id, sessions.c.token_hash.startswith(session_id, autoescape=True)
                )
            ).scalar()
            if key is not None:
                conn.execute(sessions.delete().where(sessions.c.token_hash == key))
        return key

    def live(self, keys: Sequence[str]) -> set[str]:
        """Which of these sessions (keys) are still in force; those in use (open sockets) are recorded as
        used, hourly as a request would, so a page left open for weeks stays logged in."""
        if not keys:
            return set()
        now = self.clock()
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(
                    sessions.c.token_hash, sessions.c.expires_at, sessions.c.created_at, sessions.c.last_seen_at
                ).where(sessions.c.token_hash.in_(list(keys)))
            ).all()
        live = {
            r.token_hash
            for r in rows
            if r.expires_at >= now and (r.last_seen_at or r.created_at) + INACTIVE_DAYS * 86400 >= now
        }
        stale = [
            r.token_hash
            for r in rows
            if r.token_hash in live and now - (r.last_seen_at or r.created_at) >= TOUCH_SECONDS
        ]
        if stale:
            with self.store.engine.begin() as conn:
                conn.execute(sessions.update().where(sessions.c.token_hash.in_(stale)).values(last_seen_at=now))
        return live

    def _check_password(self, account: Account, password: object) -> None:
        with self.store.engine.connect() as conn:
            digest = conn.execute(sa.select(players.c.password_hash).where(players.c.id == account.id)).scalar_one()
        try:
            self.hasher.verify(digest, password if isinstance(password, str) and len(password) <= MAX_PASSWORD else "")
        except (VerificationError, InvalidHashError):
            raise AccountError("wrong", "wrong password") from None

    def change_password(self, account: Account, token: str | None, old: object, new: object) -> list[str]:
        """Set a new password, the old one given, and end every other session (a thief's among them); the
        keys of those that ended. AccountError ``wrong`` for a wrong old password, ``weak_password`` for a
        weak new one."""
        self._check_password(account, old)
        new = check_password(new, account.name)
        with self.store.engine.begin() as conn:
            conn.execute(players.update().where(players.c.id == account.id).values(password_hash=self.hasher.hash(new)))
        return self.end_sessions(account.id, keep=token)

    def delete(self, account: Account, password: object) -> erasure.Erased:
        """Delete the account, its password given (AccountError ``wrong`` otherwise): ``erasure.erase``."""
        self._check_password(account, password)
        with self.store.engine.begin() as conn:
            return erasure.erase(conn, account.id, self.clock())

    def logout(self, token: str | None) -> str | None:
        """End this session: its key, or None when it was no session."""
        if not token or len(token) > 100:
            return None
        key = session_key(token)
        with self.store.engine.begin() as conn:
            done = conn.execute(sessions.delete().where(sessions.c.token_hash == key)).rowcount
        return key if done else None


__all__ = [
    "AVATARS",
    "INACTIVE_DAYS",
    "NAME",
    "NAME_RULE",
    "SESSION_ID",
    "Account",
    "AccountError",
    "Accounts",
    "check_name",
    "check_password",
    "name_key",
    "normal_name",
    "session_key",
]
