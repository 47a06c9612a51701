"""upgrade: the customers' credit ledger (trade-in credits and payouts)

Revision ID: 0302_upgrade_credit_ledger
Revises: 0301_upgrade_imei
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "0302_upgrade_credit_ledger"
down_revision = "0301_upgrade_imei"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "upgrade_credit_entries",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("customer_id", sa.String(length=36), nullable=False),
        sa.Column("submission_id", sa.String(length=36), nullable=True),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("method", sa.String(length=20), nullable=True),
        sa.Column("amount_cents", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("reference", sa.String(length=200), nullable=True),
        sa.Column("created_by", sa.String(length=36), nullable=True),
        sa.Column("created_at", local_db.base.UTCDateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["customer_id"],
            ["upgrade_customers.id"],
            name=op.f("fk_upgrade_credit_entries_customer_id_upgrade_customers"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name=op.f("fk_upgrade_credit_entries_tenant_id_tenants"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_upgrade_credit_entries")),
    )
    with op.batch_alter_table("upgrade_credit_entries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_upgrade_credit_entries_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index(
            "ix_upgrade_credit_entries_tenant_customer", ["tenant_id", "customer_id", "created_at"], unique=False
        )


def downgrade() -> None:
    op.drop_table("upgrade_credit_entries")
