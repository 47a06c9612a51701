"""sds ghs classification data

Revision ID: 1401_sds_ghs
Revises: 1400_sds
Create Date: 2026-11-26 23:30:00.000000
"""
from alembic import op
import sqlalchemy as sa


revision = '1401_sds_ghs'
down_revision = '1400_sds'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('sds_ingredients', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ghs', sa.JSON(), server_default='{}', nullable=False))
    with op.batch_alter_table('sds_formulas', schema=None) as batch_op:
        batch_op.add_column(sa.Column('properties', sa.JSON(), server_default='{}', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('sds_formulas', schema=None) as batch_op:
        batch_op.drop_column('properties')
    with op.batch_alter_table('sds_ingredients', schema=None) as batch_op:
        batch_op.drop_column('ghs')
