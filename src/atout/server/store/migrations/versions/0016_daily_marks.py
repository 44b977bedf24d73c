"""One ranked play of the daily deal a person (issue 37, item 3): each play's address and browser marks
(salted hashes), and each day's salt for them (drawn here for the days already stored).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("daily_days", sa.Column("salt", sa.String(64), nullable=True))
    op.add_column("daily_plays", sa.Column("address", sa.String(64), nullable=True))
    op.add_column("daily_plays", sa.Column("browser", sa.String(64), nullable=True))
    days = sa.table("daily_days", sa.column("day", sa.String), sa.column("salt", sa.String))
    conn = op.get_bind()
    for (day,) in conn.execute(sa.select(days.c.day)).all():
        conn.execute(days.update().where(days.c.day == day).values(salt=secrets.token_hex(16)))


def downgrade() -> None:
    with op.batch_alter_table("daily_plays") as batch:
        batch.drop_column("browser")
        batch.drop_column("address")
    with op.batch_alter_table("daily_days") as batch:
        batch.drop_column("salt")
