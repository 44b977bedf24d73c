"""Each rating a person reached, game by game: the profile draws it over time.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_history",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["player_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_player", "rating_history")
    op.drop_table("rating_history")
