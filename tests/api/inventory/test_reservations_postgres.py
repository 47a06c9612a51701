"""Reservations under 8 concurrent writers on PostgreSQL (when PLATFORM_TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import create_engine

from app.settings import Settings
from tests.api.inventory.test_reservations import eight_concurrent_orders
from tests.conftest import LiveServer, start_server

URL = os.environ.get("PLATFORM_TEST_POSTGRES_URL")
pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not URL, reason="PLATFORM_TEST_POSTGRES_URL not set")]


@pytest.fixture(scope="module")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    assert URL
    admin = create_engine(URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql("DROP SCHEMA IF EXISTS public CASCADE")
        c.exec_driver_sql("CREATE SCHEMA public")
    admin.dispose()
    settings = Settings(data_dir=tmp_path_factory.mktemp("pg"), database_url=URL, demo=True, rate_limits="off",
                        secret_key="pg-test-secret-0123456789abcdefghijkl")  # fmt: skip
    srv = start_server(settings)
    yield srv
    srv.stop()
    srv.runtime.db.dispose()


def test_eight_concurrent_orders_on_postgres(pg_server: LiveServer) -> None:
    assert pg_server.runtime.db.engine.dialect.name == "postgresql"
    with httpx.Client(base_url=pg_server.url, timeout=60) as client:
        eight_concurrent_orders(client, pg_server)
