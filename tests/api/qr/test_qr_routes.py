"""QR Codes routes against a real uvicorn server: codes, the scan redirect, analytics, templates, folders,
barcodes, the v1 API; wrong tenant, role and state, bad and oversized input."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import select

from local_db.models import Event
from local_db.models.qr import QrScan
from tests.conftest import LiveServer, auth_headers
from tests.qr_decode import decode

B = "/demo/qr/api"
PHONE = {"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Version/17.4 Mobile/15E148 Safari/604.1"}
PREVIEW_BOT = {"User-Agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"}


def _events(server: LiveServer, type_: str) -> list[Event]:
    with server.runtime.db.reading(None) as s:
        return list(s.execute(select(Event).where(Event.type == type_)).scalars())


def _create(client: httpx.Client, h: dict[str, str], **extra: object) -> dict:
    body = {"name": "Poster", "destination_url": "https://example.com/a", **extra}
    r = client.post(f"{B}/qr", json=body, headers=h)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def test_dynamic_code_scan_redirect_threshold_and_retarget(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    code = _create(client, h, scan_alert_threshold=2, max_scans=3)
    assert code["content"].endswith(f"/demo/qr/r/{code['short_code']}") and code["dynamic"] is True
    scan = f"/demo/qr/r/{code['short_code']}"
    r = client.get(scan, headers=PHONE, follow_redirects=False)
    assert r.status_code == 302 and r.headers["location"] == "https://example.com/a"
    # A link preview is recorded apart: not toward the cap nor the threshold.
    assert client.get(scan, headers=PREVIEW_BOT).status_code == 302
    assert not _events(server, "qr.threshold_reached")
    retarget = client.patch(
        f"{B}/qr/{code['id']}/destination", json={"destination_url": "https://example.com/b"}, headers=h
    )
    assert retarget.status_code == 200
    assert client.get(scan, headers=PHONE).headers["location"] == "https://example.com/b"
    reached = _events(server, "qr.threshold_reached")
    assert len(reached) == 1 and reached[0].data["qr_id"] == code["id"]
    assert client.get(scan, headers=PHONE).status_code == 302  # the third and last
    assert client.get(scan, headers=PHONE).status_code == 410  # over max_scans: a page saying why
    assert len(_events(server, "qr.threshold_reached")) == 1  # once
    assert len([e for e in _events(server, "qr.scanned") if e.data["qr_id"] == code["id"]]) == 3
    got = client.get(f"{B}/qr/{code['id']}", headers=h).json()["data"]
    assert got["scans"] == 3 and got["bots"] == 1
    a = client.get(f"{B}/qr/{code['id']}/analytics", headers=h).json()["data"]
    assert a["scans"] == 3 and a["bots"] == 1 and a["unique"] == 1
    assert a["device"] == [{"key": "mobile", "count": 3}] and a["os"][0]["key"] == "iOS"
    # Unknown and capped codes are orphans, counted apart on the dashboard.
    assert client.get("/demo/qr/r/nope", headers=PHONE).status_code == 404
    dash = client.get(f"{B}/analytics", headers=h).json()["data"]
    assert dash["orphans"] >= 2
    rt = client.get(f"{B}/analytics/realtime?minutes=5", headers=h).json()["data"]
    assert rt["count"] >= 6
    csv = client.get(f"{B}/analytics/export?format=csv&code_id={code['id']}", headers=h)
    assert csv.status_code == 200 and csv.text.count("\n") == 5 and "ip_hash" in csv.text.splitlines()[0]
    js = client.get(f"{B}/analytics/export?format=json", headers=h)
    assert js.status_code == 200 and isinstance(js.json(), list)
    # Nothing identifying kept: the IP is a keyed hash.
    with server.runtime.db.reading(None) as s:
        assert all("127.0.0" not in r.ip_hash for r in s.execute(select(QrScan)).scalars())


def test_disabled_and_window(client: httpx.Client) -> None:
    h = auth_headers(client, "admin@demo.test")
    code = _create(client, h, valid_since="2001-01-01T00:00:00Z", valid_until="2002-01-01T00:00:00Z")
    assert client.get(f"/demo/qr/r/{code['short_code']}", headers=PHONE).status_code == 410
    live = _create(client, h)
    assert client.patch(f"{B}/qr/{live['id']}", json={"enabled": False}, headers=h).json()["data"]["enabled"] is False
    assert client.get(f"/demo/qr/r/{live['short_code']}", headers=PHONE).status_code == 410
    client.patch(f"{B}/qr/{live['id']}", json={"enabled": True}, headers=h)
    assert client.get(f"/demo/qr/r/{live['short_code']}", headers=PHONE).status_code == 302
    # Another tenant's address does not know the code.
    assert client.get(f"/other/qr/r/{live['short_code']}", headers=PHONE).status_code == 404


@pytest.mark.parametrize("fmt", ["png", "svg", "pdf"])
def test_download_decodes(client: httpx.Client, fmt: str) -> None:
    h = auth_headers(client, "owner@demo.test")
    code = _create(client, h, style={"fg": "#1d3b8f", "bg": "#ffffff", "error_correction": "H", "border": 4})
    r = client.get(f"{B}/qr/{code['id']}/download?format={fmt}&size=400", headers=h)
    assert r.status_code == 200 and r.headers["content-type"].startswith(
        {"png": "image/png", "svg": "image/svg", "pdf": "application/pdf"}[fmt]
    )
    assert decode(r.content, fmt) == [code["content"]]
    p = client.post(
        f"{B}/qr/preview?format={fmt}",
        json={"name": "x", "dynamic": False, "type": "text", "content": "hello"},
        headers=h,
    )
    assert p.status_code == 200 and decode(p.content, fmt) == ["hello"]


def test_static_code_wrong_state_and_bad_input(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    r = client.post(
        f"{B}/qr", json={"name": "Wifi", "type": "wifi", "dynamic": False, "content": "WIFI:T:WPA;S:x;P:y;;"}, headers=h
    )
    assert r.status_code == 201 and r.json()["data"]["content"].startswith("WIFI:")
    sid = r.json()["data"]["id"]
    bad = client.patch(f"{B}/qr/{sid}/destination", json={"destination_url": "https://e.com"}, headers=h)
    assert bad.status_code == 409 and bad.json()["details"]["current_state"] == "static"
    for body in (
        {"name": "x"},  # dynamic without destination
        {"name": "x", "destination_url": "javascript:alert(1)"},
        {"name": "x", "destination_url": "https://e.com", "style": {"fg": "red"}},
        {"name": "x", "destination_url": "https://e.com", "colour": "#000000"},
        {"name": "x", "destination_url": "https://e.com", "template_id": "nope"},
        {
            "name": "x",
            "destination_url": "https://e.com",
            "valid_since": "2030-01-02T00:00:00Z",
            "valid_until": "2030-01-01T00:00:00Z",
        },
        {"name": "x" * 201, "destination_url": "https://e.com"},
    ):
        r = client.post(f"{B}/qr", json=body, headers=h)
        assert r.status_code == 400 and r.json()["code"] == "VALIDATION_ERROR", body
    assert client.get(f"{B}/qr/{sid}/download?format=gif", headers=h).status_code == 400
    assert client.get(f"{B}/analytics?from=2026-02-01&to=2026-01-01", headers=h).status_code == 400
    huge = client.post(
        f"{B}/qr",
        content=b'{"name": "' + b"x" * (1024 * 1024 + 10) + b'"}',
        headers={**h, "Content-Type": "application/json"},
    )
    assert huge.status_code == 413 and huge.json()["code"] == "PAYLOAD_TOO_LARGE"
    assert client.get(f"{B}/qr/00000000-0000-0000-0000-000000000000", headers=h).status_code == 404


def test_access_tenant_role_and_v1(client: httpx.Client) -> None:
    owner = auth_headers(client, "owner@demo.test")
    code = _create(client, owner)
    # Wrong tenant: the other tenant's owner cannot see it, and has no demo access.
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"/other/qr/api/qr/{code['id']}", headers=other).status_code == 404
    assert client.get(f"{B}/qr/{code['id']}", headers=other).status_code in (401, 403)
    # Wrong role: the operator has no qr module, the warehouse device neither.
    for who in ("operator@demo.test", "device@demo.test"):
        r = client.get(f"{B}/qr", headers=auth_headers(client, who))
        assert r.status_code == 403 and r.json()["code"] == "FORBIDDEN"
    assert client.get(f"{B}/qr").status_code == 401
    # The v1 API: API keys only, a session there is 401.
    key = client.post("/api/tenants/demo/api-keys", json={"name": "erp", "modules": ["qr"]}, headers=owner).json()[
        "data"
    ]["key"]
    bearer = {"Authorization": f"Bearer {key}"}
    assert client.get(f"{B}/v1/qr", headers=owner).status_code == 401
    made = client.post(
        f"{B}/v1/qr",
        json={"name": "ERP", "destination_url": "https://erp.example.com/x"},
        headers={**bearer, "Idempotency-Key": "erp-1"},
    )
    again = client.post(
        f"{B}/v1/qr",
        json={"name": "ERP", "destination_url": "https://erp.example.com/x"},
        headers={**bearer, "Idempotency-Key": "erp-1"},
    )
    assert made.status_code == 201 and again.json()["data"]["id"] == made.json()["data"]["id"]
    vid = made.json()["data"]["id"]
    assert client.get(f"{B}/v1/qr/{vid}", headers={"X-API-Key": key}).json()["data"]["name"] == "ERP"
    assert client.patch(f"{B}/v1/qr/{vid}", json={"name": "ERP 2"}, headers=bearer).json()["data"]["name"] == "ERP 2"
    assert client.get(f"{B}/v1/qr/{vid}/analytics", headers=bearer).json()["data"]["scans"] == 0
    assert client.get(f"{B}/v1/qr", headers=bearer).json()["meta"]["total"] >= 2
    assert client.delete(f"{B}/v1/qr/{vid}", headers=bearer).status_code == 204
    assert client.get(f"{B}/v1/qr/{vid}", headers=bearer).status_code == 404
    wrong = client.post("/api/tenants/demo/api-keys", json={"name": "x", "modules": ["upgrade"]}, headers=owner).json()[
        "data"
    ]["key"]
    assert client.get(f"{B}/v1/qr", headers={"Authorization": f"Bearer {wrong}"}).status_code == 403


def test_templates_folders_barcodes(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    t = client.post(
        f"{B}/templates", json={"name": "Red", "style": {"fg": "#aa0000", "error_correction": "Q"}}, headers=h
    )
    assert t.status_code == 201
    tid = t.json()["data"]["id"]
    code = _create(client, h, template_id=tid)
    assert code["style"]["fg"] == "#aa0000" and code["style"]["error_correction"] == "Q"
    assert (
        client.patch(f"{B}/templates/{tid}", json={"name": "Dark red"}, headers=h).json()["data"]["name"] == "Dark red"
    )
    assert client.get(f"{B}/templates?limit=1&page=1", headers=h).json()["meta"]["limit"] == 1
    f = client.post(f"{B}/folders", json={"name": "Spring"}, headers=h).json()["data"]
    sub = client.post(f"{B}/folders", json={"name": "Posters", "parent_id": f["id"]}, headers=h).json()["data"]
    loop = client.patch(f"{B}/folders/{f['id']}", json={"parent_id": sub["id"]}, headers=h)
    assert loop.status_code == 400
    client.patch(f"{B}/qr/{code['id']}", json={"folder_id": sub["id"]}, headers=h)
    assert client.get(f"{B}/qr?folder_id={sub['id']}", headers=h).json()["meta"]["total"] == 1
    assert client.delete(f"{B}/folders/{sub['id']}", headers=h).status_code == 409
    assert client.delete(f"{B}/templates/{tid}", headers=h).status_code == 204
    # Barcodes: check digits computed, verified; images decode.
    cases = [
        ("ean13", "400638133393", "4006381333931"),
        ("ean8", "9638507", "96385074"),
        ("upca", "03600024145", "036000241457"),
        ("itf14", "1540014128876", "15400141288763"),
        ("code128", "HI345678", "HI345678"),
        ("code39", "ABC-123", "ABC-123"),
    ]
    for kind, given, full in cases:
        r = client.post(f"{B}/barcode", json={"type": kind, "value": given}, headers=h)
        assert r.status_code == 201 and r.json()["data"]["value"] == full, (kind, r.text)
        bid = r.json()["data"]["id"]
        png = client.get(f"{B}/barcode/{bid}?format=png", headers=h)
        # A reader may give UPC-A in its EAN-13 form (a leading 0).
        read = [v.removeprefix("0") if kind == "upca" and len(v) == 13 else v for v in decode(png.content, "png")]
        assert png.headers["content-type"] == "image/png" and full in read, kind
        assert client.get(f"{B}/barcode/{bid}?format=svg", headers=h).headers["content-type"].startswith("image/svg")
    wrong = client.post(f"{B}/barcode", json={"type": "ean13", "value": "4006381333932"}, headers=h)
    assert wrong.status_code == 400 and wrong.json()["details"]["expected"] == "1"
    assert client.post(f"{B}/barcode", json={"type": "qr", "value": "1"}, headers=h).status_code == 400
    assert client.post(f"{B}/barcode", json={"type": "ean8", "value": "12ab"}, headers=h).status_code == 400
    assert client.delete(f"{B}/barcode/{bid}", headers=h).status_code == 204
