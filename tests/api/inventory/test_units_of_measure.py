"""Units of measure over real HTTP: an item sold in packs of 6 and counted in units; its order lines
reserve and ship units."""

from __future__ import annotations

import httpx

from tests.api.inventory.test_reservations import FUL, INV, SKU, count_to, post_order, reservations, row, shop_order
from tests.conftest import LiveServer, auth_headers


def test_orders_in_packs_reserve_and_ship_units(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    for bad in ({"units_per_sale": 0}, {"sales_unit": ""}, {"units_per_sale": "six"}):
        assert client.patch(f"{INV}/items/{SKU}", json=bad, headers=h).status_code == 400
    item = client.patch(f"{INV}/items/{SKU}", json={"sales_unit": "pack of 6", "units_per_sale": 6}, headers=h)
    assert item.status_code == 200, item.text
    assert (item.json()["data"]["sales_unit"], item.json()["data"]["units_per_sale"]) == ("pack of 6", 6)
    count_to(client, h, 20)
    first = post_order(client, shop_order(9301, 2)).json()["data"]  # 2 packs: 12 units
    assert row(server) == (20, 12)
    second = post_order(client, shop_order(9302, 2)).json()["data"]  # 12 more asked, 8 left
    assert row(server) == (20, 20)
    held = reservations(client, h, order_id=second["order_number"])
    assert [(r["requested"], r["reserved"], r["backordered"]) for r in held] == [(12, 8, 4)]
    # Shipped: the 2 packs picked leave as 12 units, on hand and reserved together.
    for body in ({"operation": "pick", "items": [{"code": SKU, "quantity": 2}]},
                 {"operation": "pack", "box": "M", "weight_grams": 500}, {"operation": "ship"}):  # fmt: skip
        r = client.post(f"{FUL}/orders/{first['order_id']}/operations", json=body, headers=h)
        assert r.status_code == 200, r.text
    assert row(server) == (8, 8)
    moved = client.get(f"{INV}/movements", params={"sku": SKU, "kind": "shipment"}, headers=h).json()["data"]
    assert [m["quantity"] for m in moved] == [12]
