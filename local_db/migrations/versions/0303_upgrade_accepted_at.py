"""upgrade: when a trade-in's offer was accepted (submissions.accepted_at), filled from the offers

Revision ID: 0303_upgrade_accepted_at
Revises: 0302_upgrade_credit_ledger
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

import local_db.base

revision = "0303_upgrade_accepted_at"
down_revision = "0302_upgrade_credit_ledger"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("upgrade_submissions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("accepted_at", local_db.base.UTCDateTime(timezone=True), nullable=True))
    # Trade-ins accepted before the column: the time their accepted offer was answered.
    op.execute(
        "UPDATE upgrade_submissions SET accepted_at = ("
        " SELECT MAX(o.decided_at) FROM upgrade_offers o"
        " WHERE o.submission_id = upgrade_submissions.id AND o.status = 'accepted')"
        " WHERE accepted_at IS NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("upgrade_submissions", schema=None) as batch_op:
        batch_op.drop_column("accepted_at")
