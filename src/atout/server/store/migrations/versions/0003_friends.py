"""Friends: requests and friendships between registered players.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "friendships",
        sa.Column("requester", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("addressee", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_friendships_addressee", "friendships", ["addressee"])


def downgrade() -> None:
    op.drop_index("ix_friendships_addressee", "friendships")
    op.drop_table("friendships")
