"""The server on PostgreSQL (when PLATFORM_TEST_POSTGRES_URL is set): the same flows as on SQLite."""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import select

from app.settings import Settings
from local_db.models import ApiKey
from tests.conftest import LiveServer, auth_headers, empty_pg_database, start_server

URL = os.environ.get("PLATFORM_TEST_POSTGRES_URL")
pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not URL, reason="PLATFORM_TEST_POSTGRES_URL not set")]


@pytest.fixture(scope="module")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with empty_pg_database("t_api") as url:
        settings = Settings(data_dir=tmp_path_factory.mktemp("pg"), database_url=url, demo=True, rate_limits="off",
                            secret_key="pg-test-secret-0123456789abcdefghijkl")  # fmt: skip
        srv = start_server(settings)
        yield srv
        srv.stop()
        srv.runtime.db.dispose()


def test_login_keys_users_and_scoping_on_postgres(pg_server: LiveServer) -> None:
    assert pg_server.runtime.db.engine.dialect.name == "postgresql"
    with httpx.Client(base_url=pg_server.url) as c:
        h = auth_headers(c, "owner@demo.test")
        users = c.get("/api/tenants/demo/users", params={"sort": "email", "limit": 2}, headers=h).json()
        assert users["meta"]["total"] == 4 and len(users["data"]) == 2
        r = c.post("/api/tenants/demo/api-keys", json={"name": "pg", "modules": ["docs"]}, headers=h)
        assert r.status_code == 201
        body = {"email": "pg@demo.test", "name": "PG", "password": "long-enough", "role": "operator"}
        assert c.post("/api/tenants/demo/users", json=body, headers=h).status_code == 201
        assert c.post("/api/tenants/demo/users", json=body, headers=h).status_code == 409
        other = auth_headers(c, "owner@other.test")
        assert c.get("/api/tenants/demo/users", headers=other).status_code == 403
        assert c.get("/api/tenants/other/api-keys", headers=other).json()["meta"]["total"] == 0
    with pg_server.runtime.db.reading("demo-tenant-that-does-not-exist") as s:
        assert s.execute(select(ApiKey)).first() is None
