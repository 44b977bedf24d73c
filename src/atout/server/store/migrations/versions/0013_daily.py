"""The daily deal (issue 24): each day's committed seed and each person's one play of it.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "daily_plays",
        sa.Column("day", sa.String(10), sa.ForeignKey("daily_days.day"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("total", sa.Integer, nullable=True),
        sa.Column("deals_done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=True),
        sa.Column("data", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=True),
    )
    op.create_index("daily_plays_rank", "daily_plays", ["day", "status", "total"])


def downgrade() -> None:
    op.drop_index("daily_plays_rank", "daily_plays")
    op.drop_table("daily_plays")
    op.drop_table("daily_days")
