"""What the shared parts of a several-process site take: PostgreSQL's writes and Redis' publishes.

    python benchmarks/shared_parts.py [--postgres postgresql://postgres@127.0.0.1:5432/postgres] [--seconds 5]

Every server process writes its tables' events through one writer thread (a transaction per batch,
whatever is queued) and sends frames for other processes' connections through Redis (a pipeline of
PUBLISH per batch). This measures both alone, as the store and the bus code do it, so docs/scaling.md
can say where they would saturate: events stored per second by 1 and 3 writers (3 processes) at
small and large batches, and frame batches published per second. Uses a fresh PostgreSQL database
(dropped after) and a Redis of its own on a free port.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import socket
import subprocess
import tempfile
import threading
import time

import orjson
import sqlalchemy as sa

from atout.server.store import Append, Store, StoredEvent, engine_url

EVENT = {"type": "action", "seat": 1, "action": {"play": "7H"}, "by": "person", "at": 1.0}


def store_rate(url: str, writers: int, batch: int, seconds: float) -> tuple[float, float]:
    """Events and commits per second, ``writers`` threads each committing batches of ``batch`` events."""
    store = Store(url)
    store.migrate()
    for w in range(writers):
        for i in range(batch):
            store.create_table(f"n{writers}w{w}b{batch}t{i}", 0.0, {"id": "x"}, 4)
    counts = [0] * writers
    start = [0] * writers

    def run(w: int) -> None:
        seq = start[w] + 1
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            store.append(
                [
                    Append(f"n{writers}w{w}b{batch}t{i}", [StoredEvent(seq, 1.0, "action", {**EVENT, "seq": seq})])
                    for i in range(batch)
                ]
            )
            seq += 1
            counts[w] += batch

    threads = [threading.Thread(target=run, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.close()
    return sum(counts) / seconds, sum(counts) / batch / seconds


async def publish_rate(url: str, frames: int, seconds: float) -> float:
    """Frame batches (``frames`` frames of about 300 bytes each) published per second, one pipeline per
    16 batches, with one subscriber listening (a process's inbox)."""
    import redis.asyncio as redis

    client = redis.Redis.from_url(url)
    listener = redis.Redis.from_url(url).pubsub()
    await listener.subscribe("atout:p:bench")
    body = orjson.dumps({"kind": "frames", "frames": [["c" * 16, "x" * 300]] * frames, "from": "bench"})
    sent = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pipe = client.pipeline(transaction=False)
        for _ in range(16):
            pipe.publish("atout:p:bench", body)
        await pipe.execute()
        sent += 16
    await listener.aclose()
    await client.aclose()
    return sent / seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    name = f"atout_shared_{secrets.token_hex(4)}"
    admin = sa.create_engine(engine_url(args.postgres), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = f"{args.postgres.rsplit('/', 1)[0]}/{name}"
    try:
        print("PostgreSQL, events stored per second (each a row, committed before anyone hears of it):")
        for writers in (1, 3):
            for batch in (1, 20, 200):
                events, commits = store_rate(url, writers, batch, args.seconds)
                print(
                    f"  {writers} writer(s), batches of {batch:3d}: {events:8,.0f} events/s  "
                    f"({commits:6,.0f} commits/s)",
                    flush=True,
                )
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    redis_server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no", "--dir", tempfile.mkdtemp()],
        stdout=subprocess.DEVNULL,
    )
    time.sleep(0.3)
    try:
        print("Redis, frame batches published per second (one process's pipeline):")
        for frames in (1, 4, 16):
            rate = asyncio.run(publish_rate(f"redis://127.0.0.1:{port}/0", frames, args.seconds))
            print(
                f"  batches of {frames:2d} frames: {rate:8,.0f} batches/s = {rate * frames:9,.0f} frames/s", flush=True
            )
    finally:
        redis_server.terminate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
