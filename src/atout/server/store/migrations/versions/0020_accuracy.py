"""Each seat's accuracy in a finished deal (issue 50), made with its analysis: the points its choices cost
against the expert's, in all and by phase, with who played it, for the deal's review and the profile.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accuracy",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("role", sa.String(8), nullable=True),
        sa.Column("loss", sa.Float, nullable=False),
        sa.Column("bid", sa.Float, nullable=False),
        sa.Column("ecart", sa.Float, nullable=False),
        sa.Column("taker", sa.Float, nullable=False),
        sa.Column("partner", sa.Float, nullable=False),
        sa.Column("defence", sa.Float, nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("costly", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("accuracy_player", "accuracy", ["player_id", "created_at"])


def downgrade() -> None:
    op.drop_index("accuracy_player", table_name="accuracy")
    op.drop_table("accuracy")
