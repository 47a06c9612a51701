"""qr: a code's fallback address (where a paused, expired or capped code sends its scanners)

Revision ID: 0701_qr_fallback_url
Revises: 0700_qr
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0701_qr_fallback_url"
down_revision = "0700_qr"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("qr_codes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fallback_url", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("qr_codes", schema=None) as batch_op:
        batch_op.drop_column("fallback_url")
