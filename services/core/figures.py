"""Figures an operator watches that live in the database (``GET /metrics`` reads them when scraped):
webhook deliveries by status and the oldest one waiting, jobs by status, the scheduler's jobs due,
running and failed, and when each station last pushed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, or_, select

from local_db.base import table_of
from local_db.models.events import Delivery
from local_db.models.jobs import Job
from local_db.models.scheduler import ScheduledJob
from local_db.models.sync import SyncStation
from services.core.context import Runtime


@dataclass(frozen=True)
class Figures:
    deliveries: dict[str, int]
    oldest_pending_seconds: float
    jobs: dict[str, int]
    # The scheduler (services/core/scheduler.py): due (its time has come, no process holds it),
    # running (a process holds its lease), failed (its last run failed, or it gave up).
    scheduled: dict[str, int]
    stations_last_seen: list[tuple[str, float]]  # (station id, seconds since; -1 never)


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def operational_figures(rt: Runtime, max_stations: int = 200) -> Figures:
    d, j, st, sj = table_of(Delivery), table_of(Job), table_of(SyncStation), table_of(ScheduledJob)
    now = rt.clock.now()
    with rt.db.reading(None) as s:
        by_status = {str(k): int(v) for k, v in s.execute(select(d.c.status, func.count()).group_by(d.c.status))}
        oldest = s.execute(select(func.min(d.c.created_at)).where(d.c.status == "pending")).scalar()
        jobs = {str(k): int(v) for k, v in s.execute(select(j.c.status, func.count()).group_by(j.c.status))}
        free = or_(sj.c.lease_until.is_(None), sj.c.lease_until <= now)
        due = s.execute(
            select(func.count()).where(sj.c.status == "scheduled", sj.c.next_run_at <= now, free)
        ).scalar_one()
        running = s.execute(select(func.count()).where(sj.c.lease_until > now)).scalar_one()
        failed = s.execute(
            select(func.count()).where(or_(sj.c.status == "failed", sj.c.last_status == "failed"))
        ).scalar_one()
        stations = s.execute(
            select(st.c.station_id, st.c.last_seen_at).where(st.c.revoked_at.is_(None)).limit(max_stations)
        ).all()
    return Figures(
        deliveries=by_status,
        oldest_pending_seconds=(now - _aware(oldest)).total_seconds() if oldest is not None else 0.0,
        jobs=jobs,
        scheduled={"due": int(due), "running": int(running), "failed": int(failed)},
        stations_last_seen=[
            (str(sid), (now - _aware(seen)).total_seconds() if seen is not None else -1.0) for sid, seen in stations
        ],
    )
