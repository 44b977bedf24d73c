"""The chips and XP ledger, each game's settlement, badges; every existing account gets its 1,000 chips.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")
NEW_ACCOUNT_CHIPS = 1000  # ledger.NEW_ACCOUNT_CHIPS at the time of this migration (a migration never changes)


def upgrade() -> None:
    ledger = op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("holder", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("ref", sa.String(100), nullable=False, unique=True),
    )
    op.create_index("ix_ledger_holder", "ledger", ["holder", "kind"])
    op.create_index("ix_ledger_game", "ledger", ["game_id"])
    op.create_table(
        "settlements",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("ranked", sa.Boolean, nullable=False),
        sa.Column("pot", sa.BigInteger, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("data", JSONType, nullable=False),
    )
    op.create_table(
        "badges",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("badge", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    # accounts made before the ledger get the chips every new account gets, as a row like theirs
    players = sa.table("players", sa.column("id", sa.String), sa.column("created_at", sa.Float))
    rows = op.get_bind().execute(sa.select(players.c.id, players.c.created_at)).all()
    if rows:
        op.bulk_insert(
            ledger,
            [
                {
                    "holder": r.id,
                    "kind": "chips",
                    "amount": NEW_ACCOUNT_CHIPS,
                    "reason": "grant",
                    "game_id": None,
                    "at": r.created_at,
                    "ref": f"grant:{r.id}",
                }
                for r in rows
            ],
        )


def downgrade() -> None:
    op.drop_table("badges")
    op.drop_table("settlements")
    op.drop_index("ix_ledger_game", "ledger")
    op.drop_index("ix_ledger_holder", "ledger")
    op.drop_table("ledger")
