"""Database layer: typed SQLAlchemy models, engine set-up, migrations, tenant scoping.

Imports nothing of ours; the service layer builds on it.
"""

from local_db.base import Base, TenantScoped, new_id, utcnow
from local_db.engine import Database, make_engine, run_migrations
from local_db.scoping import TenantScopeError

__all__ = [
    "Base",
    "Database",
    "TenantScopeError",
    "TenantScoped",
    "make_engine",
    "new_id",
    "run_migrations",
    "utcnow",
]
