"""support ticket satisfaction rating (public pages, issue 33)

Revision ID: 0408_support_satisfaction
Revises: 0407_support_escalation
Create Date: 2026-11-26 21:35:00
"""
from alembic import op
import sqlalchemy as sa
import local_db.base


revision = '0408_support_satisfaction'
down_revision = '0407_support_escalation'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('support_tickets', schema=None) as batch_op:
        batch_op.add_column(sa.Column('satisfaction_rating', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('satisfaction_comment', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('rated_at', local_db.base.UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('support_tickets', schema=None) as batch_op:
        batch_op.drop_column('rated_at')
        batch_op.drop_column('satisfaction_comment')
        batch_op.drop_column('satisfaction_rating')
