"""``atout serve``: the online tables and the browser client, on one address."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import re
import secrets
import socket
import sys
import threading
import time
from pathlib import Path

HOST_NAME = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$|^[0-9a-f:.]+$")
"""A host name (letters, digits, hyphens, dots) or an IP address."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="the store: sqlite:///PATH or postgresql://USER@HOST/DB "
        "(default: an SQLite file in your data folder; env ATOUT_DB)",
    )
    parser.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="share the site with other server processes through Redis, redis://HOST:PORT/0 "
        "(needs a PostgreSQL --db that they all use; env ATOUT_REDIS; default: none)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="server processes on this address (more than 1 needs --redis; default 1)",
    )
    parser.add_argument(
        "--slot",
        type=int,
        default=None,
        metavar="K",
        help="this process's slot behind a proxy that routes each table to its process "
        "(1 to --slots; its tables' ids start with K-; needs --redis; docs/deploy.md; default: none)",
    )
    parser.add_argument(
        "--slots",
        type=int,
        default=None,
        metavar="N",
        help="how many processes that proxy routes by slot (with --slot; default: none)",
    )
    parser.add_argument(
        "--nginx-config",
        default=None,
        metavar="PORTS",
        help="print nginx's configuration for processes on these ports (comma-separated, "
        "slot 1 first) listening on --port, and exit (default: serve)",
    )
    parser.add_argument(
        "--commit-linger",
        type=float,
        default=5.0,
        metavar="MS",
        help="milliseconds a small batch of table writes waits for more before its transaction: "
        "fewer transactions under load, for at most that much delay (default 5; 0: none)",
    )
    parser.add_argument(
        "--robot-pace",
        type=float,
        default=0.8,
        metavar="SECONDS",
        help="how long a robot waits before it plays, so people can follow (default 0.8)",
    )
    parser.add_argument(
        "--deal-pause",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="pause between two deals, to read the result (default 5)",
    )
    parser.add_argument(
        "--abandon-after",
        type=float,
        default=180.0,
        metavar="SECONDS",
        help="how long a player who lost the connection keeps the seat (default 180)",
    )
    parser.add_argument(
        "--arrival",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long a new game (another game, a tournament's round) waits for a person it found "
        "elsewhere before their turn's clock runs out or a robot plays for them (default 60)",
    )
    parser.add_argument(
        "--idle-release",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="how long a table nobody is at (closed, or open with nobody seated or watching and "
        "nothing to come) stays in memory; an open one comes back from the store when named "
        "(default 300; 0: for ever)",
    )
    parser.add_argument(
        "--behind-proxy",
        action="store_true",
        help="a proxy of yours forwards the connections: take each client's address from "
        "X-Forwarded-For (two registered players from one address make a game unranked); "
        "never set it when clients reach the server directly (default: off)",
    )
    parser.add_argument(
        "--origin",
        action="append",
        default=[],
        metavar="URL",
        help="another address people reach the site at, https://HOST[:PORT], whose pages may act "
        "for them (repeatable; the site's own address, as the request names it, always may; "
        "behind --behind-proxy from X-Forwarded-Proto and X-Forwarded-Host; default: none)",
    )
    parser.add_argument(
        "--host-name",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name people reach the site by, tarot.example.org (repeatable or comma-separated; "
        "*.example.org: its subdomains); any other Host is refused with 400 (DNS rebinding). "
        "Always allowed: localhost and IP addresses. By default those alone on 127.0.0.1; with "
        "--host 0.0.0.0 this machine's names too; with --behind-proxy any host, with a warning "
        "(docs/security.md)",
    )
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="a request's head and body must arrive within this many seconds of the connection "
        "(or of its first byte), else the connection is closed: slow clients (default 10)",
    )
    parser.add_argument(
        "--keep-alive",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="an idle HTTP connection is closed after this many seconds (default 5)",
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=1000,
        metavar="N",
        help="connections (HTTP and WebSocket) this process holds at once; more are refused with "
        "503 (default 1000: keep the open-files limit, ulimit -n, above it)",
    )
    parser.add_argument(
        "--connections-per-address",
        type=int,
        default=256,
        metavar="N",
        help="connections one client address may hold at once, refused with 503 beyond; off with "
        "--behind-proxy, where the proxy should limit them (default 256: a club of 30 behind "
        "one router, each browser with up to 7, fits)",
    )
    parser.add_argument(
        "--sockets-per-address",
        type=int,
        default=64,
        metavar="N",
        help="WebSockets one client address may have open on this process; more are closed with "
        "1013 (default 64: a club of 30 behind one router, two tabs each)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=20.0,
        metavar="N",
        help="messages a second one connection may send on average, bursts of twice that "
        "(default 20; load tests raise it)",
    )
    parser.add_argument(
        "--analysis-workers",
        type=int,
        default=1,
        metavar="N",
        help="processes (per server process) that analyse finished deals for their players, off "
        "the event loop (docs/analysis.md; default 1; 0: no analyses)",
    )
    parser.add_argument(
        "--analysis-queue",
        type=int,
        default=16,
        metavar="N",
        help="analyses that may wait for a worker; more are answered busy (default 16)",
    )
    parser.add_argument(
        "--analysis-worlds",
        type=int,
        default=8,
        metavar="N",
        help="an analysis searches N times the worlds the expert plays with: more is surer and "
        "dearer (docs/analysis.md; default 8)",
    )
    parser.add_argument(
        "--insights-budget",
        type=float,
        default=900.0,
        metavar="SECONDS",
        help="CPU seconds an hour the analyses of every finished deal of the site's people may spend, in the "
        "background, for their profiles' insights (docs/analysis.md; default 900, a quarter of a core; 0: none)",
    )
    parser.add_argument(
        "--insights-jobs",
        type=int,
        default=1,
        metavar="N",
        help="processes (per server process, at a lower priority than the tables) making those background "
        "analyses, started at the first one (default 1)",
    )
    parser.add_argument(
        "--daily-deals",
        type=int,
        default=5,
        metavar="N",
        help="deals in each day's set of the daily deal (docs/daily.md; default 5; fixed for a day "
        "when the day is first asked for)",
    )
    parser.add_argument(
        "--daily-level",
        default=None,
        metavar="LEVEL",
        help="the daily deal's robots (default: the tables' default level)",
    )
    parser.add_argument(
        "--limit-factor",
        type=float,
        default=1.0,
        metavar="F",
        help="multiply every budget of chat lines, invitations, tables, friend requests, logins "
        "(docs/server.md, Limits) by F (default 1; a load test whose clients all come from one "
        "address raises it)",
    )
    parser.add_argument(
        "--password-costs",
        choices=("recommended", "minimum"),
        default="recommended",
        help="argon2id's costs for passwords: the library's recommended (default; 64 MiB, 0.2 s of CPU a hash) "
        "or OWASP's minimum (19 MiB, 0.04 s) for a small machine; a password set under either logs in under both",
    )
    # for browser tests only (hidden): the server's clock moves forward when POST /test/clock says so
    parser.add_argument("--test-clock", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--log-level",
        default="info",
        choices=("debug", "info", "warning"),
        help="log lines on stderr, one JSON object each with the time and the process's name "
        "(default info: one line per table event)",
    )


def _secret(data_dir: Path) -> bytes:
    """The key that signs guests' tokens: ATOUT_SECRET, or a file kept beside the default store."""
    if os.environ.get("ATOUT_SECRET"):
        return os.environ["ATOUT_SECRET"].encode()
    path = data_dir / "secret"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip().encode()


def network_addresses() -> list[str]:
    """This machine's IPv4 address on its network (the one its default route leaves from), for friends on the
    same network; none when it has no route out. Nothing is sent: connecting a UDP socket only picks a route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(
                ("192.0.2.1", 9)
            )  # TEST-NET-1 (RFC 5737): an address no one has, reached by the default route
            address = probe.getsockname()[0]
        except OSError:
            return []
    return [] if ipaddress.ip_address(address).is_loopback or address == "0.0.0.0" else [address]


def where_open(host: str, port: int) -> str:
    """The start line's addresses: this machine's, and its network's when ``--host`` lets others in."""
    if host in ("127.0.0.1", "localhost", "::1"):
        return f"http://localhost:{port}/ (this machine only: --host 0.0.0.0 lets your network in)"
    if host not in ("0.0.0.0", "::"):
        return f"http://{f'[{host}]' if ':' in host else host}:{port}/"
    around = [f"http://{address}:{port}/" for address in network_addresses()]
    return (
        f"http://localhost:{port}/ and on your network at {', '.join(around)}"
        if around
        else f"http://localhost:{port}/ and on your network at this machine's address, port {port} "
        "(ip addr or ipconfig shows it)"
    )


def announce_when_open(host: str, port: int, text: str, every: float = 0.05) -> None:
    """Print the start line once the site answers, not before: an address printed while the store migrates
    and the analysis workers warm up was refused to whoever opened it at once. Any HTTP answer counts (a
    503 of a store away is the site open and saying so); the thread dies with the process if none comes."""
    import http.client

    near = "::1" if host in ("::", "::1") else "127.0.0.1" if host in ("0.0.0.0", "localhost") else host
    while True:
        connection = http.client.HTTPConnection(near, port, timeout=2)
        try:
            connection.request("GET", "/health", headers={"Host": "localhost"})
            connection.getresponse().read()
        except (OSError, http.client.HTTPException):
            time.sleep(every)  # not listening yet, or still starting
            continue
        finally:
            connection.close()
        print(text, flush=True)
        return


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def allowed_hosts(args: argparse.Namespace) -> tuple[list[str], str | None]:
    """The host names the site answers to (besides this machine's loopback names, always), and a warning
    to print at start when any host is allowed. ``--host-name`` names them; else behind a proxy, which
    knows the site's names and this process does not, any (warned); else on a loopback address nothing
    more; else this machine's names and its network address (friends on the network type one of those)."""
    named = [n.strip().lower().rstrip(".") for value in args.host_name for n in value.split(",") if n.strip()]
    if named:
        return named, None
    if args.behind_proxy:  # on 127.0.0.1 too: the proxy's host names are the site's, and unknown here
        return ["*"], (
            "WARNING: any Host is answered: a page at a name pointed at this server (DNS rebinding) "
            "reaches it as the site's own. Name the site with --host-name tarot.example.org."
        )
    if args.host in LOOPBACK:
        return [], None
    names = {socket.gethostname().lower(), socket.getfqdn().lower()}
    names |= {f"{name}.local" for name in set(names) if "." not in name}  # mDNS, as macOS and avahi name machines
    return sorted(n for n in names if n and not n.startswith("localhost")), None  # IP addresses always pass


def serve(args: argparse.Namespace) -> int:
    import json

    from ..server.paths import default_db_url

    for name in ("robot_pace", "deal_pause", "abandon_after", "arrival", "commit_linger", "idle_release"):
        if getattr(args, name) < 0:
            print(f"atout serve: --{name.replace('_', '-')} must be 0 or more", file=sys.stderr)
            return 2
    if not 0 < args.port < 65536:
        print(f"atout serve: --port must be from 1 to 65535, not {args.port}", file=sys.stderr)
        return 2
    if args.nginx_config is not None:
        from ..server.site.proxy import nginx_config

        try:
            ports = [int(p) for p in args.nginx_config.split(",")]
        except ValueError:
            print(
                f"atout serve: --nginx-config takes ports like 8001,8002,8003, not {args.nginx_config!r}",
                file=sys.stderr,
            )
            return 2
        if not ports or len(ports) > 99 or not all(0 < p < 65536 for p in ports):
            print("atout serve: --nginx-config takes 1 to 99 ports from 1 to 65535", file=sys.stderr)
            return 2
        print(nginx_config(ports, str(args.port)), end="")
        return 0
    if (args.slot is None) != (args.slots is None):
        print("atout serve: --slot and --slots go together", file=sys.stderr)
        return 2
    if args.slots is not None and not (1 <= args.slots <= 99 and 1 <= args.slot <= args.slots):
        print(
            f"atout serve: --slot must be from 1 to --slots (at most 99), not {args.slot} of {args.slots}",
            file=sys.stderr,
        )
        return 2
    from ..server.http.origins import normal_origin

    origins = [normal_origin(url) for url in args.origin]
    for url, origin in zip(args.origin, origins, strict=True):
        if origin is None:
            print(
                f"atout serve: --origin takes an address like https://tarot.example.org or http://HOST:PORT, "
                f"not {url!r}",
                file=sys.stderr,
            )
            return 2
    db = args.db or os.environ.get("ATOUT_DB") or default_db_url()
    redis = args.redis or os.environ.get("ATOUT_REDIS") or None
    if args.rate <= 0:
        print(f"atout serve: --rate must be more than 0, not {args.rate}", file=sys.stderr)
        return 2
    if not args.limit_factor > 0:
        print(f"atout serve: --limit-factor must be more than 0, not {args.limit_factor}", file=sys.stderr)
        return 2
    for name in ("request_timeout", "keep_alive"):
        if not getattr(args, name) > 0:
            print(f"atout serve: --{name.replace('_', '-')} must be more than 0", file=sys.stderr)
            return 2
    for name in ("max_connections", "connections_per_address", "sockets_per_address"):
        if getattr(args, name) < 1:
            print(
                f"atout serve: --{name.replace('_', '-')} must be 1 or more, not {getattr(args, name)}", file=sys.stderr
            )
            return 2
    hosts, warning = allowed_hosts(args)
    from ..server.http.hosts import host_name

    for name in hosts:
        bare = name[2:] if name.startswith("*.") else name
        if name != "*" and (not bare or host_name(bare) != bare or not HOST_NAME.match(bare)):
            print(f"atout serve: --host-name takes a host name like tarot.example.org, not {name!r}", file=sys.stderr)
            return 2
    if args.workers < 1:
        print(f"atout serve: --workers must be 1 or more, not {args.workers}", file=sys.stderr)
        return 2
    if not 1 <= args.daily_deals <= 20:
        print(f"atout serve: --daily-deals is 1 to 20, not {args.daily_deals}", file=sys.stderr)
        return 2
    if args.daily_level is not None:
        from ..bots import LEVELS

        if args.daily_level not in LEVELS:
            print(
                f"atout serve: --daily-level is one of {', '.join(LEVELS)}, not {args.daily_level!r}", file=sys.stderr
            )
            return 2
    if args.analysis_workers < 0 or args.analysis_queue < 0:
        print("atout serve: --analysis-workers and --analysis-queue must be 0 or more", file=sys.stderr)
        return 2
    if args.insights_budget < 0 or args.insights_jobs < 1:
        print("atout serve: --insights-budget must be 0 or more, --insights-jobs 1 or more", file=sys.stderr)
        return 2
    if args.analysis_worlds < 1:
        print(f"atout serve: --analysis-worlds must be 1 or more, not {args.analysis_worlds}", file=sys.stderr)
        return 2
    if (args.workers > 1 or redis) and not db.startswith(("postgresql://", "postgres://")):
        print(
            "atout serve: several server processes share one PostgreSQL store: give --db postgresql://… "
            "(SQLite is for one process)",
            file=sys.stderr,
        )
        return 2
    if args.slot is not None and (not redis or args.workers > 1):
        print(
            "atout serve: --slot is one process of several behind a proxy: give --redis, and no --workers",
            file=sys.stderr,
        )
        return 2
    if args.workers > 1 and not redis:
        print(
            "atout serve: several server processes talk through Redis: give --redis redis://HOST:PORT/0",
            file=sys.stderr,
        )
        return 2
    settings = {
        "db": db,
        "redis": redis,
        "robot_pace": args.robot_pace,
        "deal_pause": args.deal_pause,
        "abandon_after": args.abandon_after,
        "arrival": args.arrival,
        "idle_release": args.idle_release,
        "behind_proxy": args.behind_proxy,
        "rate": args.rate,
        "limit_factor": args.limit_factor,
        "log_level": args.log_level,
        "slot": args.slot,
        "slots": args.slots,
        "commit_linger": args.commit_linger,
        "origins": origins,
        "hosts": hosts,
        "request_timeout": args.request_timeout,
        "connections_per_address": None if args.behind_proxy else args.connections_per_address,
        "sockets_per_address": args.sockets_per_address,
        "analysis_workers": args.analysis_workers,
        "analysis_queue": args.analysis_queue,
        "analysis_worlds": args.analysis_worlds,
        "insights_budget": args.insights_budget,
        "insights_jobs": args.insights_jobs,
        "daily_deals": args.daily_deals,
        "daily_level": args.daily_level,
        "test_clock": args.test_clock,
        "password_costs": args.password_costs,
    }
    # the server (and the robots, numba) load only now: a refused command says so at once
    import uvicorn

    from ..server.http.app import MAX_FRAME
    from ..server.http.edge import AtoutHTTPProtocol
    from ..server.http.wsprotocol import AtoutWebSocketProtocol
    from ..server.logs import UVICORN_LOG_CONFIG

    os.environ["ATOUT_SERVE_SETTINGS"] = json.dumps(settings)  # what each worker process builds its app from
    processes = f", {args.workers} processes" if args.workers > 1 else ""
    bus = f", bus: {redis.split('@')[-1]}" if redis else ""
    lines = [
        f"Atout is open at {where_open(args.host, args.port)}. Store: {db.split('@')[-1]}{bus}{processes}. "
        "Ctrl-C stops it."
    ]
    if hosts and not warning:
        lines.append(f"It answers to the host names {', '.join(hosts)} (--host-name names others).")
    if warning:
        print(warning, file=sys.stderr, flush=True)
    threading.Thread(
        target=announce_when_open, args=(args.host, args.port, "\n".join(lines)), daemon=True, name="atout-announce"
    ).start()
    uvicorn.run(
        "atout.cli.serve:app_from_settings",
        factory=True,
        workers=args.workers,
        host=args.host,
        port=args.port,
        log_level="warning",
        log_config=UVICORN_LOG_CONFIG,
        ws_max_size=MAX_FRAME,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        # No permessage-deflate: frames are small patches, and compressing each one for a browser
        # (browsers always offer it) cost the server about a fifth more CPU per action
        ws_per_message_deflate=False,
        ws=AtoutWebSocketProtocol,
        # the request deadline and the cap per address (edge.py; app_from_settings sets them in each process)
        http=AtoutHTTPProtocol,
        limit_concurrency=args.max_connections,
        timeout_keep_alive=args.keep_alive,  # a float serves: uvicorn gives it to call_later
        proxy_headers=False,
    )  # --behind-proxy decides
    return 0


def app_from_settings():
    """The application of one server process, from the settings ``atout serve`` left in the environment."""
    import json

    from platformdirs import user_data_dir

    from ..server import logs
    from ..server.clock import SteppedClock
    from ..server.features.accounts import PASSWORD_COSTS
    from ..server.http.app import create_app
    from ..server.http.edge import AtoutHTTPProtocol
    from ..server.site.config import Config
    from ..server.table import Timing

    settings = json.loads(os.environ["ATOUT_SERVE_SETTINGS"])
    logs.configure(settings["log_level"])  # one JSON object a line, with the time and this process's name
    logging.getLogger("alembic").setLevel(logging.WARNING)
    timing = Timing(
        deal_pause=settings["deal_pause"],
        robot_pace=settings["robot_pace"],
        abandon_after=settings["abandon_after"],
        arrival=settings.get("arrival", 60.0),
    )
    config = Config(
        secret=_secret(Path(user_data_dir("atout"))),
        timing=timing,
        hasher=PASSWORD_COSTS[settings.get("password_costs", "recommended")],
        trusted_proxy=settings["behind_proxy"],
        rate=settings["rate"],
        burst=2 * settings["rate"],
        slot=settings.get("slot"),
        slots=settings.get("slots"),
        commit_linger=settings.get("commit_linger", 5.0) / 1000,
        origins=tuple(settings.get("origins", ())),
        hosts=tuple(settings.get("hosts", ())),
        sockets_per_address=settings.get("sockets_per_address", 64),
        analysis_workers=settings.get("analysis_workers", 1),
        analysis_queue=settings.get("analysis_queue", 16),
        analysis_worlds=settings.get("analysis_worlds", 8),
        insights_budget=settings.get("insights_budget", 0.0),
        insights_jobs=settings.get("insights_jobs", 1),
        limit_factor=settings.get("limit_factor", 1.0),
        daily_deals=settings.get("daily_deals", 5),
        idle_release=settings.get("idle_release", 300.0),
        **({"daily_level": settings["daily_level"]} if settings.get("daily_level") else {}),
    )
    AtoutHTTPProtocol.configure(settings.get("request_timeout", 10.0), settings.get("connections_per_address", 256))
    clock = SteppedClock() if settings.get("test_clock") else None
    app = create_app(settings["db"], config, clock, redis_url=settings["redis"])
    _tune_gc()
    return app


def _tune_gc() -> None:
    """Fewer, shorter collections: what is loaded at start-up (modules, the engine's tables) is never
    garbage, so it is frozen out of every scan, and the youngest generation is collected after 10,000
    allocations rather than 700 (a server allocates a few dicts per frame, almost none in cycles).
    Measured with benchmarks/server_load.py at 30–50 tables: the slowest action 120–260 ms → 50–75 ms."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 50)
