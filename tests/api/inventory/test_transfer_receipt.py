"""Partial receipt of a transfer over real HTTP: the rest stays in transit or is written off."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import func, select

from local_db.models.inventory import InventoryMovement
from tests.conftest import LiveServer, auth_headers

BASE = "/demo/inventory/api"
A, B = "PART-A", "PART-B"


def _qty(client: httpx.Client, h: dict[str, str], sku: str, loc: str) -> int:
    rows = client.get(f"{BASE}/stock", params={"sku": sku, "location_id": loc, "include_children": "false"},
                      headers=h).json()["data"]  # fmt: skip
    return int(rows[0]["quantity"]) if rows else 0


def _shipped(client: httpx.Client, h: dict[str, str]) -> dict[str, Any]:
    for sku in (A, B):
        client.post(f"{BASE}/stock", json={"sku": sku, "location_id": "MAIN", "delta": 10}, headers=h)
    t = client.post(f"{BASE}/transfers", json={"from_location_id": "MAIN", "to_location_id": "STORE",
                                               "lines": [{"sku": A, "quantity": 5}, {"sku": B, "quantity": 2}]},
                    headers=h).json()["data"]  # fmt: skip
    r = client.patch(f"{BASE}/transfers/{t['id']}", json={"status": "in_transit"}, headers=h)
    assert r.status_code == 200, r.text
    return dict(r.json()["data"])


def test_partial_receipts_then_the_rest(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    t = _shipped(client, h)
    recv = f"{BASE}/transfers/{t['id']}/receive"

    def moves() -> int:
        with server.runtime.db.reading(None) as s:
            return int(s.execute(select(func.count()).select_from(InventoryMovement)).scalar_one())

    before = moves()
    over = client.post(recv, json={"lines": [{"sku": A, "quantity": 6}]}, headers=h)
    assert over.status_code == 400 and over.json()["details"]["reason"] == "over_receipt"
    stranger = client.post(recv, json={"lines": [{"sku": "NOT-SENT", "quantity": 1}]}, headers=h)
    assert stranger.status_code == 400
    assert client.post(recv, json={}, headers=h).status_code == 400
    assert moves() == before  # nothing moved
    first = client.post(recv, json={"lines": [{"sku": A, "quantity": 3}]}, headers=h)
    assert first.status_code == 200 and first.json()["data"]["status"] == "in_transit", first.text
    assert first.json()["data"]["receipts"][0] == {"sku": A, "quantity": 5, "received": 3, "written_off": 0}
    assert _qty(client, h, A, "STORE") >= 3
    # 2 of A are still in transit: 3 more is over the sent quantity.
    again = client.post(recv, json={"lines": [{"sku": A, "quantity": 3}]}, headers=h)
    assert again.status_code == 400 and again.json()["details"]["in_transit"] == 2
    # Completing the transfer carries only what is still in transit.
    store_a, store_b = _qty(client, h, A, "STORE"), _qty(client, h, B, "STORE")
    done = client.patch(f"{BASE}/transfers/{t['id']}", json={"status": "completed"}, headers=h)
    assert done.status_code == 200 and done.json()["data"]["status"] == "completed"
    assert (_qty(client, h, A, "STORE"), _qty(client, h, B, "STORE")) == (store_a + 2, store_b + 2)
    assert client.post(recv, json={"lines": [{"sku": A, "quantity": 1}]}, headers=h).status_code == 409


def test_the_rest_written_off(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    t = _shipped(client, h)
    transit = t["transit_location_id"]
    in_transit = _qty(client, h, A, transit)
    r = client.post(f"{BASE}/transfers/{t['id']}/receive",
                    json={"lines": [{"sku": A, "quantity": 4}], "write_off_reason": "crushed pallet"}, headers=h)  # fmt: skip
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert data["status"] == "completed"
    assert {x["sku"]: (x["received"], x["written_off"]) for x in data["receipts"]} == {A: (4, 1), B: (0, 2)}
    assert _qty(client, h, A, transit) == in_transit - 5
    moved = client.get(f"{BASE}/movements", params={"kind": "adjustment", "sku": B}, headers=h).json()["data"]
    assert moved[0]["reason"] == "crushed pallet" and moved[0]["quantity"] == 2
