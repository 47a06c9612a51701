"""Every bus event counted as the metric ``events.<type>``.

The platform's runtime runs ``count_event`` as an event hook: ``emit`` calls its hooks inside
the change's transaction, so the count commits or rolls back with the event. One upsert of
one ``analytics_daily`` row per event (no point row): ``emit`` itself is unchanged.
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

from sqlalchemy.orm import Session

from local_db.engine import Prepared
from services.analytics.metrics import UPSERT_DAILY
from services.core.context import Runtime
from services.core.events import PUBLIC_PREFIX

# Compiled once and run on SQLite's driver connection: every event the platform records (each
# station change it replays) runs it, and SQLAlchemy's execution machinery cost more than the upsert.
_UPSERT_DAILY = Prepared(UPSERT_DAILY)


def count_event(session: Session, ev: Any) -> None:
    if ev.type.startswith(PUBLIC_PREFIX):
        return  # published anonymously: anyone could, so it is not a figure of the platform's (issue #35)
    _UPSERT_DAILY.run(
        session.connection(),
        {
            "tenant_id": ev.tenant_id,
            "name": f"events.{ev.type}",
            "day": ev.created_at.astimezone(UTC).date(),
            "value": 1.0,
        },
    )


def install_event_counter(rt: Runtime) -> None:
    """Count events on this runtime (the platform: stations' events are counted when replayed there)."""
    if count_event not in rt.event_hooks:
        rt.event_hooks.append(count_event)
