"""The classes behind the hardening doors, walked over every route: one URL type, one download
answer, numbers that fit 64 bits, a rate-limit category on every public route, public tokens
bound to their tenant, free text kept as sent. A new route that misses one fails here."""

from __future__ import annotations

import hashlib
import re
import typing
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from pydantic import BaseModel
from sqlalchemy import insert, select, update

from local_db import new_id
from local_db.models import Tenant
from local_db.models.campaign import CampaignMessage
from local_db.models.invitations import UserInvitation
from local_db.models.qr import QrCode
from local_db.models.sign import SignDocument, SignSigner
from services.campaign import tokens
from services.core.commands import REGISTRY, Operation
from services.core.context import MODULES
from services.core.demo import demo_id
from services.core.files import FileResult, Upload
from services.core.filesafety import clean_filename, disposition_kind, download_type
from services.core.numbers import INT64_MAX, INT64_MIN
from services.core.ratelimit import PUBLIC
from services.core.schemas import FREE_TEXT
from services.core.signing import token_hash
from tests.api.hardening.test_hardening_input import envelope
from tests.conftest import LiveServer, auth_headers

URL_NAME = re.compile(r"(^|_)(url|uri|href|link)$", re.IGNORECASE)


def _doc(client: httpx.Client) -> dict[str, Any]:
    doc: dict[str, Any] = client.get("/openapi.json").json()
    return doc


def _resolve(doc: dict[str, Any], node: Any, seen: set[str]) -> list[tuple[str, dict[str, Any]]]:
    """Every (property name, schema) reachable from a request schema, $refs followed once."""
    out: list[tuple[str, dict[str, Any]]] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str):
                name = ref.rsplit("/", 1)[-1]
                if name not in seen:
                    seen.add(name)
                    stack.append(doc["components"]["schemas"][name])
                continue
            for prop, sub in (item.get("properties") or {}).items():
                out.append((prop, sub))
            stack.extend(v for k, v in item.items() if k != "properties")
            stack.extend((item.get("properties") or {}).values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _is_uri(schema: dict[str, Any]) -> bool:
    arms = [schema, *schema.get("anyOf", []), *schema.get("oneOf", [])]
    strings = [a for a in arms if a.get("type") == "string" or "format" in a]
    return bool(strings) and all(a.get("format") == "uri" for a in strings)


@pytest.mark.dialect_free
def test_every_url_a_request_takes_is_the_one_url_type(client: httpx.Client) -> None:
    doc = _doc(client)
    checked, wrong = 0, []
    for path, item in doc["paths"].items():
        for method, op in item.items():
            where = f"{method.upper()} {path}"
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body is not None:
                for prop, schema in _resolve(doc, body, set()):
                    if URL_NAME.search(prop):
                        checked += 1
                        if not _is_uri(schema):
                            wrong.append(f"{where} body {prop}")
            for p in op.get("parameters", []):
                if p["in"] == "query" and URL_NAME.search(p["name"]):
                    checked += 1
                    if not _is_uri(p["schema"]):
                        wrong.append(f"{where} query {p['name']}")
    assert checked >= 8 and not wrong, wrong


def _file_ops() -> list[Operation]:
    return sorted((op for op in REGISTRY.values() if op.response is FileResult), key=lambda o: o.name)


def test_the_one_download_answer_on_every_file_route(client: httpx.Client) -> None:
    """Every route that answers a file: those that need no record are called; every answer says
    nosniff, its type is the sniffed one and it is inline only when a safe image or a PDF."""
    ops = _file_ops()
    assert len(ops) >= 15
    h = auth_headers(client, "owner@demo.test")
    called = 0
    for op in ops:
        if op.path_params or op.auth != "tenant":
            continue
        path = op.path if op.path.startswith("/api/") else f"/{{tenant}}/{op.module}/api{op.path}"
        r = client.request(op.method, path.replace("{tenant}", "demo"), headers=h)
        if r.status_code != 200:
            continue  # needs a query or a state the demo lacks; the unit checks below still hold
        called += 1
        assert r.headers["x-content-type-options"] == "nosniff", op.name
        kind = r.headers.get("content-disposition", "attachment").split(";")[0]
        assert kind == disposition_kind(r.headers["content-type"], kind == "inline"), op.name
    assert called >= 3
    # The rule itself, for any bytes a route may answer.
    html = b"<!doctype html><script>alert(1)</script>"
    assert download_type(html, "image/png") == "text/html"
    assert disposition_kind(download_type(html, "image/png"), True) == "attachment"
    assert download_type(b"\x89PNG\r\n\x1a\n....", "text/html") == "image/png"
    assert download_type(b"not an image", "image/png") == "application/octet-stream"
    assert disposition_kind("image/svg+xml", True) == "attachment"
    assert disposition_kind("application/pdf", True) == "inline"


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("../../../../tmp/x.png", "x.png"),
        ("C:\\Users\\a\\x.png", "x.png"),
        ("..\\..\\x.png", "x.png"),
        (".htaccess", "htaccess"),
        ("a\x00b\r\nc.pdf", "abc.pdf"),
        ("", "file"),
        ("../", "file"),
        ("x" * 300 + ".png", "x" * 196 + ".png"),
    ],
)
@pytest.mark.dialect_free
def test_every_upload_keeps_a_clean_name(sent: str, kept: str) -> None:
    assert clean_filename(sent) == kept
    assert Upload(sent, "image/png", b"x").filename == kept  # every door makes its uploads through it
    assert all(op.upload for op in REGISTRY.values() if op.upload)  # (uploads reach services as Upload)


def _numeric_query_ops(doc: dict[str, Any]) -> list[tuple[str, str, str, dict[str, Any]]]:
    out = []
    for path, item in doc["paths"].items():
        for method, op in item.items():
            for p in op.get("parameters", []):
                if p["in"] != "query":
                    continue
                arms = [p["schema"], *p["schema"].get("anyOf", [])]
                if any(a.get("type") == "integer" for a in arms):
                    out.append((method, path, p["name"], op))
    return out


def test_every_numeric_query_parameter_refuses_past_64_bits(client: httpx.Client) -> None:
    doc = _doc(client)
    h = auth_headers(client, "owner@demo.test")
    walked = _numeric_query_ops(doc)
    made = client.post("/api/tenants/demo/api-keys", json={"name": "walk", "modules": sorted(MODULES)}, headers=h)
    key = {"X-API-Key": made.json()["data"]["key"]}
    assert len(walked) >= 50
    wrong = []
    for method, path, name, op in walked:
        op_decl = REGISTRY.get(op["operationId"])
        if op_decl is not None and op_decl.auth == "customer" and not op_decl.staff_too:
            continue  # a staff token is refused before the query is read (403): customers' lists share the type
        url = re.sub(r"{(\w+)}", lambda m: "demo" if m.group(1) == "tenant" else "00000000-0000-0000-0000-000000000000",
                     path)  # fmt: skip
        who = key if op_decl is not None and op_decl.keys_only else h
        for value in (INT64_MAX + 1, INT64_MIN - 1):
            r = client.request(method.upper(), url, params={name: str(value)}, headers=who)
            if r.status_code != 400:
                wrong.append((method, path, name, value, r.status_code))
    assert not wrong, wrong[:20]


@pytest.mark.dialect_free
def test_every_integer_of_the_document_says_its_64_bit_bounds(client: httpx.Client) -> None:
    doc = _doc(client)
    for _method, path, name, op in _numeric_query_ops(doc):
        p = next(p for p in op["parameters"] if p["name"] == name)
        arm = next(a for a in [p["schema"], *p["schema"].get("anyOf", [])] if a.get("type") == "integer")
        assert arm["minimum"] >= INT64_MIN and arm["maximum"] <= INT64_MAX, (path, name)


@pytest.mark.dialect_free
def test_every_public_route_has_a_rate_limit_category() -> None:
    public = [op for op in REGISTRY.values() if op.auth == "public"]
    assert len(public) >= 25
    uncounted = [op.name for op in public if op.limit not in (*PUBLIC, "auth")]
    assert not uncounted, uncounted


# Public routes whose path carries a token, a code or an id of the tenant: each must answer 404
# under another tenant's slug. The table says how to make a valid one in demo.
TOKEN_ROUTES = {
    "campaign.public.click",
    "campaign.public.open",
    "platform.invitations.accept",
    "campaign.public.unsubscribe",
    "campaign.public.unsubscribe_page",
    "campaign.public.survey",
    "campaign.public.answer",
    "qr.scan",
    "qr.scan_vcard",
    "sign.public.get",
    "sign.public.act",
    "sign.public.audit",
    "sign.public.download",
    "support.public.messages.list",
    "support.public.messages.reply",
}


def _tenant_id(server: LiveServer, slug: str) -> str:
    with server.runtime.db.engine.connect() as c:
        return str(c.execute(select(Tenant.id).where(Tenant.slug == slug)).scalar_one())


def test_every_public_token_is_bound_to_its_tenant(client: httpx.Client, server: LiveServer) -> None:
    with_params = {op.name for op in REGISTRY.values() if op.auth == "public" and op.path_params}
    assert with_params == TOKEN_ROUTES, with_params ^ TOKEN_ROUTES
    rt, demo = server.runtime, _tenant_id(server, "demo")
    h = auth_headers(client, "owner@demo.test")
    with rt.db.engine.begin() as c:
        message = c.execute(select(CampaignMessage.id).where(CampaignMessage.tenant_id == demo).limit(1)).scalar_one()
        code = c.execute(select(QrCode.short_code).where(QrCode.tenant_id == demo, QrCode.enabled.is_(True),
                                                QrCode.dynamic.is_(True)).order_by(QrCode.short_code).limit(1)
                         ).scalar_one()  # fmt: skip
        # The demo's documents are drafts: one is sent here, its first signer given a known link.
        signer, doc_id = c.execute(
            select(SignSigner.id, SignSigner.document_id).where(SignSigner.tenant_id == demo).limit(1)
        ).one()
        c.execute(update(SignDocument).where(SignDocument.id == doc_id).values(status="sent", expires_at=None))
        link = token_hash("walk-token-0123456789abcdef")
        c.execute(update(SignSigner).where(SignSigner.id == signer).values(token_hash=link))
        # An open invitation of the demo with a known link (only its SHA-256 is stored).
        now = datetime.now(UTC)
        c.execute(insert(UserInvitation).values(
            id=new_id(), tenant_id=demo, user_id=demo_id("user", "operator@demo.test"), created_at=now,
            token_hash=hashlib.sha256(b"invite-walk-token-0123456789").hexdigest(), expires_at=now + timedelta(days=1),
        ))  # fmt: skip
    survey = client.get("/demo/campaign/api/surveys", headers=h).json()["data"][0]["id"]
    url = "https://shop.example.com/x"
    ticket = client.post("/api/tenants/demo/support/public/tickets", json={
        "email": "gina@example.com", "name": "Gina", "subject": "Kettle", "description": "Broken lid.",
        "challenge_token": "demo-challenge-ok"}).json()["data"]  # fmt: skip
    access = {"X-Access-Token": ticket["access_token"]}
    card = client.post("/demo/qr/api/qr", json={"name": "Card", "type": "vcard", "content": "BEGIN:VCARD\nFN:A\nEND:VCARD"},
                       headers=h).json()["data"]["short_code"]  # fmt: skip
    unsubscribe = tokens.make(rt, "unsubscribe", message)
    calls: dict[str, tuple[str, str, dict[str, Any]]] = {
        "campaign.public.click": ("GET", f"/{{t}}/campaign/api/p/c/{tokens.make(rt, 'click:' + url, message)}"
                                  f"?url={quote(url, safe='')}", {}),  # fmt: skip
        "campaign.public.unsubscribe": ("POST", f"/{{t}}/campaign/api/p/unsubscribe/{unsubscribe}", {}),
        "campaign.public.unsubscribe_page": ("GET", f"/{{t}}/campaign/api/p/unsubscribe/{unsubscribe}", {}),
        "campaign.public.survey": ("GET", f"/{{t}}/campaign/api/p/surveys/{survey}", {}),
        "campaign.public.answer": ("POST", f"/{{t}}/campaign/api/p/surveys/{survey}/responses",
                                   {"json": {"answers": {"score": 8}}}),  # fmt: skip
        "platform.invitations.accept": ("POST", "/api/tenants/{t}/invitations/invite-walk-token-0123456789",
                                        {"json": {"password": "Walk-Password-2026"}}),  # fmt: skip
        "qr.scan": ("GET", f"/{{t}}/qr/r/{code}", {}),
        "qr.scan_vcard": ("GET", f"/{{t}}/qr/r/{card}/contact.vcf", {}),
        "sign.public.get": ("GET", "/{t}/sign/api/sign/walk-token-0123456789abcdef", {}),
        "sign.public.act": ("POST", "/{t}/sign/api/sign/walk-token-0123456789abcdef", {"json": {"action": "decline",
                                                                                  "reason": "no"}}),  # fmt: skip
        "sign.public.audit": ("GET", "/{t}/sign/api/sign/walk-token-0123456789abcdef/audit", {}),
        "sign.public.download": ("GET", "/{t}/sign/api/sign/walk-token-0123456789abcdef/download", {}),
        "support.public.messages.list": ("GET", f"/api/tenants/{{t}}/support/public/tickets/"
                                         f"{ticket['ticket_number']}/messages", {"headers": access}),  # fmt: skip
        "support.public.messages.reply": ("POST", f"/api/tenants/{{t}}/support/public/tickets/"
                                          f"{ticket['ticket_number']}/messages",
                                          {"json": {"access_token": ticket["access_token"], "body": "Hello"}}),
    }  # fmt: skip
    wrong = []
    for name in sorted(TOKEN_ROUTES - {"campaign.public.open"}):
        method, path, extra = calls[name]
        r = client.request(method, path.replace("{t}", "other"), **extra)
        if r.status_code != 404:
            wrong.append((name, r.status_code, r.text[:200]))
        else:
            envelope(r, 404, "NOT_FOUND")
    assert not wrong, wrong
    # The open pixel answers the same image whatever the token (nothing to probe) but records nothing.
    with rt.db.engine.connect() as c:
        opened = c.execute(select(CampaignMessage.opened_at).where(CampaignMessage.id == message)).scalar_one()
    pixel = client.get(f"/other/campaign/api/p/o/{tokens.make(rt, 'open', message)}")
    assert pixel.status_code == 200 and pixel.headers["content-type"] == "image/gif"
    with rt.db.engine.connect() as c:
        assert c.execute(select(CampaignMessage.opened_at).where(CampaignMessage.id == message)).scalar_one() == opened
    # And each works under its own tenant (the walk's requests are real ones).
    assert client.get(calls["qr.scan"][1].replace("{t}", "demo")).status_code in (200, 302)
    assert client.get(calls["sign.public.get"][1].replace("{t}", "demo")).status_code == 200
    assert client.get(calls["qr.scan_vcard"][1].replace("{t}", "demo")).status_code == 200


def _text_fields(model: type[BaseModel], seen: set[type]) -> list[tuple[type, str]]:
    out: list[tuple[type, str]] = []
    if model in seen:
        return out
    seen.add(model)
    for name, f in model.model_fields.items():
        args = [f.annotation, *typing.get_args(f.annotation)]
        for a in list(args):
            args += list(typing.get_args(a))
        for a in args:
            if isinstance(a, type) and issubclass(a, BaseModel):
                out += _text_fields(a, seen)
        if str in args:
            out.append((model, name))
    return out


@pytest.mark.dialect_free
def test_free_text_fields_of_every_request_keep_their_whitespace() -> None:
    seen: set[type] = set()
    fields = [(m, n) for op in REGISTRY.values() if op.body for m, n in _text_fields(op.body, seen)]
    free = [(m, n) for m, n in fields if n in FREE_TEXT]
    assert len(free) >= 20
    stripped = []
    for model, name in free:
        schema = model.model_fields[name]
        value = "  two\n    spaces\n"
        try:
            got = model.__pydantic_validator__.validate_assignment(model.model_construct(), name, value)
        except Exception:  # noqa: BLE001 - a field whose other rules refuse this sample (length, pattern)
            continue
        if getattr(got, name) != value:
            stripped.append(f"{model.__name__}.{name} ({schema.annotation})")
    assert not stripped, stripped


@pytest.mark.dialect_free
def test_no_json_answer_carries_markup_from_input_unless_documented_as_html(client: httpx.Client) -> None:
    """Markup sent as text comes back as the same text in JSON (it is data, escaped where HTML is
    made); the fields documented as HTML are the search snippets and the e-mail templates' html."""
    h = auth_headers(client, "owner@demo.test")
    evil = "<img src=x onerror=alert(1)> zebrawalk"
    made = client.post("/demo/docs/api/documents", json={"title": "T", "body": evil, "status": "published"},
                       headers=h).json()["data"]  # fmt: skip
    assert made["body"] == evil  # JSON carries the text as it was sent: a client renders it as text
    hits = client.get("/demo/docs/api/documents/search", params={"q": "zebrawalk"}, headers=h).json()["data"]
    assert "<img" not in hits[0]["snippet"] and "&lt;img" in hits[0]["snippet"]
