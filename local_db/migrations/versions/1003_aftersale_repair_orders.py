"""aftersale: repair orders (a claim's repair, the parts used from stock)

Revision ID: 1003_aftersale_repair_orders
Revises: 1002_aftersale_claim_photos
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "1003_aftersale_repair_orders"
down_revision = "1002_aftersale_claim_photos"
branch_labels = None
depends_on = None


def upgrade() -> None:
    when = local_db.base.UTCDateTime(timezone=True)
    op.create_table(
        "aftersale_repairs",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("number", sa.String(length=40), nullable=False),
        sa.Column("claim_id", sa.String(length=36), nullable=False),
        sa.Column("warranty_id", sa.String(length=36), nullable=False),
        sa.Column("serial_number", sa.String(length=100), nullable=False),
        sa.Column("product_sku", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("diagnosis", sa.Text(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("replacement_serial", sa.String(length=100), nullable=True),
        sa.Column("parts", sa.JSON(), nullable=False),
        sa.Column("handled_by", sa.String(length=36), nullable=True),
        sa.Column("created_at", when, nullable=False),
        sa.Column("updated_at", when, nullable=False),
        sa.Column("diagnosed_at", when, nullable=True),
        sa.Column("finished_at", when, nullable=True),
        sa.Column("returned_at", when, nullable=True),
        sa.Column("cancelled_at", when, nullable=True),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["claim_id"],
            ["aftersale_claims.id"],
            name=op.f("fk_aftersale_repairs_claim_id_aftersale_claims"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name=op.f("fk_aftersale_repairs_tenant_id_tenants"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_aftersale_repairs")),
        sa.UniqueConstraint("tenant_id", "number", name="uq_aftersale_repairs_tenant_number"),
    )
    with op.batch_alter_table("aftersale_repairs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_aftersale_repairs_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_aftersale_repairs_claim_id"), ["claim_id"], unique=False)
        batch_op.create_index(
            "ix_aftersale_repairs_tenant_status_created", ["tenant_id", "status", "created_at"], unique=False
        )


def downgrade() -> None:
    op.drop_table("aftersale_repairs")
