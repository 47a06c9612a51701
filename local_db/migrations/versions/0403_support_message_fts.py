"""support message search: SQLite FTS5 trigram index over the text of every message

Revision ID: 0403_support_message_fts
Revises: 0402_support_fts
Create Date: 2026-11-23

An agent searching for words a customer wrote in a later reply finds the ticket. SQLite only
(PostgreSQL searches with LIKE); an SQLite built without FTS5 skips it.
"""
from alembic import op
import sqlalchemy as sa

revision = '0403_support_message_fts'
down_revision = '0402_support_fts'
branch_labels = None
depends_on = None

T = "support_message_search"
COLS = "body, ticket_id, tenant_id"
DDL = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {T} USING fts5(body, ticket_id UNINDEXED, tenant_id UNINDEXED, "
    "content='support_messages', content_rowid='rowid', tokenize='trigram')",
    f"CREATE TRIGGER IF NOT EXISTS {T}_ai AFTER INSERT ON support_messages BEGIN "
    f"INSERT INTO {T}(rowid, {COLS}) VALUES (new.rowid, new.body, new.ticket_id, new.tenant_id); END",
    f"CREATE TRIGGER IF NOT EXISTS {T}_ad AFTER DELETE ON support_messages BEGIN "
    f"INSERT INTO {T}({T}, rowid, {COLS}) VALUES ('delete', old.rowid, old.body, old.ticket_id, old.tenant_id); END",
    f"CREATE TRIGGER IF NOT EXISTS {T}_au AFTER UPDATE OF body, ticket_id ON support_messages BEGIN "
    f"INSERT INTO {T}({T}, rowid, {COLS}) VALUES ('delete', old.rowid, old.body, old.ticket_id, old.tenant_id); "
    f"INSERT INTO {T}(rowid, {COLS}) VALUES (new.rowid, new.body, new.ticket_id, new.tenant_id); END",
)
BACKFILL = f"INSERT INTO {T}({T}) VALUES ('rebuild')"


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    try:
        for stmt in DDL:
            bind.exec_driver_sql(stmt)
    except sa.exc.OperationalError as exc:
        if "fts5" in str(exc).lower():
            return
        raise
    bind.exec_driver_sql(BACKFILL)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    for suffix in ("_ai", "_ad", "_au"):
        bind.exec_driver_sql(f"DROP TRIGGER IF EXISTS {T}{suffix}")
    bind.exec_driver_sql(f"DROP TABLE IF EXISTS {T}")
