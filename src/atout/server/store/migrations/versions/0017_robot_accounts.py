"""Robot accounts (issue 39): a players row owned by a person, which a program opens with an API token.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:  # SQLite adds a foreign key by copying the table
        batch.add_column(sa.Column("robot_of", sa.String(32), nullable=True))  # the owner's id: a robot account
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))  # its token's SHA-256; None: revoked
        batch.create_foreign_key("fk_players_robot_of", "players", ["robot_of"], ["id"])
    op.create_index("ix_players_robot_of", "players", ["robot_of"])
    op.create_index("ix_players_token_hash", "players", ["token_hash"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_players_token_hash", "players")
    op.drop_index("ix_players_robot_of", "players")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("fk_players_robot_of", type_="foreignkey")
        batch.drop_column("token_hash")
        batch.drop_column("robot_of")
