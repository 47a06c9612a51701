"""fulfillment: the lots a batch's pick line proposes (first to expire first)

Revision ID: 0206_fulfillment_batch_lots
Revises: 0205_fulfillment_line_codes
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0206_fulfillment_batch_lots"  # at most 32 characters: PostgreSQL's alembic_version column
down_revision = "0205_fulfillment_line_codes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fulfillment_batch_lines", schema=None) as batch_op:
        batch_op.add_column(sa.Column("lots", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("fulfillment_batch_lines", schema=None) as batch_op:
        batch_op.drop_column("lots")
