"""inventory roll-up indexes: a location's children, a location's stock levels without the table

Revision ID: 0553_inventory_rollup_indexes
Revises: 0552_inventory_serials
Create Date: 2026-11-27
"""

from alembic import op

revision = "0553_inventory_rollup_indexes"
down_revision = "0552_inventory_serials"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inventory_locations", schema=None) as batch_op:
        batch_op.create_index("ix_inventory_locations_tenant_parent", ["tenant_id", "parent_id"], unique=False)
    with op.batch_alter_table("inventory_stock", schema=None) as batch_op:
        batch_op.create_index(
            "ix_inventory_stock_tenant_location_levels",
            ["tenant_id", "location_id", "quantity", "reserved"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("inventory_stock", schema=None) as batch_op:
        batch_op.drop_index("ix_inventory_stock_tenant_location_levels")
    with op.batch_alter_table("inventory_locations", schema=None) as batch_op:
        batch_op.drop_index("ix_inventory_locations_tenant_parent")
