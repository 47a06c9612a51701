"""The Upgrade routes against a real uvicorn server: customer sessions, the trade-in flow, bad paths."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from app.settings import Settings
from services.core.clock import FixedClock
from services.core.demo import demo_id
from tests.conftest import LiveServer, auth_headers

B = "/demo/upgrade/api"
UPLOAD_LIMIT = 200_000
FAIR = {"power_on": True, "screen": "deep_scratches", "body": "flawless", "functions": True, "battery_health": 95,
        "account_lock_removed": True, "data_wiped": True, "accessories": True}  # fmt: skip


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # A small upload limit, so the 413 test sends kilobytes, not 20 MiB.
    return Settings(data_dir=tmp_path / "data", secret_key="test-secret-key-0123456789abcdef", demo=True,
                    upload_limit=UPLOAD_LIMIT)  # fmt: skip


def _png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (120, 90), (10, 120, 200)).save(out, "PNG")
    return out.getvalue()


def customer_headers(client: httpx.Client, email: str = "customer@demo.test") -> dict[str, str]:
    r = client.post(f"{B}/auth/login", json={"email": email, "password": "demo-password"})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['data']['token']}"}


def test_register_login_me_logout(client: httpx.Client) -> None:
    r = client.post(f"{B}/auth/register", json={"email": "nia@demo.test", "password": "long-enough-pw", "name": "Nia"})
    assert r.status_code == 201, r.text
    token = r.json()["data"]["token"]
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("upgrade_token=") and "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    by_cookie = client.get(f"{B}/auth/me", headers={"Cookie": f"upgrade_token={token}"})
    by_bearer = client.get(f"{B}/auth/me", headers={"Authorization": f"Bearer {token}"})
    assert by_cookie.status_code == by_bearer.status_code == 200
    assert by_bearer.json()["data"]["email"] == "nia@demo.test" and "password_hash" not in by_bearer.text
    assert client.post(f"{B}/auth/register", json={"email": "nia@demo.test", "password": "long-enough-pw",
                                                   "name": "Nia"}).status_code == 409  # fmt: skip
    bad = client.post(f"{B}/auth/login", json={"email": "nia@demo.test", "password": "wrong-password"})
    assert bad.status_code == 401 and bad.json()["code"] == "UNAUTHORIZED"
    out = client.post(f"{B}/auth/logout", headers={"Cookie": f"upgrade_token={token}"})
    assert out.status_code == 204 and 'upgrade_token=""' in out.headers["set-cookie"]
    assert client.get(f"{B}/auth/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_credentials_and_audiences(client: httpx.Client) -> None:
    cust = customer_headers(client)
    staff = auth_headers(client, "operator@demo.test")
    assert client.get(f"{B}/submissions").status_code == 401  # no credentials
    assert client.get(f"{B}/admin/stats").status_code == 401
    # A customer on staff routes: authenticated, not allowed.
    r = client.post(f"{B}/offers", json={"submission_id": "x", "amount": 1}, headers=cust)
    assert r.status_code == 403 and r.json()["code"] == "FORBIDDEN"
    assert client.get(f"{B}/admin/submissions", headers=cust).status_code == 403
    # The spec's paths serve staff too, with the tenant's records (DECISIONS: "Who may call a spec path").
    mine = client.get(f"{B}/submissions", headers=cust).json()["data"]
    everyone = client.get(f"{B}/submissions", params={"per_page": 100}, headers=staff)
    assert everyone.status_code == 200, everyone.text
    assert len({s["customer_id"] for s in everyone.json()["data"]}) > 1
    assert {s["id"] for s in mine} <= {s["id"] for s in everyone.json()["data"]}
    one = everyone.json()["data"][0]["id"]
    assert client.get(f"{B}/submissions/{one}", headers=staff).json()["data"]["id"] == one
    key = client.post("/api/tenants/demo/api-keys", json={"name": "trade-ins", "modules": ["upgrade"]},
                      headers=auth_headers(client, "owner@demo.test")).json()["data"]["key"]  # fmt: skip
    assert client.get(f"{B}/submissions/{one}", headers={"X-API-Key": key}).status_code == 200
    # Staff without the module (a warehouse device): 403, not 401.
    device = auth_headers(client, "device@demo.test")
    r = client.get(f"{B}/submissions", headers=device)
    assert r.status_code == 403 and r.json()["code"] == "FORBIDDEN"
    assert client.get(f"{B}/submissions/{one}", headers=device).status_code == 403
    # A demo customer's token means nothing in another tenant.
    assert client.get("/other/upgrade/api/submissions", headers=cust).status_code == 401
    # Staff without the module: 403.
    assert client.get(f"{B}/admin/stats", headers=auth_headers(client, "device@demo.test")).status_code == 403


def test_trade_in_flow_over_http(client: httpx.Client) -> None:
    cust = customer_headers(client)
    staff = auth_headers(client, "operator@demo.test")
    photo = client.post(f"{B}/photos", files={"file": ("front.png", _png(), "image/png")}, headers=cust)
    assert photo.status_code == 201, photo.text
    pid = photo.json()["data"]["id"]
    thumb = client.get(f"{B}/photos/{pid}", params={"thumbnail": "true"}, headers=cust)
    assert thumb.status_code == 200 and thumb.headers["content-type"] == "image/jpeg"
    body = {"product_id": "IPH14-128", "serial_number": "HTTP-SN-0001", "condition": "excellent",
            "description": "like new", "photos": [pid]}  # fmt: skip
    created = client.post(f"{B}/submissions", json=body, headers=cust)
    assert created.status_code == 201 and created.json()["data"]["status"] == "draft"
    sid = created.json()["data"]["id"]
    assert client.put(f"{B}/submissions/{sid}", json={"description": "mint"}, headers=cust).status_code == 200
    sub = client.post(f"{B}/submissions/{sid}", json={}, headers=cust)
    assert sub.status_code == 200 and sub.json()["data"]["status"] == "submitted"
    assert sub.json()["data"]["declared_value"] == 420.0
    again = client.post(f"{B}/submissions/{sid}", json={}, headers=cust)  # duplicate submit
    assert again.status_code == 409 and again.json()["details"]["current_state"] == "submitted"
    queue = client.get(f"{B}/admin/submissions", params={"status": "submitted"}, headers=staff).json()
    assert sid in [x["id"] for x in queue["data"]] and queue["meta"]["total"] >= 2
    expires = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    offer = client.post(f"{B}/offers", json={"submission_id": sid, "amount": 410.5, "notes": "great device",
                                             "expires_at": expires}, headers=staff)  # fmt: skip
    assert offer.status_code == 201, offer.text
    assert offer.json()["data"]["amount"] == 410.5 and offer.json()["data"]["submission"]["status"] == "offered"
    oid = offer.json()["data"]["id"]
    acc = client.post(f"{B}/offers/{oid}", json={"action": "accept"}, headers=cust)
    assert acc.status_code == 200 and acc.json()["data"]["submission"]["status"] == "accepted"
    ship = client.post(f"{B}/submissions/{sid}/ship", json={"kind": "kit"}, headers=staff)
    assert ship.status_code == 200 and ship.json()["data"]["status"] == "shipped"
    label = ship.json()["data"]["shipment"]
    pdf = client.get(f"{B}/{label['label_path']}", headers=staff)
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf" and pdf.content[:5] == b"%PDF-"
    scanned = client.get(f"{B}/admin/scan/{label['barcode']}", headers=staff)
    assert scanned.status_code == 200 and scanned.json()["data"]["id"] == sid
    assert client.post(f"{B}/submissions/{sid}/receive", json={}, headers=staff).json()["data"]["status"] == "received"
    insp = client.post(f"{B}/submissions/{sid}/inspect", json={"action": "complete", "checklist": FAIR}, headers=staff)
    assert insp.status_code == 200, insp.text
    data = insp.json()["data"]
    assert data["outcome"] == "revised_offer" and data["revised_offer"]["amount"] == 252.0
    mine = client.get(f"{B}/submissions/{sid}", headers=cust).json()["data"]
    assert mine["current_offer"]["kind"] == "revised" and mine["inspection"]["graded_condition"] == "fair"
    done = client.post(f"{B}/offers/{data['revised_offer']['id']}", json={"action": "accept"}, headers=cust)
    assert done.json()["data"]["submission"]["status"] == "completed"
    assert done.json()["data"]["submission"]["credit"] == 252.0
    stats = client.get(f"{B}/admin/stats", headers=staff).json()["data"]
    assert stats["counts_by_state"]["completed"] == 2 and stats["total_credited"] == 264.0 + 252.0


def test_bad_input(client: httpx.Client) -> None:
    cust = customer_headers(client)
    dana = customer_headers(client, "dana@demo.test")
    staff = auth_headers(client, "operator@demo.test")
    casey_sub = demo_id("upgrade", "demo", "submission", "2")
    other_sub = demo_id("upgrade", "other", "submission", "1")
    assert client.get(f"{B}/submissions/{casey_sub}", headers=dana).status_code == 404
    assert client.get(f"{B}/submissions/{casey_sub}", headers=cust).status_code == 200
    assert client.get(f"{B}/admin/submissions/{other_sub}", headers=staff).status_code == 404
    malformed = client.post(
        f"{B}/submissions", content=b"{not json", headers={**cust, "Content-Type": "application/json"}
    )
    assert malformed.status_code == 400 and malformed.json()["code"] == "VALIDATION_ERROR"
    extra = client.post(f"{B}/submissions", json={"product_id": "IPH14-128", "serial_number": "SN-X-1",
                                                  "condition": "mint"}, headers=cust)  # fmt: skip
    assert extra.status_code == 400
    dup = client.post(f"{B}/submissions", json={"product_id": "IPH13-128", "serial_number": "ip13demo0002",
                                                "condition": "good"}, headers=dana)  # fmt: skip
    assert dup.status_code == 409  # the serial number of an open trade-in
    wrong = client.post(f"{B}/submissions/{casey_sub}/receive", json={}, headers=staff)
    assert wrong.status_code == 409 and wrong.json()["details"] == {"current_state": "submitted", "action": "receive"}
    past = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    assert client.post(f"{B}/offers", json={"submission_id": casey_sub, "amount": 100, "expires_at": past},
                       headers=staff).status_code == 400  # fmt: skip
    assert client.post(f"{B}/offers", json={"submission_id": casey_sub, "amount": -1}, headers=staff).status_code == 400
    not_image = client.post(f"{B}/photos", files={"file": ("x.jpg", b"just text", "image/jpeg")}, headers=cust)
    assert not_image.status_code == 400
    big = client.post(f"{B}/photos", files={"file": ("big.png", _png() + b"\0" * UPLOAD_LIMIT, "image/png")},
                      headers=cust)  # fmt: skip
    assert big.status_code == 413 and big.json()["code"] == "PAYLOAD_TOO_LARGE"


def test_expired_offer_accept_is_409(client: httpx.Client, server: LiveServer) -> None:
    clock = FixedClock(datetime.now(UTC))
    server.runtime.clock = clock
    cust, staff = customer_headers(client), auth_headers(client, "operator@demo.test")
    sid = demo_id("upgrade", "demo", "submission", "2")
    expires = (clock.now() + timedelta(hours=1)).isoformat()
    oid = client.post(f"{B}/offers", json={"submission_id": sid, "amount": 200, "expires_at": expires},
                      headers=staff).json()["data"]["id"]  # fmt: skip
    clock.advance(hours=2)
    r = client.post(f"{B}/offers/{oid}", json={"action": "accept"}, headers=cust)
    assert r.status_code == 409 and r.json()["details"]["current_state"] == "expired"


def test_valuations_profile_and_customers(client: httpx.Client) -> None:
    admin = auth_headers(client, "admin@demo.test")
    op = auth_headers(client, "operator@demo.test")
    body = {"product_id": "PIX9-128", "product_name": "Pixel 9", "base_value": 499.99, "currency": "USD"}
    assert client.post(f"{B}/admin/valuations", json=body, headers=op).status_code == 403
    created = client.post(f"{B}/admin/valuations", json=body, headers=admin)
    assert created.status_code == 201
    v = created.json()["data"]
    assert (
        set(v) == {"id", "product_id", "product_name", "base_value", "currency", "is_phone"}
        and v["base_value"] == 499.99
    )
    assert (
        client.put(f"{B}/admin/valuations/{v['id']}", json={"base_value": 450}, headers=admin).json()["data"][
            "base_value"
        ]
        == 450.0
    )
    listed = client.get(f"{B}/admin/valuations", params={"limit": 100}, headers=op).json()
    assert listed["meta"]["total"] == 7 and "pagination" in listed
    assert client.delete(f"{B}/admin/valuations/{v['id']}", headers=admin).status_code == 204
    assert client.get(f"{B}/admin/valuations/{v['id']}", headers=op).status_code == 404
    cust = customer_headers(client)
    prof = client.put(f"{B}/profile", json={"address": {"line1": "1 Main St", "city": "Capital City"}}, headers=cust)
    assert prof.status_code == 200 and client.get(f"{B}/profile", headers=cust).json()["data"]["address"]["city"] == (
        "Capital City"
    )
    assert client.put(f"{B}/profile", json={"email": "x@y.z"}, headers=cust).status_code == 400
    people = client.get(f"{B}/admin/customers", headers=op).json()["data"]
    assert {p["email"] for p in people} == {"customer@demo.test", "dana@demo.test"}
