"""The bus between server processes: Redis publish/subscribe when several processes share the site.

One process alone needs no bus (the embedded default). With ``--redis``, every process listens on
its own channel (requests for the tables it runs, frames for its connections) and on the site's
channels (the lobby, messages to a player wherever they are, owners changing); it publishes to the
others'. Messages are small JSON objects (orjson); frames to one process in one loop turn go as one."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from enum import StrEnum
from typing import Any

import orjson

from ..features.accounts import name_key
from .epoch import EPOCH_SECONDS, Epoch

log = logging.getLogger("atout.server")

SITE = "atout:site"
"""The channel every process hears: lobby lines, player messages, owners changing, processes leaving."""

TAKE_SCRIPT = """
local now = tonumber(ARGV[1])
local after = {}
for i = 1, #KEYS do
  local count = tonumber(ARGV[2 * i])
  local seconds = tonumber(ARGV[2 * i + 1])
  local tat = tonumber(redis.call('GET', KEYS[i]) or now)
  if tat < now then tat = now end
  after[i] = tat + seconds / count
  local wait = after[i] - now - seconds
  if wait > 0 then return {i, string.format('%.17g', wait)} end
end
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], string.format('%.17g', after[i]), 'PX', math.max(1, math.ceil((after[i] - now) * 1000)))
end
return nil
"""
"""``limits.gcra`` for every bucket of a request at once, in Redis (atomic: all spent or none); a key
lasts until its bucket is full again."""


class BusKind(StrEnum):
    """Every kind of message the bus carries (its ``kind``); each has one handler (``RedisSite.on_bus``)."""

    FRAMES = "frames"  # frames an owner made for connections of this process, by connection
    REQUEST = "request"  # a connection's request for a table this process runs
    GONE = "gone"  # a connection that followed tables elsewhere closed: its stand-ins go
    UNDELIVERED = "undelivered"  # a request nobody heard: its sender hears so (the bus's own notice)
    PROCESS_GONE = "process_gone"  # a process stopped, or stopped listening
    OWNER = "owner"  # a table has a new owner
    LOBBY = "lobby"  # a table's lobby line changed (or it closed)
    LOBBY_SYNC = "lobby_sync"  # a process started: it asks every lobby line again
    RESYNC = "resync"  # a process is back on the bus (or Redis restarted): everyone says again what it holds
    FOLLOWING = "following"  # a process's connections that follow tables elsewhere (an answer to a resync)
    SILENT = "silent"  # (this process's own notice) a process did not hear what was sent to it
    TAKE = "take"  # a table handed home: its slot's process takes it now
    FRIENDS = "friends"  # a friendship changed: the caches of friends forget it
    PLAYER = "player"  # a message to a person, wherever they are connected
    SESSIONS_ENDED = "sessions_ended"  # sessions ended: their sockets close everywhere
    HANDED_OVER = "handed_over"  # a guest's seats pass to the account they registered or logged in to


def inbox(process: str) -> str:
    """The channel of one process."""
    return f"atout:p:{process}"


Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


class RedisBus:
    """Publish and subscribe over Redis; reconnects by itself and says whether it is up."""

    def __init__(self, url: str, process: str) -> None:
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError

        self.url = url
        self.process = process
        self._redis = redis.Redis.from_url(  # a connection broken by a Redis restart is opened again
            url,
            socket_connect_timeout=2,
            socket_timeout=5,
            health_check_interval=5,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 3),
            retry_on_error=[RedisConnectionError, RedisTimeoutError],
        )
        self.failed = 0  # publishes Redis did not take
        self._handler: Handler | None = None
        self._on_up: Callable[[], Coroutine[Any, Any, None]] | None = None
        self._up_task: asyncio.Task[None] | None = None
        self._again = False  # another resync asked while one runs
        self._watch: asyncio.Task[None] | None = None
        self.epoch = Epoch(self._redis)
        self.resyncs = 0  # resyncs done here: the bus back, or Redis found restarted
        self._background: set[asyncio.Task[Any]] = set()
        self._task: asyncio.Task[None] | None = None
        self.up = False
        self.outages = 0  # times Redis was lost since the process started
        self.published = 0
        self.received = 0
        self._pending: dict[str, list[Any]] = {}  # process -> frames queued this loop turn
        self._outgoing: asyncio.Queue[tuple[str, dict[str, Any] | None]] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._take: Any = None  # the registered TAKE_SCRIPT

    async def start(self, handler: Handler, on_up: Callable[[], Coroutine[Any, Any, None]] | None = None) -> None:
        """Listen; ``on_up`` runs each time the bus is back after being down (messages were lost)."""
        self._handler = handler
        self._on_up = on_up
        await self._redis.ping()  # refuse to start on a Redis that does not answer: say so at once
        await self.epoch.read()
        ready = asyncio.Event()
        self._task = asyncio.create_task(self._listen(ready))
        await asyncio.wait_for(ready.wait(), 10)
        self._watch = asyncio.create_task(self._watch_epoch())

    async def stop(self) -> None:
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._sender, 2)
        for task in (self._watch, self._task, self._up_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            await self._redis.aclose()

    async def _watch_epoch(self) -> None:
        """Each EPOCH_SECONDS, whether Redis restarted unseen; if so, resync (Redis away: the listener says
        so, and resyncs when it is back)."""
        while True:
            await asyncio.sleep(EPOCH_SECONDS)
            changed = False
            with contextlib.suppress(Exception):
                changed = await self.epoch.read()
            if changed and self.up:
                log.warning('{"event":"bus_restart_seen"}')
                self.resync()

    def resync(self) -> None:
        """Run ``on_up`` (one at a time; asked again while it runs, it runs once more after)."""
        if self._on_up is None:
            return
        if self._up_task is not None and not self._up_task.done():
            self._again = True
            return
        self._up_task = asyncio.create_task(self._resyncing())

    async def _resyncing(self) -> None:
        self._again = True
        while self._again and self._on_up is not None:
            self._again = False
            try:
                await self._on_up()
            except Exception:
                log.exception("resync failed")
            self.resyncs += 1

    async def settled(self) -> None:
        """Just after a Redis restart, wait until the others said again what they hold (``Epoch.settle``);
        a restart found here resyncs."""
        if await self.epoch.read():
            self.resync()
        await self.epoch.settle()

    async def _listen(self, ready: asyncio.Event) -> None:
        """Subscribe and hand every message to the handler; after a lost connection, subscribe again."""
        delay = 0.1
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(SITE, inbox(self.process))
                back = ready.is_set() and not self.up
                restarted = await self.epoch.read()
                self.up = True
                delay = 0.1
                ready.set()
                if back or restarted:
                    log.warning('{"event":"bus_up"}')
                    self.resync()
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    self.received += 1
                    try:
                        body = orjson.loads(message["data"])
                        if body.get("from") == self.process and body.get("kind") != BusKind.FRAMES:
                            continue  # our own site-wide message, already handled here
                        done = self._handler(body) if self._handler is not None else None
                        if done is not None:
                            await done
                    except Exception:  # one bad message must not stop the bus
                        log.exception("bus message failed")
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if self.up:
                    self.outages += 1
                    log.warning('{"event":"bus_down","error":%s}', orjson.dumps(repr(err)).decode())
                self.up = False
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
            finally:
                with contextlib.suppress(Exception):
                    # PubSub.aclose is typed in redis-py 8.2, untyped in earlier releases the floor (5.0) allows
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]

    async def publish(self, channel: str, body: dict[str, Any]) -> int:
        """Send now; the number of processes that heard it (0: nobody listens there any more, -1: Redis
        did not answer)."""
        body = {**body, "from": self.process}
        try:
            heard = await self._redis.publish(channel, orjson.dumps(body))
        except Exception as err:  # whether the bus is up is the listener's to say
            self.failed += 1
            log.warning('{"event":"bus_publish_failed","error":%s}', orjson.dumps(repr(err)).decode())
            return -1
        self.published += 1
        return heard

    async def take_guest_name(self, name: str, player_id: str) -> bool:
        """Hold ``name`` for the guest ``player_id``, online on this process: added first, then looked at,
        so that of two processes holding it at once for two guests each sees the other and lets go (both
        refuse: never two guests of one name). False, and nothing held, when another guest holds it."""
        key = f"atout:guest:{name_key(name)}"
        member = f"{self.process}|{player_id}"
        try:
            await self.settled()
            await self._redis.sadd(key, member)
            await self._redis.expire(key, 24 * 3600)  # and nothing is kept for ever
        except Exception as err:  # the bus is down: the names of this process are still checked by its hub
            log.warning('{"event":"guest_name_unchecked","error":%s}', orjson.dumps(repr(err)).decode())
            return True
        if await self.guests(name) - {player_id}:
            with contextlib.suppress(Exception):
                await self._redis.srem(key, member)
            return False
        return True

    async def take(self, items: Sequence[tuple[str, int, float]], now: float) -> tuple[int, float] | None:
        """``limits.Take`` on Redis, the site's buckets: None if spent, else the first empty bucket's index
        and the wait. Raises when Redis does not answer (the caller keeps its own buckets meanwhile)."""
        if self._take is None:
            self._take = self._redis.register_script(TAKE_SCRIPT)
        args: list[float] = [now]
        for _, count, seconds in items:
            args += [count, seconds]
        answer = await self._take(keys=[f"atout:limit:{key}" for key, _, _ in items], args=args)
        if answer is None:
            return None
        index, wait = answer
        return int(index) - 1, float(wait)

    async def guests(self, name: str) -> set[str]:
        """The ids of the guests online under ``name`` on any process that still runs (a name is not an
        account). A process that died could not say its guests left: its entries are dropped here."""
        key = f"atout:guest:{name_key(name)}"
        try:
            members = [m.decode() if isinstance(m, bytes) else m for m in await self._redis.smembers(key)]
            processes = sorted({m.split("|", 1)[0] for m in members if "|" in m})
            counts = await self._redis.pubsub_numsub(*(inbox(p) for p in processes)) if processes else []
            listening = {c.decode() if isinstance(c, bytes) else c: n for c, n in counts}
        except Exception:
            return set()
        alive: set[str] = set()
        dead: list[str] = []
        for member in members:
            process, _, player_id = member.rpartition("|")
            if not process or listening.get(inbox(process), 0) > 0:
                alive.add(player_id)
            else:
                dead.append(member)
        if dead:
            with contextlib.suppress(Exception):
                await self._redis.srem(key, *dead)
        return alive

    def player(self, player_id: str, online: bool) -> None:
        """Say a registered player has a connection here (or no more), for their friends on every process."""

        async def tell() -> None:
            key = f"atout:online:{player_id}"
            with contextlib.suppress(Exception):
                if online:
                    await self._redis.sadd(key, self.process)
                    await self._redis.expire(key, 24 * 3600)
                else:
                    await self._redis.srem(key, self.process)

        self._background.add(task := asyncio.create_task(tell()))
        task.add_done_callback(self._background.discard)

    async def online(self, player_ids: set[str]) -> set[str]:
        """Those of ``player_ids`` connected to a process of the site that still runs (but this one)."""
        ids = sorted(player_ids)
        if not ids:
            return set()
        try:
            pipe = self._redis.pipeline(transaction=False)
            for player_id in ids:
                pipe.smembers(f"atout:online:{player_id}")
            found = [{m.decode() if isinstance(m, bytes) else m for m in members} for members in await pipe.execute()]
            processes = sorted(set().union(*found) - {self.process})
            counts = await self._redis.pubsub_numsub(*(inbox(p) for p in processes)) if processes else []
        except Exception:
            return set()
        alive = {(c.decode() if isinstance(c, bytes) else c).rsplit(":", 1)[1] for c, n in counts if n > 0}
        return {player_id for player_id, members in zip(ids, found, strict=True) if members & alive}

    async def announce(self, players: Iterable[str], guests: Iterable[tuple[str, str]]) -> None:
        """Say again which registered players and guests (name, id) are here: a restarted Redis has none."""
        pipe = self._redis.pipeline(transaction=False)
        for player_id in players:
            pipe.sadd(f"atout:online:{player_id}", self.process)
            pipe.expire(f"atout:online:{player_id}", 24 * 3600)
        for name, player_id in guests:
            pipe.sadd(f"atout:guest:{name_key(name)}", f"{self.process}|{player_id}")
            pipe.expire(f"atout:guest:{name_key(name)}", 24 * 3600)
        await pipe.execute()

    async def listening(self, processes: Iterable[str]) -> set[str]:
        """Those of ``processes`` that listen on the bus now."""
        names = sorted(set(processes))
        if not names:
            return set()
        counts = await self._redis.pubsub_numsub(*(inbox(p) for p in names))
        return {(c.decode() if isinstance(c, bytes) else c).rsplit(":", 1)[1] for c, n in counts if n > 0}

    def guest(self, name: str, player_id: str, online: bool) -> None:
        """Say a guest came online (or left) under ``name`` here, for invitations and names from other
        processes (kept with this process's name, so that one that dies can be told from one that runs)."""

        async def tell() -> None:
            key = f"atout:guest:{name_key(name)}"
            member = f"{self.process}|{player_id}"
            with contextlib.suppress(Exception):
                if online:
                    await self._redis.sadd(key, member)
                    await self._redis.expire(key, 24 * 3600)  # and nothing is kept for ever
                else:
                    await self._redis.srem(key, member)

        self._background.add(task := asyncio.create_task(tell()))
        task.add_done_callback(self._background.discard)

    def post(self, channel: str, body: dict[str, Any]) -> None:
        """Queue a message; one sender sends the queue in order (a request never overtakes another)."""
        self._outgoing.put_nowait((channel, body))
        self._start_sender()

    def send_frame(self, process: str, connection: str, text: str) -> None:
        """Queue a frame for a connection of another process; the frames queued for a process until
        the sender reaches them leave as one message, in order with everything else sent."""
        frames = self._pending.get(process)
        if frames is None:
            self._pending[process] = [(connection, text)]
            self._outgoing.put_nowait((inbox(process), None))  # None: the frames pending then
        else:
            frames.append((connection, text))
        self._start_sender()

    def _start_sender(self) -> None:
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_all())

    async def _send_all(self) -> None:
        """Send everything queued, in order, in one pipeline per round (one round trip to Redis)."""
        while not self._outgoing.empty():
            batch: list[tuple[str, dict[str, Any]]] = []
            while not self._outgoing.empty():
                channel, body = self._outgoing.get_nowait()
                if body is None:
                    body = {"kind": BusKind.FRAMES, "frames": self._pending.pop(channel.rsplit(":", 1)[1], [])}
                batch.append((channel, {**body, "from": self.process}))
            try:
                pipe = self._redis.pipeline(transaction=False)
                for channel, body in batch:
                    pipe.publish(channel, orjson.dumps(body))
                heard = await pipe.execute()
                self.published += len(batch)
            except Exception as err:  # whether the bus is up is the listener's to say
                self.failed += len(batch)
                log.warning('{"event":"bus_publish_failed","error":%s}', orjson.dumps(repr(err)).decode())
                heard = [-1] * len(batch)
            for (channel, body), count in zip(batch, heard, strict=True):
                if count <= 0 and channel != SITE and self._handler is not None:  # nobody heard it
                    notices = [{"kind": BusKind.UNDELIVERED, "body": body, "from": self.process}]
                    if count == 0:  # Redis answered: that process does not listen (gone, or not back yet)
                        notices.append(
                            {"kind": BusKind.SILENT, "process": channel.rsplit(":", 1)[1], "from": self.process}
                        )
                    for notice in notices:
                        done = self._handler(notice)
                        if done is not None:
                            await done


__all__ = ["SITE", "BusKind", "RedisBus", "inbox"]
