"""A connection's frames leave in order, whether its socket takes them at once or makes them wait."""

from __future__ import annotations

import asyncio
import contextlib

from atout.server.site.config import Config
from atout.server.site.connection import Connection

from .helpers import eventually


async def test_frames_leave_in_order_when_the_socket_makes_one_wait() -> None:
    wire: list[str] = []
    gate = asyncio.get_running_loop().create_future()

    async def send_text(text: str) -> None:
        if text == "second" and not gate.done():
            await gate  # a full socket buffer: the send suspends
        wire.append(text)

    async def close() -> None:
        wire.append("<closed>")

    conn = Connection(send_text, close, Config(secret=b"s" * 32))
    pump = asyncio.create_task(conn.pump())
    conn.deliver("first")  # taken at once
    assert wire == ["first"]
    conn.deliver("second")  # suspends: finished by the pump
    conn.deliver("third")  # must wait behind it
    for _ in range(10):  # the pump's turns in the loop, however slow the machine
        await asyncio.sleep(0)
    assert wire == ["first"]
    gate.set_result(None)
    await eventually(lambda: len(wire) >= 3, "the pump never sent what waited")
    assert wire == ["first", "second", "third"]
    conn.deliver("fourth")  # nothing waits any more: at once again
    assert wire[-1] == "fourth"
    conn.closed = True
    conn.outbox.put_nowait(None)
    await asyncio.wait_for(pump, 1)
    assert wire[-1] == "<closed>"


async def test_a_send_that_fails_closes_the_connection() -> None:
    closed: list[bool] = []

    async def send_text(text: str) -> None:
        raise RuntimeError("the socket is gone")

    async def close() -> None:
        closed.append(True)

    conn = Connection(send_text, close, Config(secret=b"s" * 32))
    pump = asyncio.create_task(conn.pump())
    conn.deliver("frame")
    assert conn.closed
    await asyncio.wait_for(pump, 1)
    assert closed == [True]
    conn.deliver("later")  # nothing more is sent, nothing raises


async def test_a_cancelled_pump_lets_the_waiting_send_clean_up() -> None:
    """The endpoint gives up on a pump stuck behind a full socket: the send it was finishing must see the
    cancellation (and release what it holds, as a websocket's drain lock), not be left suspended."""
    lock = asyncio.Lock()
    never = asyncio.get_running_loop().create_future()
    released: list[bool] = []

    async def send_text(text: str) -> None:
        async with lock:
            try:
                await never  # a socket that never drains
            finally:
                released.append(True)

    async def close() -> None:
        pass

    conn = Connection(send_text, close, Config(secret=b"s" * 32))
    pump = asyncio.create_task(conn.pump())
    conn.deliver("stuck")
    await eventually(lambda: conn.busy, "the pump never took over the stuck send")
    assert lock.locked() and not released
    pump.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await pump
    assert released == [True]
    assert not lock.locked()
