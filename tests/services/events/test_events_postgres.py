"""Delivery claims on PostgreSQL (FOR UPDATE SKIP LOCKED): two workers never send one attempt twice."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.settings import Settings
from app.wiring import platform_runtime
from services.core.context import Runtime
from services.core.demo import seed_demo
from tests.api.events.receiver import Certs, Receiver
from tests.conftest import empty_pg_database
from tests.services.events.test_events_worker import assert_two_workers_send_each_delivery_once

URL = os.environ.get("PLATFORM_TEST_POSTGRES_URL")
pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not URL, reason="PLATFORM_TEST_POSTGRES_URL not set")]


@pytest.fixture
def pg_runtime(tmp_path: Path) -> Iterator[Runtime]:
    with empty_pg_database("t_events") as url:
        rt = platform_runtime(
            Settings(data_dir=tmp_path, database_url=url, secret_key="pg-events-secret-0123456789abcdef")
        )
        seed_demo(rt)
        yield rt
        rt.db.dispose()


def test_two_workers_on_postgres_send_each_delivery_once(pg_runtime: Runtime, certs: Certs, receiver: Receiver) -> None:
    assert pg_runtime.db.engine.dialect.name == "postgresql"
    assert_two_workers_send_each_delivery_once(pg_runtime, certs, receiver)
