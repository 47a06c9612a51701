"""core: an API key's last_used_at write no longer bumps the auth cache version

Revision ID: 0007_core_key_use_no_bump
Revises: 0006_core_covered_tenant_idx
Create Date: 2026-11-27 06:30:00.000000

The request path writes a key's ``last_used_at`` at most once a minute per key; the trigger of
0005 bumped ``cache_versions.auth`` on it, which emptied every worker's whole auth cache once a
minute per key in use (issue 38). It is not an auth fact: the update trigger of ``api_keys`` now
fires on an update of any other column only (``UPDATE OF``, SQLite and PostgreSQL). A migration
that adds a column to ``api_keys`` must make this trigger again (tests/api/test_auth_cache.py
fails until it does).
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_core_key_use_no_bump"
down_revision = "0006_core_covered_tenant_idx"
branch_labels = None
depends_on = None

BUMP = "UPDATE cache_versions SET version = version + 1 WHERE name = 'auth'"


def _columns(bind: sa.engine.Connection, *, but: str | None) -> str:
    return ", ".join(c["name"] for c in sa.inspect(bind).get_columns("api_keys") if c["name"] != but)


def _make(but: str | None) -> None:
    bind = op.get_bind()
    cols = _columns(bind, but=but)
    if bind.dialect.name == "sqlite":
        bind.exec_driver_sql("DROP TRIGGER IF EXISTS cache_version_api_keys_update")
        bind.exec_driver_sql(
            f"CREATE TRIGGER cache_version_api_keys_update AFTER UPDATE OF {cols} ON api_keys BEGIN {BUMP}; END"
        )
        return
    bind.exec_driver_sql("DROP TRIGGER IF EXISTS cache_version_api_keys ON api_keys")
    bind.exec_driver_sql(
        f"CREATE TRIGGER cache_version_api_keys AFTER INSERT OR DELETE OR UPDATE OF {cols} ON api_keys "
        "FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_cache_version()"
    )


def upgrade() -> None:
    _make(but="last_used_at")


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        bind.exec_driver_sql("DROP TRIGGER IF EXISTS cache_version_api_keys_update")
        bind.exec_driver_sql(f"CREATE TRIGGER cache_version_api_keys_update AFTER UPDATE ON api_keys BEGIN {BUMP}; END")
        return
    bind.exec_driver_sql("DROP TRIGGER IF EXISTS cache_version_api_keys ON api_keys")
    bind.exec_driver_sql(
        "CREATE TRIGGER cache_version_api_keys AFTER INSERT OR UPDATE OR DELETE ON api_keys "
        "FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_cache_version()"
    )
