"""What an operator watches, against a real uvicorn server: request ids, /metrics and who may read
it, readiness, and JSON log lines that carry no secret and no personal data."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import httpx
import pytest

from api.observe import JsonFormatter, configure_logging
from app.settings import Settings
from services.core.context import Runtime
from tests.conftest import DEMO_PASSWORD, LiveServer, auth_headers, start_server

TOKEN = "metrics-token-6f1c2a9e"


@pytest.fixture
def watched(settings: Settings, runtime: Runtime) -> Iterator[httpx.Client]:
    runtime.db.dispose()
    srv: LiveServer = start_server(settings, rate_limits="off", metrics_token=TOKEN)
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            yield c
    finally:
        srv.stop()
        srv.runtime.db.dispose()


def test_every_answer_carries_a_request_id_the_callers_kept_when_sane(watched: httpx.Client) -> None:
    mine = watched.get("/health", headers={"X-Request-Id": "proxy-42.abc"})
    assert mine.headers["x-request-id"] == "proxy-42.abc"
    made = watched.get("/health", headers={"X-Request-Id": "bad id\twith<html>"})
    assert made.headers["x-request-id"] not in ("", "bad id\twith<html>") and len(made.headers["x-request-id"]) == 32
    for r in (watched.get("/nowhere"), watched.get("/demo/fulfillment/api/orders")):  # a 404, a 401
        assert r.status_code in (401, 404) and len(r.headers["x-request-id"]) >= 1
    assert watched.get("/health").headers["x-request-id"] != watched.get("/health").headers["x-request-id"]


def test_metrics_answer_loopback_and_the_token_and_nobody_else(watched: httpx.Client) -> None:
    h = auth_headers(watched, "owner@demo.test")
    order = watched.get("/demo/fulfillment/api/orders?limit=1", headers=h).json()["data"][0]
    assert watched.get(f"/demo/fulfillment/api/orders/{order['id']}", headers=h).status_code == 200
    r = watched.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    text = r.text
    # Requests by route template: the order's id (or any path value) never becomes a label.
    assert 'route="/{tenant}/fulfillment/api/orders/{id}"' in text and order["id"] not in text
    assert (
        'platform_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/{tenant}/fulfillment/api/orders"'
        in text
    )
    assert 'platform_tenant_requests_total{outcome="ok",tenant="demo"}' in text
    for name in ("platform_webhook_deliveries", "platform_webhook_oldest_pending_seconds", "platform_jobs",
                 "platform_db_pool_connections"):  # fmt: skip
        assert f"# TYPE {name} gauge" in text
    # Behind the proxy on this host, a caller from outside is not loopback.
    outside = {"X-Forwarded-For": "203.0.113.7"}
    assert watched.get("/metrics", headers=outside).status_code == 404
    assert watched.get("/metrics", headers={**outside, "Authorization": "Bearer wrong"}).status_code == 404
    assert watched.get("/metrics", headers={**outside, **h}).status_code == 404  # a tenant's sign-in is no key
    assert watched.get("/metrics", headers={**outside, "Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_ready_checks_the_database_and_the_workers(watched: httpx.Client) -> None:
    r = watched.get("/health/ready")
    assert r.status_code == 200, r.text
    assert r.json() == {"status": "ok", "checks": {"database": "ok", "webhook deliveries": "ok"}}


def test_json_log_lines_name_the_request_and_hold_no_secret_or_personal_data(
    watched: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    secrets: list[str] = [DEMO_PASSWORD]
    with caplog.at_level(logging.DEBUG):
        h = auth_headers(watched, "owner@demo.test")
        secrets.append(h["Authorization"][7:])
        key = watched.post("/api/tenants/demo/api-keys", json={"name": "ops", "modules": ["support"]}, headers=h)
        assert key.status_code == 201, key.text
        secrets.append(key.json()["data"]["key"])
        body = {"subject": "Lost parcel", "description": "It never came.", "email": "quiet.person@example.test",
                "name": "Quiet Person"}  # fmt: skip
        assert watched.post("/api/tenants/demo/support/tickets", json=body, headers=h).status_code == 201
        sub = {"url": "https://hooks.example.test/in", "event_types": ["ticket.created"], "secret": "whsec-" + "s" * 30}
        watched.post("/demo/events/api/subscriptions", json=sub, headers=h)
        secrets.append(sub["secret"])
        found = watched.get("/api/tenants/demo/support/tickets?search=quiet.person@example.test", headers=h)
        assert found.status_code == 200 and found.json()["data"]
    # The server's records (this test's own HTTP client logs its URLs: not the platform's logs).
    server = [r for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    lines = [JsonFormatter().format(r) for r in server]
    requests = [json.loads(line) for line in lines if '"request_id"' in line]
    assert requests, "a request logs one line"
    first = requests[0]
    for field in ("time", "level", "request_id", "tenant", "principal", "route", "status", "duration_ms"):
        assert field in first
    tickets = [r for r in requests if r["route"] == "/api/tenants/{tenant}/support/tickets" and r["status"] == 201]
    assert tickets and tickets[0]["principal"] == "user" and tickets[0]["tenant"] == "demo"
    everything = "\n".join(lines)
    for value in [*secrets, "quiet.person@example.test", "Quiet Person", "owner@demo.test"]:
        assert value not in everything


def test_configure_logging_writes_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    kept, level = root.handlers[:], root.level
    try:
        configure_logging("json")
        logging.getLogger("platform.request").info("GET /x 200", extra={"request_id": "r1", "status": 200})
        line = capsys.readouterr().err.strip().splitlines()[-1]
        got = json.loads(line)
        assert got["message"] == "GET /x 200" and got["request_id"] == "r1" and got["level"] == "info"
    finally:
        root.handlers[:] = kept
        root.setLevel(level)


def test_health_answered_at_the_door_is_counted_and_logged_like_the_route(
    watched: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 38: GET /health is answered by the outermost middleware; the answer is the route's
    (the route itself still answers a request with an Origin, through CORS), and the request is
    counted and logged as before."""
    with caplog.at_level(logging.INFO, logger="platform.request"):
        r = watched.get("/health", headers={"X-Request-Id": "probe-1"})
    through = watched.get("/health", headers={"Origin": "https://elsewhere.test"})
    assert r.status_code == through.status_code == 200
    assert r.content == through.content and r.json() == {"status": "ok"}
    for name in ("content-type", "content-length", "vary"):
        assert r.headers[name] == through.headers[name], name
    assert r.headers["x-request-id"] == "probe-1"
    assert watched.head("/health").status_code == 405  # only GET is answered at the door
    line = next(x for x in caplog.records if getattr(x, "request_id", None) == "probe-1")
    assert (line.route, line.method, line.status) == ("/health", "GET", 200)  # type: ignore[attr-defined]
    counted = [
        ln
        for ln in watched.get("/metrics").text.splitlines()
        if ln.startswith("platform_http_requests_total{") and 'route="/health"' in ln and 'status="200"' in ln
    ]
    assert counted and float(counted[0].rsplit(" ", 1)[1]) >= 2
