"""docs document search: SQLite FTS5 trigram index kept in sync by triggers

Revision ID: 1601_docs_fts
Revises: 1600_docs
Create Date: 2026-11-23

SQLite only (PostgreSQL searches with ILIKE). An SQLite built without FTS5
skips it; the service then falls back to ILIKE as well.
"""
from alembic import op
import sqlalchemy as sa

revision = '1601_docs_fts'
down_revision = '1600_docs'
branch_labels = None
depends_on = None

COLS = "title, body"
NEW = "new.rowid, new.title, new.body"
OLD = "'delete', old.rowid, old.title, old.body"
DDL = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS docs_document_search USING fts5(title, body, content='docs_documents', content_rowid='rowid', tokenize='trigram')",
    f"CREATE TRIGGER IF NOT EXISTS docs_document_search_ai AFTER INSERT ON docs_documents BEGIN INSERT INTO docs_document_search(rowid, {COLS}) VALUES ({NEW}); END",
    f"CREATE TRIGGER IF NOT EXISTS docs_document_search_ad AFTER DELETE ON docs_documents BEGIN INSERT INTO docs_document_search(docs_document_search, rowid, {COLS}) VALUES ({OLD}); END",
    f"CREATE TRIGGER IF NOT EXISTS docs_document_search_au AFTER UPDATE OF title, body ON docs_documents BEGIN INSERT INTO docs_document_search(docs_document_search, rowid, {COLS}) VALUES ({OLD}); INSERT INTO docs_document_search(rowid, {COLS}) VALUES ({NEW}); END",
)
BACKFILL = "INSERT INTO docs_document_search(docs_document_search) VALUES ('rebuild')"


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
        bind.exec_driver_sql("DROP TRIGGER IF EXISTS docs_document_search" + suffix)
    bind.exec_driver_sql("DROP TABLE IF EXISTS docs_document_search")
