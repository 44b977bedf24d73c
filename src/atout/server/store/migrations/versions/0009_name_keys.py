"""Names compared as NFKC casefolded without accents: Straße and STRASSE are one name.

The key may now be longer than the name (casefold spells ß out as ss): the column holds 40. Every
stored key is worked out again with the new rule; an account whose new key another account already
holds keeps its old one (two such names could only have been registered before this rule), and the
migration says so in the log.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import logging
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

log = logging.getLogger("atout.server")


def name_key(name: str) -> str:
    """accounts.name_key as this revision made it (a migration keeps its own copy: the rule may move on)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return unicodedata.normalize("NFKC", bare.casefold())


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.alter_column("name_key", type_=sa.String(40), existing_type=sa.String(20), existing_nullable=False)
    conn = op.get_bind()
    players = sa.table(
        "players",
        sa.column("id", sa.String),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
        sa.column("created_at", sa.Float),
    )
    rows = conn.execute(
        sa.select(players.c.id, players.c.name, players.c.name_key).order_by(players.c.created_at, players.c.id)
    ).all()
    taken = {r.name_key for r in rows}
    for row in rows:
        key = name_key(row.name)
        if key == row.name_key:
            continue
        if key in taken:
            log.warning("name key %r of %r is another account's: it keeps %r", key, row.name, row.name_key)
            continue
        conn.execute(players.update().where(players.c.id == row.id).values(name_key=key))
        taken.discard(row.name_key)
        taken.add(key)


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.alter_column("name_key", type_=sa.String(20), existing_type=sa.String(40), existing_nullable=False)
