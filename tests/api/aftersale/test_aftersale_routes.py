"""Aftersale over HTTP on a real server: public registration (and its rate limit), customer
accounts, warranties and claims, strangers and envelopes."""

from __future__ import annotations

import io

import httpx
from PIL import Image

from app.settings import Settings
from services.core.context import Runtime
from services.core.demo import demo_id
from tests.conftest import auth_headers, start_server

BASE = "/demo/aftersale/api"
OTHER = "/other/aftersale/api"


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (30, 30), "white").save(out, "PNG")
    return out.getvalue()


def test_register_a_warranty_then_claim_on_it(client: httpx.Client) -> None:
    proof = client.post(f"{BASE}/p/files", files={"file": ("receipt.png", png(), "image/png")})
    assert proof.status_code == 201, proof.text
    assert client.post(f"{BASE}/p/files", files={"file": ("x.bin", b"\x00\x01\x02", "image/png")}).status_code == 400
    body = {
        "serial_number": "SN-NEW-1",
        "product_sku": "MUG-CER-01",
        "purchase_date": "2026-03-31",
        "email": "lee@example.com",
        "name": "Lee",
        "retailer": "Corner shop",
        "proof_file": proof.json()["data"]["id"],
    }
    r = client.post(f"{BASE}/p/warranties", json=body)
    assert r.status_code == 201, r.text
    w = r.json()["data"]
    assert w == {**w, "status": "active", "coverage_until": "2028-03-31", "serial_number": "SN-NEW-1"}
    dup = client.post(f"{BASE}/p/warranties", json=body)
    assert dup.status_code == 409 and dup.json()["code"] == "CONFLICT"
    future = client.post(f"{BASE}/p/warranties", json={**body, "serial_number": "SN-F", "purchase_date": "2999-01-01"})
    assert future.status_code == 400 and future.json()["code"] == "VALIDATION_ERROR"
    assert client.post(f"{BASE}/p/warranties", json={**body, "serial_number": "x" * 101}).status_code == 400
    assert (
        client.post(f"{BASE}/p/warranties", content=b"{", headers={"content-type": "application/json"}).status_code
        == 400
    )
    huge = client.post(f"{BASE}/p/warranties", json={**body, "serial_number": "SN-H", "retailer": "x" * 1_200_000})
    assert huge.status_code == 413 and huge.json()["code"] == "PAYLOAD_TOO_LARGE"
    # The customer's account: register (cookie + token), me, their warranties only.
    acc = client.post(
        f"{BASE}/auth/register", json={"email": "lee@example.com", "password": "long-password", "name": "Lee"}
    )
    assert acc.status_code == 201 and "aftersale_token=" in acc.headers["set-cookie"]
    assert (
        client.post(
            f"{BASE}/auth/register", json={"email": "lee@example.com", "password": "long-password", "name": "L"}
        ).status_code
        == 409
    )
    assert (
        client.post(f"{BASE}/auth/login", json={"email": "lee@example.com", "password": "wrong-password"}).status_code
        == 401
    )
    c = {"Authorization": f"Bearer {acc.json()['data']['token']}"}
    assert client.get(f"{BASE}/auth/me", headers=c).json()["data"]["email"] == "lee@example.com"
    mine = client.get(f"{BASE}/warranties", headers=c).json()
    assert [x["id"] for x in mine["data"]] == [w["id"]] and mine["pagination"]["total"] == 1
    assert client.get(f"{BASE}/warranties/{demo_id('aftersale-warranty', 'w1')}", headers=c).status_code == 404
    assert client.get(f"{OTHER}/warranties", headers=c).status_code == 401  # a token of another tenant
    # Claims: filed, duplicate refused, processed by staff.
    claim = client.post(f"{BASE}/claims", json={"warranty_id": w["id"], "description": "Handle cracked"}, headers=c)
    assert claim.status_code == 201, claim.text
    cid = claim.json()["data"]["id"]
    assert (
        client.post(f"{BASE}/claims", json={"warranty_id": w["id"], "description": "again"}, headers=c).status_code
        == 409
    )
    assert client.post(f"{BASE}/claims", json={"warranty_id": w["id"]}, headers=c).status_code == 400
    assert client.post(f"{BASE}/claims/{cid}", json={"action": "start"}, headers=c).status_code == 403
    staff = auth_headers(client, "admin@demo.test")
    assert client.get(f"{BASE}/claims", params={"status": "open"}, headers=staff).json()["meta"]["total"] >= 2
    assert client.get(f"{BASE}/claims", headers=auth_headers(client, "device@demo.test")).status_code == 403
    assert client.get(f"{OTHER}/claims/{cid}", headers=auth_headers(client, "owner@other.test")).status_code == 404
    assert client.get(f"{BASE}/files/{body['proof_file']}", headers=staff).headers["content-type"] == "image/png"
    assert client.get(f"{BASE}/files/{body['proof_file']}", headers=c).status_code == 403
    started = client.post(f"{BASE}/claims/{cid}", json={"action": "start"}, headers=staff)
    assert started.status_code == 200 and started.json()["data"]["status"] == "in_progress"
    done = client.post(f"{BASE}/claims/{cid}", json={"action": "close", "resolution": "Replaced"}, headers=staff)
    assert done.json()["data"]["status"] == "closed"
    wrong = client.post(f"{BASE}/claims/{cid}", json={"action": "start"}, headers=staff)
    assert wrong.status_code == 409 and wrong.json()["details"]["current_state"] == "closed"
    assert client.post(f"{BASE}/auth/logout", headers=c).status_code == 204
    assert client.get(f"{BASE}/auth/me", headers=c).status_code == 401


def test_public_registration_is_rate_limited(settings: Settings, runtime: Runtime) -> None:
    runtime.db.dispose()  # the server opens the demo database the fixture copied
    srv = start_server(settings, rate_limits="A")
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as client:
            codes = []
            for i in range(6):
                r = client.post(
                    f"{BASE}/p/warranties",
                    json={
                        "serial_number": f"RL-{i}",
                        "product_sku": "TSH-BLK-M",
                        "purchase_date": "2026-01-01",
                        "email": "rl@example.com",
                        "name": "R",
                    },
                )
                codes.append(r.status_code)
            assert codes == [201] * 5 + [429]
            assert r.json()["code"] == "RATE_LIMITED" and "Retry-After" in r.headers
    finally:
        srv.stop()
        srv.runtime.db.dispose()
