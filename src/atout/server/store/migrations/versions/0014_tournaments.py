"""Duplicate tournaments (issue 24, part 3): the tournaments, their entries and their tables.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("creator_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("starts_at", sa.Float, nullable=True),
        sa.Column("size", sa.Integer, nullable=True),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("ended_at", sa.Float, nullable=True),
    )
    op.create_index("tournaments_status", "tournaments", ["status", "starts_at"])
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("registered_at", sa.Float, nullable=False),
    )
    op.create_index("tournament_entries_player", "tournament_entries", ["player_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
        sa.Column("seats", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_index("tournament_entries_player", "tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("tournaments_status", "tournaments")
    op.drop_table("tournaments")
