"""The events module's periodic work on the scheduler (services/core/scheduler.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from services.core import audit
from services.core.context import Runtime
from services.core.scheduler import periodic
from services.events import store
from services.events.fanout import DeliveryConfig


@periodic("events.retention", every=timedelta(hours=1), lease=timedelta(minutes=30))
def retention(rt: Runtime) -> dict[str, Any]:
    """Delete events, deliveries and audit entries older than the retention window, once an hour across
    processes (the audit log is kept as long as the events: issue #37)."""
    days = rt.part(DeliveryConfig).retention_days
    now = rt.clock.now()
    return {**store.purge(rt.db, now, days), "audit_entries": audit.purge(rt.db, now, days)}
