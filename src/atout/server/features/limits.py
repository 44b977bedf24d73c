"""Budgets: how much of the server's work one connection, one person and one address may ask for.

Each rule is a bucket of ``count`` that refills over ``seconds`` (GCRA: at most ``count`` at once, then
one every ``seconds / count``). A request spends one from every rule of its budget that applies to it,
all or none: a refused request costs nothing. Rules per connection live in this process (a connection
is one process's); rules per person and per address live where the site keeps them (``site/local.py``:
this process alone, or Redis for a site of several), so that ten sockets, on any process, share one
budget. docs/server.md lists every rule (a test keeps the two the same).
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..protocol import ProtocolError


class Budget(StrEnum):
    """What a request spends: each kind of work a person can make the server do, named."""

    CHAT = "chat"
    FRIEND_REQUEST = "friend_request"
    INVITATION = "invitation"
    TABLE = "table"
    ANALYSIS = "analysis"  # POST /api/analysis, per person and per address (server/features/analysis.py)
    LOGIN = "login"  # a login, a password change, an account deletion: each tries a password
    REGISTRATION = "registration"
    GUEST = "guest"  # a hello without a token: a new guest identity (a returning guest's token spends none)
    ROBOT_ACCOUNT = "robot_account"  # POST /api/robots: a robot account made (features/robot_accounts.py)
    SCORE = "score"  # POST /api/rules/score: the rules page's score calculator (http/rules.py)
    LESSON = "lesson"  # POST /api/learn/LESSON: a lesson replayed and an answer judged (http/learn.py)
    HINT = "hint"  # a hint at a practice table: the analysis's search of one decision (site/table_requests.py)


class Scope(StrEnum):
    """Whose bucket: a socket's, a person's (an account, a guest's identity; for a login, the name tried),
    or an address's (every person behind it: a household, a school, a robot farm)."""

    CONNECTION = "connection"
    PERSON = "person"
    ADDRESS = "address"


WHAT = {
    Budget.CHAT: "chat lines", Budget.FRIEND_REQUEST: "friend requests", Budget.INVITATION: "invitations",
    Budget.TABLE: "new tables", Budget.ANALYSIS: "analysis requests", Budget.LOGIN: "password attempts",
    Budget.REGISTRATION: "new accounts", Budget.GUEST: "new guests", Budget.ROBOT_ACCOUNT: "new robot accounts",
    Budget.SCORE: "scores counted",
    Budget.LESSON: "lesson answers", Budget.HINT: "hints",
}  # fmt: skip
WHOSE = {Scope.CONNECTION: "on a connection", Scope.PERSON: "for one person", Scope.ADDRESS: "from one address"}


@dataclass(frozen=True)
class Rule:
    budget: Budget
    scope: Scope
    count: int
    seconds: float

    def words(self) -> str:
        """``8 chat lines in 10 seconds for one person``."""
        return f"{self.count} {WHAT[self.budget]} in {span(self.seconds)} {WHOSE[self.scope]}"


def span(seconds: float) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}s" if n > 1 else f"a{'n' if unit == 'hour' else ''} {unit}"
    return f"{seconds:g} seconds"


MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0
C, P, A = Scope.CONNECTION, Scope.PERSON, Scope.ADDRESS
RULES: tuple[Rule, ...] = (
    Rule(Budget.CHAT, C, 5, 10), Rule(Budget.CHAT, P, 8, 10), Rule(Budget.CHAT, P, 240, HOUR),
    Rule(Budget.CHAT, A, 20, 10), Rule(Budget.CHAT, A, 1000, HOUR),
    Rule(Budget.FRIEND_REQUEST, P, 10, MINUTE), Rule(Budget.FRIEND_REQUEST, P, 50, DAY),
    Rule(Budget.FRIEND_REQUEST, A, 30, MINUTE), Rule(Budget.FRIEND_REQUEST, A, 200, DAY),
    Rule(Budget.INVITATION, C, 10, MINUTE), Rule(Budget.INVITATION, P, 15, MINUTE),
    Rule(Budget.INVITATION, P, 100, HOUR),
    Rule(Budget.INVITATION, A, 40, MINUTE), Rule(Budget.INVITATION, A, 300, HOUR),
    Rule(Budget.TABLE, C, 5, MINUTE), Rule(Budget.TABLE, P, 10, 10 * MINUTE), Rule(Budget.TABLE, P, 60, DAY),
    Rule(Budget.TABLE, A, 30, 10 * MINUTE), Rule(Budget.TABLE, A, 300, DAY),
    Rule(Budget.ANALYSIS, C, 5, MINUTE), Rule(Budget.ANALYSIS, P, 30, HOUR), Rule(Budget.ANALYSIS, A, 100, HOUR),
    Rule(Budget.LOGIN, P, 5, MINUTE), Rule(Budget.LOGIN, P, 20, 15 * MINUTE), Rule(Budget.LOGIN, A, 20, MINUTE),
    Rule(Budget.REGISTRATION, A, 10, HOUR),
    Rule(Budget.GUEST, A, 60, HOUR),  # a club of 30 behind one router, each on a new browser, twice over
    Rule(Budget.ROBOT_ACCOUNT, P, 5, DAY), Rule(Budget.ROBOT_ACCOUNT, A, 20, DAY),
    Rule(Budget.SCORE, A, 60, MINUTE), Rule(Budget.SCORE, A, 1000, HOUR),  # a click a count: a club's room at once
    Rule(Budget.LESSON, P, 60, MINUTE), Rule(Budget.LESSON, A, 300, MINUTE),  # a class of 30 answering at once
    Rule(Budget.HINT, P, 10, MINUTE), Rule(Budget.HINT, A, 120, MINUTE),  # a hint a turn; a club learning at once
)  # fmt: skip
"""Every limit: far above what a person playing does, low enough that a script gets little done. A login's
person is the name tried, from every address together: 20 at once then one every 45 s lets at most 100
guesses at an account in any hour (OWASP ASVS 2.2.1), whichever addresses they come from."""


@dataclass(frozen=True)
class Refusal:
    """The rule a request went beyond, and how long until it fits again."""

    rule: Rule
    retry_after: float

    @property
    def seconds(self) -> int:
        """The wait in whole seconds, at least 1 (what a person and ``Retry-After`` are told)."""
        return max(1, math.ceil(self.retry_after))

    @property
    def message(self) -> str:
        return f"at most {self.rule.words()}: try again in {self.seconds} s"

    def fields(self) -> dict[str, object]:
        """What an error adds to its code and message: which budget, whose, and the wait."""
        return {"budget": str(self.rule.budget), "scope": str(self.rule.scope), "retry_after": self.seconds}

    def error(self) -> ProtocolError:
        return ProtocolError("rate_limited", self.message, **self.fields())


def gcra(tat: float | None, now: float, count: int, seconds: float) -> tuple[float, float]:
    """One spend from a bucket whose theoretical arrival time is ``tat`` (None: full): the new arrival
    time, and how long to wait first (0: it fits now). The same arithmetic runs in Redis (``bus.py``)."""
    interval = seconds / count
    after = max(tat if tat is not None else now, now) + interval
    wait = after - now - seconds
    return after, max(0.0, wait)


Take = Callable[[Sequence[tuple[str, int, float]], float], Awaitable[tuple[int, float] | None]]
"""A keeper of buckets: spend one from each (key, count, seconds), all or none, at ``now``; None if
taken, else the index of the first bucket that was empty and the wait."""


class Buckets:
    """Buckets in this process's memory (a connection's; or a person's and an address's when this
    process is the whole site, or while Redis does not answer)."""

    PRUNE_AT = 10_000
    """Entries kept before the full buckets are dropped (a full bucket needs no entry: its key comes back as new)."""

    def __init__(self) -> None:
        self._tat: dict[str, float] = {}
        self._prune_at = self.PRUNE_AT

    def take_now(
        self, items: Sequence[tuple[str, int, float]], now: float, commit: bool = True
    ) -> tuple[int, float] | None:
        found = []
        for i, (key, count, seconds) in enumerate(items):
            after, wait = gcra(self._tat.get(key), now, count, seconds)
            if wait > 0:
                return i, wait
            found.append((key, after))
        if commit:
            self._tat.update(found)
            if len(self._tat) > self._prune_at:  # bounded memory: a full bucket needs no entry
                self._tat = {k: v for k, v in self._tat.items() if v > now}
                # the next pruning when the live ones have doubled: a flood of live buckets costs one pass
                # now and then, never one a request
                self._prune_at = max(self.PRUNE_AT, 2 * len(self._tat))
        return None

    async def take(self, items: Sequence[tuple[str, int, float]], now: float) -> tuple[int, float] | None:
        return self.take_now(items, now)


class Limits:
    """The rules, the clock, and where the buckets are kept: ``spend`` says whether a request fits."""

    def __init__(
        self, clock: Callable[[], float], shared: Take, rules: Sequence[Rule] = RULES, factor: float = 1.0
    ) -> None:
        self.clock = clock
        self.shared = shared
        self.factor = factor  # every count multiplied (a load test's many clients from one address)
        self.local = Buckets()
        self.rules: dict[Budget, list[Rule]] = {}
        for rule in rules:
            self.rules.setdefault(rule.budget, []).append(rule)

    def _count(self, rule: Rule) -> int:
        return max(1, round(rule.count * self.factor))

    async def spend(
        self, budget: Budget, connection: str | None = None, person: str | None = None, address: str | None = None
    ) -> Refusal | None:
        """Spend one of ``budget`` for whichever of the connection, the person and the address are
        given: None if it fits (and it is spent from each), else the first rule it goes beyond."""
        keys = {Scope.CONNECTION: connection, Scope.PERSON: person, Scope.ADDRESS: address}
        mine: list[Rule] = []
        shared: list[Rule] = []
        for rule in self.rules.get(budget, ()):
            if keys[rule.scope] is not None:
                (mine if rule.scope == Scope.CONNECTION else shared).append(rule)
        now = self.clock()

        def items(rules: list[Rule]) -> list[tuple[str, int, float]]:
            return [
                (f"{budget}:{r.scope}:{r.count}/{r.seconds:g}:{keys[r.scope]}", self._count(r), r.seconds)
                for r in rules
            ]

        local = items(mine)
        refused = self.local.take_now(local, now, commit=False)  # the connection's own first: no round trip
        if refused is not None:
            return Refusal(mine[refused[0]], refused[1])
        if shared:
            refused = await self.shared(items(shared), now)
            if refused is not None:
                return Refusal(shared[refused[0]], refused[1])
        self.local.take_now(local, now)
        return None


__all__ = ["RULES", "Buckets", "Budget", "Limits", "Refusal", "Rule", "Scope", "Take", "gcra"]
