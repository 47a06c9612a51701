"""inventory valuation: cost layers, the unit cost and value of every movement, an item's cost

Revision ID: 0556_inventory_valuation
Revises: 0555_inventory_purchasing
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "0556_inventory_valuation"
down_revision = "0555_inventory_purchasing"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inventory_cost_layers",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("sku", sa.String(length=100), nullable=False),
        sa.Column("remaining", sa.Integer(), nullable=False),
        sa.Column("unit_cost", sa.Numeric(precision=18, scale=4), nullable=False),
        sa.Column("at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name=op.f("fk_inventory_cost_layers_tenant_id_tenants"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inventory_cost_layers")),
    )
    with op.batch_alter_table("inventory_cost_layers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inventory_cost_layers_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index("ix_inventory_cost_layers_tenant_sku_at", ["tenant_id", "sku", "at"], unique=False)
    with op.batch_alter_table("inventory_movements", schema=None) as batch_op:
        batch_op.add_column(sa.Column("unit_cost", sa.Numeric(precision=18, scale=4), nullable=True))
        batch_op.add_column(sa.Column("value", sa.Numeric(precision=18, scale=4), nullable=True))
    with op.batch_alter_table("inventory_items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("unit_cost", sa.Numeric(precision=18, scale=4), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inventory_items", schema=None) as batch_op:
        batch_op.drop_column("unit_cost")
    with op.batch_alter_table("inventory_movements", schema=None) as batch_op:
        batch_op.drop_column("value")
        batch_op.drop_column("unit_cost")
    op.drop_table("inventory_cost_layers")
