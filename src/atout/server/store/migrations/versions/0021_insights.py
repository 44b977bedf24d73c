"""The profile's insights (issue 50): what each kind of decision cost a seat (its habits, with its accuracy) and a
person's choice to show their insights on their public profile (private by default).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accuracy") as batch:
        batch.add_column(sa.Column("habits", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=True))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("insights_public", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("insights_public")
    with op.batch_alter_table("accuracy") as batch:
        batch.drop_column("habits")
