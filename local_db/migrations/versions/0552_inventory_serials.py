"""inventory serials: serial-numbered units, one place at a time

Revision ID: 0552_inventory_serials
Revises: 0551_inventory_reservations
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "0552_inventory_serials"
down_revision = "0551_inventory_reservations"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inventory_serials",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("sku", sa.String(length=100), nullable=False),
        sa.Column("serial", sa.String(length=100), nullable=False),
        sa.Column("location_id", sa.String(length=36), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("reference", sa.String(length=200), nullable=True),
        sa.Column("created_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name=op.f("fk_inventory_serials_tenant_id_tenants"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inventory_serials")),
        sa.UniqueConstraint("tenant_id", "sku", "serial", name="uq_inventory_serials_tenant_sku_serial"),
    )
    with op.batch_alter_table("inventory_serials", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inventory_serials_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index("ix_inventory_serials_tenant_serial", ["tenant_id", "serial"], unique=False)
        batch_op.create_index("ix_inventory_serials_tenant_location", ["tenant_id", "location_id"], unique=False)


def downgrade() -> None:
    op.drop_table("inventory_serials")
