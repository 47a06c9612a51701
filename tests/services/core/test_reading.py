"""Read-only sessions (``Database.reading``): a write in one is refused on every database (so no
code relies on the rollback that ends it), and on PostgreSQL its statements run in autocommit,
without the BEGIN and ROLLBACK round trips a read does not need."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select

from local_db import Database
from local_db.models.core import Tenant
from services.core.context import Runtime
from tests.conftest import PG_URL, empty_pg_database


def test_a_write_in_a_read_session_is_refused_and_nothing_is_written(runtime: Runtime) -> None:
    with runtime.db.reading(None) as s:
        tenant = s.execute(select(Tenant).where(Tenant.slug == "demo")).scalar_one()
        before = tenant.name
        tenant.name = "changed in a read"
        with pytest.raises(RuntimeError, match="read-only session"):
            s.flush()
    with runtime.db.reading(None) as s:
        assert s.execute(select(Tenant.name).where(Tenant.slug == "demo")).scalar_one() == before
    # A transaction still writes.
    with runtime.db.transaction(None) as s:
        s.execute(select(Tenant).where(Tenant.slug == "demo")).scalar_one().name = "renamed"
    with runtime.db.reading(None) as s:
        assert s.execute(select(Tenant.name).where(Tenant.slug == "demo")).scalar_one() == "renamed"


@pytest.fixture
def pg_database() -> Iterator[Database]:
    if not PG_URL:
        pytest.skip("needs PLATFORM_TEST_POSTGRES_URL (a PostgreSQL server)")
    with empty_pg_database("t_read") as url:
        db = Database(url, migrate=False)
        yield db
        db.dispose()


def test_postgres_reads_run_in_autocommit_and_writes_in_a_transaction(pg_database: Database) -> None:
    with pg_database.reading(None) as s:
        raw = s.connection().connection.dbapi_connection
        assert raw is not None
        assert s.connection().exec_driver_sql("SELECT 1").scalar() == 1
        assert raw.autocommit is True  # no BEGIN was sent: the statement ran on its own
    with pg_database.transaction(None) as s:
        raw = s.connection().connection.dbapi_connection
        assert raw is not None
        s.connection().exec_driver_sql("SELECT 1")
        assert raw.autocommit is False  # the pool gave the connection back as it was
