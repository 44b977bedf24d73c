"""One person an entry number in a tournament (issue 37, item 2): registrations racing each other gave two
people the same number; the numbers are made distinct again (in their order, ties by player), then unique.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

RENUMBER = """
UPDATE tournament_entries SET number = (
    SELECT count(*) FROM tournament_entries AS e
    WHERE e.tournament_id = tournament_entries.tournament_id
      AND (e.number < tournament_entries.number
           OR (e.number = tournament_entries.number AND e.player_id <= tournament_entries.player_id)))
"""
"""Each entry's place in its tournament's order of registration, from 1: the order kept where the numbers
differ (a round's seating is by that order), two people of one number put in the order of their ids."""


def upgrade() -> None:
    op.execute(RENUMBER)
    op.create_index("tournament_entries_number", "tournament_entries", ["tournament_id", "number"], unique=True)


def downgrade() -> None:
    op.drop_index("tournament_entries_number", "tournament_entries")
