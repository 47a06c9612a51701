"""Delivery claims on PostgreSQL (FOR UPDATE SKIP LOCKED): two workers never send one attempt twice."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from app.settings import Settings
from app.wiring import platform_runtime
from local_db.models.events import Delivery, DeliveryAttempt
from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import seed_demo
from services.events.delivery import DeliveryWorker
from tests.api.events.receiver import Certs, Receiver
from tests.services.events.conftest import ctx_for
from tests.services.events.test_events_worker import SHIPPED, configure, count, run_worker, sub

URL = os.environ.get("PLATFORM_TEST_POSTGRES_URL")
pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not URL, reason="PLATFORM_TEST_POSTGRES_URL not set")]


@pytest.fixture
def pg_runtime(tmp_path: Path) -> Iterator[Runtime]:
    assert URL
    admin = create_engine(URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql("DROP SCHEMA IF EXISTS public CASCADE")
        c.exec_driver_sql("CREATE SCHEMA public")
    admin.dispose()
    rt = platform_runtime(Settings(data_dir=tmp_path, database_url=URL, secret_key="pg-events-secret-0123456789abcdef"))
    seed_demo(rt)
    yield rt
    rt.db.dispose()


def test_two_workers_on_postgres_send_each_delivery_once(
    pg_runtime: Runtime, svc_certs: Certs, receiver: Receiver
) -> None:
    assert pg_runtime.db.engine.dialect.name == "postgresql"
    configure(pg_runtime, svc_certs, lanes=8)
    for i in range(5):
        sub(pg_runtime, receiver.script(f"/pg{i}"))
    ctx = ctx_for(pg_runtime)

    async def body(ws: list[DeliveryWorker]) -> None:
        def publish_all() -> None:
            for _ in range(40):
                execute(ctx, "events.publish", body={"type": "order.shipped", "data": SHIPPED})

        await asyncio.to_thread(publish_all)
        for _ in range(750):
            if count(pg_runtime, Delivery, Delivery.status == "succeeded") == 200:
                break
            await asyncio.sleep(0.02)
        assert ws[0].sent > 0 and ws[1].sent > 0, "both workers took part"

    run_worker(pg_runtime, body, workers=2)
    ids = [r.headers["x-service-delivery-id"] for r in receiver.requests]
    assert len(ids) == 200 and len(set(ids)) == 200
    assert count(pg_runtime, DeliveryAttempt) == 200
