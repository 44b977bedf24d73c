"""The floor under the server's load figures: the same WebSocket stack (uvicorn, Starlette, uvloop,
websockets) and the same traffic as ``server_load.py`` (each action one frame in and a ~300-byte
frame out to each of the table's four connections), with no game, no store and no views at all.

    python benchmarks/ws_floor.py --tables 10,20,30 --seconds 10

What it prints is what one process could reach if everything Atout does per action cost nothing:
the part of an action's CPU that belongs to the stack and the kernel.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import socket
import sys
import time

FRAME = "x" * 300


def serve(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket

    tables: dict[str, list[WebSocket]] = {}

    async def endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        table = tables.setdefault(websocket.query_params["table"], [])
        table.append(websocket)
        try:
            while True:
                await websocket.receive_text()
                for follower in table:  # every seat hears of the action
                    await follower.send_text(FRAME)
        except Exception:
            pass

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=False)  # as atout serve


async def drive(port: int, tables: int, seconds: float, out) -> None:
    import websockets

    done = 0
    stop = False

    async def table(t: int) -> None:
        nonlocal done
        seats = [await websockets.connect(f"ws://127.0.0.1:{port}/ws?table={t}") for _ in range(4)]
        await asyncio.sleep(0.5)
        turn = 0
        while not stop:
            await seats[turn].send("act")
            for s in seats:  # each seat reads what the action caused
                await s.recv()
            done += 1
            turn = (turn + 1) % 4
        for s in seats:
            await s.close()

    tasks = [asyncio.create_task(table(t)) for t in range(tables)]
    await asyncio.sleep(2.0)
    start = done
    await asyncio.sleep(seconds)
    counted = done - start
    stop = True
    await asyncio.gather(*tasks, return_exceptions=True)
    out.put(counted)


def client(port: int, tables: int, seconds: float, out) -> None:
    import uvloop

    uvloop.run(drive(port, tables, seconds, out))


def cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="10,20,30")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    for n in (int(x) for x in args.tables.split(",")):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = mp.Process(target=serve, args=(port,))
        server.start()
        time.sleep(1.5)
        out: mp.Queue = mp.Queue()
        driver = mp.Process(target=client, args=(port, n, args.seconds, out))
        driver.start()
        time.sleep(2.5)
        before, t0 = cpu(server.pid), time.perf_counter()
        time.sleep(args.seconds - 1)
        used, elapsed = cpu(server.pid) - before, time.perf_counter() - t0
        actions = out.get(timeout=60)
        driver.join(10)
        server.terminate()
        server.join(10)
        rate = actions / args.seconds
        print(
            f"{n:4d} tables: {rate:8,.0f} actions/s   server CPU {used / elapsed:.0%} "
            f"({used / max(1, rate * elapsed) * 1e6:,.0f} µs an action)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
