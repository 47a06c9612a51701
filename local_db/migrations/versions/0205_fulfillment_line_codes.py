"""fulfillment: the serials and lots shipped on an order's lines

Revision ID: 0205_fulfillment_line_codes
Revises: 0204_fulfillment_carriers
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0205_fulfillment_line_codes"  # at most 32 characters: PostgreSQL's alembic_version column
down_revision = "0204_fulfillment_carriers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fulfillment_order_lines", schema=None) as batch_op:
        batch_op.add_column(sa.Column("serials", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("lots", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("fulfillment_order_lines", schema=None) as batch_op:
        batch_op.drop_column("lots")
        batch_op.drop_column("serials")
