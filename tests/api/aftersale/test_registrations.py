"""Serials over HTTP: one active registration per normalised serial, disputes to staff, void, transfer."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import func, select

from local_db.models import Event
from local_db.models.aftersale import AftersaleWarranty
from tests.conftest import LiveServer, auth_headers

BASE = "/demo/aftersale/api"


def _reg(client: httpx.Client, serial: str, email: str, **extra: Any) -> httpx.Response:
    body = {"serial_number": serial, "product_sku": "MUG-CER-01", "purchase_date": "2026-03-31",
            "email": email, "name": email.split("@")[0], **extra}  # fmt: skip
    return client.post(f"{BASE}/p/warranties", json=body)


def _count(server: LiveServer, *where: Any) -> int:
    with server.runtime.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(AftersaleWarranty).where(*where)).scalar_one())


def test_one_serial_however_it_is_written(client: httpx.Client, server: LiveServer) -> None:
    first = _reg(client, "SN-ABC-12345", "ana@example.com")
    assert first.status_code == 201 and first.json()["data"]["status"] == "active"
    # The holder again, written otherwise: a duplicate (409), nothing stored.
    for same in ("sn abc 12345", "snabc12345", "Sn-Abc 12345"):
        r = _reg(client, same, "ANA@example.com")
        assert r.status_code == 409 and r.json()["code"] == "CONFLICT", same
    assert _count(server, AftersaleWarranty.serial_number.ilike("%abc%")) == 1
    # Someone else: kept as disputed for staff, the holder's registration stands.
    other = _reg(client, "sn abc 12345", "bo@example.com")
    assert other.status_code == 201, other.text
    disputed = other.json()["data"]
    assert disputed["status"] == "disputed"
    staff = auth_headers(client, "admin@demo.test")
    listed = client.get(f"{BASE}/warranties", params={"status": "disputed"}, headers=staff).json()["data"]
    assert [(w["id"], w["disputes_id"]) for w in listed] == [(disputed["id"], first.json()["data"]["id"])]
    # A disputed registration is no cover: no claim on it.
    with server.runtime.db.reading(None) as s:
        kinds = [e.type for e in s.execute(select(Event).where(Event.type.like("warranty.%"))).scalars()]
    assert kinds.count("warranty.disputed") == 1 and kinds.count("warranty.registered") == 1
    # Staff uphold the dispute: Bo holds the serial, Ana's registration is voided with the reason.
    r = client.post(f"{BASE}/warranties/{disputed['id']}/resolve",
                    json={"decision": "uphold", "reason": "receipt in Bo's name"}, headers=staff)  # fmt: skip
    assert r.status_code == 200 and r.json()["data"]["status"] == "active", r.text
    ana = client.get(f"{BASE}/warranties/{first.json()['data']['id']}", headers=staff).json()["data"]
    assert ana["status"] == "voided" and ana["void_reason"] == "receipt in Bo's name"
    again = client.post(f"{BASE}/warranties/{disputed['id']}/resolve", json={"decision": "reject"}, headers=staff)
    assert again.status_code == 409
    assert _reg(client, "SN-ABC-12345", "bo@example.com").status_code == 409


def test_staff_void_and_transfer(client: httpx.Client, server: LiveServer) -> None:
    staff = auth_headers(client, "admin@demo.test")
    w = _reg(client, "VT-0001", "cy@example.com").json()["data"]
    # Transfer to a new owner: the coverage stays, the owner changes.
    r = client.post(f"{BASE}/warranties/{w['id']}/transfer", json={"email": "di@example.com", "name": "Di"},
                    headers=staff)  # fmt: skip
    assert r.status_code == 200, r.text
    moved = r.json()["data"]
    assert (moved["email"], moved["coverage_until"]) == ("di@example.com", w["coverage_until"])
    same = client.post(f"{BASE}/warranties/{w['id']}/transfer", json={"email": "DI@example.com", "name": "Di"},
                       headers=staff)  # fmt: skip
    assert same.status_code == 409
    bad = client.post(f"{BASE}/warranties/{w['id']}/transfer", json={"email": "not-an-email", "name": "X"},
                      headers=staff)  # fmt: skip
    assert bad.status_code == 400
    assert client.get(f"{BASE}/warranties/{w['id']}", headers=staff).json()["data"]["email"] == "di@example.com"
    # Void: needs a reason; the serial is free again; a second void is 409.
    assert client.post(f"{BASE}/warranties/{w['id']}/void", json={}, headers=staff).status_code == 400
    assert client.post(f"{BASE}/warranties/{w['id']}/void", json={"reason": "  "}, headers=staff).status_code == 400
    r = client.post(f"{BASE}/warranties/{w['id']}/void", json={"reason": "registered by mistake"}, headers=staff)
    assert r.status_code == 200 and r.json()["data"]["status"] == "voided"
    assert client.post(f"{BASE}/warranties/{w['id']}/void", json={"reason": "x"}, headers=staff).status_code == 409
    voided = client.post(f"{BASE}/warranties/{w['id']}/transfer", json={"email": "ed@example.com", "name": "Ed"},
                         headers=staff)  # fmt: skip
    assert voided.status_code == 409
    assert _reg(client, "vt 0001", "ed@example.com").json()["data"]["status"] == "active"
    # Not for customers or devices.
    device = auth_headers(client, "device@demo.test")
    assert client.post(f"{BASE}/warranties/{w['id']}/void", json={"reason": "x"}, headers=device).status_code == 403
    assert client.post(f"{BASE}/warranties/{w['id']}/void", json={"reason": "x"}).status_code == 401


def test_claims_carry_photos(client: httpx.Client, server: LiveServer) -> None:
    from local_db.models.aftersale import AftersaleClaim
    from tests.api.aftersale.test_aftersale_routes import png

    w = _reg(client, "PH-0001", "fay@example.com").json()["data"]
    acc = client.post(f"{BASE}/auth/register", json={"email": "fay@example.com", "password": "long-password",
                                                     "name": "Fay"})  # fmt: skip
    c = {"Authorization": f"Bearer {acc.json()['data']['token']}"}
    photo = client.post(f"{BASE}/photos", files={"file": ("crack.png", png(), "image/png")}, headers=c)
    assert photo.status_code == 201, photo.text
    pdf = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
    assert (
        client.post(f"{BASE}/photos", files={"file": ("x.pdf", pdf, "application/pdf")}, headers=c).status_code == 400
    )
    assert client.post(f"{BASE}/photos", files={"file": ("x.png", png(), "image/png")}).status_code == 401
    proof = client.post(f"{BASE}/p/files", files={"file": ("r.pdf", pdf, "application/pdf")})
    before = _count(server)
    with server.runtime.db.reading(None) as s:
        claims_before = int(s.execute(select(func.count()).select_from(AftersaleClaim)).scalar_one())
    assert proof.status_code == 201, proof.text  # a PDF: a proof of purchase, not a photo
    for bad in (["no-such-photo"], [proof.json()["data"]["id"]]):
        r = client.post(f"{BASE}/claims", json={"warranty_id": w["id"], "description": "Cracked", "photos": bad},
                        headers=c)  # fmt: skip
        assert r.status_code == 400 and "photos" in r.text, r.text
    with server.runtime.db.reading(None) as s:
        assert int(s.execute(select(func.count()).select_from(AftersaleClaim)).scalar_one()) == claims_before
    assert _count(server) == before
    pid = photo.json()["data"]["id"]
    claim = client.post(f"{BASE}/claims", json={"warranty_id": w["id"], "description": "Cracked", "photos": [pid]},
                        headers=c)  # fmt: skip
    assert claim.status_code == 201 and claim.json()["data"]["photos"] == [pid], claim.text
    staff = auth_headers(client, "admin@demo.test")
    seen = client.get(f"{BASE}/claims/{claim.json()['data']['id']}", headers=staff).json()["data"]
    assert seen["photos"] == [pid]
    assert client.get(f"{BASE}/files/{pid}", headers=staff).headers["content-type"] == "image/png"


def test_a_tenant_may_require_the_serial_to_have_shipped(client: httpx.Client, server: LiveServer) -> None:
    from local_db.models import Tenant
    from services.core.demo import demo_id

    with server.runtime.db.transaction(None) as s:
        t = s.get(Tenant, demo_id("tenant", "demo"))
        assert t is not None
        t.settings = {**(t.settings or {}), "aftersale": {"require_shipped_serial": True}}
    before = _count(server)
    refused = _reg(client, "SHIP-0001", "gus@example.com")
    assert refused.status_code == 400 and refused.json()["details"]["reason"] == "serial_not_shipped"
    assert _count(server) == before
    inv = "/demo/inventory/api"
    h = auth_headers(client, "owner@demo.test")
    got = client.post(f"{inv}/serials", json={"sku": "MUG-CER-01", "location_id": "MAIN", "serials": ["SHIP-0001"]},
                      headers=h)  # fmt: skip
    assert got.status_code == 201
    assert _reg(client, "ship 0001", "gus@example.com").status_code == 400  # in stock: not sold yet
    assert client.post(f"{inv}/serials/SHIP0001/ship", json={"reference": "SO-1"}, headers=h).status_code == 200
    ok = _reg(client, "ship 0001", "gus@example.com")
    assert ok.status_code == 201 and ok.json()["data"]["status"] == "active"
