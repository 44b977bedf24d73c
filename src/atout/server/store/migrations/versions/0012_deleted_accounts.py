"""Accounts a person deleted: the row stays as a tombstone (the ledger's rows name it), marked here.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("deleted_at", sa.Float, nullable=True))  # None: a living account


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("deleted_at")
