"""fulfillment: returns (RMA) of shipped orders

Revision ID: 0202_fulfillment_returns
Revises: 0201_fulfillment_backorders
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "0202_fulfillment_returns"
down_revision = "0201_fulfillment_backorders"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fulfillment_returns",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("order_id", sa.String(length=36), nullable=False),
        sa.Column("rma_number", sa.String(length=40), nullable=False),
        sa.Column("lines", sa.JSON(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("created_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["order_id"],
            ["fulfillment_orders.id"],
            name=op.f("fk_fulfillment_returns_order_id_fulfillment_orders"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name=op.f("fk_fulfillment_returns_tenant_id_tenants"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fulfillment_returns")),
        sa.UniqueConstraint("tenant_id", "rma_number", name="uq_fulfillment_returns_tenant_rma"),
    )
    with op.batch_alter_table("fulfillment_returns", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_fulfillment_returns_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index("ix_fulfillment_returns_tenant_order", ["tenant_id", "order_id"], unique=False)


def downgrade() -> None:
    op.drop_table("fulfillment_returns")
