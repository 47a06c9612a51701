"""Rewards over HTTP on a real server: a dealer from registration request to redemption,
strangers, envelopes, uploads, duplicate submits, and 50 concurrent checkouts on one balance."""

from __future__ import annotations

import io
import threading

import httpx
from PIL import Image

from app.settings import Settings
from services.core.demo import demo_id
from tests.conftest import LiveServer, auth_headers

BASE = "/demo/rewards/api"
OTHER = "/other/rewards/api"
ADDRESS = {"line1": "1 Main St", "city": "Springfield", "country": "US"}


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 60), "white").save(out, "PNG")
    return out.getvalue()


def dealer_login(
    client: httpx.Client, email: str = "dealer@demo.test", password: str = "demo-password"
) -> httpx.Response:
    return client.post(f"{BASE}/auth/login", json={"email": email, "password": password})


def test_a_dealer_from_request_to_redemption(client: httpx.Client) -> None:
    staff = auth_headers(client, "owner@demo.test")
    # Registration request (public): pending, readable with its access token, no sign-in yet.
    body = {"company": "Acme Tools", "name": "Ada", "email": "ada@acme.test", "password": "long-password", "phone": "1"}
    r = client.post(f"{BASE}/register-request", json=body)
    assert r.status_code == 201, r.text
    req = r.json()["data"]
    assert req["status"] == "pending" and req["access_token"]
    assert client.post(f"{BASE}/register-request", json=body).status_code == 409
    got = client.get(f"{BASE}/register-request", headers={"X-Access-Token": req["access_token"]})
    assert got.status_code == 200 and got.json()["data"]["status"] == "pending"
    assert client.get(f"{BASE}/register-request", headers={"X-Access-Token": "nope"}).status_code == 404
    refused = dealer_login(client, "ada@acme.test", "long-password")
    assert refused.status_code == 403 and refused.json()["details"]["status"] == "pending"
    # Staff: wrong role and wrong tenant first.
    op = auth_headers(client, "operator@demo.test")
    assert (
        client.post(f"{BASE}/admin/register-requests/{req['id']}", json={"action": "approve"}, headers=op).status_code
        == 403
    )
    assert client.post(f"{BASE}/admin/register-requests/{req['id']}", json={"action": "approve"}).status_code == 401
    other = auth_headers(client, "owner@other.test")
    assert (
        client.post(
            f"{OTHER}/admin/register-requests/{req['id']}", json={"action": "approve"}, headers=other
        ).status_code
        == 404
    )
    ok = client.post(f"{BASE}/admin/register-requests/{req['id']}", json={"action": "approve"}, headers=staff)
    assert ok.status_code == 200 and ok.json()["data"]["status"] == "approved"
    again = client.post(f"{BASE}/admin/register-requests/{req['id']}", json={"action": "decline"}, headers=staff)
    assert again.status_code == 409 and again.json()["details"]["current_state"] == "approved"
    # Sign-in: the cookie and the bearer token both work.
    signed = dealer_login(client, "ada@acme.test", "long-password")
    assert signed.status_code == 200 and "rewards_token=" in signed.headers["set-cookie"]
    assert "HttpOnly" in signed.headers["set-cookie"]
    d = {"Authorization": f"Bearer {signed.json()['data']['token']}"}
    assert client.get(f"{BASE}/profile", headers=d).json()["data"]["company"] == "Acme Tools"
    assert client.put(f"{BASE}/profile", json={"phone": "555"}, headers=d).json()["data"]["phone"] == "555"
    # A dealer token is not staff, nor valid on another tenant.
    assert client.get(f"{BASE}/admin/register-requests", headers=d).status_code == 403
    assert client.get(f"{OTHER}/points", headers=d).status_code == 401
    # Upload: wrong type, oversized (the server's limit), then a receipt image.
    bad = client.post(
        f"{BASE}/files/upload", files={"file": ("r.exe", b"MZ\x90\x00\x03\x00", "application/pdf")}, headers=d
    )
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    huge = client.post(
        f"{BASE}/files/upload", files={"file": ("big.png", png() + b"\0" * (21 * 1024 * 1024), "image/png")}, headers=d
    )
    assert huge.status_code == 413 and huge.json()["code"] == "PAYLOAD_TOO_LARGE"
    up = client.post(f"{BASE}/files/upload", files={"file": ("r.png", png(), "image/png")}, headers=d)
    assert up.status_code == 201, up.text
    fid = up.json()["data"]["id"]
    assert client.get(f"{BASE}/files/{fid}", headers=d).headers["content-type"] == "image/png"
    assert client.get(f"{BASE}/files/{fid}", headers=staff).status_code == 200
    north = {"Authorization": f"Bearer {dealer_login(client).json()['data']['token']}"}
    assert client.get(f"{BASE}/files/{fid}", headers=north).status_code == 404  # another dealer's file
    # Receipt: bad input, then submitted once under an Idempotency-Key.
    receipt = {"file_id": fid, "retailer": "BuildMart", "purchase_date": "2026-01-05", "total": "250.00"}
    bad = client.post(f"{BASE}/receipts", json={**receipt, "total": "1.234"}, headers=d)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    idem = {**d, "Idempotency-Key": "receipt-ada-1"}
    first = client.post(f"{BASE}/receipts", json=receipt, headers=idem)
    second = client.post(f"{BASE}/receipts", json=receipt, headers=idem)
    assert first.status_code == 201 and second.json()["data"]["id"] == first.json()["data"]["id"]
    rid = first.json()["data"]["id"]
    assert client.get(f"{BASE}/receipts", headers=d).json()["meta"]["total"] == 1
    assert client.get(f"{BASE}/receipts/{rid}", headers=north).status_code == 404
    approve = client.post(f"{BASE}/admin/receipts/{rid}", json={"action": "approve", "points": 3000}, headers=staff)
    assert approve.status_code == 200 and approve.json()["data"]["status"] == "approved"
    pts = client.get(f"{BASE}/points", headers=d).json()["data"]
    assert pts["balance"] == 3000 and pts["next_expiries"][0]["points"] == 3000
    # Cart and checkout.
    mug = demo_id("rewards-product", "mug")
    assert client.post(f"{BASE}/cart", json={"product_id": mug, "quantity": 2}, headers=d).status_code == 200
    assert client.post(f"{BASE}/cart", json={"product_id": mug}, headers=d).json()["data"]["items"][0]["quantity"] == 3
    assert (
        client.put(f"{BASE}/cart", json={"product_id": mug, "quantity": 4}, headers=d).json()["data"]["total_points"]
        == 2000
    )
    gift = demo_id("rewards-product", "gift")
    client.post(f"{BASE}/cart", json={"product_id": gift, "quantity": 1}, headers=d)
    removed = client.request("DELETE", f"{BASE}/cart", json={"product_id": gift}, headers=d)
    assert removed.status_code == 200 and len(removed.json()["data"]["items"]) == 1
    assert client.post(f"{BASE}/cart", json={"product_id": "nope"}, headers=d).status_code == 404
    co = client.post(
        f"{BASE}/cart/checkout", json={"shipping_address": ADDRESS}, headers={**d, "Idempotency-Key": "co-1"}
    )
    assert co.status_code == 201, co.text
    order = co.json()["data"]
    assert order["status"] == "ordered" and order["total_points"] == 2000 and order["value"] == "20.00"
    dup = client.post(
        f"{BASE}/cart/checkout", json={"shipping_address": ADDRESS}, headers={**d, "Idempotency-Key": "co-1"}
    )
    assert dup.status_code == 201 and dup.json()["data"]["id"] == order["id"]
    empty = client.post(f"{BASE}/cart/checkout", json={"shipping_address": ADDRESS}, headers=d)
    assert empty.status_code == 409
    short = client.post(
        f"{BASE}/cart/checkout",
        json={"shipping_address": ADDRESS, "items": [{"product_id": mug, "quantity": 3}]},
        headers=d,
    )
    assert short.status_code == 409 and short.json()["details"]["needed"] == 1500
    assert client.get(f"{BASE}/points", headers=d).json()["data"]["balance"] == 1000
    assert [o["id"] for o in client.get(f"{BASE}/orders", headers=d).json()["data"]] == [order["id"]]
    assert client.get(f"{BASE}/orders/{order['id']}", headers=north).status_code == 404
    # Staff move the order; a wrong state is 409 with the current state.
    ship = client.post(
        f"{BASE}/admin/orders/{order['id']}", json={"action": "ship", "tracking_number": "1Z"}, headers=staff
    )
    assert ship.status_code == 200 and ship.json()["data"]["status"] == "shipped"
    assert (
        client.post(f"{BASE}/admin/orders/{order['id']}", json={"action": "deliver"}, headers=staff).status_code == 200
    )
    late = client.post(f"{BASE}/admin/orders/{order['id']}", json={"action": "cancel"}, headers=staff)
    assert late.status_code == 409 and late.json()["details"]["current_state"] == "delivered"
    # W-9: below the default threshold not required; the TIN never comes back in clear.
    w9 = client.get(f"{BASE}/tax/w9", headers=d).json()["data"]
    assert w9["status"] == "not_required" and w9["threshold"] == "2000.00" and w9["ytd_value"] == "20.00"
    form = {
        "name": "Ada",
        "tax_classification": "llc_s",
        "address": "1 Main St",
        "city": "Springfield",
        "state": "IL",
        "zip": "62701",
        "tin_type": "ein",
        "tin": "12-3456789",
        "certify": True,
    }
    assert client.post(f"{BASE}/tax/w9", json={**form, "tin": "12-34567"}, headers=d).status_code == 400
    sub = client.post(f"{BASE}/tax/w9", json=form, headers=d)
    assert sub.status_code == 201 and sub.json()["data"]["form"]["tin_masked"] == "**-***6789"
    assert "3456789" not in sub.text.replace("***6789", "")
    # Logout ends the token.
    assert client.post(f"{BASE}/auth/logout", headers=d).status_code == 204
    assert client.get(f"{BASE}/points", headers=d).status_code == 401


def test_fifty_concurrent_checkouts_never_overspend(
    settings: Settings, server: LiveServer, client: httpx.Client
) -> None:
    staff = auth_headers(client, "owner@demo.test")
    east = demo_id("rewards-dealer", "east")
    client.post(f"{BASE}/admin/dealers/{east}/points", json={"points": 2000, "reason": "race"}, headers=staff)
    p = client.post(f"{BASE}/admin/products", json={"name": "Race prize", "points": 100, "stock": 1000}, headers=staff)
    pid = p.json()["data"]["id"]
    assert client.get(f"{BASE}/admin/products/{pid}", headers=staff).json()["data"]["stock"] == 1000
    assert client.get(f"{BASE}/admin/products", params={"active": "true"}, headers=staff).json()["meta"]["total"] == 5
    token = dealer_login(client, "east@demo.test").json()["data"]["token"]
    balance = client.get(f"{BASE}/points", headers={"Authorization": f"Bearer {token}"}).json()["data"]["balance"]
    codes: list[int] = []
    start = threading.Barrier(50)

    def buy() -> None:
        with httpx.Client(base_url=server.url, timeout=60) as c:
            start.wait()
            r = c.post(
                f"{BASE}/cart/checkout",
                json={"shipping_address": ADDRESS, "items": [{"product_id": pid, "quantity": 1}]},
                headers={"Authorization": f"Bearer {token}"},
            )
            codes.append(r.status_code)

    threads = [threading.Thread(target=buy) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(set(codes)) <= [201, 409] and codes.count(201) == min(balance // 100, 50)
    after = client.get(f"{BASE}/points", headers={"Authorization": f"Bearer {token}"}).json()["data"]["balance"]
    assert after == balance - 100 * codes.count(201) >= 0
    ledger = client.get(f"{BASE}/points/ledger", params={"dealer_id": east, "limit": 100}, headers=staff).json()
    assert sum(e["points"] for e in ledger["data"]) == after and ledger["meta"]["total"] <= 100
