"""upgrade: a trade-in's IMEI, and products marked as phones (their trade-ins need one)

Revision ID: 0301_upgrade_imei
Revises: 0300_upgrade
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0301_upgrade_imei"
down_revision = "0300_upgrade"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("upgrade_submissions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("imei", sa.String(length=15), nullable=True))
    with op.batch_alter_table("upgrade_valuations", schema=None) as batch_op:
        batch_op.add_column(sa.Column("is_phone", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("upgrade_valuations", schema=None) as batch_op:
        batch_op.drop_column("is_phone")
    with op.batch_alter_table("upgrade_submissions", schema=None) as batch_op:
        batch_op.drop_column("imei")
