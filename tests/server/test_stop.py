"""The server's stop is bounded: a part that does not stop is named and left behind, and the server still ends."""

from __future__ import annotations

import asyncio
import json
import logging
import time

import pytest

from atout.server.features.background import Background
from atout.server.http import app as server_app
from atout.server.site.hub import Hub

from .helpers import running_server


async def test_a_part_that_never_stops_is_named_and_the_server_ends_all_the_same(
    db_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    released = asyncio.Event()  # by the test, once the server has ended: its loop's end waits for every task

    async def never(self: Background) -> None:
        while not released.is_set():  # swallows its cancellation too: a stop that waited for it would wait for ever
            try:
                await released.wait()
            except asyncio.CancelledError:
                continue

    hub_stops: list[Hub] = []
    hub_stop = Hub.stop

    async def recorded(self: Hub) -> None:
        hub_stops.append(self)
        await hub_stop(self)

    monkeypatch.setattr(Background, "stop", never)
    monkeypatch.setattr(Hub, "stop", recorded)
    monkeypatch.setattr(server_app, "STOP_WITHIN", 0.3)
    caplog.set_level(logging.ERROR)
    async with running_server(db_url) as server:
        start = time.monotonic()
        hub = server.app.state.hub
    took = time.monotonic() - start
    released.set()
    hung = [json.loads(r.getMessage()) for r in caplog.records if "stop_hung" in r.getMessage()]
    assert [h["part"] for h in hung] == ["background"], hung
    assert hub_stops == [hub], hub_stops  # the hub's own stop ran after it, whole
    assert took < 60, took  # a bound on a hang only
