"""events: a subscription's signing scheme (hmac-sha256 or standard-webhooks)

Revision ID: 0102_events_signing
Revises: 0101_events_sealed
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0102_events_signing"
down_revision = "0101_events_sealed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("event_subscriptions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("signing", sa.String(length=20), server_default="hmac-sha256", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("event_subscriptions", schema=None) as batch_op:
        batch_op.drop_column("signing")
