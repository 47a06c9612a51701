"""inventory purchasing: reorder rules, purchase orders, the supplier of an item

Revision ID: 0555_inventory_purchasing
Revises: 0554_inventory_lots
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "0555_inventory_purchasing"
down_revision = "0554_inventory_lots"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inventory_reorder_rules",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("sku", sa.String(length=100), nullable=False),
        sa.Column("location_id", sa.String(length=36), nullable=False),
        sa.Column("min_quantity", sa.Integer(), nullable=False),
        sa.Column("max_quantity", sa.Integer(), nullable=False),
        sa.Column("created_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name=op.f("fk_inventory_reorder_rules_tenant_id_tenants"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inventory_reorder_rules")),
        sa.UniqueConstraint("tenant_id", "sku", "location_id", name="uq_inventory_reorder_rules_tenant_sku_location"),
    )
    with op.batch_alter_table("inventory_reorder_rules", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inventory_reorder_rules_tenant_id"), ["tenant_id"], unique=False)
    op.create_table(
        "inventory_purchase_orders",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("number", sa.String(length=40), nullable=False),
        sa.Column("supplier", sa.String(length=100), nullable=True),
        sa.Column("location_id", sa.String(length=36), nullable=False),
        sa.Column("lines", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("origin", sa.String(length=20), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("sent_at", local_db.base.UTCDateTime(timezone=True), nullable=True),
        sa.Column("received_at", local_db.base.UTCDateTime(timezone=True), nullable=True),
        sa.Column("cancelled_at", local_db.base.UTCDateTime(timezone=True), nullable=True),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_inventory_purchase_orders_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inventory_purchase_orders")),
        sa.UniqueConstraint("tenant_id", "number", name="uq_inventory_purchase_orders_tenant_number"),
    )
    with op.batch_alter_table("inventory_purchase_orders", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inventory_purchase_orders_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index(
            "ix_inventory_purchase_orders_tenant_status_created", ["tenant_id", "status", "created_at"], unique=False
        )
    with op.batch_alter_table("inventory_items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("supplier", sa.String(length=100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inventory_items", schema=None) as batch_op:
        batch_op.drop_column("supplier")
    op.drop_table("inventory_purchase_orders")
    op.drop_table("inventory_reorder_rules")
