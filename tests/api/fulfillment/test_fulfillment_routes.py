"""Fulfillment routes against a real uvicorn server: device sign-in, orders, operations, labels, webhooks."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import httpx
from sqlalchemy import func, select

from local_db.models import Event
from local_db.models.fulfillment import FulfillmentOrder
from services.fulfillment.demo import DEMO_WEBHOOK_SECRET
from tests.conftest import LiveServer, auth_headers
from tests.services.fulfillment.fulfillment_helpers import decode_code128, order_in, pdf_to_image

BASE = "/demo/fulfillment/api"


def _device(client: httpx.Client) -> dict[str, str]:
    r = client.post(f"{BASE}/auth/login", json={"email": "device@demo.test", "password": "demo-password"})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['data']['token']}"}


def _signed(client: httpx.Client, path: str, payload: dict[str, Any], *, secret: str = DEMO_WEBHOOK_SECRET,
            sender: str | None = None) -> httpx.Response:  # fmt: skip
    raw = json.dumps(payload).encode()
    headers = {"Content-Type": "application/json",
               "X-Webhook-Signature": "sha256=" + hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()}  # fmt: skip
    if sender:
        headers["X-Webhook-Id"] = sender
    return client.post(f"{BASE}{path}", content=raw, headers=headers)


def _count(server: LiveServer, model: Any, *where: Any) -> int:
    with server.runtime.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(model).where(*where)).scalar_one())


def test_device_login_and_logout(client: httpx.Client) -> None:
    r = client.post(f"{BASE}/auth/login", json={"email": "device@demo.test", "password": "demo-password"})
    assert r.status_code == 200 and r.json()["data"]["token"]
    assert r.json()["data"]["tenants"][0]["role"] == "warehouse-device"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("service_token=") and "httponly" in cookie.lower()
    token = cookie.split(";")[0].split("=", 1)[1]
    listed = client.get(f"{BASE}/orders", headers={"Cookie": f"service_token={token}"})
    assert listed.status_code == 200
    out = client.post(f"{BASE}/auth/logout")
    assert out.status_code == 204 and 'service_token=""' in out.headers["set-cookie"]
    bad = [({"email": "device@demo.test", "password": "nope"}, 401),
           ({"email": "owner@other.test", "password": "demo-password"}, 401),  # not a member of demo
           ({"email": "operator@demo.test", "password": "demo-password"}, 403),  # no fulfillment access
           ({"email": "device@demo.test"}, 400)]  # fmt: skip
    for body, status in bad:
        assert client.post(f"{BASE}/auth/login", json=body).status_code == status


def test_auth_roles_and_tenants(client: httpx.Client, server: LiveServer) -> None:
    order = order_in(server.runtime, "pending")
    assert client.get(f"{BASE}/orders").json()["code"] == "UNAUTHORIZED"
    dev = _device(client)
    assert client.get("/api/tenants/demo/users", headers=dev).status_code == 403  # not a fulfillment route
    assert client.get("/demo/support/api/orders", headers=dev).status_code in (403, 404)
    r = client.post(f"{BASE}/orders/{order.id}/operations", json={"operation": "cancel"}, headers=dev)
    assert r.status_code == 403 and r.json()["code"] == "FORBIDDEN"
    assert client.put(f"{BASE}/settings/device", json={"sounds": False}, headers=dev).status_code == 403
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"/other/fulfillment/api/orders/{order.id}", headers=other).status_code == 404
    assert client.get(f"/demo/fulfillment/api/orders/{order.id}", headers=other).status_code == 403


def test_list_and_details(client: httpx.Client) -> None:
    dev = _device(client)
    body = client.get(f"{BASE}/orders", params={"status": "pending", "limit": 5}, headers=dev).json()
    assert body["meta"] == {"page": 1, "limit": 5, "total": 14}
    assert body["pagination"] == {"total": 14, "limit": 5, "offset": 0}
    b = client.get(f"{BASE}/orders", params={"offset": 10, "sort": "created_at", "order": "desc"}, headers=dev).json()
    assert b["pagination"]["offset"] == 10 and b["pagination"]["limit"] == 50
    detail = client.get(f"{BASE}/orders/{body['data'][0]['id']}", headers=dev).json()["data"]
    # Shipped units are named per line (issue 34: serials and lots on a single order's shipment).
    assert set(detail["lines"][0]) == {"id", "sku", "barcode", "name", "quantity", "picked_quantity", "serials", "lots"}
    for params in ({"sort": "nope"}, {"page": "x"}, {"status": "lost"}):
        r = client.get(f"{BASE}/orders", params=params, headers=dev)
        assert r.status_code == 400 and r.json()["code"] == "VALIDATION_ERROR"
    assert client.get(f"{BASE}/orders/SO-99999", headers=dev).status_code == 404


def test_pick_pack_ship_and_label_over_http(client: httpx.Client, server: LiveServer) -> None:
    dev = _device(client)
    order = order_in(server.runtime, "pending")
    url = f"{BASE}/orders/{order.id}/operations"
    lines = client.get(f"{BASE}/orders/{order.id}", headers=dev).json()["data"]["lines"]
    over = client.post(url, json={"operation": "pick", "items": [{"code": lines[0]["barcode"], "quantity": 99}]},
                       headers=dev)  # fmt: skip
    assert over.status_code == 400 and over.json()["details"]["code"] == lines[0]["barcode"]
    unknown = client.post(url, json={"operation": "pick", "items": [{"code": "0000"}]}, headers=dev)
    assert unknown.status_code == 400 and unknown.json()["details"] == {"code": "0000", "reason": "unknown_code"}
    early = client.post(url, json={"operation": "pack", "box": "M"}, headers=dev)
    assert early.status_code == 409 and early.json()["details"]["current_state"] == "pending"
    items = [{"code": ln["barcode"], "quantity": ln["quantity"]} for ln in lines]
    picked = client.post(url, json={"operation": "pick", "items": items}, headers=dev)
    assert picked.status_code == 200 and picked.json()["data"]["status"] == "picked"
    assert client.post(url, json={"operation": "pack", "box": "M"}, headers=dev).json()["data"]["status"] == "packed"
    shipped = client.post(url, json={"operation": "ship", "carrier": "local"}, headers=dev)
    data = shipped.json()["data"]
    assert shipped.status_code == 200 and data["status"] == "shipped"
    assert data["tracking_number"] and data["carrier"] == "local" and data["label_id"]
    again = client.post(url, json={"operation": "ship"}, headers=dev)
    assert again.status_code == 409 and again.json()["details"]["current_state"] == "shipped"
    pdf = client.get(f"{BASE}/labels/{data['label_id']}", headers=dev)
    assert pdf.headers["content-type"] == "application/pdf"
    assert decode_code128(pdf_to_image(pdf.content)) == data["tracking_number"]
    zpl = client.get(f"{BASE}/labels/{data['label_id']}", params={"format": "zpl"}, headers=dev)
    assert zpl.headers["content-type"].startswith("text/plain") and data["tracking_number"] in zpl.text
    missing = client.get(f"{BASE}/labels/{order_in(server.runtime, 'pending').id}", headers=dev)
    assert missing.status_code == 404
    assert _count(server, Event, Event.type == "order.shipped") == 1


def test_idempotency_key_makes_a_double_submit_harmless(client: httpx.Client, server: LiveServer) -> None:
    dev = {**_device(client), "Idempotency-Key": "scan-1"}
    order = order_in(server.runtime, "pending")
    code = client.get(f"{BASE}/orders/{order.id}", headers=dev).json()["data"]["lines"][0]["barcode"]
    body = {"operation": "pick", "items": [{"code": code, "quantity": 1}]}
    first = client.post(f"{BASE}/orders/{order.id}/operations", json=body, headers=dev)
    second = client.post(f"{BASE}/orders/{order.id}/operations", json=body, headers=dev)
    assert first.status_code == second.status_code == 200
    lines = client.get(f"{BASE}/orders/{order.id}", headers=dev).json()["data"]["lines"]
    assert lines[0]["picked_quantity"] == 1


def _shop_order(oid: int, updated: str, qty: int = 1, **extra: Any) -> dict[str, Any]:
    return {"id": oid, "name": f"#{oid}", "email": "buyer@example.com", "updated_at": updated,
            "customer": {"first_name": "Bea", "last_name": "Buyer"},
            "shipping_address": {"name": "Bea Buyer", "address1": "1 Main St", "city": "Springfield",
                                 "zip": "12345", "country": "US"},
            "line_items": [{"id": 1, "sku": "MUG-CER-01", "barcode": "2000000000039", "title": "Ceramic mug",
                            "quantity": qty}], **extra}  # fmt: skip


def test_ecommerce_webhook_creates_updates_and_is_idempotent(client: httpx.Client, server: LiveServer) -> None:
    created = _signed(client, "/webhooks/ecommerce", _shop_order(5001, "2026-11-20T10:00:00Z"), sender="d-1")
    assert created.status_code == 200, created.text
    data = created.json()["data"]
    assert data["action"] == "created" and data["order_number"].startswith("SO-") and data["status"] == "pending"
    dup = _signed(client, "/webhooks/ecommerce", _shop_order(5001, "2026-11-20T10:00:00Z"), sender="d-1")
    assert dup.json()["data"]["action"] == "duplicate" and dup.json()["data"]["order_id"] == data["order_id"]
    assert _count(server, FulfillmentOrder, FulfillmentOrder.external_id == "5001") == 1
    assert _count(server, Event, Event.type == "order.created") == 1
    upd = _signed(client, "/webhooks/ecommerce", _shop_order(5001, "2026-11-20T11:00:00Z", qty=3), sender="d-2")
    assert upd.json()["data"]["action"] == "updated"
    dev = _device(client)
    lines = client.get(f"{BASE}/orders/{data['order_id']}", headers=dev).json()["data"]["lines"]
    assert lines[0]["quantity"] == 3
    stale = _signed(client, "/webhooks/ecommerce", _shop_order(5001, "2026-11-20T09:00:00Z"), sender="d-3")
    assert stale.json()["data"]["action"] == "ignored"
    cancelled = _signed(client, "/webhooks/ecommerce",
                        _shop_order(5001, "2026-11-20T12:00:00Z", cancelled_at="2026-11-20T12:00:00Z"))  # fmt: skip
    assert cancelled.json()["data"]["action"] == "cancelled" and cancelled.json()["data"]["status"] == "cancelled"


def test_webhooks_refuse_unsigned_badly_signed_and_malformed(client: httpx.Client) -> None:
    raw = json.dumps(_shop_order(6001, "2026-11-20T10:00:00Z")).encode()
    unsigned = client.post(f"{BASE}/webhooks/ecommerce", content=raw, headers={"Content-Type": "application/json"})
    assert unsigned.status_code == 401 and unsigned.json()["code"] == "UNAUTHORIZED"
    wrong = _signed(client, "/webhooks/ecommerce", _shop_order(6001, "2026-11-20T10:00:00Z"), secret="x" * 20)
    assert wrong.status_code == 401
    for path in ("/webhooks/ecommerce", "/webhooks/shipping-platform"):
        bad = _signed(client, path, {"id": 1, "line_items": []})
        assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    not_json = b"{nope"
    sig = "sha256=" + hmac.new(DEMO_WEBHOOK_SECRET.encode(), not_json, hashlib.sha256).hexdigest()
    r = client.post(f"{BASE}/webhooks/ecommerce", content=not_json,
                    headers={"Content-Type": "application/json", "X-Webhook-Signature": sig})  # fmt: skip
    assert r.status_code == 400
    # Tenant "other" has no secret configured: every delivery is refused.
    other = client.post("/other/fulfillment/api/webhooks/ecommerce", content=raw,
                        headers={"Content-Type": "application/json", "X-Webhook-Signature": sig})  # fmt: skip
    assert other.status_code == 401


def test_shipping_webhook_marks_delivered_once(client: httpx.Client, server: LiveServer) -> None:
    shipped = order_in(server.runtime, "shipped")
    event = {"id": "trk-evt-1", "event": "tracker.updated", "tracking_number": shipped.tracking_number,
             "carrier": "local", "status": "in_transit"}  # fmt: skip
    r = _signed(client, "/webhooks/shipping-platform", event)
    assert r.json()["data"]["action"] == "status_recorded" and r.json()["data"]["status"] == "shipped"
    done = {**event, "id": "trk-evt-2", "status": "delivered", "occurred_at": "2026-11-21T09:30:00Z"}
    r = _signed(client, "/webhooks/shipping-platform", done)
    assert r.status_code == 200 and r.json()["data"]["action"] == "delivered"
    assert _signed(client, "/webhooks/shipping-platform", done).json()["data"]["action"] == "duplicate"
    assert _count(server, Event, Event.type == "order.delivered") == 1
    dev = _device(client)
    order = client.get(f"{BASE}/orders/{shipped.id}", headers=dev).json()["data"]
    assert order["status"] == "delivered" and order["delivered_at"].startswith("2026-11-21T09:30")
    unknown = _signed(client, "/webhooks/shipping-platform", {**event, "id": "e3", "tracking_number": "LP999"})
    assert unknown.status_code == 404
    cancelled = order_in(server.runtime, "cancelled")
    with server.runtime.db.transaction(cancelled.tenant_id) as s:
        s.get(FulfillmentOrder, cancelled.id).tracking_number = "LP0000009999"  # type: ignore[union-attr]
    conflict = _signed(client, "/webhooks/shipping-platform",
                       {**done, "id": "e4", "tracking_number": "LP0000009999"})  # fmt: skip
    assert conflict.status_code == 409 and conflict.json()["details"]["current_state"] == "cancelled"


def test_webhook_secret_settings(client: httpx.Client) -> None:
    owner = auth_headers(client, "owner@demo.test")
    assert client.get(f"{BASE}/settings/webhooks", headers=owner).json()["data"]["configured"] is True
    assert client.put(f"{BASE}/settings/webhooks", json={"secret": "short"}, headers=owner).status_code == 400
    r = client.put(f"{BASE}/settings/webhooks", json={"secret": "a-new-secret-of-length"}, headers=owner)
    assert r.status_code == 200
    ok = _signed(client, "/webhooks/ecommerce", _shop_order(7001, "2026-11-20T10:00:00Z"),
                 secret="a-new-secret-of-length")  # fmt: skip
    assert ok.status_code == 200
    assert client.get(f"{BASE}/settings/webhooks", headers=_device(client)).status_code == 403
