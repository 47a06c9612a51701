"""From an event to deliveries, inside the emitting transaction (platform only).

``install_platform(rt, config)`` puts ``fan_out`` on the runtime's event hooks,
so ``emit`` from any module creates one pending delivery per matching active
subscription in the same transaction: the event and its deliveries commit
together or not at all. Station runtimes never call it; their events reach the
platform through sync, and the platform fans them out with ``fan_out``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import bindparam, insert, select
from sqlalchemy.orm import Session

from local_db.base import local_id, table_of
from local_db.engine import Prepared
from local_db.models.events import Delivery, Subscription
from services.core.context import Runtime
from services.core.events import BATCH_CACHE, EVENT_TYPES, PUBLIC_ORIGIN, PUBLIC_PREFIX, EmittedEvent
from services.events import states

# session.info key: {event id: number of deliveries created} for the publish answer.
DELIVERY_COUNTS = "events.delivery_counts"
# session.info key: this transaction made deliveries due now; its commit wakes the delivery worker
# (delivery.DeliveryWorker). Commits that made none leave the worker asleep: waking it on every
# commit cost about 1 ms of CPU per write (a claim probe on a thread), a third of a reservation's.
MADE_DELIVERIES = "events.made_deliveries"


def made_deliveries(session: Session) -> None:
    """Say that ``session``'s transaction made deliveries: its commit wakes this process's worker."""
    session.info[MADE_DELIVERIES] = True


POLICIES: dict[str, tuple[tuple[float, ...], float]] = {
    # Delay before each attempt (the first is immediate) and the per-request timeout.
    "A": ((0, 30, 120, 900, 3600), 10.0),
    "B": ((0, 60, 300, 1800, 7200, 86400), 30.0),
}


@dataclass(frozen=True)
class DeliveryConfig:
    delays: tuple[float, ...] = POLICIES["A"][0]
    timeout: float = POLICIES["A"][1]
    allow_private: bool = False
    ca_bundle: str | None = None
    # Concurrent senders; each keeps its own AsyncClient per target host
    # (one shared client is ~4x slower under load, see PERFORMANCE.md).
    lanes: int = 32
    # Offer HTTP/2 in the TLS handshake (ALPN); receivers that only speak HTTP/1.1 pick that.
    http2: bool = True
    # Safety net when no wake-up arrives (another process committed).
    poll_interval: float = 1.0
    retention_days: int = 90
    retention_interval: float = 3600.0
    # Resolve host names when a subscription is created (the connect-time check runs anyway).
    resolve_on_create: bool = True

    @property
    def max_attempts(self) -> int:
        return len(self.delays)

    @classmethod
    def from_settings(
        cls,
        *,
        policy: str = "A",
        delays: str | None = None,
        timeout: float | None = None,
        ca_bundle: str | None = None,
        allow_private: bool = False,
    ) -> DeliveryConfig:
        key = policy.strip().upper()
        if key not in POLICIES:
            raise ValueError(f"PLATFORM_RETRY_POLICY must be A or B, not {policy!r}")
        base_delays, base_timeout = POLICIES[key]
        parsed = base_delays
        if delays:
            try:
                parsed = tuple(float(d) for d in delays.split(",") if d.strip())
            except ValueError as exc:
                raise ValueError(f"PLATFORM_RETRY_DELAYS must be comma-separated seconds: {delays!r}") from exc
            if not parsed or any(d < 0 for d in parsed):
                raise ValueError("PLATFORM_RETRY_DELAYS needs one or more non-negative numbers")
        if timeout is not None and timeout <= 0:
            raise ValueError("PLATFORM_WEBHOOK_TIMEOUT must be positive")
        return cls(
            delays=parsed, timeout=timeout or base_timeout, ca_bundle=ca_bundle or None, allow_private=allow_private
        )


def config_of(rt: Runtime) -> DeliveryConfig:
    return rt.part(DeliveryConfig)


def install_platform(rt: Runtime, config: DeliveryConfig) -> None:
    """Turn on webhook fan-out for this runtime (platform only)."""
    if rt.is_station:
        raise RuntimeError("webhook delivery runs on the platform; stations queue their events for sync")
    rt.provide(config)
    if not any(getattr(h, "__name__", "") == "fan_out_hook" for h in rt.event_hooks):

        def fan_out_hook(session: Session, ev: EmittedEvent) -> None:
            fan_out(session, ev, config_of(rt))

        rt.event_hooks.append(fan_out_hook)


# --- filters -----------------------------------------------------------------------

_MISSING = object()


def lookup(data: Any, path: str) -> Any:
    """The value at a dotted path (``address.country``), or ``_MISSING``."""
    cur = data
    for part in path.split("."):
        if not isinstance(cur, Mapping) or part not in cur:
            return _MISSING
        cur = cur[part]
    return cur


def _equal(a: Any, b: Any) -> bool:
    # JSON equality: true is not 1, and 1 equals 1.0.
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def matches(filter_: Mapping[str, Any] | None, data: Mapping[str, Any]) -> bool:
    """Field equality on every key; a missing field does not match."""
    if not filter_:
        return True
    for path, want in filter_.items():
        got = lookup(data, path)
        if got is _MISSING or not _equal(got, want):
            return False
    return True


def wants(sub: Mapping[str, Any], event_type: str, data: Mapping[str, Any]) -> bool:
    return names(sub["event_types"] or (), event_type) and matches(sub["filter"], data)


def names(types: Sequence[str], event_type: str) -> bool:
    """Whether a subscription's list takes ``event_type``: by name, ``*`` or ``<module>.*`` (the
    catalogue's module of the type). An anonymous ``public.<type>`` only by its name or ``public.*``."""
    if event_type in types:
        return True
    if event_type.startswith(PUBLIC_PREFIX):
        return "public.*" in types
    if "*" in types:
        return True
    et = EVENT_TYPES.get(event_type)
    return et is not None and f"{et.module}.*" in types


# --- deliveries -----------------------------------------------------------------------

_SUBS = table_of(Subscription)
_DELIVERIES = table_of(Delivery)
# Core statements built once: fan-out runs on every emit on the platform.
_ACTIVE_SUBS = Prepared(
    select(_SUBS.c.id, _SUBS.c.event_types, _SUBS.c.filter).where(
        _SUBS.c.tenant_id == bindparam("tenant_id"), _SUBS.c.active.is_(True)
    )
)
INSERT_DELIVERY = insert(_DELIVERIES)
_INSERT_DELIVERIES = Prepared(INSERT_DELIVERY)


def delivery_row(
    *,
    tenant_id: str,
    subscription_id: str,
    event_id: str | None,
    event_type: str,
    kind: str,
    now: datetime,
    config: DeliveryConfig,
    payload: dict[str, Any] | None = None,
    max_attempts: int | None = None,
) -> dict[str, Any]:
    return {
        # Platform-only rows: a replayed station change keeps its planned ids for the rows both sides make.
        "id": local_id(),
        "tenant_id": tenant_id,
        "subscription_id": subscription_id,
        "event_id": event_id,
        "event_type": event_type,
        "kind": kind,
        "payload": payload,
        "status": states.PENDING,
        "attempts": 0,
        "max_attempts": max_attempts or config.max_attempts,
        "next_attempt_at": now + timedelta(seconds=config.delays[0]),
        "claimed_until": None,
        "claim_token": None,
        "last_status_code": None,
        "last_error": None,
        "created_at": now,
        "completed_at": None,
    }


def active_subscriptions(session: Session, tenant_id: str) -> list[Mapping[str, Any]]:
    # Inside a batch (a sync push's chunk: fifty changes, as many events), read once per tenant.
    cache = session.info.get(BATCH_CACHE)
    key = ("active_subscriptions", tenant_id)
    if cache is not None and key in cache:
        return cast(list[Mapping[str, Any]], cache[key])
    # Compiled once and, on SQLite, run on the driver: every emit on the platform asks it.
    rows = _ACTIVE_SUBS.mappings(session.connection(), {"tenant_id": tenant_id})
    if cache is not None:
        cache[key] = rows
    return cast(list[Mapping[str, Any]], rows)


def fan_out(session: Session, ev: EmittedEvent, config: DeliveryConfig) -> int:
    """One pending delivery per matching active subscription, in the caller's transaction."""
    subs = active_subscriptions(session, ev.tenant_id)
    rows = [
        delivery_row(
            tenant_id=ev.tenant_id,
            subscription_id=s["id"],
            event_id=ev.id,
            event_type=ev.type,
            kind="event",
            now=ev.created_at,
            config=config,
        )
        for s in subs
        if wants(s, ev.type, ev.data)
    ]
    if rows:
        _INSERT_DELIVERIES.run_many(session.connection(), rows)
        made_deliveries(session)
    session.info.setdefault(DELIVERY_COUNTS, {})[ev.id] = len(rows)
    return len(rows)


# --- the body sent ----------------------------------------------------------------------


def iso(dt: datetime) -> str:
    """UTC with a Z, as the API renders timestamps."""
    return dt.astimezone(UTC).isoformat().replace("+00:00", "Z")


def event_body(
    *,
    id: str,
    type: str,
    tenant_id: str,
    source: str,
    created_at: datetime,
    data: Any,
    payload_format: str,
    origin: str | None = None,
) -> dict[str, Any]:
    """The spec's body: created_at with source, or the legacy timestamp form without source.
    ``origin`` tells a subscriber who vouches for the event: "platform" (the platform's own, or a
    station's synced to it) or "public" (published anonymously through /p/events: anyone could)."""
    said = PUBLIC_ORIGIN if origin == PUBLIC_ORIGIN else "platform"
    if payload_format == "timestamp":
        return {
            "id": id,
            "type": type,
            "tenant_id": tenant_id,
            "timestamp": iso(created_at),
            "data": data,
            "origin": said,
        }
    return {
        "id": id,
        "type": type,
        "tenant_id": tenant_id,
        "source": source,
        "created_at": iso(created_at),
        "data": data,
        "origin": said,
    }


def encode(body: Mapping[str, Any]) -> bytes:
    """The exact bytes sent (and signed)."""
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
