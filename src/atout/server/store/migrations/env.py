"""Alembic's environment: migrations run on the connection the store hands over (no alembic.ini)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context
from sqlalchemy import create_engine

from atout.server.store.db import metadata


def _run(connection: sa.Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    url = context.config.get_main_option("sqlalchemy.url")
    if url is None:
        raise RuntimeError("the store's URL is missing: alembic's sqlalchemy.url")
    engine = create_engine(url)
    with engine.connect() as conn:
        _run(conn)
