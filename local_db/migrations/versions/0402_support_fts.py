"""support ticket search: SQLite FTS5 trigram index kept in sync by triggers

Revision ID: 0402_support_fts
Revises: 0401_support_search
Create Date: 2026-11-22

SQLite only (PostgreSQL searches with LIKE). An SQLite built without FTS5
skips it; the service then falls back to LIKE as well.
"""
from alembic import op
import sqlalchemy as sa

revision = '0402_support_fts'
down_revision = '0401_support_search'
branch_labels = None
depends_on = None

DDL = ("CREATE VIRTUAL TABLE IF NOT EXISTS support_ticket_search USING fts5(number, subject, requester_email, description, id UNINDEXED, tenant_id UNINDEXED, content='support_tickets', content_rowid='rowid', tokenize='trigram')", 'CREATE TRIGGER IF NOT EXISTS support_ticket_search_ai AFTER INSERT ON support_tickets BEGIN INSERT INTO support_ticket_search(rowid, number, subject, requester_email, description, id, tenant_id) VALUES (new.rowid, new.number, new.subject, new.requester_email, new.description, new.id, new.tenant_id); END', "CREATE TRIGGER IF NOT EXISTS support_ticket_search_ad AFTER DELETE ON support_tickets BEGIN INSERT INTO support_ticket_search(support_ticket_search, rowid, number, subject, requester_email, description, id, tenant_id) VALUES ('delete', old.rowid, old.number, old.subject, old.requester_email, old.description, old.id, old.tenant_id); END", "CREATE TRIGGER IF NOT EXISTS support_ticket_search_au AFTER UPDATE OF number, subject, requester_email, description ON support_tickets BEGIN INSERT INTO support_ticket_search(support_ticket_search, rowid, number, subject, requester_email, description, id, tenant_id) VALUES ('delete', old.rowid, old.number, old.subject, old.requester_email, old.description, old.id, old.tenant_id); INSERT INTO support_ticket_search(rowid, number, subject, requester_email, description, id, tenant_id) VALUES (new.rowid, new.number, new.subject, new.requester_email, new.description, new.id, new.tenant_id); END")
BACKFILL = "INSERT INTO support_ticket_search(support_ticket_search) VALUES ('rebuild')"


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
        bind.exec_driver_sql("DROP TRIGGER IF EXISTS support_ticket_search" + suffix)
    bind.exec_driver_sql("DROP TABLE IF EXISTS support_ticket_search")
