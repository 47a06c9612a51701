"""inventory reservations: units held for an order until it ships or is cancelled

Revision ID: 0551_inventory_reservations
Revises: 0550_inventory
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "0551_inventory_reservations"
down_revision = "0550_inventory"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inventory_reservations",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("order_id", sa.String(length=36), nullable=False),
        sa.Column("reference", sa.String(length=200), nullable=False),
        sa.Column("sku", sa.String(length=100), nullable=False),
        sa.Column("location_id", sa.String(length=36), nullable=False),
        sa.Column("requested", sa.Integer(), nullable=False),
        sa.Column("reserved", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("created_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_inventory_reservations_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inventory_reservations")),
    )
    with op.batch_alter_table("inventory_reservations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inventory_reservations_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index("ix_inventory_reservations_tenant_order", ["tenant_id", "order_id"], unique=False)
        batch_op.create_index(
            "ix_inventory_reservations_tenant_sku_status", ["tenant_id", "sku", "status"], unique=False
        )


def downgrade() -> None:
    op.drop_table("inventory_reservations")
