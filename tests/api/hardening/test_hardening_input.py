"""Bad input against a real server: each request the hardening issue found failing, sent as it was.

Every answer must be the spec's envelope with the right status, and nothing may be written.
"""

from __future__ import annotations

import contextlib
import socket
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import MetaData, func, select

from api.app import route_path
from app.settings import Settings
from local_db.models import IdempotencyRecord
from services.core.commands import REGISTRY, Operation
from services.core.context import Runtime
from services.core.pagination import ListQuery
from tests.api.events.receiver import Certs
from tests.conftest import LiveServer, auth_headers, start_server
from tests.services.fulfillment.fulfillment_helpers import order_in

FUL = "/demo/fulfillment/api"
AGT = "/api/tenants/demo/support"
SUBS = "/demo/events/api/subscriptions"
DEEP = "[" * 5000 + "]" * 5000
JSON = {"Content-Type": "application/json"}
HELPDESK = "support_config"


def envelope(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json"), r.headers
    body: dict[str, Any] = r.json()
    assert body["code"] == code and isinstance(body["error"], str) and body["error"], body
    assert set(body) <= {"error", "code", "details", "retryAfter"}, body
    return body


def rows(server: LiveServer, *tables: str) -> list[tuple[Any, ...]]:
    """Every row of these tables: equal before and after a refused request means nothing was written."""
    meta = MetaData()
    meta.reflect(server.runtime.db.engine, only=list(tables))
    with server.runtime.db.engine.connect() as c:
        return [tuple(r) for t in tables for r in c.execute(meta.tables[t].select())]


def count(server: LiveServer, model: Any) -> int:
    with server.runtime.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(model)).scalar_one())


# 1. Deep nesting: 400 on every JSON route, signed in or not; the connection stays usable.


@pytest.mark.parametrize(
    "path",
    [
        "/api/auth/login",
        f"{AGT}/public/tickets",
        "/demo/events/api/p/events",
        f"{FUL}/auth/login",
        "/demo/upgrade/api/auth/register",
        SUBS,
        f"{AGT}/tickets",
    ],
)
@pytest.mark.dialect_free
def test_deeply_nested_json_is_a_clean_400_and_the_connection_lives(client: httpx.Client, path: str) -> None:
    owner = auth_headers(client, "owner@demo.test")
    r = client.post(path, content=DEEP, headers={**JSON, **owner})
    body = envelope(r, 400, "VALIDATION_ERROR")
    assert "nests deeper" in body["error"]
    assert r.headers.get("connection", "").lower() != "close"
    # The same keep-alive connection answers the next request.
    assert client.get("/health").status_code == 200
    # Nested objects too, inside an otherwise valid body.
    inner: Any = "x"
    for _ in range(100):
        inner = {"a": inner}
    r = client.post(SUBS, json={"event_types": ["order.shipped"], "webhook_url": "https://93.184.216.34/",
                                "secret": "s", "filter": inner}, headers=owner)  # fmt: skip
    envelope(r, 400, "VALIDATION_ERROR")


# 2. page / offset past 2^63 on every list.


# The demo's signed-in customer of each module with customer accounts (rewards: a dealer).
DEMO_CUSTOMERS = {"rewards": "dealer@demo.test"}


def _lists() -> list[Operation]:
    return [op for op in REGISTRY.values() if op.method == "GET" and op.query and issubclass(op.query, ListQuery)]


@pytest.mark.dialect_free
@pytest.mark.parametrize("op", _lists(), ids=lambda op: op.name)
def test_page_and_offset_beyond_int64_are_400_on_every_list(client: httpx.Client, op: Operation) -> None:
    if op.auth == "customer":
        who = DEMO_CUSTOMERS.get(op.module, "customer@demo.test")
        r = client.post(f"/demo/{op.module}/api/auth/login", json={"email": who, "password": "demo-password"})
        headers = {"Authorization": f"Bearer {r.json()['data']['token']}"}
    else:
        headers = auth_headers(client, "owner@demo.test")
    if op.keys_only:  # an API for integrations: an API key calls it
        made = client.post("/api/tenants/demo/api-keys", json={"name": "lists", "modules": [op.module]},
                           headers=headers)  # fmt: skip
        headers = {"X-API-Key": made.json()["data"]["key"]}
    path = route_path(op).replace("{tenant}", "demo")
    if "{sub_id}" in path:  # a real subscription: an unknown one is 404 before its list is read
        r = client.post(SUBS, json={"event_types": ["order.shipped"], "webhook_url": "https://93.184.216.34/",
                                    "secret": "s"}, headers=headers)  # fmt: skip
        path = path.replace("{sub_id}", r.json()["data"]["id"])
    # A list that needs a parameter (a search's q) gets one, so only the position is wrong.
    needed = "".join(f"&{f.alias or name}=a" for name, f in op.query.model_fields.items() if f.is_required())
    for query in ("page=9223372036854775807", "offset=99999999999999999999999", "page=99999999999999999999999"):
        r = client.get(f"{path}?{query}{needed}", headers=headers)
        envelope(r, 400, "VALIDATION_ERROR")
    assert client.get(f"{path}?page=2{needed}", headers=headers).status_code in (200, 404)


# 3. NUL in a ticket search.


def test_nul_in_ticket_search_is_no_500(client: httpx.Client) -> None:
    op = auth_headers(client, "operator@demo.test")
    for q in ("a%00b", "%00", "kettle%00broken", "%01%1f%7f"):
        r = client.get(f"{AGT}/tickets?search={q}", headers=op)
        assert r.status_code == 200, r.text
        assert isinstance(r.json()["data"], list)


# 4. Idempotency-Key over 200 characters.


def test_idempotency_key_over_200_chars_is_refused_before_any_write(client: httpx.Client, server: LiveServer) -> None:
    dev = auth_headers(client, "device@demo.test")
    order = order_in(server.runtime, "pending")
    code = client.get(f"{FUL}/orders/{order.id}", headers=dev).json()["data"]["lines"][0]["barcode"]
    body = {"operation": "pick", "items": [{"code": code, "quantity": 1}]}
    before = count(server, IdempotencyRecord)
    for _ in range(2):  # the first and the replay: the same answer
        r = client.post(f"{FUL}/orders/{order.id}/operations", json=body, headers={**dev, "Idempotency-Key": "k" * 201})
        envelope(r, 400, "VALIDATION_ERROR")
    r = client.post(f"{AGT}/public/tickets", headers={"Idempotency-Key": "k" * 5000},
                    json={"email": "gina@example.com", "name": "Gina", "subject": "Broken", "description": "Broken lid.",
                          "challenge_token": "demo-challenge-ok"})  # fmt: skip
    envelope(r, 400, "VALIDATION_ERROR")
    assert count(server, IdempotencyRecord) == before
    lines = client.get(f"{FUL}/orders/{order.id}", headers=dev).json()["data"]["lines"]
    assert lines[0]["picked_quantity"] == 0
    # 200 characters is still a key.
    ok = client.post(f"{FUL}/orders/{order.id}/operations", json=body, headers={**dev, "Idempotency-Key": "k" * 200})
    again = client.post(f"{FUL}/orders/{order.id}/operations", json=body, headers={**dev, "Idempotency-Key": "k" * 200})
    assert ok.status_code == again.status_code == 200
    assert client.get(f"{FUL}/orders/{order.id}", headers=dev).json()["data"]["lines"][0]["picked_quantity"] == 1


# 5. Empty or null bodies where a body is declared.


def test_empty_or_null_body_is_refused_and_nothing_written(client: httpx.Client, server: LiveServer) -> None:
    owner = auth_headers(client, "owner@demo.test")
    tid = client.get(f"{AGT}/tickets", headers=owner).json()["data"][0]["id"]
    targets = [
        ("PUT", f"{FUL}/settings/device", ["fulfillment_device_settings"]),
        ("PUT", f"{AGT}/helpdesk", [HELPDESK]),
        ("PATCH", f"{AGT}/tickets/{tid}", ["support_tickets"]),
        ("POST", f"{SUBS}", ["event_subscriptions"]),
        ("POST", "/api/tenants/demo/api-keys", ["api_keys"]),
    ]
    for method, path, tables in targets:
        before = rows(server, *tables)
        for content, headers in ((b"", {}), (b"", JSON), (b"null", JSON)):
            r = client.request(method, path, content=content, headers={**headers, **owner})
            body = envelope(r, 400, "VALIDATION_ERROR")
            assert "required" in body["error"] or "Content-Type" in body["error"], (method, path, body)
        assert rows(server, *tables) == before, (method, path)
    r = client.post("/api/auth/login", content=b"null", headers=JSON)
    envelope(r, 400, "VALIDATION_ERROR")


# 6. Strict bodies: no coercion of strings or booleans to numbers (and the like).


def test_strict_bodies_refuse_coerced_types(client: httpx.Client, server: LiveServer) -> None:
    dev = auth_headers(client, "device@demo.test")
    order = order_in(server.runtime, "pending")
    url = f"{FUL}/orders/{order.id}/operations"
    code = client.get(f"{FUL}/orders/{order.id}", headers=dev).json()["data"]["lines"][0]["barcode"]
    for qty in ("1", True, 1.0, "one", None):
        r = client.post(url, json={"operation": "pick", "items": [{"code": code, "quantity": qty}]}, headers=dev)
        body = envelope(r, 400, "VALIDATION_ERROR")
        assert any(f["field"].endswith("quantity") for f in body["details"]["fields"]), body
    assert client.get(f"{FUL}/orders/{order.id}", headers=dev).json()["data"]["lines"][0]["picked_quantity"] == 0
    owner = auth_headers(client, "owner@demo.test")
    before = rows(server, "fulfillment_device_settings")
    for bad in ({"sounds": "true"}, {"sounds": 1}, {"printer": 5}, {"boxes": "M"}):
        envelope(client.put(f"{FUL}/settings/device", json=bad, headers=owner), 400, "VALIDATION_ERROR")
    assert rows(server, "fulfillment_device_settings") == before
    envelope(client.post("/api/auth/login", json={"email": "owner@demo.test", "password": 12345678}), 400,
             "VALIDATION_ERROR")  # fmt: skip
    # JSON's own readings still work: an ISO 8601 time, a JSON integer.
    later = (datetime.now(UTC) + timedelta(days=30)).isoformat()
    r = client.post("/api/tenants/demo/api-keys", json={"name": "k", "modules": ["events"], "expires_at": later},
                    headers=owner)  # fmt: skip
    assert r.status_code == 201, r.text
    r = client.post(url, json={"operation": "pick", "items": [{"code": code, "quantity": 1}]}, headers=dev)
    assert r.status_code == 200, r.text


# 7. Webhook URLs that name a local address in another spelling.

UNSAFE = [
    "https://127.0.0.1./",
    "https://localhost./",
    "https://%31%32%37.0.0.1/",
    "https://127%2E0%2E0%2E1/",
    "https://00000000000000000000127.0.0.1/",
    "https://2130706433/",
    "https://0x7f.0.0.1/",
    "https://127.1/",
    "https://93.184.216.34:0/",
]


def test_webhook_urls_normalised_then_refused_on_create_and_patch(
    settings: Settings, runtime: Runtime, certs: Certs
) -> None:
    from tests.api.events.conftest import events_server

    srv = events_server(settings, runtime, certs, webhook_allow_private=False)
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            owner = auth_headers(c, "owner@demo.test")
            for url in UNSAFE:
                r = c.post(SUBS, json={"event_types": ["order.shipped"], "webhook_url": url, "secret": "s"},
                           headers=owner)  # fmt: skip
                body = envelope(r, 400, "VALIDATION_ERROR")
                assert body["details"]["fields"][0]["field"] == "webhook_url", (url, body)
            assert c.get(SUBS, headers=owner).json()["meta"]["total"] == 0
            r = c.post(SUBS, json={"event_types": ["order.shipped"], "webhook_url": "https://93.184.216.34/hook",
                                   "secret": "s"}, headers=owner)  # fmt: skip
            assert r.status_code == 201, r.text
            sid = r.json()["data"]["id"]
            for url in UNSAFE:
                r = c.patch(f"{SUBS}/{sid}", json={"webhook_url": url}, headers=owner)
                envelope(r, 400, "VALIDATION_ERROR")
            assert c.get(f"{SUBS}/{sid}", headers=owner).json()["data"]["webhook_url"] == "https://93.184.216.34/hook"
    finally:
        srv.stop()
        srv.runtime.db.dispose()


# 8. Sign-in answers say how much of the limit is left, every one of them.


def test_login_answers_carry_rate_limit_headers(settings: Settings, runtime: Runtime) -> None:
    runtime.db.dispose()
    srv = start_server(settings, rate_limits="A")
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            answers = [
                c.post("/api/auth/login", json={"email": "owner@demo.test", "password": "demo-password"}),
                c.post("/api/auth/login", json={"email": "owner@demo.test", "password": "wrong-password"}),
                c.post("/api/auth/login", content=b"{", headers=JSON),
                c.post("/api/auth/login", json={"email": "owner@demo.test"}),
            ]
            assert [a.status_code for a in answers] == [200, 401, 400, 400]
            remaining = [int(a.headers["X-RateLimit-Remaining"]) for a in answers]
            assert remaining == sorted(remaining, reverse=True) and len(set(remaining)) == 4
            for a in answers:
                assert int(a.headers["X-RateLimit-Limit"]) >= 1 and int(a.headers["X-RateLimit-Reset"]) > 0
            while (r := c.post("/api/auth/login", json={"email": "x@demo.test", "password": "p"})).status_code != 429:
                assert "X-RateLimit-Remaining" in r.headers
            body = envelope(r, 429, "RATE_LIMITED")
            assert body["retryAfter"] >= 0 and r.headers["X-RateLimit-Remaining"] == "0"
    finally:
        srv.stop()
        srv.runtime.db.dispose()


# 10. An API key that has already expired.


def test_api_key_expiring_in_the_past_is_400(client: httpx.Client, server: LiveServer) -> None:
    owner = auth_headers(client, "owner@demo.test")
    before = rows(server, "api_keys")
    past = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    r = client.post("/api/tenants/demo/api-keys", json={"name": "k", "modules": ["events"], "expires_at": past},
                    headers=owner)  # fmt: skip
    body = envelope(r, 400, "VALIDATION_ERROR")
    assert body["details"]["fields"][0]["field"] == "expires_at"
    assert rows(server, "api_keys") == before


# 16. Every answer in the envelope: 404, 405, a URL too long, bytes that are not HTTP.


def test_unknown_path_and_wrong_method_are_enveloped(client: httpx.Client) -> None:
    envelope(client.get("/nosuch/thing"), 404, "NOT_FOUND")
    envelope(client.get("/demo/fulfillment/api/nosuch"), 404, "NOT_FOUND")
    r = client.delete("/api/auth/login")
    envelope(r, 405, "METHOD_NOT_ALLOWED")
    assert "POST" in r.headers["allow"]
    envelope(client.put(f"{FUL}/orders"), 405, "METHOD_NOT_ALLOWED")


def raw_exchange(server: LiveServer, data: bytes) -> tuple[bytes, dict[str, Any]]:
    """Send bytes on a fresh TCP connection; the status line and the JSON body of the answer."""
    host, port = server.url.removeprefix("http://").split(":")
    raw = b""
    with socket.create_connection((host, int(port)), timeout=10) as s:
        # The server may answer and close before reading it all: the answer is still there.
        with contextlib.suppress(OSError):
            s.sendall(data)
        try:
            while chunk := s.recv(65536):
                raw += chunk
        except ConnectionResetError:
            pass
    head, _, payload = raw.partition(b"\r\n\r\n")
    assert b"application/json" in head, raw[:300]
    return head.split(b"\r\n")[0], httpx.Response(200, content=payload).json()


def test_a_one_mebibyte_url_gets_a_414_envelope(client: httpx.Client, server: LiveServer) -> None:
    status, body = raw_exchange(server, b"GET /demo/fulfillment/api/orders?x=" + b"a" * (1024 * 1024) +
                                b" HTTP/1.1\r\nHost: localhost\r\n\r\n")  # fmt: skip
    assert status.startswith(b"HTTP/1.1 414") and body["code"] == "URI_TOO_LONG" and body["error"]
    # A long but reasonable URL still reaches the application.
    envelope(client.get("/nosuch?x=" + "a" * 8000), 404, "NOT_FOUND")
    assert client.get("/health").status_code == 200


def test_bytes_that_are_not_http_get_an_envelope(server: LiveServer) -> None:
    status, body = raw_exchange(server, b"NOT HTTP AT ALL\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 400") and body["code"] == "VALIDATION_ERROR" and body["error"]
