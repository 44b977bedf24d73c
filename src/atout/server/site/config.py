"""The server's settings (``atout serve``'s options): read by the hub and by each of its jobs, imported by none
of them from the hub."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from typing import Any

from ...bots.analysis import WORLDS_FACTOR
from ..features import daily
from ..features.limits import RULES, Budget, Rule, Scope
from ..options import default_robot_level
from ..table import Timing


@dataclass
class Config:
    """Server settings (``atout serve`` options); tests shorten the times."""

    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    timing: Timing = field(default_factory=Timing)
    hasher: Any = None  # argon2's PasswordHasher; None for its recommended costs (tests make it cheaper)
    rate: float = 20.0  # messages per second a connection may send, on average
    burst: float = 40.0
    limit_factor: float = 1.0  # every budget's counts multiplied (limits.py; a load test from one address raises it)
    trusted_proxy: bool = False  # behind a proxy of ours: a connection's address is its X-Forwarded-For
    slot: int | None = None  # this process's slot behind a proxy that routes tables by slot (proxy.py)
    slots: int | None = None  # how many slots that proxy routes
    commit_linger: float = 0.0  # seconds a small batch of writes waits for more (atout serve: 0.005)
    origins: tuple[str, ...] = ()  # pages besides the site's own that may act for a person (origins.py)
    hosts: tuple[str, ...] = ()  # host names the site answers to besides this machine's (http/hosts.py; "*": any)
    sockets_per_address: int | None = 64  # WebSockets one address may have open on this process (None: any)
    analysis_workers: int = 1  # processes that analyse finished deals (server/features/analysis.py); 0: none
    analysis_queue: int = 16  # analyses that may wait for a worker; beyond, 503 busy
    analysis_per_person: int = 1  # analyses one person may have waiting or running
    analysis_worlds: int = WORLDS_FACTOR  # an analysis searches this many times the worlds the expert plays with
    analysis_per_hour: int = 30  # analyses one person may start in an hour (the budget "analysis")
    analysis_warm: bool = True  # the analysis workers start and warm up with the server, not at the first request
    insights_budget: float = 0.0  # CPU seconds an hour the background's accuracies may spend (features/background.py)
    insights_jobs: int = 1  # background worker processes (niced), started at the first background job
    daily_deals: int = daily.DEALS  # deals in a day's set of the daily deal (set when the day is first asked for)
    daily_level: str = field(default_factory=default_robot_level)  # the daily deal's robots
    idle_release: float = 300.0  # seconds a table nobody is at stays in memory (release.py); 0: for ever
    stall_seconds: float = 15.0  # real seconds a table overdue on its promise has not moved before it counts as
    # stalled (room/watchdog.py: its robots think and its timer wakes in real time, whatever the tables' clock)


def budget_rules(config: Config) -> list[Rule]:
    """limits.RULES, with a person's analyses an hour as ``config`` sets them (``atout serve`` keeps 30)."""
    return [
        replace(r, count=config.analysis_per_hour)
        if (r.budget, r.scope, r.seconds) == (Budget.ANALYSIS, Scope.PERSON, 3600)
        else r
        for r in RULES
    ]


__all__ = ["Config", "budget_rules"]
