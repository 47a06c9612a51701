"""fulfillment: batch picking (batches, their orders and pick lines)

Revision ID: 0203_fulfillment_batches
Revises: 0202_fulfillment_returns
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "0203_fulfillment_batches"
down_revision = "0202_fulfillment_returns"
branch_labels = None
depends_on = None

_TS = local_db.base.UTCDateTime(timezone=True)


def _tenant(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["tenant_id"], ["tenants.id"], name=op.f(f"fk_{table}_tenant_id_tenants"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "fulfillment_batches",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("batch_number", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("created_by", sa.String(length=36), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("updated_at", _TS, nullable=False),
        sa.Column("started_at", _TS, nullable=True),
        sa.Column("picked_at", _TS, nullable=True),
        sa.Column("packed_at", _TS, nullable=True),
        sa.Column("closed_at", _TS, nullable=True),
        sa.Column("cancelled_at", _TS, nullable=True),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        _tenant("fulfillment_batches"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fulfillment_batches")),
        sa.UniqueConstraint("tenant_id", "batch_number", name="uq_fulfillment_batches_tenant_number"),
    )
    with op.batch_alter_table("fulfillment_batches", schema=None) as b:
        b.create_index(b.f("ix_fulfillment_batches_tenant_id"), ["tenant_id"], unique=False)
        b.create_index("ix_fulfillment_batches_tenant_status_created", ["tenant_id", "status", "created_at"])
    op.create_table(
        "fulfillment_batch_orders",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("batch_id", sa.String(length=36), nullable=False),
        sa.Column("order_id", sa.String(length=36), nullable=False),
        sa.Column("open_order_id", sa.String(length=36), nullable=True),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["batch_id"],
            ["fulfillment_batches.id"],
            name=op.f("fk_fulfillment_batch_orders_batch_id_fulfillment_batches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["order_id"],
            ["fulfillment_orders.id"],
            name=op.f("fk_fulfillment_batch_orders_order_id_fulfillment_orders"),
            ondelete="CASCADE",
        ),
        _tenant("fulfillment_batch_orders"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fulfillment_batch_orders")),
        sa.UniqueConstraint("tenant_id", "open_order_id", name="uq_fulfillment_batch_orders_open_order"),
    )
    with op.batch_alter_table("fulfillment_batch_orders", schema=None) as b:
        b.create_index(b.f("ix_fulfillment_batch_orders_tenant_id"), ["tenant_id"], unique=False)
        b.create_index("ix_fulfillment_batch_orders_batch_slot", ["batch_id", "slot"], unique=False)
    op.create_table(
        "fulfillment_batch_lines",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("batch_id", sa.String(length=36), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("location_id", sa.String(length=36), nullable=True),
        sa.Column("location_code", sa.String(length=60), nullable=True),
        sa.Column("sku", sa.String(length=100), nullable=False),
        sa.Column("barcode", sa.String(length=100), nullable=True),
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column("quantity", sa.Integer(), nullable=False),
        sa.Column("picked_quantity", sa.Integer(), nullable=False),
        sa.Column("allocations", sa.JSON(), nullable=False),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["batch_id"],
            ["fulfillment_batches.id"],
            name=op.f("fk_fulfillment_batch_lines_batch_id_fulfillment_batches"),
            ondelete="CASCADE",
        ),
        _tenant("fulfillment_batch_lines"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fulfillment_batch_lines")),
    )
    with op.batch_alter_table("fulfillment_batch_lines", schema=None) as b:
        b.create_index(b.f("ix_fulfillment_batch_lines_tenant_id"), ["tenant_id"], unique=False)
        b.create_index("ix_fulfillment_batch_lines_batch_position", ["batch_id", "position"], unique=False)


def downgrade() -> None:
    op.drop_table("fulfillment_batch_lines")
    op.drop_table("fulfillment_batch_orders")
    op.drop_table("fulfillment_batches")
