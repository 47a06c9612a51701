"""Batch picking over real HTTP: the routes, the 409 naming the holding batch, a bad scan's 400."""

from __future__ import annotations

import httpx

from tests.conftest import auth_headers

BASE = "/demo/fulfillment/api"


def test_batch_routes(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    made = [client.post(f"{BASE}/orders", json={"customer_name": n, "lines": [{"sku": "MUG-CER-01", "quantity": 1}]},
                        headers=h).json()["data"] for n in ("Ann", "Bob")]  # fmt: skip
    r = client.post(f"{BASE}/batches", json={"orders": [o["order_number"] for o in made]}, headers=h)
    assert r.status_code == 201, r.text
    batch = r.json()["data"]
    assert [ln["location_code"] for ln in batch["lines"]] == ["MAIN"] and batch["lines"][0]["quantity"] == 2
    again = client.post(f"{BASE}/batches", json={"orders": [made[1]["id"]]}, headers=h)
    assert again.status_code == 409
    assert again.json()["details"]["current_state"] == "open"
    assert again.json()["details"]["batch_number"] == batch["batch_number"]
    assert client.post(f"{BASE}/batches", json={"next": 0}, headers=h).status_code == 400
    ops = f"{BASE}/batches/{batch['batch_number']}/operations"
    bad = client.post(ops, json={"operation": "pick", "location": "MAIN", "code": "CAP-NVY"}, headers=h)
    assert bad.status_code == 400 and bad.json()["details"]["reason"] == "not_in_batch"
    ok = client.post(ops, json={"operation": "pick", "location": "MAIN", "code": "2000000000039"}, headers=h)
    assert ok.status_code == 200, ok.text
    assert ok.json()["data"]["put_to"][0]["order_number"] == made[0]["order_number"]
    listed = client.get(f"{BASE}/batches", params={"status": "picking"}, headers=h).json()
    assert [b["id"] for b in listed["data"]] == [batch["id"]]
    assert client.get(f"{BASE}/batches", params={"status": "lost"}, headers=h).status_code == 400
    assert client.get(f"{BASE}/batches/B-99999", headers=h).status_code == 404
    assert client.post(ops, json={"operation": "cancel"}, headers=h).json()["data"]["status"] == "cancelled"


def test_packing_slip_route(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    order = client.get(f"{BASE}/orders", params={"status": "shipped", "limit": 1}, headers=h).json()["data"][0]
    r = client.get(f"{BASE}/orders/{order['order_number']}/packing-slip", headers=h)
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf" and r.content.startswith(b"%PDF")
    assert client.get(f"{BASE}/orders/SO-404404/packing-slip", headers=h).status_code == 404
    assert client.get(f"{BASE}/orders/{order['id']}/packing-slip").status_code == 401
