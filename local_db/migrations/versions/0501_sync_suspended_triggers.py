"""sync: search-index triggers set aside during a full pull

Revision ID: 0501_sync_suspended_triggers
Revises: 0500_sync
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0501_sync_suspended_triggers"
down_revision = "0500_sync"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sync_suspended_triggers",
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("index_table", sa.String(length=128), nullable=False),
        sa.Column("sql", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_sync_suspended_triggers")),
    )


def downgrade() -> None:
    op.drop_table("sync_suspended_triggers")
