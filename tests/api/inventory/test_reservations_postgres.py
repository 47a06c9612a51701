"""Reservations under 8 concurrent writers on PostgreSQL (when PLATFORM_TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest

from app.settings import Settings
from tests.api.inventory.test_reservations import eight_concurrent_orders
from tests.conftest import TEST_SECRET, LiveServer, _pg_admin, _pg_url, new_pg_database, start_server

URL = os.environ.get("PLATFORM_TEST_POSTGRES_URL")
pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not URL, reason="PLATFORM_TEST_POSTGRES_URL not set")]


@pytest.fixture(scope="module")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # A database of its own, copied from the seeded template: dropping the shared schema (as
    # tests/api/test_postgres.py does) would pull it from under another worker's test.
    name = new_pg_database(tmp_path_factory)
    settings = Settings(data_dir=tmp_path_factory.mktemp("pg"), database_url=_pg_url(name), rate_limits="off", force_https=False,
                        secret_key=TEST_SECRET)  # fmt: skip
    srv = start_server(settings)
    yield srv
    srv.stop()
    srv.runtime.db.dispose()
    admin = _pg_admin()
    with admin.connect() as c:
        c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    admin.dispose()


def test_eight_concurrent_orders_on_postgres(pg_server: LiveServer) -> None:
    assert pg_server.runtime.db.engine.dialect.name == "postgresql"
    with httpx.Client(base_url=pg_server.url, timeout=60) as client:
        eight_concurrent_orders(client, pg_server)
