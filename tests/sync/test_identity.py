"""One identity per record: a station and a platform seeded alike, or working on the same
records, hold the same rows under the same ids, so a sync finds no difference to repair."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.station import seed_data_dir
from services.core.demo import demo_id
from services.sync import protocol as p
from tests.conftest import TEST_SECRET
from tests.sync.conftest import PlatformProcess, Station, owner_token

ORDER = "0e53b15f-2b2e-57bb-8a50-f04c6b372262"  # SO-1021, packed in the demo data


def fresh_station(base: Path, name: str) -> Station:
    """A station whose demo data was seeded on the station itself (as ``--demo`` does), not copied."""
    d = base / name
    d.mkdir(parents=True)
    (d / "secret.key").write_text(f"{TEST_SECRET}-{name}")
    (d / "station-id").write_text(name)
    seed_data_dir(d)
    return Station(d, name)


def ids_by_table(db: sqlite3.Connection, tenant_id: str) -> dict[str, set[str]]:
    out = {}
    for name, t in p.synced_tables().items():
        if "tenant_id" in t.c and name != "memberships":
            out[name] = {r[0] for r in db.execute(f"SELECT id FROM {name} WHERE tenant_id = ?", (tenant_id,))}  # noqa: S608
    return out


def differences(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "services.sync" and "differ" in r.getMessage()]


def assert_same_rows(a: Station, platform: PlatformProcess) -> None:
    with sqlite3.connect(a.data_dir / "data.db") as mine, sqlite3.connect(platform.data_dir / "data.db") as theirs:
        here, there = ids_by_table(mine, a.tenant.id), ids_by_table(theirs, a.tenant.id)
    wrong = {t: (len(here[t]), len(there[t])) for t in here if here[t] != there[t]}
    assert wrong == {}


def test_a_station_seeded_on_its_own_holds_the_platforms_demo_rows_and_a_second_sync_pulls_nothing(
    platform: PlatformProcess, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="services.sync")
    a = fresh_station(tmp_path, "seeded-here")
    try:
        a.link(platform.url)
        first = a.sync()
        assert (first.state, first.pending, first.issues, first.difference) == ("idle", 0, 0, {})
        assert differences(caplog) == []
        assert_same_rows(a, platform)
        second = a.sync()
        assert (second.state, second.pulled, second.difference) == ("idle", 0, {})
    finally:
        a.close()


def test_offline_inventory_work_makes_the_same_movements_on_the_platform(
    platform: PlatformProcess, make_station: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="services.sync")
    a = make_station("stock-a", platform)
    assert a.sync().difference == {}
    # The platform fans the replayed changes' events out to a webhook: rows the station never makes.
    with httpx.Client(base_url=platform.url, headers={"Authorization": f"Bearer {owner_token(platform.url)}"}) as http:
        body = {"event_types": ["stock.adjusted", "stock.shipped", "transfer.completed", "order.shipped"],
                "target": "webhook", "webhook_url": "https://hooks.example.com/stock", "secret": "s3cret"}  # fmt: skip
        made = http.post("/demo/events/api/subscriptions", json=body)
        assert made.status_code == 201, made.text
    main, store = demo_id("inventory-location", "demo", "MAIN"), demo_id("inventory-location", "demo", "STORE")
    # Offline work: nothing is sent until the sync below.
    a.do("inventory.stock.adjust", body={"sku": "MUG-CER-01", "location_id": main, "delta": 7, "reason": "found"})
    a.do("inventory.stock.adjust", body={"sku": "PEN-GEL-BLU", "location_id": store, "counted": 1})
    t = a.do("inventory.transfers.create", body={"from_location_id": main, "to_location_id": store,
                                                 "lines": [{"sku": "MUG-CER-01", "quantity": 3}]})  # fmt: skip
    a.do("inventory.transfers.update", body={"status": "in_transit"}, id=t.id)
    a.do("inventory.transfers.update", body={"status": "completed"}, id=t.id)
    a.do("inventory.transfers.update", body={"status": "completed"}, id=demo_id("inventory-transfer", "demo", "1"))
    a.do("fulfillment.orders.operate", body={"operation": "ship"}, id=ORDER)
    for _ in range(3):  # the report's three rounds in a row
        status = a.sync()
        assert (status.state, status.pending, status.issues, status.difference) == ("idle", 0, 0, {})
    assert differences(caplog) == []
    assert_same_rows(a, platform)
    with a.rt.db.reading(a.tenant.id) as s:
        from local_db.models.inventory import InventoryMovement

        mine = set(s.execute(select(InventoryMovement.id)).scalars())
    assert len(mine) > 0
