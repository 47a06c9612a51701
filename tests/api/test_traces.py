"""Issue 37, part 1: OpenTelemetry traces (FastAPI's own, off by default, on with PLATFORM_TRACES=1)
and the operator's probes over plain HTTP when HTTPS is forced."""

from __future__ import annotations

import logging

import httpx
import pytest

from app.settings import Settings
from services.core.context import Runtime
from tests.conftest import LiveServer, auth_headers, start_server


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
            r = c.get("/api/tenants/demo/api-keys", headers={**h, "traceparent": parent, "X-Request-Id": "traced-1"})
            assert r.status_code == 200
    finally:
        srv.stop()
        srv.runtime.db.dispose()
    spans = [s for s in exporter.get_finished_spans() if s.attributes and "http.response.status_code" in s.attributes]
    span = next(s for s in spans if s.attributes and s.attributes.get("platform.request_id") == "traced-1")
    assert span.name == "GET /api/tenants/{tenant}/api-keys"
    assert span.attributes is not None and span.attributes["http.response.status_code"] == 200
    assert span.context is not None and format(span.context.trace_id, "032x") == "0af7651916cd43dd8448eb211c80319c"
    assert any(s.name == "POST /api/auth/login" for s in spans)


def test_traces_and_fastapis_telemetry_logs_are_off_by_default(client: httpx.Client, server: LiveServer) -> None:
    config = server.app._telemetry
    assert config["tracing"] is False and config["logs"] is False and config["metrics"] is False


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
            # A remote caller forwarded by the proxy on this host is not loopback.
            assert c.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 404
    finally:
        srv.stop()
        srv.runtime.db.dispose()


def test_a_request_is_logged_before_its_answer_reaches_the_caller(
    client: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="platform.request"):
        for n in range(20):
            assert client.get("/health", headers={"X-Request-Id": f"ordered-{n}"}).status_code == 200
            # No wait: the line was written before the answer's last bytes were sent.
            assert any(getattr(r, "request_id", None) == f"ordered-{n}" for r in caplog.records), n
