"""mes hour sums (OEE reads whole hours from them)

Revision ID: 1504_mes_hour_sums
Revises: 1503_mes_period_ms
Create Date: 2026-11-27 03:00:00

Machines with history before this table get their hours at their next status or count event
(services/mes/hours.py); until then OEE reads their periods as before.
"""
from alembic import op
import sqlalchemy as sa
import local_db.base


revision = '1504_mes_hour_sums'
down_revision = '1503_mes_period_ms'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('mes_hour_sums',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('machine_id', sa.String(length=36), nullable=False),
    sa.Column('hour', local_db.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('running_ms', sa.BigInteger(), nullable=False),
    sa.Column('offline_ms', sa.BigInteger(), nullable=False),
    sa.Column('stops', sa.JSON(), nullable=False),
    sa.Column('good', sa.BigInteger(), nullable=False),
    sa.Column('total', sa.BigInteger(), nullable=False),
    sa.Column('tenant_id', sa.String(length=36), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_mes_hour_sums_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_mes_hour_sums'))
    )
    with op.batch_alter_table('mes_hour_sums', schema=None) as batch_op:
        batch_op.create_index('ix_mes_hour_sums_machine_hour', ['tenant_id', 'machine_id', 'hour'], unique=False)
        batch_op.create_index(batch_op.f('ix_mes_hour_sums_tenant_id'), ['tenant_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('mes_hour_sums', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mes_hour_sums_tenant_id'))
        batch_op.drop_index('ix_mes_hour_sums_machine_hour')
    op.drop_table('mes_hour_sums')
