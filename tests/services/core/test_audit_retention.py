"""Audit entries are purged with the events, by the events retention job."""

from __future__ import annotations

from sqlalchemy import func, select

from local_db.models.audit import AuditEntry
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Runtime
from services.events import schedule
from tests.services.events.conftest import ctx_for


def test_the_events_retention_job_purges_old_audit_entries(runtime: Runtime) -> None:
    clock = FixedClock()
    runtime.clock = clock
    ctx = ctx_for(runtime)
    execute(ctx, "events.settings.update", body={"public_publish": True})
    clock.advance(days=91)
    execute(ctx, "events.settings.update", body={"public_publish": False})
    out = schedule.retention(runtime)
    assert out["audit_entries"] == 1
    with runtime.db.reading(None) as s:
        kept = list(s.execute(select(AuditEntry.changes, AuditEntry.actor_kind)))
        assert s.execute(select(func.count()).select_from(AuditEntry)).scalar_one() == 1
    assert kept == [({"public_publish": False}, "system")]
