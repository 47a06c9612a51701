"""revoked sessions (signed-out session tokens by jti)

Revision ID: 0003_revoked_sessions
Revises: 0002_idempotency
Create Date: 2026-11-23 14:40:00.000000
"""
from alembic import op
import sqlalchemy as sa
import local_db.base


revision = '0003_revoked_sessions'
down_revision = '0002_idempotency'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('revoked_sessions',
    sa.Column('jti', sa.String(length=36), nullable=False),
    sa.Column('expires_at', local_db.base.UTCDateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('jti', name=op.f('pk_revoked_sessions'))
    )
    with op.batch_alter_table('revoked_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_revoked_sessions_expires_at'), ['expires_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('revoked_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_revoked_sessions_expires_at'))
    op.drop_table('revoked_sessions')
