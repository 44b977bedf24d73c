"""The site on 1, 2 and 3 server processes behind nginx, as docs/deploy.md sets it up, under load.

    python benchmarks/scale.py [--processes 1,2,3] [--tables 30] [--seconds 15] [--repeat 4] [--out
    benchmarks/results/scale.json]
    python benchmarks/scale.py --icount [--processes 1,2,3] [--tables 20] [--warmup 40] [--seconds 40]

For each process count: a fresh PostgreSQL database and a Redis of the benchmark's own, that many
``atout serve --slot K --slots N`` processes, and nginx in front routing each table's sockets to its
process (``atout serve --nginx-config``). The clients connect as the browser page does: a lobby
socket at ``/ws`` creates the table, then every seat opens its socket at ``/ws?table=ID``; each seat
plays a legal card the moment its turn comes (``server_load.py``'s clients). Prints and writes, per
process count: actions per second, the p99 of an action's time from sent to heard by the last seat,
the server processes' CPU per action (summed over all of them; nginx and the clients excluded), and
the share of frames that crossed Redis (from each process's /health); and, to tell where CPU goes, its
kernel part, the event loop's thread against the others (the store writer's), context switches and Redis
commands an action. ``--repeat N`` runs the counts in turns N times and keeps each figure's median (the
machine's speed drifts); ``--icount`` runs every server process under valgrind's callgrind and prints the
instructions an action summed over them instead. Needs PostgreSQL on 127.0.0.1:5432 (user postgres,
trust), redis-server and nginx (and valgrind for ``--icount``). Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from server_load import client_process, empty_database, health, percentile, wait_for_health

from atout.server.site.proxy import nginx_in_folder

POSTGRES = os.environ.get("ATOUT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def callgrind(*args: str) -> str:
    return subprocess.run(["callgrind_control", *args], capture_output=True, text=True, check=True).stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pids: list[int]) -> tuple[float, float]:
    """CPU seconds the processes used (user and system), and of them the system's (the kernel's work)."""
    user = system = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        user, system = user + int(fields[11]), system + int(fields[12])
    tick = os.sysconf("SC_CLK_TCK")
    return (user + system) / tick, system / tick


def thread_cpu(pids: list[int]) -> dict[str, float]:
    """CPU seconds of the event loop's thread and of the other threads (the store writer's, mostly; Python
    3.11 names no thread for the kernel), summed over the processes."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                stat = (task / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            key = "loop" if int(task.name) == pid else "threads"  # the store writer, mostly
            out[key] = out.get(key, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


def switches(pids: list[int]) -> int:
    """Context switches (voluntary and not) of every thread of the processes: a count of wake-ups."""
    total = 0
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                for line in (task / "status").read_text().splitlines():
                    if "ctxt_switches:" in line:
                        total += int(line.split()[1])
            except OSError:
                continue
    return total


def redis_commands(port: int) -> int:
    """Commands the benchmark's Redis has served (publishes, the leases' and presence keys' writes...)."""
    import redis as redis_py

    client = redis_py.Redis(port=port)
    try:
        return int(client.info("stats")["total_commands_processed"])
    finally:
        client.close()


def database(name: str) -> str:
    import sqlalchemy as sa

    from atout.server.store import engine_url

    admin = sa.create_engine(engine_url(POSTGRES), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return f"{POSTGRES.rsplit('/', 1)[0]}/{name}"


def run(processes: int, args, folder: Path) -> dict:
    folder.mkdir(parents=True)
    db = database(f"atout_scale_{processes}")
    empty_database(db)
    redis_port = free_port()
    redis = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(redis_port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
    )
    ports = [free_port() for _ in range(processes)]
    env = {**os.environ, "XDG_DATA_HOME": str(folder), "ATOUT_SECRET": "scale"}
    servers = []
    nginx = None
    try:
        time.sleep(0.3)
        for slot, port in enumerate(ports, start=1):
            counting = (
                [
                    "valgrind",
                    "--tool=callgrind",
                    "--instr-atstart=no",
                    f"--callgrind-out-file={folder / f'callgrind.{slot}.out'}",
                ]
                if args.icount
                else []
            )
            servers.append(
                subprocess.Popen(
                    [
                        *counting,
                        sys.executable,
                        "-m",
                        "atout.cli.main",
                        "serve",
                        "--port",
                        str(port),
                        "--db",
                        db,
                        "--redis",
                        f"redis://127.0.0.1:{redis_port}/0",
                        "--slot",
                        str(slot),
                        "--slots",
                        str(processes),
                        "--behind-proxy",
                        "--robot-pace",
                        "0",
                        "--deal-pause",
                        "0",
                        "--log-level",
                        "warning",
                        "--rate",
                        "10000",
                        "--limit-factor",
                        "1000",
                        "--sockets-per-address",
                        "100000",
                        "--max-connections",
                        "100000",  # every client from one address
                        "--commit-linger",
                        str(args.commit_linger),
                    ],
                    env=env,
                    stdout=subprocess.DEVNULL,
                )
            )
        for port in ports:
            wait_for_health(port, 600.0 if args.icount else 60.0)  # under valgrind, about 50 times slower
        listen = free_port()
        conf = nginx_in_folder(folder, ports, f"127.0.0.1:{listen}", connections=4096)
        nginx = subprocess.Popen(
            [shutil.which("nginx") or "/usr/sbin/nginx", "-c", str(conf), "-p", str(folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_health(listen, 30.0)
        url = f"ws://127.0.0.1:{listen}/ws"
        out: mp.Queue = mp.Queue()
        per = [
            args.tables // args.client_processes + (1 if i < args.tables % args.client_processes else 0)
            for i in range(args.client_processes)
        ]
        clients = [
            mp.Process(
                target=client_process,
                args=(url, n, args.players, args.warmup, args.seconds, f"{processes}p{i}", True, out, True, args.pace),
            )
            for i, n in enumerate(per)
            if n
        ]
        for c in clients:
            c.start()
        time.sleep(max(2.0, args.tables * 0.05) + args.warmup)
        pids = [s.pid for s in servers]
        before = [health(p) for p in ports]
        threads0, switches0, redis0 = thread_cpu(pids), switches(pids), redis_commands(redis_port)
        if args.icount:  # the counting starts after the readings above: it may only undercount
            for pid in pids:
                callgrind("-i", "on", str(pid))
        (cpu0, sys0), t0 = cpu_seconds(pids), time.perf_counter()
        time.sleep(args.seconds)
        (cpu1, sys1), t1 = cpu_seconds(pids), time.perf_counter()
        if args.icount:
            for pid in pids:
                callgrind("-i", "off", str(pid))
            after_counting = [health(p) for p in ports]
        threads1, switches1, redis1 = thread_cpu(pids), switches(pids), redis_commands(redis_port)
        after = [health(p) for p in ports]
        answers = [out.get(timeout=300) for _ in clients]
        for c in clients:
            c.join(30)
        latencies = [x for lat, _ in answers for x in lat]
        accepted = sum(n for _, n in answers)
        rate = accepted / args.seconds
        actions = sum(a["actions"] - b["actions"] for a, b in zip(after, before, strict=True))
        frames = sum(a["frames"] - b["frames"] for a, b in zip(after, before, strict=True))
        crossed = sum(a["frames_crossed"] - b["frames_crossed"] for a, b in zip(after, before, strict=True))
        commits = sum(a["store_commits"] - b["store_commits"] for a, b in zip(after, before, strict=True))
        items = sum(a["store_items"] - b["store_items"] for a, b in zip(after, before, strict=True))
        if args.icount:
            for pid in pids:
                callgrind("-d", str(pid))
            actions = sum(a["actions"] - b["actions"] for a, b in zip(after_counting, before, strict=True))
            instructions = sum(
                int(line.split()[1])
                for dump in folder.glob("callgrind.*.out*")
                for line in dump.read_text(errors="replace").splitlines()
                if line.startswith("totals:")
            )
            print(
                f"{processes} process(es): {actions} actions counted, {instructions:,} instructions in all the "
                f"server processes: {instructions / max(1, actions):,.0f} an action",
                flush=True,
            )
            return {
                "actions": actions,
                "instructions": instructions,
                "instructions_per_action": round(instructions / max(1, actions)),
                "tables_per_process": [a["tables"] for a in after_counting],
            }
        result = {
            "actions_per_s": round(rate),
            "p50_ms": round(statistics.median(latencies), 2) if latencies else None,
            "p99_ms": round(percentile(latencies, 0.99), 2) if latencies else None,
            "cpu_ms_per_action": round((cpu1 - cpu0) / max(1, actions) * 1000, 3),
            "frames_crossing_share": round(crossed / max(1, frames), 4),
            "server_cpu": round((cpu1 - cpu0) / (t1 - t0), 2),
            "tables": args.tables,
            "tables_per_process": [a["tables"] for a in after],
            "frames": frames,
            "frames_crossed": crossed,
            "writes_per_commit": round(items / max(1, commits), 2),
            "system_ms_per_action": round((sys1 - sys0) / max(1, actions) * 1000, 3),
            "cpu_ms_per_action_by_thread": {
                k: round((threads1[k] - threads0.get(k, 0.0)) / max(1, actions) * 1000, 3) for k in sorted(threads1)
            },
            "switches_per_action": round((switches1 - switches0) / max(1, actions), 2),
            "redis_commands_per_action": round((redis1 - redis0) / max(1, actions), 3),
        }
        print(
            f"{processes} process(es): {result['actions_per_s']:,} actions/s   p50 {result['p50_ms']} ms   "
            f"p99 {result['p99_ms']} ms   {result['cpu_ms_per_action']} ms CPU an action (all processes, "
            f"{result['server_cpu']:.0%} busy)   frames crossing Redis {result['frames_crossing_share']:.2%} "
            f"({crossed:,} of {frames:,})   tables {result['tables_per_process']}, "
            f"{result['writes_per_commit']} writes a commit; of the CPU, {result['system_ms_per_action']} ms an action "
            f"in the kernel; ms an action by thread "
            f"{result['cpu_ms_per_action_by_thread']}, {result['switches_per_action']} context switches and "
            f"{result['redis_commands_per_action']} Redis commands an action",
            flush=True,
        )
        return result
    finally:
        for proc in [p for p in [nginx, *servers] if p is not None]:
            proc.terminate()
        for proc in [p for p in [nginx, *servers] if p is not None]:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        redis.terminate()
        redis.wait(10)


def median_run(runs: list[dict]) -> dict:
    """Each figure's median over the runs of one process count (the runs themselves under ``runs``)."""
    if len(runs) == 1:
        return runs[0]
    out: dict = {}
    for key, value in runs[0].items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[key] = round(statistics.median(r[key] for r in runs), 3)
        elif isinstance(value, dict):
            out[key] = {k: round(statistics.median(r[key][k] for r in runs), 3) for k in value}
        else:
            out[key] = value
    out["runs"] = runs
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", default="1,2,3")
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--client-processes", type=int, default=1)
    parser.add_argument("--commit-linger", type=float, default=5.0, help="atout serve --commit-linger (ms)")
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="seconds a seat thinks before it acts, as people do (0: the moment its turn comes)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run every process count this many times, in turns, and keep each figure's median",
    )
    parser.add_argument(
        "--icount",
        action="store_true",
        help="count the server processes' instructions with valgrind (callgrind) instead of timing them: "
        "user-space work an action, which neither the machine's load nor its CPUs' sharing moves",
    )
    parser.add_argument("--out", default=None, help="write the figures here (benchmarks/results/scale.json)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    print(
        f"{args.tables} tables of {args.players} through nginx, {args.seconds:g} s measured; "
        f"{os.cpu_count()} cores shared with the clients, nginx, PostgreSQL and Redis",
        flush=True,
    )
    counts = args.processes.split(",")
    runs: dict[str, list[dict]] = {n: [] for n in counts}
    for turn in range(args.repeat):  # the counts in turns: a drift of the machine's speed falls on each of them
        for n in counts:
            runs[n].append(run(int(n), args, folder / f"p{n}-{turn}"))
    results = {n: median_run(runs[n]) for n in counts}
    if args.repeat > 1:
        first = counts[0]
        for n in counts:
            ratios = [
                b["cpu_ms_per_action"] / a["cpu_ms_per_action"] for a, b in zip(runs[first], runs[n], strict=True)
            ]
            results[n]["cpu_ratio_to_first_by_turn"] = [round(r, 3) for r in ratios]
            print(
                f"{n} process(es), the medians of {args.repeat} runs: {results[n]['actions_per_s']:,} actions/s, "
                f"p99 {results[n]['p99_ms']} ms, {results[n]['cpu_ms_per_action']} ms CPU an action "
                f"({results[n]['cpu_ms_per_action'] / results[first]['cpu_ms_per_action']:.2f}x {first}'s; turn by "
                f"turn {', '.join(f'{r:.2f}' for r in ratios)})",
                flush=True,
            )
    if args.out:
        Path(args.out).write_text(
            json.dumps({"command": " ".join(["python", *sys.argv]), "processes": results}, indent=1) + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
