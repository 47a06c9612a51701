"""campaign: lists open to the public subscribe form (double opt-in)

Revision ID: 1101_campaign_public_lists
Revises: 1100_campaign
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "1101_campaign_public_lists"
down_revision = "1100_campaign"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaign_lists", schema=None) as batch_op:
        batch_op.add_column(sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("campaign_lists", schema=None) as batch_op:
        batch_op.drop_column("public")
