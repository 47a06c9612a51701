"""rewards: earning rules and tiers bump the request cache's version (cache_versions 'auth')

Revision ID: 0902_rewards_cache_version
Revises: 0901_rewards_depth
Create Date: 2026-11-27 11:30:00.000000

The dealer's points page works out the points of receipts waiting for review from the tenant's
earning rules and tiers on every visit: two statements, a fifth of the page's round trips (issue
33: the page's speed). They are now kept in the per-process cache of services/core/authcache.py,
which holds an entry only at the version a visit read; these triggers bump that version on any
insert, update or delete of the two tables (as 0005 does for the auth tables), so a rule changed
by staff, another worker process or a script applies at the next visit everywhere.
"""

from alembic import op

revision = "0902_rewards_cache_version"
down_revision = "0901_rewards_depth"
branch_labels = None
depends_on = "0005_core_auth_cache_version"  # cache_versions and bump_auth_cache_version()

TABLES = ("rewards_earning_rules", "rewards_tiers")
BUMP = "UPDATE cache_versions SET version = version + 1 WHERE name = 'auth'"


def upgrade() -> None:
    bind = op.get_bind()
    for table in TABLES:
        if bind.dialect.name == "sqlite":
            for what in ("INSERT", "UPDATE", "DELETE"):
                bind.exec_driver_sql(
                    f"CREATE TRIGGER cache_version_{table}_{what.lower()} AFTER {what} ON {table} BEGIN {BUMP}; END"
                )
        else:
            # Once a statement, not once a row: a bulk change bumps the version once.
            bind.exec_driver_sql(
                f"CREATE TRIGGER cache_version_{table} AFTER INSERT OR UPDATE OR DELETE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_cache_version()"
            )


def downgrade() -> None:
    bind = op.get_bind()
    for table in TABLES:
        if bind.dialect.name == "sqlite":
            for what in ("insert", "update", "delete"):
                bind.exec_driver_sql(f"DROP TRIGGER IF EXISTS cache_version_{table}_{what}")
        else:
            bind.exec_driver_sql(f"DROP TRIGGER IF EXISTS cache_version_{table} ON {table}")
