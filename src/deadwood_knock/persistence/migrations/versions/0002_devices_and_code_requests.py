"""Device handles and last use (listing and revoking tokens); one-time codes bound to
the request that made them.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-06
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("devices") as batch:
        batch.add_column(sa.Column("id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("label", sa.String(80), nullable=False, server_default=""))
        batch.add_column(sa.Column("last_used_at", sa.BigInteger(), nullable=True))
    # Existing tokens get a handle each.
    devices = sa.table("devices", sa.column("token_hash", sa.String), sa.column("id", sa.String))
    bind = op.get_bind()
    for (token_hash,) in bind.execute(sa.select(devices.c.token_hash)).all():
        bind.execute(
            devices.update()
            .where(devices.c.token_hash == token_hash)
            .values(id=secrets.token_hex(16))
        )
    with op.batch_alter_table("devices") as batch:
        batch.alter_column("id", existing_type=sa.String(32), nullable=False)
        batch.create_unique_constraint("uq_devices_id", ["id"])
    with op.batch_alter_table("otp_codes") as batch:
        batch.add_column(sa.Column("request_id", sa.String(32), nullable=True))
        batch.create_unique_constraint("uq_otp_codes_request_id", ["request_id"])


def downgrade() -> None:
    with op.batch_alter_table("otp_codes") as batch:
        batch.drop_constraint("uq_otp_codes_request_id", type_="unique")
        batch.drop_column("request_id")
    with op.batch_alter_table("devices") as batch:
        batch.drop_constraint("uq_devices_id", type_="unique")
        batch.drop_column("last_used_at")
        batch.drop_column("label")
        batch.drop_column("id")
