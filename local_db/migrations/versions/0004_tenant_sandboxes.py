"""tenant sandboxes (tenants.sandbox_of)

Revision ID: 0004_tenant_sandboxes
Revises: 0003_revoked_sessions
Create Date: 2026-11-23 14:50:00.000000
"""
from alembic import op
import sqlalchemy as sa


revision = '0004_tenant_sandboxes'
down_revision = '0003_revoked_sessions'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE ADD COLUMN (no batch copy): recreating tenants would drop it, and with
    # foreign keys on, dropping it cascades to every tenant row.
    op.add_column('tenants', sa.Column('sandbox_of', sa.String(length=36), nullable=True))
    op.create_index(op.f('ix_tenants_sandbox_of'), 'tenants', ['sandbox_of'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_tenants_sandbox_of'), table_name='tenants')
    op.drop_column('tenants', 'sandbox_of')
