"""Issue 37, part 1: request ids, /metrics (who may read it and what it holds), /health/ready,
and JSON access lines that carry no secret and no e-mail of a demo flow."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import httpx
import pytest

from app.logs import JsonFormatter, TextFormatter
from app.settings import Settings
from services.core.context import Runtime
from services.core.demo import DEMO_PASSWORD
from tests.conftest import LiveServer, auth_headers, start_server


def test_the_callers_request_id_is_returned_and_a_bad_one_replaced(client: httpx.Client) -> None:
    r = client.get("/health", headers={"X-Request-Id": "abc-123.x:y"})
    assert r.headers["x-request-id"] == "abc-123.x:y"
    made = client.get("/api/tenants/demo/nothing-here").headers["x-request-id"]
    assert len(made) == 32 and made.isalnum()
    for bad in ("x" * 129, "a b", "<script>", "é".encode()):
        got = client.get("/health", headers={"X-Request-Id": bad}).headers["x-request-id"]
        assert got != bad and len(got) == 32
    # An answer not made by a route (a body over the limit) has one too.
    r = client.post("/api/auth/login", content=b"x" * (2 * 1024 * 1024), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.headers["x-request-id"]


def test_metrics_answer_loopback_callers_with_routes_tenants_and_the_backlog(
    client: httpx.Client, server: LiveServer
) -> None:
    h = auth_headers(client, "owner@demo.test")
    assert client.get("/api/tenants/demo/api-keys", headers=h).status_code == 200
    assert client.get("/api/tenants/no-such-tenant-x/api-keys", headers=h).status_code in (403, 404)
    r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    body = r.text
    assert 'platform_http_requests_total{method="GET",route="/api/tenants/{tenant}/api-keys",status="200"}' in body
    assert 'platform_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/auth/login"}' not in body
    assert 'platform_http_request_duration_seconds_count{method="POST",route="/api/auth/login"}' in body
    assert 'platform_tenant_requests_total{tenant="demo"}' in body
    assert "no-such-tenant-x" not in body  # a made-up slug earns no series
    for name in ("platform_webhook_oldest_pending_seconds", "platform_db_pool_connections", "# HELP platform_jobs "):
        assert name in body
    assert "/metrics" not in body.split("route=")[-1]  # scrapes are not counted


def test_metrics_refuse_a_proxied_caller_and_anyone_without_the_token(settings: Settings, runtime: Runtime) -> None:
    runtime.db.dispose()
    srv = start_server(settings, rate_limits="off", metrics_token="s3cret-scrape-token")
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            # The proxy on this host forwards a remote caller: that caller is not loopback.
            proxied = {"X-Forwarded-For": "203.0.113.9"}
            r = c.get("/metrics", headers=proxied)
            assert r.status_code == 404 and "platform_" not in r.text
            assert c.get("/metrics", headers={**proxied, "Authorization": "Bearer wrong"}).status_code == 404
            token = auth_headers(c, "owner@demo.test")  # a tenant's credentials open nothing
            assert c.get("/metrics", headers={**proxied, **token}).status_code == 404
            ok = c.get("/metrics", headers={**proxied, "Authorization": "Bearer s3cret-scrape-token"})
            assert ok.status_code == 200 and "platform_http_requests_total" in ok.text
            assert c.get("/metrics").status_code == 200  # loopback itself
    finally:
        srv.stop()
        srv.runtime.db.dispose()


def test_ready_checks_the_database_and_the_workers(client: httpx.Client, server: LiveServer) -> None:
    r = client.get("/health/ready")
    assert r.status_code == 200, r.text
    assert r.json() == {
        "status": "ok",
        "checks": {"database": "ok", "jobs": "ok", "webhook_deliveries": "ok"},
    }
    server.runtime.db.engine.dispose()
    server.app.state.workers["jobs"] = lambda: False  # a worker that died
    r = client.get("/health/ready")
    assert r.status_code == 503 and r.json()["checks"]["jobs"] == "stopped"


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    root, access = logging.getLogger(), logging.getLogger("platform.access")
    root.addHandler(handler)
    level = access.level
    access.setLevel(logging.INFO)
    yield out
    root.removeHandler(handler)
    access.setLevel(level)


def test_a_demo_flow_logs_json_lines_without_its_secrets_or_emails(client: httpx.Client, json_log: io.StringIO) -> None:
    h = auth_headers(client, "owner@demo.test")
    session = h["Authorization"][7:]
    made = client.post(
        "/api/tenants/demo/api-keys",
        json={"name": "logged flow", "modules": ["support"]},
        headers={**h, "X-Request-Id": "flow-1"},
    )
    assert made.status_code == 201, made.text
    key = made.json()["data"]["key"]
    keyed = {"X-API-Key": key}
    client.get("/api/tenants/demo/support/tickets", headers=keyed)
    client.post("/api/auth/login", json={"email": "admin@demo.test", "password": "wrong-" + DEMO_PASSWORD})
    client.get("/api/auth/me", headers=h)
    logged = json_log.getvalue()
    lines = [json.loads(line) for line in logged.splitlines() if line.strip()]
    access = [x for x in lines if x["logger"] == "platform.access"]
    assert len(access) >= 5
    first = next(x for x in access if x["request_id"] == "flow-1")
    assert first["route"] == "/api/tenants/{tenant}/api-keys" and first["status"] == 201
    assert first["tenant"] == "demo" and first["principal_kind"] == "user" and first["level"] == "info"
    assert {"time", "duration_ms", "method"} <= set(first)
    assert any(x.get("principal_kind") == "api_key" for x in access)
    for secret in (DEMO_PASSWORD, session, key, "owner@demo.test", "admin@demo.test", "@demo.test"):
        assert secret not in logged


def test_the_text_format_has_the_request_id_and_no_exception_message() -> None:
    rec = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed %s", ("job",), None)
    private = "private" + "@example.test"  # the source line the traceback quotes holds no address
    try:
        raise RuntimeError(private)
    except RuntimeError:
        import sys

        rec.exc_info = sys.exc_info()
    out = TextFormatter().format(rec)
    assert "failed job" in out and "[-]" in out and "RuntimeError" in out
    assert "private@example.test" not in out
    assert "private@example.test" not in JsonFormatter().format(rec)


def test_traces_when_enabled_name_the_route_and_continue_the_callers_trace(
    settings: Settings, runtime: Runtime
) -> None:
    sdk = pytest.importorskip("opentelemetry.sdk.trace")
    from opentelemetry import trace
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = sdk.TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)  # once per process: OpenTelemetry refuses a second one
    runtime.db.dispose()
    srv = start_server(settings, rate_limits="off", traces=True)
    try:
        parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            h = auth_headers(c, "owner@demo.test")
            c.get("/api/tenants/demo/api-keys", headers={**h, "traceparent": parent, "X-Request-Id": "traced-1"})
    finally:
        srv.stop()
        srv.runtime.db.dispose()
    spans = [s for s in exporter.get_finished_spans() if s.attributes and "http.response.status_code" in s.attributes]
    span = next(s for s in spans if s.attributes and s.attributes.get("platform.request_id") == "traced-1")
    assert span.name == "GET /api/tenants/{tenant}/api-keys"
    assert span.attributes is not None and span.attributes["http.response.status_code"] == 200
    assert span.context is not None and format(span.context.trace_id, "032x") == "0af7651916cd43dd8448eb211c80319c"
    assert any(s.name == "POST /api/auth/login" for s in spans)


def test_traces_are_off_by_default(client: httpx.Client, server: LiveServer) -> None:
    assert server.app._telemetry["tracing"] is False and server.app._telemetry["logs"] is False


def test_probes_and_scrapes_over_plain_http_are_not_redirected_when_https_is_forced(
    settings: Settings, runtime: Runtime
) -> None:
    runtime.db.dispose()
    srv = start_server(settings, rate_limits="off", force_https=True)
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            assert c.get("/api/auth/me").status_code == 308
            assert c.get("/health/ready").status_code == 200
            assert c.get("/metrics").status_code == 200
            assert c.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 404
    finally:
        srv.stop()
        srv.runtime.db.dispose()
