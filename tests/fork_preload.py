"""What the tests' fork server (served.py) loads before it forks any ``atout serve``: the command, the server and
the robots, then every object it holds frozen out of the garbage collector's scans (``gc.freeze``).

Each server freezes its own objects at start (``atout.cli.serve._tune_gc``) after a full collection: without
the freeze here, that collection scanned the whole inherited heap again in every server. A server's start, on
this project's 2-core machine: 0.53-0.59 s of CPU before, 0.36-0.44 s after.

The drivers a server loads only when its options name them are loaded here too: Redis's client (``--redis``) and
PostgreSQL's (a ``postgresql+psycopg://`` store) took a fifth of the forked servers' CPU in a run (py-spy over
the suite but its browser tests: 11.8 s importing redis, 10.5 s psycopg, in some 150 server starts)."""

import contextlib
import gc
import importlib
import os
import sys
from pathlib import Path

for name in (
    "atout.cli.main",
    "atout.cli.serve",
    "atout.server.http.app",
    "atout.server.http.edge",
    "atout.bots",
    "uvicorn",
    "uvicorn.protocols.websockets.websockets_sansio_impl",  # not in every uvicorn the floors allow
    "uvloop",
    "platformdirs",
    "redis.asyncio",  # the bus (atout.server.site.bus)
    "redis.asyncio.retry",
    "redis.backoff",
    "redis.exceptions",
    "psycopg",  # a PostgreSQL store
    "sqlalchemy.dialects.postgresql.psycopg",
):
    with contextlib.suppress(ImportError):
        importlib.import_module(name)

# what every server reads or works out at its start, done once here: the migrations' heads (Alembic reads every
# migration's file to find them) and the client's files gzipped (about 40 ms of CPU a server start, each)
with contextlib.suppress(ImportError):
    from atout.server.http.app import static_dir
    from atout.server.http.assets import Assets
    from atout.server.store.store import newest_revisions

    newest_revisions()
    if (static := static_dir()) is not None:
        Assets(static)

# this folder was on the fork server's path only to find this module: never on its servers'
HERE = str(Path(__file__).parent)
sys.path[:] = [entry for entry in sys.path if entry != HERE]
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p != HERE)
if not os.environ["PYTHONPATH"]:
    del os.environ["PYTHONPATH"]

gc.collect()
gc.freeze()
