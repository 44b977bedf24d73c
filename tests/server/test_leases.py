"""A takeover that meets a store failing never leaves a lease held for a table nobody runs (issue 48): such a lease,
renewed for good, kept every process from the table, which never moved again after a worker's death."""

from __future__ import annotations

import time
from types import SimpleNamespace

from atout.server.site.leases import Leases


class _Store:
    def __init__(self) -> None:
        self.released: list[tuple[str, str, int]] = []

    def acquire_lease(self, table_id: str, process: str, now: float, seconds: float) -> int:
        return 7

    def release_lease(self, table_id: str, process: str, token: int) -> None:
        self.released.append((table_id, process, token))


class _Hub:
    def __init__(self, failing: bool) -> None:
        self.rooms: dict[str, object] = {}
        self.store = _Store()
        self.failing = failing

    async def load_table(self, table_id: str) -> bool:
        if self.failing:
            raise RuntimeError("the database system is starting up")
        self.rooms[table_id] = object()
        return True


def _leases(hub: _Hub) -> Leases:
    async def rejoin(table_id: str) -> None:
        return None

    site = SimpleNamespace(
        hub=hub,
        process="p1",
        slot=None,
        slots=None,
        bus=SimpleNamespace(post=lambda *_: None),
        followers=SimpleNamespace(rejoin=rejoin),
    )
    return Leases(site, 6.0, time.time)  # type: ignore[arg-type]


async def test_a_takeover_whose_load_fails_gives_its_lease_up() -> None:
    hub = _Hub(failing=True)
    leases = _leases(hub)
    assert await leases.take("T1") is False
    assert "T1" not in leases.tokens and "T1" not in leases.loading  # not renewed: a scan may take it again
    assert hub.store.released == [("T1", "p1", 7)]
    hub.failing = False
    assert await leases.take("T1") is True  # the next scan's try
    assert leases.tokens == {"T1": 7} and "T1" in hub.rooms


async def test_a_lease_held_for_no_table_run_here_is_given_up_at_the_second_renewal() -> None:
    hub = _Hub(failing=False)
    leases = _leases(hub)
    await leases.take("T1")
    leases.tokens["T2"] = 9  # held, yet no room runs it (however it came to be)
    leases.loading.add("T3")
    leases.tokens["T3"] = 4  # being loaded: not an orphan
    await leases.give_up_orphans()
    assert "T2" in leases.tokens and hub.store.released == []  # once may be a moment: a second look first
    await leases.give_up_orphans()
    assert "T2" not in leases.tokens and hub.store.released == [("T2", "p1", 9)]
    assert leases.tokens == {"T1": 7, "T3": 4}
