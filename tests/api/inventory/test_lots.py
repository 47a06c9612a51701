"""Lots over real HTTP: received, moved, counted, shipped, scanned, picked first-to-expire, recalled."""

from __future__ import annotations

import httpx
from sqlalchemy import func, select

from local_db.models import Event
from local_db.models.inventory import InventoryMovement
from local_db.models.inventory_lots import InventoryLot, InventoryLotStock
from tests.conftest import LiveServer, auth_headers

BASE = "/demo/inventory/api"
SKU = "MILK-1L"


def _qty(client: httpx.Client, h: dict[str, str], loc: str) -> int:
    rows = client.get(f"{BASE}/stock", params={"sku": SKU, "location_id": loc, "include_children": "false"},
                      headers=h).json()["data"]  # fmt: skip
    return int(rows[0]["quantity"]) if rows else 0


def test_lots_from_receipt_to_recall(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")

    def stored() -> tuple[int, int, int]:
        with server.runtime.db.reading(None) as s:
            return (
                int(s.execute(select(func.count()).select_from(InventoryLot)).scalar_one()),
                int(s.execute(select(func.coalesce(func.sum(InventoryLotStock.quantity), 0))).scalar_one()),
                int(s.execute(select(func.count()).select_from(InventoryMovement)).scalar_one()),
            )

    # An item that does not track lots takes none: 400, nothing stored.
    assert client.post(f"{BASE}/items", json={"sku": SKU, "name": "Milk 1 l"}, headers=h).status_code == 201
    lot_a = {"sku": SKU, "code": "l-24 07", "expires_on": "2027-03-01", "location_id": "MAIN", "quantity": 10}
    before = stored()
    untracked = client.post(f"{BASE}/lots", json=lot_a, headers=h)
    assert untracked.status_code == 400 and untracked.json()["details"]["tracking"] == "none"
    assert client.post(f"{BASE}/lots", json={**lot_a, "sku": "NOPE-9"}, headers=h).status_code == 404
    assert stored() == before
    item = client.patch(f"{BASE}/items/{SKU}", json={"tracking": "lot"}, headers=h)
    assert item.status_code == 200 and item.json()["data"]["tracking"] == "lot"

    got = client.post(f"{BASE}/lots", json=lot_a, headers=h)
    assert got.status_code == 201, got.text
    a = got.json()["data"]
    assert (a["code"], a["on_hand"], a["places"][0]["location_code"]) == ("L2407", 10, "MAIN")
    early = {"sku": SKU, "code": "L2403", "expires_on": "2026-12-01", "location_id": "STORE", "quantity": 4}
    assert client.post(f"{BASE}/lots", json=early, headers=h).status_code == 201
    assert (
        client.post(f"{BASE}/lots", json={**early, "expires_on": None, "code": "L-NODATE"}, headers=h).status_code
        == 201
    )
    # The same code with another expiry is another lot's label: 409, nothing stored.
    before = stored()
    assert client.post(f"{BASE}/lots", json={**lot_a, "expires_on": "2027-04-01"}, headers=h).status_code == 409
    assert stored() == before
    assert (_qty(client, h, "MAIN"), _qty(client, h, "STORE")) == (10, 8)

    # Scanned: the code, written any way, finds the lot and where its units are.
    seen = client.get(f"{BASE}/lots/l 2407", headers=h).json()["data"]
    assert seen["id"] == a["id"] and seen["on_hand"] == 10
    assert client.get(f"{BASE}/lots/NOPE", headers=h).status_code == 404

    # Moved: more than the lot holds there is 409 naming what it holds; nothing moves.
    too_much = client.post(f"{BASE}/lots/L2407/move", json={"from_location_id": "MAIN", "to_location_id": "STORE",
                                                          "quantity": 11}, headers=h)  # fmt: skip
    assert too_much.status_code == 409 and too_much.json()["details"]["quantity"] == 10
    assert stored() == before
    moved = client.post(f"{BASE}/lots/L2407/move", json={"from_location_id": "MAIN", "to_location_id": "STORE",
                                                       "quantity": 3}, headers=h)  # fmt: skip
    assert moved.status_code == 200, moved.text
    assert {p["location_code"]: p["quantity"] for p in moved.json()["data"]["places"]} == {"MAIN": 7, "STORE": 3}
    assert (_qty(client, h, "MAIN"), _qty(client, h, "STORE")) == (7, 11)
    same = client.post(f"{BASE}/lots/L2407/move", json={"from_location_id": "MAIN", "to_location_id": "MAIN",
                                                      "quantity": 1}, headers=h)  # fmt: skip
    assert same.status_code == 400

    # Counted: the difference moves the lot and the item's row.
    counted = client.post(f"{BASE}/lots/L2407/count", json={"location_id": "MAIN", "counted": 6}, headers=h)
    assert counted.status_code == 200 and counted.json()["data"]["on_hand"] == 9
    assert _qty(client, h, "MAIN") == 6
    assert (
        client.post(f"{BASE}/lots/L2407/count", json={"location_id": "MAIN", "counted": -1}, headers=h).status_code
        == 400
    )

    # FEFO: the first to expire first, a lot without a date last; what no lot has is short.
    pick = client.get(f"{BASE}/lots/pick", params={"sku": SKU, "quantity": 20}, headers=h).json()["data"]
    assert [(x["code"], x["location_code"], x["quantity"]) for x in pick["lines"]] == [
        ("L2403", "STORE", 4),
        ("L2407", "MAIN", 6),
        ("L2407", "STORE", 3),
        ("LNODATE", "STORE", 4),
    ]
    assert pick["short"] == 3
    at_store = client.get(f"{BASE}/lots/pick", params={"sku": SKU, "quantity": 5, "location_id": "STORE"}, headers=h)
    assert [(x["code"], x["quantity"]) for x in at_store.json()["data"]["lines"]] == [("L2403", 4), ("L2407", 1)]
    assert client.get(f"{BASE}/lots/pick", params={"sku": SKU, "quantity": 0}, headers=h).status_code == 400

    # Shipped for two orders, then recalled: which orders got lot L-2407, and how many are left.
    for ref, loc, n in (("SO-1001", "MAIN", 2), ("SO-1002", "STORE", 3)):
        sent = client.post(f"{BASE}/lots/L2407/ship", json={"location_id": loc, "quantity": n, "reference": ref},
                           headers=h)  # fmt: skip
        assert sent.status_code == 200, sent.text
    over = client.post(f"{BASE}/lots/L2407/ship", json={"location_id": "STORE", "quantity": 1, "reference": "SO-9"},
                       headers=h)  # fmt: skip
    assert over.status_code == 409 and over.json()["details"]["reason"] == "lot_short"
    rec = client.get(f"{BASE}/lots/L2407/recall", headers=h).json()["data"]
    assert [(x["reference"], x["quantity"]) for x in rec["shipped"]] == [("SO-1001", 2), ("SO-1002", 3)]
    assert rec["shipped_quantity"] == 5 and rec["lot"]["on_hand"] == 4
    listed = client.get(f"{BASE}/lots", params={"sku": SKU, "expires_before": "2027-01-01"}, headers=h).json()["data"]
    assert [x["code"] for x in listed] == ["L2403"]
    # Lots in stock: the item cannot stop tracking them (their units would lose their lot).
    assert client.patch(f"{BASE}/items/{SKU}", json={"tracking": "none"}, headers=h).status_code == 409
    with server.runtime.db.reading(None) as s:
        kinds = [t for (t,) in s.execute(select(Event.type).where(Event.type.like("lot.%")).order_by(Event.created_at))]
    assert kinds.count("lot.received") == 3 and kinds.count("lot.shipped") == 2
    assert kinds.count("lot.moved") == 1 and kinds.count("lot.counted") == 1
