"""Returns (RMA) over real HTTP: only what shipped comes back, by scan, into stock or quarantine."""

from __future__ import annotations

import httpx
from sqlalchemy import func, select

from local_db.models.fulfillment import FulfillmentReturn
from local_db.models.inventory import InventoryMovement
from tests.api.inventory.test_reservations import FUL, INV, SKU, count_to, post_order, shop_order
from tests.conftest import LiveServer, auth_headers


def _returns(server: LiveServer) -> int:
    with server.runtime.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(FulfillmentReturn)).scalar_one())


def _on_hand(client: httpx.Client, h: dict[str, str], location: str) -> int:
    rows = client.get(f"{INV}/stock", params={"sku": SKU, "location_id": location,
                                              "include_children": "false"}, headers=h).json()["data"]  # fmt: skip
    return int(rows[0]["quantity"]) if rows else 0


def test_a_return_is_authorised_then_received_by_condition(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    count_to(client, h, 10)
    oid = post_order(client, shop_order(9501, 3)).json()["data"]["order_id"]
    before = _returns(server)
    # Never shipped: nothing to return, nothing stored.
    r = client.post(f"{FUL}/orders/{oid}/returns", json={"lines": [{"sku": SKU, "quantity": 1}]}, headers=h)
    assert r.status_code == 409 and r.json()["details"]["reason"] == "not_shipped"
    for body in ({"operation": "pick", "items": [{"code": SKU, "quantity": 3}]},
                 {"operation": "pack", "box": "S"}, {"operation": "ship"}):  # fmt: skip
        assert client.post(f"{FUL}/orders/{oid}/operations", json=body, headers=h).is_success
    assert _on_hand(client, h, "MAIN") == 7
    # More than shipped, or an item that did not ship: 400, nothing stored.
    more = client.post(f"{FUL}/orders/{oid}/returns", json={"lines": [{"sku": SKU, "quantity": 4}]}, headers=h)
    assert more.status_code == 400 and more.json()["details"]["reason"] == "more_than_shipped"
    other = client.post(f"{FUL}/orders/{oid}/returns", json={"lines": [{"sku": "TSH-BLK-M", "quantity": 1}]},
                        headers=h)  # fmt: skip
    assert other.status_code == 400
    assert _returns(server) == before
    rma = client.post(f"{FUL}/orders/{oid}/returns", json={"lines": [{"sku": SKU, "quantity": 2}],
                                                           "reason": "wrong colour"}, headers=h)  # fmt: skip
    assert rma.status_code == 201, rma.text
    ret = rma.json()["data"]
    assert ret["rma_number"].startswith("RMA-") and ret["status"] == "authorised"
    # The third unit may still be returned later, not a fourth.
    assert client.post(f"{FUL}/orders/{oid}/returns", json={"lines": [{"sku": SKU, "quantity": 2}]},
                       headers=h).status_code == 400  # fmt: skip
    receive = f"{FUL}/returns/{ret['rma_number'].lower()}/receive"
    over = client.post(receive, json={"items": [{"code": SKU, "quantity": 3, "condition": "resellable"}]}, headers=h)
    assert over.status_code == 400 and over.json()["details"]["reason"] == "over_receipt"
    stranger = client.post(receive, json={"items": [{"code": "TSH-BLK-M", "condition": "resellable"}]}, headers=h)
    assert stranger.status_code == 400
    bad = client.post(receive, json={"items": [{"code": SKU, "condition": "lost"}]}, headers=h)
    assert bad.status_code == 400
    one = client.post(receive, json={"items": [{"code": "2000000000039", "condition": "resellable"}]}, headers=h)
    assert one.status_code == 200 and one.json()["data"]["status"] == "partly_received", one.text
    two = client.post(receive, json={"items": [{"code": SKU, "condition": "damaged"}]}, headers=h)
    assert two.status_code == 200 and two.json()["data"]["status"] == "received"
    assert two.json()["data"]["lines"] == [{"sku": SKU, "quantity": 2, "received": {"resellable": 1, "damaged": 1}}]
    assert _on_hand(client, h, "MAIN") == 8  # the resellable one is back on the shelf
    assert _on_hand(client, h, "QUARANTINE") == 1  # the damaged one is counted apart
    with server.runtime.db.reading(None) as s:
        kinds = [m.kind for m in s.execute(
            select(InventoryMovement).where(InventoryMovement.reference == ret["rma_number"])).scalars()]  # fmt: skip
    assert kinds == ["return", "return"]
    done = client.post(receive, json={"items": [{"code": SKU, "condition": "damaged"}]}, headers=h)
    assert done.status_code == 400  # all received already
    assert client.get(f"{FUL}/returns/{ret['id']}", headers=h).json()["data"]["status"] == "received"
