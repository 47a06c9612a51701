"""The events module's periodic work on the scheduler (services/core/scheduler.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from services.core.context import Runtime
from services.core.scheduler import periodic
from services.events import store
from services.events.fanout import DeliveryConfig


@periodic("events.retention", every=timedelta(hours=1), lease=timedelta(minutes=30))
def retention(rt: Runtime) -> dict[str, Any]:
    """Delete events and deliveries older than the retention window, once an hour across processes."""
    days = rt.part(DeliveryConfig).retention_days
    return dict(store.purge(rt.db, rt.clock.now(), days))
