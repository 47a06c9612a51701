"""What an operator watches: a request id on every answer, one structured log line per request,
and Prometheus metrics at ``GET /metrics``.

The log line and the metrics name a request by its route template (``/{tenant}/fulfillment/api/
orders/{id}``), never by its path or query, so no token, e-mail or id a path carries reaches a log
or a label. Tenants are a label only for the first ``MAX_TENANT_LABELS`` slugs a process sees (the
rest count as ``other``): a label set stays bounded whatever the callers send.

Several worker processes (``serve --workers N``) share their figures through prometheus-client's
multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``, set by ``app.server`` before the workers start),
so any worker answers for all. The figures read from the database (webhook backlog, sync lag,
jobs, the connection pool) are read when scraped, by whichever worker answers.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

try:
    from opentelemetry import trace as _otel_trace
except ImportError:  # traces are optional (the `traces` extra)
    _otel_trace = None  # type: ignore[assignment]

from api.middleware import ASGIApp, Message, Receive, Scope, Send, _header
from services.core.context import Runtime
from services.core.figures import operational_figures

log = logging.getLogger("platform.request")

MAX_TENANT_LABELS = 200
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_LOOPBACK = {"127.0.0.1", "::1", "localhost"}

REQUESTS = Counter("platform_http_requests", "HTTP requests answered", ["route", "method", "status"])
LATENCY = Histogram(
    "platform_http_request_duration_seconds",
    "Time to answer an HTTP request",
    ["route", "method"],
    buckets=(0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
TENANT_REQUESTS = Counter("platform_tenant_requests", "Requests per tenant", ["tenant", "outcome"])
# Stations' pushes and pulls, per station (named only once the platform accepted its signature: a
# refused request counts under "-", so a forged X-Station-Id makes no label) and the time of each
# station's last accepted one ("max" across workers), from which Prometheus computes the lag:
# time() - platform_sync_last_success_timestamp_seconds.
SYNC_REQUESTS = Counter("platform_sync_requests", "Station sync requests", ["station", "kind", "outcome"])
SYNC_LAST = Gauge(
    "platform_sync_last_success_timestamp_seconds",
    "Unix time of each station's last accepted push and pull",
    ["station", "kind"],
    multiprocess_mode="max",
)
_SYNC_ROUTES = {"/api/tenants/{tenant}/sync/push": "push", "/api/tenants/{tenant}/sync/pull": "pull"}


def request_id(scope: Scope) -> str:
    """The caller's ``X-Request-Id`` when it is a sane token (kept, so one id follows a request
    through a proxy and the platform), else a new one (32 hex digits, as uuid4().hex without
    building the UUID)."""
    given = _header(scope, b"x-request-id")
    if given and _REQUEST_ID.match(given):
        return given
    return os.urandom(16).hex()


class _Route:
    """What the log line and the metrics read of a matched route (its template) for answers made
    here, before any route is matched."""

    def __init__(self, path: str) -> None:
        self.path = path


# GET /health answered here, the bytes FastAPI's route answers with (CORS adds its Vary to every
# answer): a liveness probe needs none of the layers below this one (issue 38: /health at 0.88 of
# a bare FastAPI app). It is still counted, timed and logged like any request. Not when a request
# carries an Origin (CORS answers those) or when traces are on (the route's span is wanted).
_HEALTH = _Route("/health")
_HEALTH_BODY = b'{"status":"ok"}'
_HEALTH_HEADERS = (
    (b"content-length", str(len(_HEALTH_BODY)).encode()),
    (b"content-type", b"application/json"),
    (b"vary", b"Origin"),
)


class Observe:
    """Outermost middleware: the request id, the log line and the request metrics."""

    def __init__(self, app: ASGIApp, *, fast_health: bool = True) -> None:
        self.app = app
        self.fast_health = fast_health
        self.tenants: set[str] = set()
        self.stations: set[str] = set()
        # The metrics' children by their labels: prometheus-client's labels() takes a lock and
        # checks its arguments on every call. Bounded by the routes, methods and statuses.
        self._counted: dict[tuple[str, str, int], tuple[Any, Any]] = {}

    def _count(self, route: str, method: str, status: int, took: float) -> None:
        children = self._counted.get((route, method, status))
        if children is None:
            children = (REQUESTS.labels(route, method, str(status)), LATENCY.labels(route, method))
            if len(self._counted) < 10_000:  # a bound: methods come from callers
                self._counted[(route, method, status)] = children
        children[0].inc()
        children[1].observe(took)

    def _tenant_label(self, slug: str | None) -> str:
        if not slug:
            return "-"
        if slug in self.tenants:
            return slug
        if len(self.tenants) < MAX_TENANT_LABELS:
            self.tenants.add(slug)
            return slug
        return "other"

    def _count_sync(self, scope: Scope, kind: str, status: int) -> None:
        station = _header(scope, b"x-station-id") or ""
        accepted = status < 400 and _REQUEST_ID.match(station) is not None
        if accepted and station not in self.stations:
            accepted = len(self.stations) < MAX_TENANT_LABELS
            if accepted:
                self.stations.add(station)
        label = station if accepted else ("other" if status < 400 else "-")
        SYNC_REQUESTS.labels(label, kind, "ok" if status < 400 else "refused" if status < 500 else "error").inc()
        if status < 400:
            SYNC_LAST.labels(label, kind).set(time.time())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        rid = request_id(scope)
        scope.setdefault("state", {})["request_id"] = rid
        start = time.perf_counter()
        status = 500
        done = False

        def finish() -> None:
            # Once, before the answer's last bytes leave: whoever has read the answer finds the
            # request counted and logged (a scrape or a test right after it).
            nonlocal done
            if done:
                return
            done = True
            took = time.perf_counter() - start
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            method = str(scope.get("method", ""))
            self._count(route, method, status, took)
            slug = (scope.get("path_params") or {}).get("tenant")
            tenant = self._tenant_label(slug) if slug else "-"
            if tenant != "-":
                TENANT_REQUESTS.labels(tenant, "error" if status >= 500 else "ok").inc()
            if route in _SYNC_ROUTES:
                self._count_sync(scope, _SYNC_ROUTES[route], status)
            state = scope.get("state") or {}
            log.log(
                logging.ERROR if status >= 500 else logging.INFO,
                "%s %s %s",
                method,
                route,
                status,
                extra={
                    "request_id": rid,
                    "tenant": tenant,
                    "principal": state.get("principal_kind", "-"),
                    "route": route,
                    "method": method,
                    "status": status,
                    "duration_ms": round(took * 1000, 2),
                },
            )

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                message["headers"] = [*message.get("headers", []), (b"x-request-id", rid.encode())]
                if _otel_trace is not None:
                    # FastAPI's request span (traces on, telemetry_config), still open here: the log line's id on it.
                    span = _otel_trace.get_current_span()
                    if span.is_recording():
                        span.set_attribute("platform.request_id", rid)
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                finish()
            await send(message)

        try:
            if (
                self.fast_health
                and scope["path"] == "/health"
                and scope.get("method") == "GET"
                and _header(scope, b"origin") is None
            ):
                scope["route"] = _HEALTH
                await send_with_id({"type": "http.response.start", "status": 200, "headers": list(_HEALTH_HEADERS)})
                await send_with_id({"type": "http.response.body", "body": _HEALTH_BODY})
                return
            await self.app(scope, receive, send_with_id)
        finally:
            finish()


class DatabaseFigures(Collector):
    """Figures read from the database when scraped: they are the same whichever worker answers."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    def collect(self) -> Iterator[GaugeMetricFamily]:
        f = operational_figures(self.rt, MAX_TENANT_LABELS)
        g = GaugeMetricFamily("platform_webhook_deliveries", "Webhook deliveries by status", labels=["status"])
        for status, n in sorted(f.deliveries.items()):
            g.add_metric([status], float(n))
        yield g
        age = GaugeMetricFamily("platform_webhook_oldest_pending_seconds", "Age of the oldest pending webhook delivery")
        age.add_metric([], f.oldest_pending_seconds)
        yield age
        q = GaugeMetricFamily("platform_jobs", "Background jobs by status", labels=["status"])
        for status, n in sorted(f.jobs.items()):
            q.add_metric([status], float(n))
        yield q
        sched = GaugeMetricFamily("platform_scheduled_jobs", "Scheduler jobs due, running and failed", labels=["state"])
        for state, n in f.scheduled.items():
            sched.add_metric([state], float(n))
        yield sched
        lag = GaugeMetricFamily(
            "platform_sync_station_last_seen_seconds", "Seconds since each station last synced", labels=["station"]
        )
        for station, seconds in f.stations_last_seen:
            lag.add_metric([station], seconds)
        yield lag
        pool = self.rt.db.engine.pool
        use = GaugeMetricFamily("platform_db_pool_connections", "Database connections by use", labels=["use"])
        checked_out = getattr(pool, "checkedout", None)
        size = getattr(pool, "size", None)
        if callable(checked_out) and callable(size):
            use.add_metric(["in_use"], float(checked_out()))
            use.add_metric(["size"], float(size()))
        yield use


def telemetry_config(enabled: bool) -> dict[str, Any]:
    """FastAPI's own OpenTelemetry support, rather than spans of our own. FastAPI turns it on
    whenever the opentelemetry packages are installed; here it is off unless PLATFORM_TRACES=1,
    and then spans only: its metrics are left to /metrics, and its log records stay off because
    they carry exception messages (request data)."""
    if enabled and _otel_trace is None:
        log.warning("PLATFORM_TRACES=1 but opentelemetry is not installed: no traces")
    return {"tracing": enabled, "operation_spans": enabled, "metrics": False, "logs": False}


def metrics_allowed(client: str | None, authorization: str | None, token: str | None) -> bool:
    """Loopback callers (the address as the server decided it, after the trusted-proxy rule), or
    callers with the metrics token when one is set; nobody else (they get a 404)."""
    if token and authorization and authorization[:7].lower() == "bearer ":
        return hmac.compare_digest(authorization[7:].strip().encode(), token.encode())
    return client in _LOOPBACK


def metrics_text(rt: Runtime) -> tuple[bytes, str]:
    """The Prometheus text of this process (or of every worker, in multiprocess mode) and the
    database's figures."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(registry)
    else:
        for collector in (REQUESTS, LATENCY, TENANT_REQUESTS, SYNC_REQUESTS, SYNC_LAST):
            registry.register(collector)
    registry.register(DatabaseFigures(rt))
    return generate_latest(registry), CONTENT_TYPE_LATEST


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and the request's fields."""

    FIELDS = ("request_id", "tenant", "principal", "route", "method", "status", "duration_ms")

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in self.FIELDS:
            if hasattr(record, name):
                out[name] = getattr(record, name)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def configure_logging(fmt: str, level: int = logging.INFO) -> None:
    """Logs to stderr as JSON lines (``json``) or as text (``text``)."""
    handler = logging.StreamHandler()
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # Alembic announces each of its autogenerate plugins at INFO on every start; an operator
    # reading the log needs the migrations that ran, not that bookkeeping.
    logging.getLogger("alembic.runtime.plugins").setLevel(max(level, logging.WARNING))
