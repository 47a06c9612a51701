"""The seventeen doors of the hardening issue (stored links, file names, numbers, keys, snippets):
each request sent as the issue sent it against a real server, its answer asserted, and nothing
stored or sent where it is refused."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from sqlalchemy import func, select

from app.settings import Settings
from local_db.models.campaign import CampaignMessage
from services.campaign import tokens
from services.core.commands import REGISTRY
from services.core.context import Runtime
from tests.api.hardening.test_hardening_input import envelope, rows
from tests.conftest import LiveServer, auth_headers, login, start_server

ROOT = Path(__file__).resolve().parents[3]
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
EVIL_NAME = "../../../../tmp/x.png"


def field_of(r: httpx.Response) -> set[str]:
    body = envelope(r, 400, "VALIDATION_ERROR")
    return {f["field"].split(".")[0] for f in body["details"].get("fields", [])}


def owner(client: httpx.Client) -> dict[str, str]:
    return auth_headers(client, "owner@demo.test")


# 1. A product image URL that a catalogue page would run.


@pytest.mark.parametrize(
    "url",
    ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "file:///etc/passwd"],
)
def test_1_rewards_product_image_url_takes_http_and_https_only(
    client: httpx.Client, server: LiveServer, url: str
) -> None:
    h = owner(client)
    before = rows(server, "rewards_products")
    r = client.post("/demo/rewards/api/admin/products", json={"name": "Mug", "points": 10, "image_url": url}, headers=h)
    assert field_of(r) == {"image_url"}
    assert rows(server, "rewards_products") == before
    ok = client.post(
        "/demo/rewards/api/admin/products",
        json={"name": "Mug", "points": 10, "image_url": "https://cdn.example.com/mug.png"},
        headers=h,
    )
    assert ok.status_code == 201, ok.text


# 2. A static QR code whose printed content is a script.


def test_2_static_url_qr_code_refuses_a_script(client: httpx.Client, server: LiveServer) -> None:
    h = owner(client)
    before = rows(server, "qr_codes")
    exact = client.post("/demo/qr/api/qr", json={"type": "url", "dynamic": False, "content": "javascript:alert(1)"},
                        headers=h)  # fmt: skip
    assert "content" in field_of(exact)
    named = {"name": "Flyer", "type": "url", "dynamic": False, "content": "javascript:alert(1)"}
    assert field_of(client.post("/demo/qr/api/qr", json=named, headers=h)) == {"content"}
    assert rows(server, "qr_codes") == before
    fine = client.post("/demo/qr/api/qr", json={**named, "content": "https://shop.example.com/"}, headers=h)
    assert fine.status_code == 201, fine.text


# 3. Uploaded file names keep no path, in the record and in Content-Disposition.


def _download_is_clean(r: httpx.Response) -> None:
    assert r.status_code == 200, r.text
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["content-disposition"].endswith('filename="x.png"'), r.headers["content-disposition"]
    assert "/" not in r.headers["content-disposition"] and ".." not in r.headers["content-disposition"]


def _upgrade_customer(client: httpx.Client) -> dict[str, str]:
    r = client.post("/demo/upgrade/api/auth/login", json={"email": "customer@demo.test", "password": "demo-password"})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['data']['token']}"}


def _image() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 10, 10)).save(out, "PNG")
    return out.getvalue()


def test_3_uploaded_file_names_lose_their_path(client: httpx.Client) -> None:
    h = owner(client)
    files = {"file": (EVIL_NAME, PNG, "image/png")}
    # Aftersale's public proof of purchase, downloaded by staff.
    up = client.post("/demo/aftersale/api/p/files", files=files)
    assert up.status_code == 201 and up.json()["data"]["filename"] == "x.png", up.text
    _download_is_clean(client.get(f"/demo/aftersale/api/files/{up.json()['data']['id']}", headers=h))
    # Docs media.
    doc = client.post("/demo/docs/api/documents", json={"title": "Guide", "body": "text"}, headers=h).json()["data"]
    up = client.post(f"/demo/docs/api/documents/{doc['id']}/media", files=files, headers=h)
    assert up.status_code == 201 and up.json()["data"]["filename"] == "x.png", up.text
    _download_is_clean(client.get(f"/demo/docs/api/documents/{doc['id']}/media/{up.json()['data']['id']}", headers=h))
    # Rewards receipts (staff too).
    up = client.post("/demo/rewards/api/files/upload", files=files, headers=h)
    assert up.status_code == 201 and up.json()["data"]["filename"] == "x.png", up.text
    _download_is_clean(client.get(f"/demo/rewards/api/files/{up.json()['data']['id']}", headers=h))
    # Upgrade photos: a customer's and an inspector's (raw body, the name in ?filename=).
    image = _image()
    for path, who in (("/demo/upgrade/api/photos", _upgrade_customer(client)), ("/demo/upgrade/api/admin/photos", h)):
        up = client.post(path, content=image, params={"filename": EVIL_NAME},
                         headers={**who, "Content-Type": "image/png"})  # fmt: skip
        assert up.status_code == 201 and up.json()["data"]["filename"] == "x.png", up.text
        _download_is_clean(client.get(f"/demo/upgrade/api/admin/photos/{up.json()['data']['id']}", headers=h))


# 4. A number past 64 bits in a query.


@pytest.mark.dialect_free
def test_4_stock_below_past_64_bits_is_400(client: httpx.Client) -> None:
    h = owner(client)
    for value in ("9223372036854775808", "-9223372036854775809", str(2**80)):
        r = client.get(f"/demo/inventory/api/stock?below={value}", headers=h)
        assert field_of(r) == {"below"}, r.text
        assert client.get("/health").status_code == 200  # the same connection still answers
    assert client.get("/demo/inventory/api/stock?below=9223372036854775807", headers=h).status_code == 200


# 5. A connection address that an HTTP client cannot read.


@pytest.mark.parametrize("which", ["ecommerce", "tax-service"])
def test_5_connection_base_url_in_a_non_canonical_form_is_400(
    client: httpx.Client, server: LiveServer, which: str
) -> None:
    h = owner(client)
    before = rows(server, "tenant_settings") if _has_table(server, "tenant_settings") else None
    body = {"base_url": "https://00000000000000000000127.0.0.1:18250/x", "credentials": {"api_key": "k-123"}}
    r = client.post(f"/demo/tax/api/connections/{which}", json=body, headers=h)
    assert field_of(r) == {"base_url"}, r.text
    assert client.get(f"/demo/tax/api/connections/{which}", headers=h).json()["data"]["connected"] is False
    if before is not None:
        assert rows(server, "tenant_settings") == before


def _has_table(server: LiveServer, name: str) -> bool:
    from sqlalchemy import inspect

    return name in inspect(server.runtime.db.engine).get_table_names()


# 6. A subscription secret beyond ASCII.


def test_6_rotating_to_a_non_ascii_secret_works(client: httpx.Client) -> None:
    h = owner(client)
    sub = client.post(
        "/demo/events/api/subscriptions",
        json={"event_types": ["order.shipped"], "webhook_url": "https://93.184.216.34/hook", "secret": "first-secret"},
        headers=h,
    )
    assert sub.status_code == 201, sub.text
    path = f"/demo/events/api/subscriptions/{sub.json()['data']['id']}/rotate-secret"
    r = client.post(path, json={"secret": "Geheimnis-schlüssel-1234"}, headers=h)
    assert r.status_code == 200, r.text
    again = client.post(path, json={"secret": "Geheimnis-schlüssel-1234"}, headers=h)
    envelope(again, 400, "VALIDATION_ERROR")  # the same secret again: compared, not a 500
    assert client.get("/health").status_code == 200


# 7. An API key acts with an admin's rights in its modules.


def test_7_an_api_key_with_mes_edits_a_machine(client: httpx.Client) -> None:
    h = owner(client)
    key = client.post("/api/tenants/demo/api-keys", json={"name": "gateway", "modules": ["mes"]}, headers=h)
    assert key.status_code == 201, key.text
    k = {"X-API-Key": key.json()["data"]["key"]}
    made = client.post("/demo/mes/api/machines", json={"code": "KEY-1", "name": "Press"}, headers=k)
    assert made.status_code == 201, made.text
    r = client.put(f"/demo/mes/api/machines/{made.json()['data']['id']}", json={"name": "Press 2"}, headers=k)
    assert r.status_code == 200 and r.json()["data"]["name"] == "Press 2", r.text


# 8. The public survey is rate limited like public events.


def test_8_public_survey_reads_are_rate_limited(settings: Settings, runtime: Runtime) -> None:
    runtime.db.dispose()
    srv = start_server(settings, rate_limits="A")
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            h = {"Authorization": f"Bearer {login(c, 'owner@demo.test')}"}
            sid = c.get("/demo/campaign/api/surveys", headers=h).json()["data"][0]["id"]
            answers = [c.get(f"/demo/campaign/api/p/surveys/{sid}") for _ in range(70)]
            assert [a.status_code for a in answers[:60]] == [200] * 60
            refused = answers[60]
            body = envelope(refused, 429, "RATE_LIMITED")
            assert body["retryAfter"] >= 1 and int(refused.headers["retry-after"]) >= 1
            assert refused.headers["x-ratelimit-limit"] == "60" and refused.headers["x-ratelimit-remaining"] == "0"
            assert all(a.status_code == 429 for a in answers[60:])
    finally:
        srv.stop()
        srv.runtime.db.dispose()


# 9. A click-tracking token works under its own tenant only.


def test_9_click_token_of_demo_is_404_under_other(client: httpx.Client, server: LiveServer) -> None:
    rt = server.runtime
    with rt.db.engine.connect() as c:
        message_id = c.execute(
            select(CampaignMessage.id)
            .where(CampaignMessage.clicked_at.is_(None), CampaignMessage.tenant_id == _tenant_id(server, "demo"))
            .limit(1)  # fmt: skip
        ).scalar_one()
    url = "https://shop.example.com/x"
    token = tokens.make(rt, "click:" + url, message_id)
    before = rows(server, "campaign_messages", "campaigns")
    r = client.get(f"/other/campaign/api/p/c/{token}?url={quote(url, safe='')}")
    envelope(r, 404, "NOT_FOUND")
    assert rows(server, "campaign_messages", "campaigns") == before
    own = client.get(f"/demo/campaign/api/p/c/{token}?url={quote(url, safe='')}")
    assert own.status_code == 302 and own.headers["location"] == url


def _tenant_id(server: LiveServer, slug: str) -> str:
    from local_db.models import Tenant

    with server.runtime.db.engine.connect() as c:
        return str(c.execute(select(Tenant.id).where(Tenant.slug == slug)).scalar_one())


# 10. Search snippets: the document's markup escaped, the hits marked.


def test_10_search_snippets_escape_the_document_html(client: httpx.Client) -> None:
    h = owner(client)
    body = {"title": "Animals", "body": "<img src=x onerror=alert(1)> zebrafoo text", "status": "published"}
    assert client.post("/demo/docs/api/documents", json=body, headers=h).status_code == 201
    hits = client.get("/demo/docs/api/documents/search", params={"q": "zebrafoo"}, headers=h).json()["data"]
    assert hits[0]["snippet"] == "&lt;img src=x onerror=alert(1)&gt; <mark>zebrafoo</mark> text"


# 11. Served files say nosniff; docs media refuses HTML named x.png.


def test_11_docs_media_refuses_html_named_png_and_files_say_nosniff(client: httpx.Client, server: LiveServer) -> None:
    h = owner(client)
    doc = client.post("/demo/docs/api/documents", json={"title": "Guide", "body": "text"}, headers=h).json()["data"]
    before = rows(server, "docs_media")
    html = b"<html><body><script>alert(document.cookie)</script></body></html>"
    r = client.post(f"/demo/docs/api/documents/{doc['id']}/media", files={"file": ("x.png", html, "image/png")},
                    headers=h)  # fmt: skip
    body = envelope(r, 400, "VALIDATION_ERROR")
    assert body["details"]["detected"] == "text/html"
    assert rows(server, "docs_media") == before
    ok = client.post(f"/demo/docs/api/documents/{doc['id']}/media", files={"file": ("y.png", PNG, "image/png")},
                     headers=h)  # fmt: skip
    got = client.get(f"/demo/docs/api/documents/{doc['id']}/media/{ok.json()['data']['id']}", headers=h)
    assert got.headers["x-content-type-options"] == "nosniff" and got.headers["content-type"] == "image/png"
    assert got.headers["content-disposition"].startswith("inline")


# 12. Tool caches stay out of the repository.


@pytest.mark.dialect_free
def test_12_schemathesis_cache_is_neither_tracked_nor_left_unignored() -> None:
    tracked = subprocess.run(["git", "ls-files", ".schemathesis", ".hypothesis"], cwd=ROOT, capture_output=True,
                             text=True, check=True)  # fmt: skip
    assert tracked.stdout == ""
    manifest = ".schemathesis/default/cache/crashes/manifest.json"
    ignored = subprocess.run(["git", "check-ignore", "-q", manifest], cwd=ROOT)
    assert ignored.returncode == 0, f"{manifest} is not ignored"


# 13. Free text is stored exactly as sent.


def test_13_free_text_keeps_its_whitespace(client: httpx.Client) -> None:
    h = owner(client)
    md = "Intro\n\n    code block\n    second line\n"
    doc = client.post("/demo/docs/api/documents", json={"title": "  Code  ", "body": md}, headers=h)
    assert doc.status_code == 201, doc.text
    got = client.get(f"/demo/docs/api/documents/{doc.json()['data']['id']}", headers=h).json()["data"]
    assert got["body"] == md and got["title"] == "Code"  # a title is a name: still trimmed
    html = "  <p>\n    Hi {{name}}\n  </p>\n"
    text = "\n  Hi {{name}}\n"
    t = client.post("/demo/campaign/api/templates/email", json={"name": "T", "subject": "S", "html": html, "text": text},
                    headers=h)  # fmt: skip
    assert t.status_code == 201, t.text
    got = client.get(f"/demo/campaign/api/templates/email/{t.json()['data']['id']}", headers=h).json()["data"]
    assert got["html"] == html and got["text"] == text
    blank = client.post("/demo/campaign/api/templates/sms", json={"name": "T", "body": "   "}, headers=h)
    assert field_of(blank) == {"body"}  # whitespace alone still says nothing


# 14. Two 500s fuzzing found.


def test_14_qr_name_null_is_400(client: httpx.Client, server: LiveServer) -> None:
    h = owner(client)
    code = client.post("/demo/qr/api/qr", json={"name": "Menu", "destination_url": "https://shop.example.com/"},
                       headers=h).json()["data"]  # fmt: skip
    before = rows(server, "qr_codes")
    r = client.patch(f"/demo/qr/api/qr/{code['id']}", json={"name": None}, headers=h)
    assert field_of(r) == {"name"}
    assert rows(server, "qr_codes") == before


def test_14_deleting_two_contacts_that_got_the_same_campaign(client: httpx.Client, server: LiveServer) -> None:
    h = owner(client)
    demo = _tenant_id(server, "demo")
    with server.runtime.db.engine.connect() as c:
        campaign = c.execute(
            select(CampaignMessage.campaign_id)
            .where(CampaignMessage.tenant_id == demo, CampaignMessage.campaign_id.is_not(None))
            .group_by(CampaignMessage.campaign_id)
            .having(func.count() >= 2)
            .limit(1)
        ).scalar_one()
        contacts = (
            c.execute(select(CampaignMessage.contact_id).where(CampaignMessage.campaign_id == campaign).limit(2))
            .scalars()
            .all()
        )
    for contact in contacts:
        r = client.delete(f"/demo/campaign/api/contacts/{contact}", headers=h)
        assert r.status_code == 204, r.text
        assert client.get(f"/demo/campaign/api/contacts/{contact}", headers=h).status_code == 404


# 15. Signed routes declare their signature in the API document.


@pytest.mark.dialect_free
def test_15_signed_routes_declare_their_signature(client: httpx.Client) -> None:
    doc = client.get("/openapi.json").json()
    schemes = doc["components"]["securitySchemes"]
    assert schemes["webhookSignature"]["name"] == "X-Webhook-Signature"
    assert schemes["stationSignature"]["name"] == "X-Station-Signature"
    ops = {o["operationId"]: o for item in doc["paths"].values() for o in item.values()}
    webhooks = [n for n in ops if n.startswith("fulfillment.webhooks.")]
    sync = [n for n, op in REGISTRY.items() if "x-station-signature" in op.headers]
    assert len(webhooks) == 2 and len(sync) >= 7  # the issue named seven station-sync routes; more may come
    for name in webhooks:
        assert ops[name]["security"] == [{"webhookSignature": []}], name
    for name in sync:
        assert ops[name]["security"] == [{"stationSignature": []}], name
    # And they do answer 401 without it.
    r = client.post("/demo/fulfillment/api/webhooks/ecommerce", json={"id": "x"})
    envelope(r, 401, "UNAUTHORIZED")


# 16. A revoked certificate leaves the default list; a job record carries its id.


def test_16_deleted_certificate_leaves_the_default_list(client: httpx.Client) -> None:
    h = owner(client)
    listed = client.get("/demo/tax/api/certificates", params={"limit": 100}, headers=h).json()["data"]
    cert = next(c for c in listed if c["status"] != "revoked")
    assert client.delete(f"/demo/tax/api/certificates/{cert['id']}", headers=h).status_code == 200
    after = client.get("/demo/tax/api/certificates", params={"limit": 100}, headers=h).json()["data"]
    assert cert["id"] not in {c["id"] for c in after}
    assert all(c["status"] != "revoked" for c in after)
    revoked = client.get("/demo/tax/api/certificates", params={"status": "revoked", "limit": 100}, headers=h)
    assert cert["id"] in {c["id"] for c in revoked.json()["data"]}


def test_16_ecommerce_sync_job_record_carries_id(client: httpx.Client) -> None:
    h = owner(client)
    status: dict[str, Any] = client.get("/demo/catalog/api/ecommerce/sync/status", headers=h).json()["data"]
    assert "id" in status and status["id"] == status["job_id"]
    doc = client.get("/openapi.json").json()
    assert "id" in doc["components"]["schemas"]["SyncOut"]["properties"]


# 17. Links start with the server's own address when PLATFORM_PUBLIC_URL is unset.


def test_17_links_start_with_the_servers_own_address(
    client: httpx.Client, server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PLATFORM_PUBLIC_URL", raising=False)
    h = owner(client)
    code = client.post("/demo/qr/api/qr", json={"name": "Door", "destination_url": "https://shop.example.com/"},
                       headers=h)  # fmt: skip
    assert code.status_code == 201, code.text
    address = code.json()["data"]["content"]  # a dynamic code carries its scan address
    assert address.startswith(server.url + "/demo/qr/r/"), (address, server.url)
    assert "127.0.0.1:8000" not in address or server.url.endswith(":8000")
    monkeypatch.setenv("PLATFORM_PUBLIC_URL", "https://go.example.com/")
    again = client.get(f"/demo/qr/api/qr/{code.json()['data']['id']}", headers=h).json()["data"]
    assert again["content"].startswith("https://go.example.com/demo/qr/r/")
    platform_doc = (ROOT / "docs" / "platform.md").read_text()
    assert "PLATFORM_PUBLIC_URL" in platform_doc
