"""docs document search: the scope table's values as small integer keys

Revision ID: 1603_docs_search_scope_keys
Revises: 1602_docs_search_scope
Create Date: 2026-11-23

SQLite only. Every hit of the index is looked up by rowid in ``docs_document_search_scope``; with
its tenant and category ids (36 characters each), status, trash flag and ``updated_at`` as text a
row took about 110 bytes, 50,000 documents a thousand pages: more than SQLite's page cache holds
beside the index, so a search read most of them again. Now the texts are keys of
``docs_document_search_keys`` (one row per distinct tenant, status or category id), ``shown`` is
the status's key or NULL in the trash, and ``updated_us`` is ``updated_at`` in microseconds (the
ranking's tie-break, ordered as the text is): about 20 bytes a row, a quarter of the pages.
Skipped where the index is missing.
"""

from alembic import op

revision = "1603_docs_search_scope_keys"
down_revision = "1602_docs_search_scope"
branch_labels = None
depends_on = None

T = "docs_document_search_scope"
K = "docs_document_search_keys"
COLS = "rowid, tenant, shown, category, updated_us"


def key(value: str) -> str:
    return f"(SELECT key FROM {K} WHERE value = {value})"


def micros(value: str) -> str:
    # SQLAlchemy writes "YYYY-MM-DD HH:MM:SS.ffffff": seconds from strftime, the digits after the
    # point padded to six (a shorter fraction reads as the same time).
    return f"CAST(strftime('%s', {value}) AS INTEGER) * 1000000 + CAST(substr({value} || '000000', 21, 6) AS INTEGER)"


def row(d: str) -> str:
    """The scope row's values for the document row ``d`` (``new`` in a trigger)."""
    shown = f"CASE WHEN {d}.deleted_at IS NULL THEN {key(d + '.status')} END"
    return f"{d}.rowid, {key(d + '.tenant_id')}, {shown}, {key(d + '.category_id')}, {micros(d + '.updated_at')}"


def new_keys(d: str) -> str:
    # NOT IN rather than INSERT OR IGNORE: a trigger's conflict clause yields to the outer
    # statement's, and a station's pull writes documents by upsert (ON CONFLICT DO UPDATE), under
    # which the IGNORE would not hold.
    return (
        f"INSERT INTO {K}(value) SELECT v FROM (SELECT {d}.tenant_id AS v UNION SELECT {d}.status"
        f" UNION SELECT {d}.category_id) WHERE v IS NOT NULL AND v NOT IN (SELECT value FROM {K});"
    )


DDL = (
    f"CREATE TABLE {K} (key INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE)",
    f"CREATE TABLE {T} (rowid INTEGER PRIMARY KEY, tenant INTEGER NOT NULL, shown INTEGER, category INTEGER,"
    " updated_us INTEGER)",
    f"CREATE TRIGGER {T}_ai AFTER INSERT ON docs_documents BEGIN {new_keys('new')}"
    f" INSERT OR REPLACE INTO {T}({COLS}) VALUES ({row('new')}); END",
    f"CREATE TRIGGER {T}_ad AFTER DELETE ON docs_documents BEGIN DELETE FROM {T} WHERE rowid = old.rowid; END",
    f"CREATE TRIGGER {T}_au AFTER UPDATE OF tenant_id, status, category_id, deleted_at, updated_at ON docs_documents"
    f" BEGIN DELETE FROM {T} WHERE rowid = old.rowid; {new_keys('new')}"
    f" INSERT OR REPLACE INTO {T}({COLS}) VALUES ({row('new')}); END",
)
# Also the refill of services/docs/search.rebuild (kept in step with it).
BACKFILL = (
    f"INSERT OR IGNORE INTO {K}(value) SELECT tenant_id FROM docs_documents UNION SELECT status FROM docs_documents"
    " UNION SELECT category_id FROM docs_documents WHERE category_id IS NOT NULL",
    f"INSERT OR REPLACE INTO {T}({COLS}) SELECT {row('d')} FROM docs_documents AS d",
)
OLD_TRIGGERS = ("_ai", "_ad", "_au")


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    if bind.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE name = 'docs_document_search'").first() is None:
        return  # no FTS5 in this SQLite: the search uses LIKE and needs no scope
    for suffix in OLD_TRIGGERS:
        bind.exec_driver_sql(f"DROP TRIGGER IF EXISTS {T}{suffix}")
    bind.exec_driver_sql(f"DROP TABLE IF EXISTS {T}")
    for stmt in DDL:
        bind.exec_driver_sql(stmt)
    for stmt in BACKFILL:
        bind.exec_driver_sql(stmt)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return
    if bind.exec_driver_sql(f"SELECT 1 FROM sqlite_master WHERE name = '{K}'").first() is None:
        return
    for suffix in OLD_TRIGGERS:
        bind.exec_driver_sql(f"DROP TRIGGER IF EXISTS {T}{suffix}")
    bind.exec_driver_sql(f"DROP TABLE IF EXISTS {T}")
    bind.exec_driver_sql(f"DROP TABLE IF EXISTS {K}")
    # The text columns of 1602 again.
    old_cols = "rowid, tenant_id, status, category_id, live, updated_at"
    old_new = "new.rowid, new.tenant_id, new.status, new.category_id, new.deleted_at IS NULL, new.updated_at"
    for stmt in (
        f"CREATE TABLE {T} (rowid INTEGER PRIMARY KEY, tenant_id TEXT NOT NULL, status TEXT NOT NULL,"
        " category_id TEXT, live INTEGER NOT NULL, updated_at TEXT)",
        f"CREATE TRIGGER {T}_ai AFTER INSERT ON docs_documents BEGIN INSERT OR REPLACE INTO {T}({old_cols}) VALUES ({old_new}); END",
        f"CREATE TRIGGER {T}_ad AFTER DELETE ON docs_documents BEGIN DELETE FROM {T} WHERE rowid = old.rowid; END",
        f"CREATE TRIGGER {T}_au AFTER UPDATE OF tenant_id, status, category_id, deleted_at, updated_at ON docs_documents"
        f" BEGIN DELETE FROM {T} WHERE rowid = old.rowid; INSERT OR REPLACE INTO {T}({old_cols}) VALUES ({old_new}); END",
        f"INSERT INTO {T}({old_cols}) SELECT rowid, tenant_id, status, category_id, deleted_at IS NULL, updated_at"
        " FROM docs_documents",
    ):
        bind.exec_driver_sql(stmt)
