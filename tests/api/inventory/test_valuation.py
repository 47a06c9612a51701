"""Stock valuation over real HTTP: every movement's unit cost and value, FIFO and average, the value
per item and location at a date."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx

from local_db.models import Tenant
from services.core.demo import demo_id
from tests.conftest import LiveServer, auth_headers

BASE = "/demo/inventory/api"


def _set_method(server: LiveServer, chosen: str) -> None:
    with server.runtime.db.transaction(None) as s:
        t = s.get(Tenant, demo_id("tenant", "demo"))
        assert t is not None
        t.settings = {**(t.settings or {}), "inventory": {"valuation": chosen}}


def _receive(client: httpx.Client, h: dict[str, str], sku: str, lines: list[tuple[int, str]]) -> None:
    """Receipts at the given unit costs, through a purchase order (sent, then received line by line)."""
    for qty, cost in lines:
        po = client.post(f"{BASE}/purchase-orders", json={"location_id": "MAIN", "lines": [
            {"sku": sku, "quantity": qty, "unit_cost": cost}]}, headers=h).json()["data"]  # fmt: skip
        client.patch(f"{BASE}/purchase-orders/{po['id']}", json={"status": "sent"}, headers=h)
        got = client.post(f"{BASE}/purchase-orders/{po['id']}/receive", json={"lines": [
            {"code": sku, "quantity": qty}]}, headers=h)  # fmt: skip
        assert got.status_code == 200, got.text


def _last(client: httpx.Client, h: dict[str, str], sku: str) -> dict[str, str]:
    return dict(client.get(f"{BASE}/movements", params={"sku": sku}, headers=h).json()["data"][0])


def test_fifo_and_average_values(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    for sku in ("VAL-F", "VAL-A"):
        assert client.post(f"{BASE}/items", json={"sku": sku, "unit_cost": "1.00"}, headers=h).status_code == 201
    bad = client.post(f"{BASE}/items", json={"sku": "VAL-X", "unit_cost": "-1"}, headers=h)
    assert bad.status_code == 400
    bad_po = client.post(f"{BASE}/purchase-orders", json={"location_id": "MAIN", "lines": [
        {"sku": "VAL-F", "quantity": 1, "unit_cost": "1.00001"}]}, headers=h)  # fmt: skip
    assert bad_po.status_code == 400

    # FIFO: 10 at 2.00 then 10 at 3.00; shipping 15 takes 10 x 2.00 + 5 x 3.00 = 35.00.
    _set_method(server, "fifo")
    _receive(client, h, "VAL-F", [(10, "2.00"), (10, "3.00")])
    received = _last(client, h, "VAL-F")
    assert (received["unit_cost"], received["value"]) == ("3.0000", "30.0000")
    before_ship = datetime.now(UTC)
    out = client.post(f"{BASE}/stock", json={"sku": "VAL-F", "location_id": "MAIN", "delta": -15}, headers=h)
    assert out.status_code == 200, out.text
    shipped = _last(client, h, "VAL-F")
    assert shipped["value"] == "35.0000"
    # A transfer carries the current cost and keeps the total: 5 left at 3.00 = 15.00.
    moved = client.post(f"{BASE}/transfers", json={"from_location_id": "MAIN", "to_location_id": "STORE",
                                                  "lines": [{"sku": "VAL-F", "quantity": 2}]}, headers=h)  # fmt: skip
    tid = moved.json()["data"]["id"]
    for status in ("in_transit", "completed"):
        assert client.patch(f"{BASE}/transfers/{tid}", json={"status": status}, headers=h).status_code == 200
    now = client.get(f"{BASE}/valuation", params={"sku": "VAL-F"}, headers=h).json()["data"]
    assert now["method"] == "fifo"
    assert {r["location_code"]: (r["quantity"], r["value"]) for r in now["rows"]} == {
        "MAIN": (3, "9.00"),
        "STORE": (2, "6.00"),
    }
    assert now["total"] == "15.00"
    # At a past date: before the shipment, 20 units worth 50.00 at MAIN.
    then = client.get(f"{BASE}/valuation", params={"sku": "VAL-F", "at": before_ship.isoformat()}, headers=h)
    assert [(r["location_code"], r["quantity"], r["value"]) for r in then.json()["data"]["rows"]] == [
        ("MAIN", 20, "50.00")
    ]

    # Average: 10 at 2.00 then 10 at 3.00 average 2.50; shipping 15 is 37.50; 5 left worth 12.50.
    _set_method(server, "average")
    _receive(client, h, "VAL-A", [(10, "2.00"), (10, "3.00")])
    client.post(f"{BASE}/stock", json={"sku": "VAL-A", "location_id": "MAIN", "delta": -15}, headers=h)
    assert _last(client, h, "VAL-A")["value"] == "37.5000"
    # A count up with no cost given comes in at the item's cost (1.00): 5 x 2.50 + 5 x 1.00.
    client.post(f"{BASE}/stock", json={"sku": "VAL-A", "location_id": "MAIN", "counted": 10}, headers=h)
    avg = client.get(f"{BASE}/valuation", params={"sku": "VAL-A", "location_id": "MAIN"}, headers=h).json()["data"]
    assert [(r["quantity"], r["value"]) for r in avg["rows"]] == [(10, "17.50")] and avg["method"] == "average"
    assert client.get(f"{BASE}/valuation", params={"location_id": "NOWHERE"}, headers=h).status_code == 404
    assert client.get(f"{BASE}/valuation", params={"at": "yesterday"}, headers=h).status_code == 400
