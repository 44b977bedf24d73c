"""Each person's line of each finished game, indexed for profiles and leaderboards.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("abandoned", sa.Boolean, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("taker_deals", sa.Integer, nullable=False),
        sa.Column("taker_made", sa.Integer, nullable=False),
        sa.Column("competitive", sa.Boolean, nullable=False),
    )
    op.create_index("ix_game_players_player", "game_players", ["player_id", "ended_at"])
    op.create_index("ix_game_players_board", "game_players", ["players", "ended_at"])


def downgrade() -> None:
    op.drop_index("ix_game_players_board", "game_players")
    op.drop_index("ix_game_players_player", "game_players")
    op.drop_table("game_players")
