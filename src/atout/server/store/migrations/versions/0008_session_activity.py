"""Sessions a person can see and end: when each was last used and from where it logged in.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sessions", sa.Column("last_seen_at", sa.Float, nullable=True))  # None: never since login
    op.add_column("sessions", sa.Column("address", sa.String(64), nullable=True))
    op.add_column("sessions", sa.Column("agent", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("agent")
        batch.drop_column("address")
        batch.drop_column("last_seen_at")
