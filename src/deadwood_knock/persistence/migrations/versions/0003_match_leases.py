"""Bot-driving leases: which server process drives a match's bots, until when.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_leases",
        sa.Column(
            "match_id",
            sa.String(32),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("holder", sa.String(32), nullable=False),
        # Epoch seconds: compared with the holder's clock, never the database's.
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_match_leases_expires_at", "match_leases", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_match_leases_expires_at", "match_leases")
    op.drop_table("match_leases")
