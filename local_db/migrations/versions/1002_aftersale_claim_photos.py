"""aftersale: photos on claims

Revision ID: 1002_aftersale_claim_photos
Revises: 1001_aftersale_serial_disputes
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "1002_aftersale_claim_photos"
down_revision = "1001_aftersale_serial_disputes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("aftersale_claims", schema=None) as batch_op:
        batch_op.add_column(sa.Column("photos", sa.JSON(), server_default="[]", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("aftersale_claims", schema=None) as batch_op:
        batch_op.drop_column("photos")
