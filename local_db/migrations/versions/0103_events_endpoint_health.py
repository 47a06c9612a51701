"""events: endpoint health (who created a subscription, when it was enabled, why it was disabled)

Revision ID: 0103_events_endpoint_health
Revises: 0102_events_signing
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "0103_events_endpoint_health"
down_revision = "0102_events_signing"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("event_subscriptions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("created_by", sa.String(length=36), nullable=True))
        batch_op.add_column(sa.Column("enabled_at", local_db.base.UTCDateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("disabled_at", local_db.base.UTCDateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("disabled_reason", sa.String(length=300), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("event_subscriptions", schema=None) as batch_op:
        batch_op.drop_column("disabled_reason")
        batch_op.drop_column("disabled_at")
        batch_op.drop_column("enabled_at")
        batch_op.drop_column("created_by")
