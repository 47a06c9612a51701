"""inventory units of measure: an item's sales unit and the units it holds

Revision ID: 0557_inventory_units_of_measure
Revises: 0556_inventory_valuation
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0557_inventory_units_of_measure"
down_revision = "0556_inventory_valuation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inventory_items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sales_unit", sa.String(length=20), nullable=False, server_default="unit"))
        batch_op.add_column(sa.Column("units_per_sale", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("inventory_items", schema=None) as batch_op:
        batch_op.drop_column("units_per_sale")
        batch_op.drop_column("sales_unit")
