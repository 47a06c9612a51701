"""fulfillment: label purchases from a network carrier (recorded before each call)

Revision ID: 0204_fulfillment_carriers
Revises: 0203_fulfillment_batches
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "0204_fulfillment_carriers"  # at most 32 characters: PostgreSQL's alembic_version column
down_revision = "0203_fulfillment_batches"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fulfillment_carrier_purchases",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("order_id", sa.String(length=36), nullable=False),
        sa.Column("carrier", sa.String(length=40), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("rule", sa.String(length=20), nullable=False),
        sa.Column("shipment_id", sa.String(length=100), nullable=True),
        sa.Column("rates", sa.JSON(), nullable=False),
        sa.Column("rate_id", sa.String(length=100), nullable=True),
        sa.Column("service", sa.String(length=100), nullable=True),
        sa.Column("amount", sa.String(length=20), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.Column("tracking_number", sa.String(length=64), nullable=True),
        sa.Column("label_url", sa.Text(), nullable=True),
        sa.Column("customs", sa.JSON(), nullable=True),
        sa.Column("buy_attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["order_id"],
            ["fulfillment_orders.id"],
            name=op.f("fk_fulfillment_carrier_purchases_order_id_fulfillment_orders"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_fulfillment_carrier_purchases_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fulfillment_carrier_purchases")),
        sa.UniqueConstraint("tenant_id", "order_id", name="uq_fulfillment_carrier_purchases_order"),
    )
    with op.batch_alter_table("fulfillment_carrier_purchases", schema=None) as b:
        b.create_index(b.f("ix_fulfillment_carrier_purchases_tenant_id"), ["tenant_id"], unique=False)


def downgrade() -> None:
    op.drop_table("fulfillment_carrier_purchases")
