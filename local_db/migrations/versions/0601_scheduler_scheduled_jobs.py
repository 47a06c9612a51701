"""scheduler: scheduled_jobs (periodic and delayed jobs with a lease)

Revision ID: 0601_scheduler
Revises: 0600_jobs
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from alembic import op

import local_db.base

revision = '0601_scheduler'
down_revision = '0600_jobs'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('scheduled_jobs',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('name', sa.String(length=160), nullable=False),
    sa.Column('kind', sa.String(length=120), nullable=False),
    sa.Column('tenant_id', sa.String(length=36), nullable=True),
    sa.Column('params', sa.JSON(), nullable=False),
    sa.Column('every_seconds', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('next_run_at', local_db.base.UTCDateTime(timezone=True), nullable=True),
    sa.Column('lease_owner', sa.String(length=120), nullable=True),
    sa.Column('lease_until', local_db.base.UTCDateTime(timezone=True), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('max_attempts', sa.Integer(), nullable=False),
    sa.Column('runs', sa.Integer(), nullable=False),
    sa.Column('last_status', sa.String(length=20), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('last_result', sa.JSON(), nullable=True),
    sa.Column('last_started_at', local_db.base.UTCDateTime(timezone=True), nullable=True),
    sa.Column('last_finished_at', local_db.base.UTCDateTime(timezone=True), nullable=True),
    sa.Column('created_at', local_db.base.UTCDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_scheduled_jobs_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_scheduled_jobs')),
    sa.UniqueConstraint('name', name=op.f('uq_scheduled_jobs_name'))
    )
    with op.batch_alter_table('scheduled_jobs', schema=None) as batch_op:
        batch_op.create_index('ix_scheduled_jobs_status_next', ['status', 'next_run_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_scheduled_jobs_tenant_id'), ['tenant_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('scheduled_jobs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_scheduled_jobs_tenant_id'))
        batch_op.drop_index('ix_scheduled_jobs_status_next')
    op.drop_table('scheduled_jobs')
