"""One WebSocket as the server holds it: who it is, what it follows, and its outbox.

A frame leaves at once when nothing waits before it; a slow reader's frames queue in its outbox, which
is bounded (a reader that never reads is closed rather than let it hold the server's memory). A
connection of another process that follows a table run here is a ``RemoteConnection``: its frames go
back through the bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
import types
from collections.abc import Awaitable, Callable, Coroutine, Generator
from typing import TYPE_CHECKING, Any

from ..player import Player
from ..protocol import ProtocolError, dumps
from ..told import Told

if TYPE_CHECKING:
    from ..room import Stats
    from ..table.observer import Parts
    from .config import Config

OUTBOX_LIMIT = 5000


class Bucket:
    """A token bucket: ``rate`` per second, up to ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    """One WebSocket: who it is, which tables it follows, and its outbox (a slow reader never blocks a table)."""

    remote = False  # a connection of this process (RemoteConnection: another process's, served here)

    def __init__(
        self,
        send_text: Callable[[str], Coroutine[Any, Any, None]] | None,
        close: Callable[[], Coroutine[Any, Any, None]] | None,
        config: Config,
        account: Any = None,
        address: str | None = None,
        stats: Stats | None = None,
        write: Callable[[str], bool] | None = None,
    ) -> None:
        self._send_text = send_text
        self._write = write  # the frame to the socket at once, or False: then through send_text
        self.stats = stats
        self._close = close
        self.id = secrets.token_hex(8)
        self.remote_tables: set[str] = set()  # tables this connection follows that another process runs
        self.account = account  # the registered player whose session cookie opened this connection
        self.address = address  # the client's IP address: two registered people from one make a game unranked
        self.browser: str | None = None  # the browser's mark cookie (daily_marks): one ranked daily play a browser
        self.player: Player | None = None
        self.tables: set[str] = set()
        self.lobby = False
        self.bucket = Bucket(config.rate, config.burst)
        self.session: str | None = None  # the key of the session that opened it (accounts.session_key)
        self.outbox: asyncio.Queue[str | _Unfinished | None] = asyncio.Queue()
        self.busy = False  # the pump is sending: later frames queue behind it
        self.closed = False
        self.sent: list[str] | None = None  # tests record every frame sent here
        self.patches = False  # the client asked for patches instead of whole states on events (hello)
        self.views: dict[str, Parts] = {}  # table -> the last state it was sent or patched to, as parts

    @property
    def who(self) -> Player:
        """The player this connection speaks for: every message but ``hello`` needs one."""
        if self.player is None:
            raise ProtocolError("hello_first", 'say hello first: {"type": "hello", "protocol": 1}')
        return self.player

    def close_now(self) -> None:
        """Closed by the server or the client: nothing more is sent, and the pump closes the socket."""
        self.closed = True
        self.outbox.put_nowait(None)

    def forget_views(self) -> None:
        """The frames since the last whole state may be lost (a bus outage): send whole states again."""
        self.views.clear()

    def send(self, message: Told | str) -> None:
        if self.closed:
            return
        if self.stats is not None:
            self.stats.frames += 1
        if (
            self.patches
            and not isinstance(message, str)
            and message["type"] in ("table", "event")
            and "state" in message
        ):
            state: dict[str, Any] = message["state"]
            self.views[message["table"]] = (state, state["you"], state["changed"], state["deal"], None)
        self.deliver(message if isinstance(message, str) else dumps(message))

    def deliver(self, text: str) -> None:
        """Send a frame as it leaves (another process's connection is given one that sends it there): at
        once when nothing waits before it, through the outbox otherwise."""
        if self.closed:
            return
        if self.busy or self.outbox.qsize():
            if self.outbox.qsize() > OUTBOX_LIMIT:
                self.closed = True
                self.outbox.put_nowait(None)
                return
            self.outbox.put_nowait(text)
            return
        if self.sent is not None:
            self.sent.append(text)
        if self._write is not None and self._write(text):  # the socket took it: no coroutine at all
            return
        # The ASGI send is a coroutine that, unless the socket's buffer is full, finishes without ever
        # suspending: run it here rather than through a queue and a task switch per frame (4 frames an
        # action at a 4-seat table). If it does suspend, the pump finishes it before anything else.
        send_text = self._send_text
        assert send_text is not None  # a connection of this process has its socket (a remote one forwards)
        step = send_text(text)
        try:
            waiting = step.send(None)
        except StopIteration:
            return
        except Exception:  # the socket is gone: the pump closes the connection
            self.closed = True
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(_Unfinished(step, waiting))

    async def pump(self) -> None:
        """Send the outbox in order until the connection closes."""
        while True:
            item = await self.outbox.get()
            if item is None:
                if self._close is not None:
                    with contextlib.suppress(Exception):
                        await self._close()
                return
            self.busy = True
            try:
                if isinstance(item, _Unfinished):
                    await item.finish()
                else:
                    if self.sent is not None:
                        self.sent.append(item)
                    assert self._send_text is not None
                    await self._send_text(item)
            finally:
                self.busy = False


class _Unfinished:
    """A send that suspended (a full socket buffer): the coroutine and what it waits for."""

    __slots__ = ("step", "waiting")

    def __init__(self, step: Coroutine[Any, Any, None], waiting: Any) -> None:
        self.step, self.waiting = step, waiting

    def finish(self) -> Awaitable[None]:
        """The rest of the send, awaited by the pump as if it had awaited the send from the start."""
        return _resume(self.step, self.waiting)


@types.coroutine
def _resume(step: Coroutine[Any, Any, None], waiting: Any) -> Generator[Any, Any, None]:
    """``yield from`` for a coroutine already started: what it waits for goes to the awaiting task,
    and what the task sends or throws (a cancellation) goes back in, so the send cleans up as usual."""
    while True:
        try:
            sent = yield waiting
        except GeneratorExit:
            step.close()
            raise
        except BaseException as exc:  # a cancellation too: the send must see it
            try:
                waiting = step.throw(exc)
            except StopIteration:
                return
        else:
            try:
                waiting = step.send(sent)
            except StopIteration:
                return


class RemoteConnection(Connection):
    """A connection of another process that follows a table run here: requests come to this process
    through the bus, and each frame made for it goes back there (filtered here, as for a local one)."""

    remote = True

    def __init__(
        self,
        conn_id: str,
        process: str,
        config: Config,
        address: str | None,
        deliver: Callable[[str], None],
        patches: bool,
        stats: Stats | None = None,
    ) -> None:
        super().__init__(None, None, config, None, address, stats)
        self.id = conn_id
        self.process = process
        self._forward = deliver
        self.patches = patches

    def deliver(self, text: str) -> None:
        if not self.closed:
            if self.stats is not None:
                self.stats.crossed += 1
            self._forward(text)


__all__ = ["OUTBOX_LIMIT", "Bucket", "Connection", "Player", "RemoteConnection"]
