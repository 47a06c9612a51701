"""Sign routes against a real uvicorn server: uploads, the spec's addresses, the public token routes,
status codes and envelopes, strangers, and the public routes' rate limit."""

from __future__ import annotations

import base64
import json

import httpx

from services.core.context import Runtime
from services.core.demo import demo_id
from tests.conftest import LiveServer, auth_headers, start_server
from tests.services.sign.sign_helpers import drawn_png, links, make_pdf

BASE = "/demo/sign/api"


def test_a_document_from_upload_to_sealed_download_over_http(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    files = {"file": ("lease.pdf", make_pdf(1), "application/pdf")}
    r = client.post(f"{BASE}/documents", files=files, data={"title": "HTTP lease", "message": "Please sign"}, headers=h)
    assert r.status_code == 201, r.text
    doc = r.json()["data"]
    assert (doc["status"], doc["pages"], doc["message"]) == ("draft", 1, "Please sign")
    # Bad input: a form field the document does not have, a text file, no title, bad JSON for a template.
    bad = client.post(f"{BASE}/documents", files=files, data={"title": "x", "colour": "red"}, headers=h)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    txt = client.post(
        f"{BASE}/documents", files={"file": ("a.pdf", b"hello", "application/pdf")}, data={"title": "x"}, headers=h
    )
    assert txt.status_code == 400
    assert client.post(f"{BASE}/documents", files=files, headers=h).status_code == 400
    tpl = client.post(f"{BASE}/documents", json={"template_id": "nope", "title": "x"}, headers=h)
    assert tpl.status_code == 400 and tpl.json()["code"] == "VALIDATION_ERROR"

    r = client.post(
        f"{BASE}/documents/{doc['id']}/signers", json={"name": "Hal", "email": "hal@example.test"}, headers=h
    )
    assert r.status_code == 201, r.text
    signer = r.json()["data"]
    assert "token" not in json.dumps(r.json())
    assert (
        client.post(
            f"{BASE}/documents/{doc['id']}/signers", json={"name": "Hal", "email": "nope"}, headers=h
        ).status_code
        == 400
    )
    field = {
        "signer_id": signer["id"],
        "type": "signature",
        "page": 1,
        "x": 0.1,
        "y": 0.7,
        "width": 0.4,
        "height": 0.08,
    }
    r = client.post(f"{BASE}/documents/{doc['id']}/fields", json=field, headers=h)
    assert r.status_code == 201, r.text
    assert client.post(f"{BASE}/documents/{doc['id']}/fields", json={**field, "x": 2}, headers=h).status_code == 400
    assert client.get(f"{BASE}/documents/{doc['id']}/fields", headers=h).json()["meta"]["total"] == 1
    r = client.post(f"{BASE}/documents/{doc['id']}/send", json={}, headers=h, params={})
    assert r.status_code == 200 and r.json()["data"]["status"] == "sent", r.text
    again = client.post(f"{BASE}/documents/{doc['id']}/send", json={}, headers=h)
    assert again.status_code == 409 and again.json()["details"]["current_state"] == "sent"
    assert client.delete(f"{BASE}/documents/{doc['id']}/fields/{r.json()['data']['id']}", headers=h).status_code in (
        404,
        409,
    )

    # The signer's link, from the e-mail; staff answers never carry it.
    token = links(server.runtime)["hal@example.test"][-1]
    listed = client.get(f"{BASE}/documents/{doc['id']}/signers", headers=h).text
    assert token not in listed
    pub = f"/demo/sign/api/sign/{token}"
    assert client.get("/demo/sign/api/sign/" + "A" * 43).json() == client.get("/demo/sign/api/sign/" + "B" * 43).json()
    unknown = client.get("/demo/sign/api/sign/" + "A" * 43)
    assert unknown.status_code == 404 and unknown.json()["code"] == "NOT_FOUND"
    assert client.get(f"/other/sign/api/sign/{token}").status_code == 404  # another tenant's address
    view = client.get(pub, headers={"User-Agent": "Browser/1"})
    assert view.status_code == 200 and view.json()["data"]["signer_status"] == "viewed"
    assert client.get(f"{pub}/download").content.startswith(b"%PDF")
    no_consent = client.post(pub, json={"action": "sign", "signature": {"type": "typed", "text": "Hal"}})
    assert no_consent.status_code == 400
    assert client.post(pub, json={"action": "sign", "extra": 1}).status_code == 400
    huge = client.post(
        pub, json={"action": "sign", "signature": {"type": "drawn", "image": "A" * 600_000}, "consent": True}
    )
    assert huge.status_code in (400, 413)
    png = base64.b64encode(drawn_png()).decode()
    r = client.post(pub, json={"action": "sign", "signature": {"type": "drawn", "image": png}, "consent": True})
    assert r.status_code == 200 and r.json()["data"]["document_status"] == "completed", r.text
    assert client.post(pub, json={"action": "decline", "reason": "late"}).status_code == 409
    sealed = client.get(f"{BASE}/documents/{doc['id']}/download", headers=h)
    assert sealed.status_code == 200 and sealed.headers["content-type"] == "application/pdf"
    assert b"/ByteRange" in sealed.content and sealed.content == client.get(f"{pub}/download").content
    trail = client.get(f"{pub}/audit").json()["data"]["items"]
    assert [a["action"] for a in trail] == ["created", "sent", "viewed", "signed", "completed"]
    assert trail[2]["user_agent"] == "Browser/1" and trail[2]["ip"] == "127.0.0.1"

    # Strangers: no sign-in, another tenant, a role without Sign, a warehouse device.
    assert client.get(f"{BASE}/documents").status_code == 401
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"{BASE}/documents", headers=other).status_code in (401, 403)
    assert client.get(f"/other/sign/api/documents/{doc['id']}", headers=other).status_code == 404
    assert client.get(f"{BASE}/documents", headers=auth_headers(client, "operator@demo.test")).status_code == 403
    assert client.get(f"{BASE}/documents", headers=auth_headers(client, "device@demo.test")).status_code == 403
    # A completed document cannot be voided; a sent one is voided with a reason, and its links go.
    assert client.delete(f"{BASE}/documents/{doc['id']}", headers=h).status_code == 409


def test_void_templates_and_idempotent_create(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    sent = demo_id("sign-doc", "sent")
    r = client.request("DELETE", f"{BASE}/documents/{sent}", json={"reason": "superseded"}, headers=h)
    assert r.status_code in (200, 204), r.text
    assert client.get(f"{BASE}/documents/{sent}", headers=h).json()["data"]["void_reason"] == "superseded"
    fields = json.dumps([{"slot": 1, "type": "signature", "page": 1, "x": 0.1, "y": 0.8, "width": 0.3, "height": 0.06}])
    files = {"file": ("t.pdf", make_pdf(1), "application/pdf")}
    r = client.post(f"{BASE}/templates", files=files, data={"name": "Waiver", "fields": fields}, headers=h)
    assert r.status_code == 201, r.text
    t = r.json()["data"]
    assert (
        client.put(f"{BASE}/templates/{t['id']}", json={"name": "Waiver v2"}, headers=h).json()["data"]["name"]
        == "Waiver v2"
    )
    key = {"Idempotency-Key": "sign-from-template-1"}
    a = client.post(f"{BASE}/documents", json={"template_id": t["id"], "title": "Waiver for Ida"}, headers={**h, **key})
    b = client.post(f"{BASE}/documents", json={"template_id": t["id"], "title": "Waiver for Ida"}, headers={**h, **key})
    assert a.status_code == 201 and a.json()["data"]["id"] == b.json()["data"]["id"], a.text
    big = client.post(
        f"{BASE}/templates",
        files={"file": ("t.pdf", b"%PDF-" + b"0" * (21 * 1024 * 1024), "application/pdf")},
        data={"name": "x"},
        headers=h,
    )
    assert big.status_code == 413 and big.json()["code"] == "PAYLOAD_TOO_LARGE"
    assert client.delete(f"{BASE}/templates/{t['id']}", headers=h).status_code in (200, 204)
    assert client.get(f"{BASE}/templates/{t['id']}", headers=h).status_code == 404


def test_public_signing_routes_are_rate_limited(settings: object, runtime: Runtime) -> None:
    runtime.db.dispose()
    srv = start_server(settings, rate_limits="A")  # type: ignore[arg-type]
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            codes = [c.get("/demo/sign/api/sign/" + "C" * 43).status_code for _ in range(61)]
        assert codes[0] == 404 and codes[-1] == 429
    finally:
        srv.stop()
        srv.runtime.db.dispose()
