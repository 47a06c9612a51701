"""fulfillment: return labels (a purchase per order and purpose; the label on the return)

Revision ID: 0207_fulfillment_return_labels
Revises: 0206_fulfillment_batch_lots
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0207_fulfillment_return_labels"  # at most 32 characters: PostgreSQL's alembic_version column
down_revision = "0206_fulfillment_batch_lots"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fulfillment_carrier_purchases", schema=None) as b:
        b.add_column(sa.Column("purpose", sa.String(length=60), nullable=False, server_default="outgoing"))
        b.drop_constraint("uq_fulfillment_carrier_purchases_order", type_="unique")
        b.create_unique_constraint(
            "uq_fulfillment_carrier_purchases_purpose", ["tenant_id", "order_id", "purpose"]
        )
    with op.batch_alter_table("fulfillment_returns", schema=None) as b:
        b.add_column(sa.Column("label_id", sa.String(length=36), nullable=True))
        b.add_column(sa.Column("carrier", sa.String(length=40), nullable=True))
        b.add_column(sa.Column("tracking_number", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("fulfillment_returns", schema=None) as b:
        b.drop_column("tracking_number")
        b.drop_column("carrier")
        b.drop_column("label_id")
    with op.batch_alter_table("fulfillment_carrier_purchases", schema=None) as b:
        b.drop_constraint("uq_fulfillment_carrier_purchases_purpose", type_="unique")
        b.create_unique_constraint("uq_fulfillment_carrier_purchases_order", ["tenant_id", "order_id"])
        b.drop_column("purpose")
