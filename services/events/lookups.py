"""Events: lookups."""

from __future__ import annotations

from local_db.models import Tenant
from services.events.schemas import (
    EventSettings,
)


def _settings_of(t: Tenant | None) -> EventSettings:
    stored = ((t.settings or {}).get("events") or {}) if t is not None else {}
    return EventSettings(
        public_publish=bool(stored.get("public_publish", True)),
        endpoint_disable_days=int(stored.get("endpoint_disable_days", 5)),
    )
