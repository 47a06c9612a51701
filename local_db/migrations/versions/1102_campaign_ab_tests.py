"""campaign: A/B subject tests (the test on the campaign, the variant on each message)

Revision ID: 1102_campaign_ab_tests
Revises: 1101_campaign_public_lists
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "1102_campaign_ab_tests"
down_revision = "1101_campaign_public_lists"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaigns", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ab_test", sa.JSON(), nullable=True))
    with op.batch_alter_table("campaign_messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("variant", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("campaign_messages", schema=None) as batch_op:
        batch_op.drop_column("variant")
    with op.batch_alter_table("campaigns", schema=None) as batch_op:
        batch_op.drop_column("ab_test")
