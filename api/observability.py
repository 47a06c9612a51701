"""What an operator watches: request ids, one structured log line per request, Prometheus metrics.

Counters of HTTP requests live in the process (prometheus-client's multiprocess mode when
``PROMETHEUS_MULTIPROC_DIR`` is set, as ``serve --workers N`` does, so any worker answers for all);
the webhook backlog, sync lag and jobs are read from the database at scrape time, so they are the
whole picture whichever worker answers.
"""

from __future__ import annotations

import contextvars
import hmac
import ipaddress
import logging
import os
import re
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import text

from api.middleware import ASGIApp, Message, Receive, Scope, Send
from services.core.context import Runtime

try:
    from opentelemetry import trace as _otel_trace
except ImportError:  # traces are optional (the `traces` extra)
    _otel_trace = None  # type: ignore[assignment]

access_log = logging.getLogger("platform.access")

REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
# A caller's id is kept only when it is short and plain (it goes into logs and headers as is).
_ID_OK = re.compile(r"[A-Za-z0-9._:\-]{1,128}")
# Per-tenant series are bounded: past this many distinct tenants in a process, the rest count as "other".
TENANT_LABELS = 200

HTTP_REQUESTS = Counter(
    "platform_http_requests_total", "HTTP requests by route template, method and status", ["route", "method", "status"]
)
HTTP_LATENCY = Histogram(
    "platform_http_request_duration_seconds", "HTTP request latency by route template and method", ["route", "method"]
)
TENANT_REQUESTS = Counter("platform_tenant_requests_total", "Requests per tenant", ["tenant"])
TENANT_ERRORS = Counter("platform_tenant_errors_total", "Answers of status 500 and over per tenant", ["tenant"])
_tenants_seen: set[str] = set()


def request_id_of(given: str | None) -> str:
    """The caller's ``X-Request-Id`` when sane, else a new one."""
    if given and _ID_OK.fullmatch(given):
        return given
    return uuid.uuid4().hex


def _tenant_label(slug: str | None, status: int) -> str | None:
    # A 404 may be a made-up slug: it never earns a label of its own.
    if not slug or status == 404 and slug not in _tenants_seen:
        return None
    if slug in _tenants_seen or len(_tenants_seen) < TENANT_LABELS:
        _tenants_seen.add(slug)
        return slug
    return "other"


class Observe:
    """Outermost middleware: request id in and out, metrics, and one access log line."""

    def __init__(self, app: ASGIApp, traced: bool = False) -> None:
        self.app, self.traced = app, traced

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        given = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-request-id"), None)
        rid = request_id_of(given)
        token = REQUEST_ID.set(rid)
        scope.setdefault("state", {})
        status = 500
        started = time.perf_counter()
        done = False

        def finish() -> None:
            # Before the answer's last bytes leave: whoever reads the answer finds it counted and logged.
            nonlocal done
            if done:
                return
            done = True
            self._record(scope, rid, status, time.perf_counter() - started)

        async def stamped(msg: Message) -> None:
            nonlocal status
            if msg["type"] == "http.response.start":
                status = int(msg["status"])
                msg["headers"] = [*msg.get("headers", []), (b"x-request-id", rid.encode())]
            elif msg["type"] == "http.response.body" and not msg.get("more_body"):
                finish()
            await send(msg)

        try:
            await self.app(scope, receive, stamped)
        finally:
            finish()
            REQUEST_ID.reset(token)

    def _record(self, scope: Scope, rid: str, status: int, elapsed: float) -> None:
        route = scope.get("route")
        template = getattr(route, "path", None) or "unmatched"
        method = str(scope.get("method", "-"))
        slug = (scope.get("path_params") or {}).get("tenant")
        if self.traced and _otel_trace is not None:
            # FastAPI's own request span (its telemetry wraps this middleware): the log line's id on it.
            _otel_trace.get_current_span().set_attribute("platform.request_id", rid)
        if template != "/metrics":  # scrapes are not counted
            HTTP_REQUESTS.labels(template, method, str(status)).inc()
            HTTP_LATENCY.labels(template, method).observe(elapsed)
            label = _tenant_label(slug, status)
            if label is not None:
                TENANT_REQUESTS.labels(label).inc()
                if status >= 500:
                    TENANT_ERRORS.labels(label).inc()
        state = scope.get("state") or {}
        access_log.info(
            "%s %s %s",
            method,
            template,
            status,
            extra={
                "request_id": rid,
                "tenant": slug,
                "principal_kind": state.get("principal_kind"),
                "route": template,
                "method": method,
                "status": status,
                "duration_ms": round(elapsed * 1000, 2),
            },
        )


def telemetry_config(enabled: bool) -> dict[str, Any]:
    """FastAPI's own OpenTelemetry support (it is on whenever the opentelemetry packages are
    installed): off unless PLATFORM_TRACES=1, and then spans only. Its metrics are left to
    /metrics, and its log records are off because they carry exception messages (request data)."""
    if enabled and _otel_trace is None:
        logging.getLogger("platform").warning("PLATFORM_TRACES=1 but opentelemetry is not installed: no traces")
    return {"tracing": enabled, "operation_spans": enabled, "metrics": False, "logs": False}


class DatabaseCollector(Collector):
    """Read at scrape time from the shared database: the same answer from every worker."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    def collect(self) -> Iterator[GaugeMetricFamily]:
        now = datetime.now(UTC)
        deliveries = GaugeMetricFamily(
            "platform_webhook_deliveries", "Webhook deliveries held, by status", labels=["status"]
        )
        oldest = GaugeMetricFamily("platform_webhook_oldest_pending_seconds", "Age of the oldest pending delivery")
        stations_seen = GaugeMetricFamily(
            "platform_sync_station_lag_seconds", "Seconds since a station last pushed or pulled", labels=["station"]
        )
        stations_seq = GaugeMetricFamily(
            "platform_sync_station_pushes", "Last push sequence number per station", labels=["station"]
        )
        jobs = GaugeMetricFamily("platform_jobs", "Background jobs by status", labels=["status"])
        pool = GaugeMetricFamily("platform_db_pool_connections", "Database pool connections", labels=["state"])
        with self.rt.db.engine.connect() as conn:
            for st, n in conn.execute(text("SELECT status, COUNT(*) FROM event_deliveries GROUP BY status")):
                deliveries.add_metric([str(st)], float(n))
            first = conn.execute(text("SELECT MIN(created_at) FROM event_deliveries WHERE status = 'pending'")).scalar()
            oldest.add_metric([], _age(first, now))
            rows = conn.execute(
                text(
                    "SELECT s.station_id, t.slug, s.last_seq, s.last_seen_at FROM sync_stations s "
                    "JOIN tenants t ON t.id = s.tenant_id WHERE s.revoked_at IS NULL ORDER BY s.station_id LIMIT 500"
                )
            )
            for station, slug, seq, seen in rows:
                name = f"{slug}/{station}"
                stations_seq.add_metric([name], float(seq or 0))
                stations_seen.add_metric([name], _age(seen, now))
            for st, n in conn.execute(text("SELECT status, COUNT(*) FROM jobs GROUP BY status")):
                jobs.add_metric([str(st)], float(n))
        p = self.rt.db.engine.pool
        for state, fn in (("checked_out", "checkedout"), ("idle", "checkedin"), ("size", "size")):
            value = getattr(p, fn, None)
            if callable(value):
                pool.add_metric([state], float(value()))
        yield from (deliveries, oldest, stations_seen, stations_seq, jobs, pool)


def _age(when: Any, now: datetime) -> float:
    if when is None:
        return 0.0
    if isinstance(when, str):
        when = datetime.fromisoformat(when)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (now - when).total_seconds())


def metrics_allowed(client_host: str | None, authorization: str | None, token: str | None) -> bool:
    """Loopback callers (the address the server decided, proxies' X-Forwarded-For applied) or the
    bearer of ``PLATFORM_METRICS_TOKEN``; a tenant's credentials never open it."""
    if token and authorization and authorization[:7].lower() == "bearer ":
        return hmac.compare_digest(authorization[7:].strip().encode(), token.encode())
    try:
        return client_host is not None and ipaddress.ip_address(client_host).is_loopback
    except ValueError:
        return False


def metrics_text(rt: Runtime) -> tuple[bytes, str]:
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        for collector in (HTTP_REQUESTS, HTTP_LATENCY, TENANT_REQUESTS, TENANT_ERRORS):
            registry.register(collector)
    registry.register(DatabaseCollector(rt))
    return generate_latest(registry), CONTENT_TYPE_LATEST
