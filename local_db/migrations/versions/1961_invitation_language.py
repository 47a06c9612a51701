"""invitation language: the language of an invitation's mail (issue 32 part 6)

Revision ID: 1961_invitation_language
Revises: 1960_user_invitations
Create Date: 2026-11-27 06:10:00
"""
from alembic import op
import sqlalchemy as sa


revision = '1961_invitation_language'
down_revision = '1960_user_invitations'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('user_invitations', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), server_default='en', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('user_invitations', schema=None) as batch_op:
        batch_op.drop_column('language')
