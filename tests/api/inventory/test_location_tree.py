"""The location tree over real HTTP: stock rolls up to parents; codes work wherever ids do."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import func, select

from local_db.models.inventory import InventoryMovement, InventoryTransfer
from services.core.demo import demo_id
from tests.conftest import LiveServer, auth_headers

BASE = "/demo/inventory/api"
MAIN = demo_id("inventory-location", "demo", "MAIN")
SKU = "TREE-WIDGET"


def _ok(r: httpx.Response, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    return r.json()["data"]


def _stock(client: httpx.Client, h: dict[str, str], **params: Any) -> list[dict[str, Any]]:
    return list(_ok(client.get(f"{BASE}/stock", params={"sku": SKU, "limit": 100, **params}, headers=h)))


def test_stock_rolls_up_and_codes_work_everywhere(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    aisle = _ok(client.post(f"{BASE}/locations", json={"code": "MAIN-A", "name": "Aisle A", "parent_id": "MAIN"},
                            headers=h), 201)  # fmt: skip
    shelf = _ok(client.post(f"{BASE}/locations", json={"code": "MAIN-A-B2", "name": "Shelf B2",
                                                       "parent_id": aisle["id"]}, headers=h), 201)  # fmt: skip
    assert aisle["parent_id"] == MAIN and shelf["parent_id"] == aisle["id"]
    children = _ok(client.get(f"{BASE}/locations", params={"parent_id": "MAIN"}, headers=h))
    assert [c["code"] for c in children] == ["MAIN-A"]
    # Adjustments by code.
    for code, qty in (("MAIN", 24), ("MAIN-A-B2", 3)):
        _ok(client.post(f"{BASE}/stock", json={"sku": SKU, "location_id": code, "delta": qty}, headers=h))
    # MAIN shows its own 24 and its shelf's 3 (two levels down); alone it is 24.
    rolled = _stock(client, h, location_id="MAIN")
    assert sorted((r["location_id"], r["quantity"]) for r in rolled) == sorted([(MAIN, 24), (shelf["id"], 3)])
    assert sum(r["quantity"] for r in _stock(client, h, location_id=MAIN)) == 27  # by id the same
    alone = _stock(client, h, location_id="MAIN", include_children="false")
    assert [(r["location_id"], r["quantity"]) for r in alone] == [(MAIN, 24)]
    assert [r["quantity"] for r in _stock(client, h, location_id="MAIN-A")] == [3]
    # Movements, transfers and alert rules take the code too.
    moved = _ok(client.get(f"{BASE}/movements", params={"location_id": "MAIN-A-B2", "sku": SKU}, headers=h))
    assert [m["quantity"] for m in moved] == [3]
    t = _ok(client.post(f"{BASE}/transfers", json={"from_location_id": "MAIN-A-B2", "to_location_id": "STORE",
                                                   "lines": [{"sku": SKU, "quantity": 1}]}, headers=h), 201)  # fmt: skip
    assert t["from_location_id"] == shelf["id"]
    listed = _ok(client.get(f"{BASE}/transfers", params={"location_id": "MAIN-A-B2"}, headers=h))
    assert [x["id"] for x in listed] == [t["id"]]
    rule = _ok(client.post(f"{BASE}/alerts", json={"sku": SKU, "location_id": "MAIN-A-B2", "threshold": 1},
                           headers=h), 201)  # fmt: skip
    assert rule["location_id"] == shelf["id"]


def test_unknown_codes_are_refused_or_match_nothing(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")

    def counts() -> tuple[int, int]:
        with server.runtime.db.reading(None) as s:
            return (
                int(s.execute(select(func.count()).select_from(InventoryMovement)).scalar_one()),
                int(s.execute(select(func.count()).select_from(InventoryTransfer)).scalar_one()),
            )

    before = counts()
    r = client.post(f"{BASE}/stock", json={"sku": SKU, "location_id": "NOWHERE", "delta": 1}, headers=h)
    assert r.status_code == 404 and "NOWHERE" in r.text
    r = client.post(f"{BASE}/transfers", json={"from_location_id": "NOWHERE", "to_location_id": "MAIN",
                                               "lines": [{"sku": SKU, "quantity": 1}]}, headers=h)  # fmt: skip
    assert r.status_code == 400 and "NOWHERE" in r.text
    # A code naming the same place as the id: still one place.
    r = client.post(f"{BASE}/transfers", json={"from_location_id": "MAIN", "to_location_id": MAIN,
                                               "lines": [{"sku": SKU, "quantity": 1}]}, headers=h)  # fmt: skip
    assert r.status_code == 400
    r = client.post(f"{BASE}/locations", json={"code": "ORPHAN", "name": "Orphan", "parent_id": "NOWHERE"}, headers=h)
    assert r.status_code == 400
    assert counts() == before
    assert _ok(client.get(f"{BASE}/stock", params={"location_id": "NOWHERE"}, headers=h)) == []
    assert _ok(client.get(f"{BASE}/movements", params={"location_id": "NOWHERE"}, headers=h)) == []
    r = client.get(f"{BASE}/stock", params={"location_id": "x" * 61}, headers=h)
    assert r.status_code == 400
