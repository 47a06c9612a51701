"""core: the auth cache's version (cache_versions), bumped by triggers on the tables it caches

Revision ID: 0005_core_auth_cache_version
Revises: 0004_tenant_sandboxes
Create Date: 2026-11-27 03:10:00.000000

The API resolves the tenant, the API key and the principal of every request from a cache in each
worker process (services/core/authcache.py); a request reads one row, ``cache_versions.version``
of ``auth``, and the cache holds only entries read at that version. Triggers bump it on any
insert, update or delete of tenants, api_keys, users, memberships and revoked_sessions, so a change
made anywhere (an ORM session, a Core statement, another worker process, a script on the database)
invalidates every process's cache at its next request, on SQLite and on PostgreSQL alike.
"""
from alembic import op
import sqlalchemy as sa


revision = '0005_core_auth_cache_version'
down_revision = '0004_tenant_sandboxes'
branch_labels = None
depends_on = None

TABLES = ("tenants", "api_keys", "users", "memberships", "revoked_sessions")
BUMP = "UPDATE cache_versions SET version = version + 1 WHERE name = 'auth'"


def upgrade() -> None:
    op.create_table(
        'cache_versions',
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('version', sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint('name', name=op.f('pk_cache_versions')),
    )
    bind = op.get_bind()
    bind.exec_driver_sql("INSERT INTO cache_versions (name, version) VALUES ('auth', 1)")
    if bind.dialect.name == "sqlite":
        for table in TABLES:
            for what in ("INSERT", "UPDATE", "DELETE"):
                bind.exec_driver_sql(
                    f"CREATE TRIGGER cache_version_{table}_{what.lower()} AFTER {what} ON {table} BEGIN {BUMP}; END"
                )
        return
    bind.exec_driver_sql(
        "CREATE FUNCTION bump_auth_cache_version() RETURNS trigger LANGUAGE plpgsql AS "
        f"$$ BEGIN {BUMP}; RETURN NULL; END $$"
    )
    for table in TABLES:
        # Once a statement, not once a row: a bulk change bumps the version once.
        bind.exec_driver_sql(
            f"CREATE TRIGGER cache_version_{table} AFTER INSERT OR UPDATE OR DELETE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_cache_version()"
        )


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        for table in TABLES:
            for what in ("insert", "update", "delete"):
                bind.exec_driver_sql(f"DROP TRIGGER IF EXISTS cache_version_{table}_{what}")
    else:
        for table in TABLES:
            bind.exec_driver_sql(f"DROP TRIGGER IF EXISTS cache_version_{table} ON {table}")
        bind.exec_driver_sql("DROP FUNCTION IF EXISTS bump_auth_cache_version()")
    op.drop_table('cache_versions')
