"""Where a table's people connect: the slot in a table's id, and the proxy that routes on it.

Behind a proxy, each server process has a slot (``atout serve --slot K --slots N``) and names the
tables it creates ``K-…``. The browser opens its socket at ``/ws?table=ID`` at a table, and the proxy
sends it to slot K's process, so a table's people are served by the process that runs it and its
frames never cross the bus. When that process is down the proxy sends its slot to the next one, which
is also the process that takes its tables over first (``cluster.RedisSite``). The lobby, pages and
API go to any process. ``nginx_config`` writes that routing for nginx (docs/deploy.md).
"""

from __future__ import annotations

import re
from pathlib import Path

SLOT = re.compile(r"^([1-9][0-9]?)-")
"""A table id's slot: ``3-AbCd1234`` is slot 3's; an id without one (one process, ``--workers``) has none."""


def slot_of(table_id: str) -> int | None:
    match = SLOT.match(table_id)
    return None if match is None else int(match.group(1))


def successor(slot: int, slots: int) -> int:
    """The slot that stands in for ``slot`` while its process is down: the next one, round the ring."""
    return slot % slots + 1


def nginx_config(ports: list[int], listen: str = "80", host: str = "127.0.0.1", extra: str = "") -> str:
    """nginx's ``http`` block lines for processes on ``ports`` (slot k on ``ports[k-1]``): the table
    sockets routed by slot, each slot backed by its successor, everything else to any process."""
    slots = len(ports)
    lines = ["map $arg_table $atout_upstream {"]
    for k in range(1, slots + 1):
        lines.append(f'    "~^{k}-" atout_slot_{k};')
    lines += ["    default atout_any;", "}", ""]
    for k, port in enumerate(ports, start=1):
        backup = ports[successor(k, slots) - 1]
        lines.append(f"upstream atout_slot_{k} {{")
        lines.append(f"    server {host}:{port} max_fails=1 fail_timeout=5s;")
        if backup != port:
            lines.append(f"    server {host}:{backup} backup;")
        lines.append("}")
    lines.append("upstream atout_any {")
    lines.append("    least_conn;")
    lines += [f"    server {host}:{port} max_fails=1 fail_timeout=5s;" for port in ports]
    lines += [
        "}",
        "",
        "map $http_upgrade $connection_upgrade { default upgrade; '' close; }",
        "limit_conn_zone $binary_remote_addr zone=atout_per_address:10m;",
        "",
        "server {",
        f"    listen {listen};",
        *([extra.rstrip()] if extra else []),
        "    limit_conn atout_per_address 256;  # one client address's connections (atout serve leaves it here)",
        "    limit_conn_status 503;",
        "    client_header_timeout 10s;  # a request that trickles in is cut off (slow clients)",
        "    client_body_timeout 10s;",
        "    proxy_http_version 1.1;",
        "    proxy_set_header Host $host;",
        "    proxy_set_header X-Forwarded-For $remote_addr;  # one address per client: --behind-proxy",
        "    proxy_set_header X-Forwarded-Proto $scheme;  # https here: the session cookie is Secure",
        "    proxy_set_header X-Forwarded-Host $http_host;  # the site's own origin, port included",
        "    location = /ws {",
        "        proxy_pass http://$atout_upstream;  # a table's socket to the process that runs it",
        "        proxy_set_header Host $host;  # (a location with headers of its own inherits none)",
        "        proxy_set_header X-Forwarded-For $remote_addr;",
        "        proxy_set_header X-Forwarded-Proto $scheme;",
        "        proxy_set_header X-Forwarded-Host $http_host;",
        "        proxy_set_header Upgrade $http_upgrade;",
        "        proxy_set_header Connection $connection_upgrade;",
        "        proxy_read_timeout 120s;  # the client pings every 20 s",
        "    }",
        "    location = /metrics { allow 127.0.0.1; deny all; proxy_pass http://atout_any; }",
        "    location / { proxy_pass http://atout_any; }",
        "}",
        "",
    ]
    return "\n".join(lines)


def nginx_in_folder(folder: Path, ports: list[int], listen: str, connections: int = 1024) -> Path:
    """A whole nginx.conf that runs ``nginx_config``'s routing in the foreground with everything it writes
    (pid, logs, temporary files) in ``folder``: how the tests and benchmarks run real nginx. Its path."""
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / sub).mkdir(exist_ok=True)
    conf = folder / "nginx.conf"
    conf.write_text(
        f"daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/nginx.log warn;\n"
        f"events {{ worker_connections {connections}; }}\nhttp {{\n    access_log off;\n"
        f"    client_body_temp_path {folder}/body; proxy_temp_path {folder}/proxy;\n"
        f"    fastcgi_temp_path {folder}/fastcgi; uwsgi_temp_path {folder}/uwsgi; scgi_temp_path {folder}/scgi;\n"
        + nginx_config(ports, listen)
        + "}\n"
    )
    return conf


__all__ = ["SLOT", "nginx_config", "nginx_in_folder", "slot_of", "successor"]
