"""core: drop ix_events_tenant_id and ix_outbox_tenant_id, covered by composite indexes

Revision ID: 0006_core_covered_tenant_idx
Revises: 0005_core_auth_cache_version
Create Date: 2026-11-27 03:40:00.000000

Each was the first column of another index (ix_events_tenant_type_created; the unique
uq_outbox_tenant_station_seq): a lookup or a tenant's cascade delete uses those, and every write
to these hot tables kept one index more up to date for nothing (issue 38, part 3).
"""
from alembic import op


revision = '0006_core_covered_tenant_idx'
down_revision = '0005_core_auth_cache_version'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index('ix_events_tenant_id', table_name='events')
    op.drop_index('ix_outbox_tenant_id', table_name='outbox')


def downgrade() -> None:
    op.create_index('ix_outbox_tenant_id', 'outbox', ['tenant_id'], unique=False)
    op.create_index('ix_events_tenant_id', 'events', ['tenant_id'], unique=False)
