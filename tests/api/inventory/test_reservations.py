"""Reservations against a real uvicorn server: orders from the shop hold stock, concurrently, and let it go."""

from __future__ import annotations

import hashlib
import hmac
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from sqlalchemy import select

from local_db.models import Event
from local_db.models.inventory import InventoryStock
from services.core.demo import demo_id
from services.fulfillment.demo import DEMO_WEBHOOK_SECRET
from tests.conftest import LiveServer, auth_headers

INV = "/demo/inventory/api"
FUL = "/demo/fulfillment/api"
MAIN = demo_id("inventory-location", "demo", "MAIN")
SKU = "MUG-CER-01"


def shop_order(oid: int, qty: int, updated: str = "2026-11-20T10:00:00Z", **extra: Any) -> dict[str, Any]:
    return {"id": oid, "name": f"#{oid}", "email": "buyer@example.com", "updated_at": updated,
            "shipping_address": {"name": "Bea Buyer", "address1": "1 Main St", "city": "Springfield",
                                 "zip": "12345", "country": "US"},
            "line_items": [{"id": 1, "sku": SKU, "barcode": "2000000000039", "title": "Ceramic mug",
                            "quantity": qty}], **extra}  # fmt: skip


def post_order(client: httpx.Client, payload: dict[str, Any]) -> httpx.Response:
    raw = json.dumps(payload).encode()
    sig = "sha256=" + hmac.new(DEMO_WEBHOOK_SECRET.encode(), raw, hashlib.sha256).hexdigest()
    headers = {"Content-Type": "application/json", "X-Webhook-Signature": sig}
    return client.post(f"{FUL}/webhooks/ecommerce", content=raw, headers=headers)


def count_to(client: httpx.Client, h: dict[str, str], n: int, location: str = "MAIN", sku: str = SKU) -> None:
    r = client.post(f"{INV}/stock", json={"sku": sku, "location_id": location, "counted": n}, headers=h)
    assert r.status_code == 200, r.text


def row(server: LiveServer, sku: str = SKU, location_id: str = MAIN) -> tuple[int, int]:
    with server.runtime.db.reading(None) as s:
        st = s.execute(
            select(InventoryStock).where(InventoryStock.sku == sku, InventoryStock.location_id == location_id)
        ).scalar_one()
        return st.quantity, st.reserved


def reservations(client: httpx.Client, h: dict[str, str], **params: Any) -> list[dict[str, Any]]:
    r = client.get(f"{INV}/reservations", params={"limit": 100, **params}, headers=h)
    assert r.status_code == 200, r.text
    return list(r.json()["data"])


def test_eight_concurrent_orders_never_hold_more_than_is_on_hand(client: httpx.Client, server: LiveServer) -> None:
    eight_concurrent_orders(client, server)


def eight_concurrent_orders(client: httpx.Client, server: LiveServer) -> None:
    """8 writers order 2 each of 5 on hand: 5 held, 11 backordered (also run on PostgreSQL)."""
    h = auth_headers(client, "owner@demo.test")
    count_to(client, h, 5)

    def one(i: int) -> httpx.Response:
        with httpx.Client(base_url=server.url, timeout=120) as c:
            return post_order(c, shop_order(9100 + i, 2))

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(one, range(8)))
    # Every order is taken (never a 409 to the shop), whatever was left for it.
    assert [a.status_code for a in answers] == [200] * 8, [a.text for a in answers if a.status_code != 200]
    assert {a.json()["data"]["action"] for a in answers} == {"created"}
    held = reservations(client, h, sku=SKU, status="active")
    assert len(held) == 8
    assert sum(r["reserved"] for r in held) == 5  # 0 oversold units
    assert sum(r["backordered"] for r in held) == 16 - 5
    assert all(r["requested"] == 2 and r["location_id"] == MAIN for r in held)
    assert row(server) == (5, 5)
    stock = client.get(f"{INV}/stock", params={"sku": SKU, "location_id": "MAIN"}, headers=h).json()["data"]
    assert stock[0]["available"] == 0
    short = reservations(client, h, backordered="true", status="active")
    assert len(short) == sum(1 for r in held if r["reserved"] < 2)
    with server.runtime.db.reading(None) as s:
        announced = [e.data for e in s.execute(select(Event).where(Event.type == "stock.reserved")).scalars()]
    assert sum(ln["reserved"] for d in announced for ln in d["lines"]) == 5


def test_cancel_releases_update_rereserves_and_ship_settles(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    count_to(client, h, 10)
    first = post_order(client, shop_order(9201, 3)).json()["data"]
    assert row(server) == (10, 3)
    # The shop raises the quantity before picking: the old hold goes, the new one is made.
    upd = post_order(client, shop_order(9201, 4, updated="2026-11-20T11:00:00Z")).json()["data"]
    assert upd["action"] == "updated"
    assert row(server) == (10, 4)
    mine = reservations(client, h, order_id=first["order_number"])
    assert sorted((r["status"], r["reserved"]) for r in mine) == [("active", 4), ("released", 3)]
    # Cancelled by the shop: the units are available again.
    cancel = shop_order(9201, 4, updated="2026-11-20T12:00:00Z", cancelled_at="2026-11-20T12:00:00Z")
    assert post_order(client, cancel).json()["data"]["action"] == "cancelled"
    assert row(server) == (10, 0)
    assert {r["status"] for r in reservations(client, h, order_id=first["order_id"])} == {"released"}

    # Cancelled by staff through the order operation: the same.
    second = post_order(client, shop_order(9202, 2)).json()["data"]
    assert row(server) == (10, 2)
    r = client.post(f"{FUL}/orders/{second['order_id']}/operations", json={"operation": "cancel"}, headers=h)
    assert r.status_code == 200, r.text
    assert row(server) == (10, 0)

    # Shipped: the held units leave with the parcel, on hand and reserved go down together.
    third = post_order(client, shop_order(9203, 2)).json()["data"]
    assert row(server) == (10, 2)
    oid = third["order_id"]
    steps = [
        {"operation": "pick", "items": [{"code": SKU, "quantity": 2}]},
        {"operation": "pack", "box": "M", "weight_grams": 500},
        {"operation": "ship"},
    ]
    for body in steps:
        r = client.post(f"{FUL}/orders/{oid}/operations", json=body, headers=h)
        assert r.status_code == 200, r.text
    assert row(server) == (8, 0)
    assert {r["status"] for r in reservations(client, h, order_id=third["order_number"])} == {"shipped"}


def test_an_order_for_more_than_there_is_is_taken_as_a_backorder(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    count_to(client, h, 1)
    r = post_order(client, shop_order(9301, 7))
    assert r.status_code == 200 and r.json()["data"]["action"] == "created"
    (res,) = reservations(client, h, order_id=r.json()["data"]["order_number"])
    assert (res["requested"], res["reserved"], res["backordered"]) == (7, 1, 6)
    # An item never stocked: nothing to hold, all of it backordered, still taken.
    payload = shop_order(9302, 2)
    payload["line_items"][0]["sku"] = "NEVER-STOCKED"
    r = post_order(client, payload)
    assert r.status_code == 200
    (res,) = reservations(client, h, order_id=r.json()["data"]["order_id"])
    assert (res["reserved"], res["backordered"]) == (0, 2)


def test_reservation_filters_refuse_bad_values(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    r = client.get(f"{INV}/reservations", params={"status": "lost"}, headers=h)
    assert r.status_code == 400 and "lost" in r.text
    assert reservations(client, h, location_id="NO-SUCH-PLACE") == []


def test_a_partial_shipment_leaves_a_backorder_holding_the_rest(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    count_to(client, h, 3)
    order = post_order(client, shop_order(9401, 5)).json()["data"]
    oid = order["order_id"]
    assert row(server) == (3, 3)  # 3 held, 2 backordered
    ops = f"{FUL}/orders/{oid}/operations"
    # Nothing picked: nothing to ship now.
    r = client.post(ops, json={"operation": "split"}, headers=h)
    assert r.status_code == 400 and r.json()["details"]["reason"] == "nothing_picked"
    assert client.post(ops, json={"operation": "pick", "items": [{"code": SKU, "quantity": 3}]}, headers=h).is_success
    r = client.post(ops, json={"operation": "split"}, headers=h)
    assert r.status_code == 200, r.text
    split = r.json()["data"]
    assert split["status"] == "picked" and [ln["quantity"] for ln in split["lines"]] == [3]
    back = split["backorder"]
    assert back["status"] == "pending" and back["backorder_of"] == oid and back["total_quantity"] == 2
    # The order holds its 3, the backorder finds nothing left: all of it backordered.
    (mine,) = reservations(client, h, order_id=oid, status="active")
    (theirs,) = reservations(client, h, order_id=back["id"], status="active")
    assert (mine["reserved"], mine["backordered"]) == (3, 0)
    assert (theirs["requested"], theirs["reserved"], theirs["backordered"]) == (2, 0, 2)
    assert row(server) == (3, 3)
    # A split order ships like any other; the backorder waits, pending.
    for body in ({"operation": "pack", "box": "S"}, {"operation": "ship"}):
        assert client.post(ops, json=body, headers=h).is_success
    assert row(server) == (0, 0)
    assert client.post(ops, json={"operation": "split"}, headers=h).status_code == 409  # shipped
    detail = client.get(f"{FUL}/orders/{back['id']}", headers=h).json()["data"]
    assert detail["status"] == "pending" and detail["lines"][0]["quantity"] == 2
