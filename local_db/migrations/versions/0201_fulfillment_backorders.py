"""fulfillment: backorders (an order carrying the unpicked rest of another)

Revision ID: 0201_fulfillment_backorders
Revises: 0200_fulfillment
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0201_fulfillment_backorders"
down_revision = "0200_fulfillment"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fulfillment_orders", schema=None) as batch_op:
        batch_op.add_column(sa.Column("backorder_of", sa.String(length=36), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("fulfillment_orders", schema=None) as batch_op:
        batch_op.drop_column("backorder_of")
