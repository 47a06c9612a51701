"""A single order's ship over real HTTP carries the scanned serials and lots; recall and the serial look-up
find the order; a tracked line shipped without its codes is 400 naming the line, a shipped serial 409."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import LiveServer, auth_headers

BASE, INV = "/demo/fulfillment/api", "/demo/inventory/api"
HDP, BTL = "HDP-USB-C", "BTL-STL-750"


def _packed(client: httpx.Client, h: dict[str, str], lines: list[dict[str, Any]]) -> dict[str, Any]:
    o = client.post(f"{BASE}/orders", json={"customer_name": "Ann", "lines": lines}, headers=h).json()["data"]
    items = [{"code": ln["sku"], "quantity": ln["quantity"]} for ln in lines]
    assert client.post(f"{BASE}/orders/{o['id']}/operations", json={"operation": "pick", "items": items},
                       headers=h).status_code == 200  # fmt: skip
    assert client.post(f"{BASE}/orders/{o['id']}/operations", json={"operation": "pack", "box": "M"},
                       headers=h).status_code == 200  # fmt: skip
    return dict(o)


def test_ship_records_serials_and_lots_and_recall_finds_the_order(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    assert client.post(f"{INV}/serials", json={"sku": HDP, "location_id": "MAIN", "serials": ["SN-71"]},
                       headers=h).status_code == 201  # fmt: skip
    assert client.patch(f"{INV}/items/{BTL}", json={"tracking": "lot"}, headers=h).status_code == 200
    lot = client.post(f"{INV}/lots", json={"sku": BTL, "code": "LOT-5", "location_id": "MAIN", "quantity": 4},
                      headers=h).json()["data"]  # fmt: skip
    pending = client.post(f"{BASE}/orders", json={"customer_name": "Cy", "lines": [{"sku": BTL, "quantity": 1}]},
                          headers=h).json()["data"]  # fmt: skip
    listed = client.get(f"{BASE}/orders/{pending['order_number']}/pick-list", headers=h)
    assert listed.status_code == 200 and listed.json()["data"]["lines"][0]["lots"] == [
        {"code": "LOT5", "expires_on": None, "quantity": 1}
    ]
    assert client.get(f"{BASE}/orders/SO-99999/pick-list", headers=h).status_code == 404
    o = _packed(client, h, [{"sku": HDP, "quantity": 1}, {"sku": BTL, "quantity": 2}])
    ship = f"{BASE}/orders/{o['id']}/operations"

    bare = client.post(ship, json={"operation": "ship"}, headers=h)
    assert bare.status_code == 400 and bare.json()["details"]["line_id"] == o["lines"][0]["id"], bare.text
    assert "line 1" in bare.json()["error"] and "serial" in bare.json()["error"]
    both = client.post(ship, json={"operation": "ship", "units": [{"code": HDP, "serial": "SN-71", "lot": "X"}]},
                       headers=h)  # fmt: skip
    assert both.status_code == 400  # a unit is a serial or a lot
    units = [{"code": HDP, "serial": "sn71"}, {"code": BTL, "lot": "lot 5", "quantity": 2}]
    done = client.post(ship, json={"operation": "ship", "units": units}, headers=h)
    assert done.status_code == 200, done.text
    lines = done.json()["data"]["lines"]
    assert lines[0]["serials"] == ["SN71"] and lines[1]["lots"] == [{"code": "LOT5", "quantity": 2}]

    recall = client.get(f"{INV}/lots/{lot['id']}/recall", headers=h).json()["data"]
    assert [(x["reference"], x["quantity"]) for x in recall["shipped"]] == [(o["order_number"], 2)]
    unit = client.get(f"{INV}/serials/SN71", headers=h).json()["data"]
    assert (unit["status"], unit["reference"]) == ("shipped", o["order_number"])

    again = _packed(client, h, [{"sku": HDP, "quantity": 1}])
    twice = client.post(f"{BASE}/orders/{again['id']}/operations",
                        json={"operation": "ship", "units": [{"code": HDP, "serial": "SN71"}]}, headers=h)  # fmt: skip
    assert twice.status_code == 409 and twice.json()["details"]["reason"] == "serial_shipped"
    assert client.get(f"{BASE}/orders/{again['id']}", headers=h).json()["data"]["status"] == "packed"
