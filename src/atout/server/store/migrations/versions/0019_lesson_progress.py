"""Guided lessons (issue 46): each account's progress, lesson by lesson: the answers of its furthest run
(a lesson replays from them) and whether it was finished.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lesson_progress",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("lesson", sa.String(32), primary_key=True),
        sa.Column("answers", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=False),
        sa.Column("done", sa.Boolean, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lesson_progress")
