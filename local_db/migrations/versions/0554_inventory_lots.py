"""inventory lots: lots and their stock per location, item tracking, the lot of a movement

Revision ID: 0554_inventory_lots
Revises: 0553_inventory_rollup_indexes
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "0554_inventory_lots"
down_revision = "0553_inventory_rollup_indexes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inventory_lots",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("sku", sa.String(length=100), nullable=False),
        sa.Column("code", sa.String(length=100), nullable=False),
        sa.Column("expires_on", sa.Date(), nullable=True),
        sa.Column("created_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name=op.f("fk_inventory_lots_tenant_id_tenants"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inventory_lots")),
        sa.UniqueConstraint("tenant_id", "sku", "code", name="uq_inventory_lots_tenant_sku_code"),
    )
    with op.batch_alter_table("inventory_lots", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inventory_lots_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index("ix_inventory_lots_tenant_code", ["tenant_id", "code"], unique=False)
        batch_op.create_index("ix_inventory_lots_tenant_sku_expires", ["tenant_id", "sku", "expires_on"], unique=False)
    op.create_table(
        "inventory_lot_stock",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("lot_id", sa.String(length=36), nullable=False),
        sa.Column("sku", sa.String(length=100), nullable=False),
        sa.Column("location_id", sa.String(length=36), nullable=False),
        sa.Column("quantity", sa.Integer(), nullable=False),
        sa.Column("updated_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name=op.f("fk_inventory_lot_stock_tenant_id_tenants"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inventory_lot_stock")),
        sa.UniqueConstraint("tenant_id", "lot_id", "location_id", name="uq_inventory_lot_stock_tenant_lot_location"),
    )
    with op.batch_alter_table("inventory_lot_stock", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inventory_lot_stock_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index(
            "ix_inventory_lot_stock_tenant_sku_location", ["tenant_id", "sku", "location_id"], unique=False
        )
    with op.batch_alter_table("inventory_items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tracking", sa.String(length=10), nullable=False, server_default="none"))
    with op.batch_alter_table("inventory_movements", schema=None) as batch_op:
        batch_op.add_column(sa.Column("lot_id", sa.String(length=36), nullable=True))
        batch_op.create_index("ix_inventory_movements_tenant_lot", ["tenant_id", "lot_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("inventory_movements", schema=None) as batch_op:
        batch_op.drop_index("ix_inventory_movements_tenant_lot")
        batch_op.drop_column("lot_id")
    with op.batch_alter_table("inventory_items", schema=None) as batch_op:
        batch_op.drop_column("tracking")
    op.drop_table("inventory_lot_stock")
    op.drop_table("inventory_lots")
