"""Serial numbers over real HTTP: received, moved, shipped, looked up by scan; one place at a time."""

from __future__ import annotations

import httpx
from sqlalchemy import func, select

from local_db.models.inventory import InventorySerial
from tests.conftest import LiveServer, auth_headers

BASE = "/demo/inventory/api"
SKU = "PHONE-X"


def _qty(client: httpx.Client, h: dict[str, str], loc: str) -> int:
    rows = client.get(f"{BASE}/stock", params={"sku": SKU, "location_id": loc, "include_children": "false"},
                      headers=h).json()["data"]  # fmt: skip
    return int(rows[0]["quantity"]) if rows else 0


def test_a_serial_is_in_one_place_at_a_time(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    got = client.post(f"{BASE}/serials", json={"sku": SKU, "location_id": "MAIN", "reference": "PO-7",
                                               "serials": ["sn-100 1", "SN1002"]}, headers=h)  # fmt: skip
    assert got.status_code == 201, got.text
    assert [x["serial"] for x in got.json()["data"]["serials"]] == ["SN1001", "SN1002"]
    assert _qty(client, h, "MAIN") == 2

    def count() -> int:
        with server.runtime.db.reading(None) as s:
            return int(s.execute(select(func.count()).select_from(InventorySerial)).scalar_one())

    # The same serial again, anywhere, written otherwise: 409 naming where it is; nothing stored.
    again = client.post(f"{BASE}/serials", json={"sku": SKU, "location_id": "STORE", "serials": ["SN-1001", "SN3"]},
                        headers=h)  # fmt: skip
    assert again.status_code == 409 and again.json()["details"]["serials"] == {"SN1001": "MAIN"}
    twice = client.post(f"{BASE}/serials", json={"sku": SKU, "location_id": "STORE", "serials": ["a1", "A-1"]},
                        headers=h)  # fmt: skip
    assert twice.status_code == 400
    assert count() == 2 and _qty(client, h, "STORE") == 0
    # Looked up by scan, moved, shipped.
    seen = client.get(f"{BASE}/serials/sn 1001", headers=h).json()["data"]
    assert (seen["location_code"], seen["status"]) == ("MAIN", "in_stock")
    moved = client.post(f"{BASE}/serials/SN1001/move", json={"location_id": "STORE"}, headers=h)
    assert moved.status_code == 200 and moved.json()["data"]["location_code"] == "STORE"
    assert (_qty(client, h, "MAIN"), _qty(client, h, "STORE")) == (1, 1)
    assert client.post(f"{BASE}/serials/SN1001/move", json={"location_id": "STORE"}, headers=h).status_code == 400
    shipped = client.post(f"{BASE}/serials/SN1001/ship", json={"reference": "SO-9"}, headers=h)
    assert shipped.status_code == 200 and shipped.json()["data"]["status"] == "shipped"
    assert _qty(client, h, "STORE") == 0
    assert client.post(f"{BASE}/serials/SN1001/ship", json={"reference": "SO-9"}, headers=h).status_code == 409
    assert client.post(f"{BASE}/serials/SN1001/move", json={"location_id": "MAIN"}, headers=h).status_code == 409
    # A shipped serial may come back (a return): received again, in one place.
    back = client.post(f"{BASE}/serials", json={"sku": SKU, "location_id": "MAIN", "serials": ["SN1001"]}, headers=h)
    assert back.status_code == 201 and count() == 2
    listed = client.get(f"{BASE}/serials", params={"location_id": "MAIN", "sku": SKU}, headers=h).json()["data"]
    assert sorted(x["serial"] for x in listed) == ["SN1001", "SN1002"]
    assert client.get(f"{BASE}/serials/NOPE", headers=h).status_code == 404
    assert client.get(f"{BASE}/serials", params={"status": "lost"}, headers=h).status_code == 400
